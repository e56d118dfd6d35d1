"""Risk options and state: the JSON position format documented in docs/risk-position.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.i18n import Msg, msg
from engine.core.orders import Orders
from engine.core.players import Player, SeatedState

NEUTRAL = 0
"""Owner id of Neutral territories (two-player mode and resigned players)."""


class RiskOptions(BaseModel):
    """Game options (RISK-OPT-1 … RISK-OPT-11); the last four are enforced by the bot's timers."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Literal["standard", "secret_mission", "two_player"] = "standard"
    setup: Literal["claim", "random_deal"] = "claim"
    setup_placement: Literal["one_at_a_time", "bulk_sequential", "simultaneous"] = "one_at_a_time"
    fortify_mode: Literal["adjacent", "connected"] = "adjacent"
    defender_dice: Literal["auto_max", "choose"] = "auto_max"
    mission_set: Literal["us12", "euro14"] = "us12"
    destroy_rule: Literal["anyone", "convert_24"] = "anyone"
    turn_timer_hours: float | None = Field(default=24.0, gt=0, le=24 * 7)
    defender_timeout_minutes: float = Field(default=60.0, gt=0, le=24 * 60)
    absent_after: int = Field(default=2, ge=1, le=10)
    timeout_action: Literal["ai", "skip"] = "ai"

    @property
    def deals(self) -> bool:
        """RISK-OPT-2: secret_mission and two_player always deal the territories."""
        return self.setup == "random_deal" or self.mode != "standard"


class Phase(StrEnum):
    SETUP_CLAIM = "setup_claim"
    SETUP_PLACE = "setup_place"
    SETUP_PLACE_2P = "setup_place_2p"
    REINFORCE = "reinforce"
    ATTACK = "attack"
    FORTIFY = "fortify"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True, kw_only=True)
class Interrupt:
    """A sub-state of ATTACK that must be answered before anything else (RISK-TURN-2)."""

    kind: Literal["defend", "occupy", "elim_trade", "elim_place"]
    source: str | None = None
    target: str | None = None
    dice: int = 0
    """Attacker dice announced (defend) or rolled in the final battle (occupy)."""
    min: int = 0
    max: int = 0
    defender: int | None = None
    """Who chooses the defence dice (defend), or the previous owner of the target (occupy)."""
    eliminated: int | None = None
    move: Literal["min", "max"] | None = None
    """A move-in chosen with the attack (defend), made as soon as the target falls."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RiskPlayer(Player):
    """A Risk seat: the core's player, nothing added."""


@dataclass(slots=True, kw_only=True)
class RiskState(SeatedState):
    schema_version: int = 2
    """2: a battle round's dice come from one draw (engine/games/risk/dice.py); 1: one draw per die."""
    game: Literal["risk"] = "risk"
    options: RiskOptions
    players: list[RiskPlayer]
    """Seat order; turns pass to the next active seat (RISK-TURN-1)."""
    phase: Phase
    turn: int = 0
    """Game-turn number, 0 during setup."""
    current: int
    """Player id whose turn (or setup turn) it is."""
    first_player: int
    owner: dict[str, int] = field(default_factory=dict)
    """Territory → player id (0 = Neutral); a missing territory is unclaimed."""
    armies: dict[str, int] = field(default_factory=dict)
    setup_left: dict[int, int] = field(default_factory=dict)
    """Starting armies each player (and Neutral, id 0) has still to place."""
    setup_own_placed: int = 0
    """Two-player setup: own armies placed this setup turn."""
    setup_neutral_placed: bool = False
    plans: dict[int, dict[str, int]] = field(default_factory=dict)
    """Simultaneous setup: the secret placement plans submitted so far (the drafts of `plan_book`)."""
    hands: dict[int, list[str]] = field(default_factory=dict)
    deck: list[str] = field(default_factory=list)
    """Draw pile; the first element is the top card."""
    discard: list[str] = field(default_factory=list)
    sets_traded: int = 0
    missions: dict[int, str] = field(default_factory=dict)
    """Each player's effective mission id (secret_mission only)."""
    pool: int = 0
    conquered_this_turn: bool = False
    card_bonus_taken: bool = False
    interrupt: Interrupt | None = None
    standing_defence: dict[int, int] = field(default_factory=dict)
    """Defence dice a player chose to use for every attack-until battle (RISK-ATK-20)."""
    winner: int | None = None

    def progress(self) -> int:
        return self.turn

    def name(self, pid: int | None) -> str:
        return "Neutral" if pid == NEUTRAL else SeatedState.name(self, pid)

    def who(self, pid: int | None) -> str | Msg:
        """A seat's name for a message: Neutral's in the reader's language."""
        return msg("risk.board.neutral") if pid == NEUTRAL else SeatedState.name(self, pid)

    def plan_book(self) -> Orders[dict[str, int]]:
        """Simultaneous setup's plans as the core's secret orders (RISK-SET-27).

        `plans` holds the drafts; the seats that order are those with armies to place or a plan. A plan is
        locked once it places every army its player has left: the rules have no lock of their own, so the lock
        is not stored.
        """
        plans, left = self.plans, self.setup_left
        seats = [p for p in self.active_ids() if left.get(p, 0) > 0 or p in plans]
        return Orders(seats=seats, drafts=plans,
                     locked=[p for p in seats if sum(plans.get(p, {}).values()) >= left.get(p, 0)])

    def unplanned(self, pid: int) -> int:
        """Armies `pid` has still to put into its simultaneous-setup plan (all it has left in any other setup)."""
        return self.setup_left.get(pid, 0) - sum(self.plans.get(pid, {}).values())

    def territories_of(self, pid: int) -> list[str]:
        return [t for t, o in self.owner.items() if o == pid]
