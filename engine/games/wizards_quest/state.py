"""Wizard's Quest options and state: the JSON position format documented in docs/wizards-quest-position.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.players import Player, SeatedState

ORCS = 0
"""Occupant id of orc-held locations in events."""

Leader = Literal["hero", "sorcerer"]
Beast = Literal["dragon", "mage"]
TreasureKind = Literal["crown", "chest", "ring", "decoy"]


class WQOptions(BaseModel):
    """Table options (WQ-ORD-4, WQ-TRS-9, WQ-END-4)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    turn_order: Literal["per_round", "fixed"] = "per_round"
    decoy: bool = False
    round_limit: int | None = Field(default=None, ge=1, le=500)


class Phase(StrEnum):
    SETUP_CASTLE = "setup_castle"
    SETUP_CLAIM = "setup_claim"
    SETUP_HIDE = "setup_hide"
    SETUP_DEPLOY = "setup_deploy"
    PETITION = "petition"
    REINFORCE = "reinforce"
    ATTACK = "attack"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True, kw_only=True)
class WQPlayer(Player):
    """A Wizard's Quest seat: a resigned player's pieces stay on the board as rebels (WQ-LEAVE-2)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Treasure:
    """A treasure marker: `location` is None while its hider still holds it (WQ-SET-6/7)."""

    owner: int
    kind: TreasureKind | None
    """None only in a view: a marker whose kind the viewer may not see (WQ-TRS-9)."""
    hider: int
    location: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn:
    """Per-turn effects of the active player, cleared when the turn ends (WQ-PET-*, WQ-ATK-1)."""

    drawn: bool = False
    card_men: int = 0
    """Men from cards played this turn, added to the pool (WQ-PET-5)."""
    champions: int = 0
    """Champions' Call pieces still usable as a free leader (WQ-CARD-5)."""
    famine: bool = False
    truce: bool = False
    campaigns: int = 1
    """Campaigns left this turn, the basic one included (WQ-ATK-1)."""
    first_done: bool = False
    """The turn's first campaign is finished, so extra campaigns may start (WQ-PET-6)."""
    blessed: int = 0
    """Blessed Arms cards waiting for the next attacks (WQ-CARD-11)."""
    base: int = 0
    """Reinforcement from kingdoms (after Famine), worked out when the reinforcement step starts."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Attack:
    """The attack in progress (WQ-ATK-8): a campaign or a free attack, on a force or on the Dragon/Mage."""

    kind: Literal["campaign", "free"]
    source: str
    target: str
    beast: Beast | None = None
    """The attack is on the Dragon or the Mage rather than on the occupants."""
    wounds: int = 0
    link: Literal["none", "land", "bridge", "tunnel", "water"] = "land"
    boat: str | None = None
    """The boat card spent on this attack (WQ-BOAT-2)."""
    blessed: bool = False
    acted: bool = False
    """Aid or a leader move has been made, so a cancel uses the campaign up (WQ-ATK-10)."""
    battles: int = 0
    empty_start: bool = False
    """The target was empty when declared (capture without battle, WQ-CAP-1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Todo:
    """A forced decision of the active player, answered before anything else (WQ-VAL-3).

    Kinds: `hand` (play one of 3 cards), `capture`, `reward` (place `men` men), `region` (send the beaten
    `beast` to a region), `ring` (move the Mage or not).
    """

    kind: Literal["hand", "capture", "reward", "region", "ring"]
    men: int = 0
    beast: Beast | None = None
    reason: Literal["dragon", "chest", ""] = ""


@dataclass(slots=True, kw_only=True)
class WQState(SeatedState):
    game: Literal["wizards_quest"] = "wizards_quest"
    options: WQOptions
    players: list[WQPlayer]
    """Seat order, which is also "to the left" (WQ-SET-1)."""
    phase: Phase
    round: int = 0
    """Round number, 0 during setup."""
    current: int
    """The seat whose setup step or turn it is."""
    setup_leader: int
    order: list[int] = field(default_factory=list)
    """This round's turn order (WQ-ORD-1/2)."""
    owner: dict[str, int] = field(default_factory=dict)
    """Player-held locations → player id."""
    men: dict[str, int] = field(default_factory=dict)
    orcs: dict[str, int] = field(default_factory=dict)
    hero: dict[int, str] = field(default_factory=dict)
    """Player id → location of their Hero (absent: in supply)."""
    sorcerer: dict[int, str] = field(default_factory=dict)
    dragon: str | None = None
    mage: str | None = None
    treasures: list[Treasure] = field(default_factory=list)
    retrieved: dict[int, list[TreasureKind]] = field(default_factory=dict)
    pool: int = 0
    """Men to place now: a setup batch, the reinforcement pool, or a reward."""
    setup_left: dict[int, int] = field(default_factory=dict)
    """Starting men each player has still to deploy (WQ-SET-8)."""
    deck: list[str] = field(default_factory=list)
    """Petition draw pile, top card first; its order is secret."""
    discard: list[str] = field(default_factory=list)
    hands: dict[int, list[str]] = field(default_factory=dict)
    boats: dict[int, list[str]] = field(default_factory=dict)
    """Boat areas, oldest card first (WQ-BOAT-1)."""
    turn: Turn = field(default_factory=Turn)
    attack: Attack | None = None
    todo: list[Todo] = field(default_factory=list)
    winners: list[int] | None = None
    """None while the game goes on; the winning seats (empty: nobody won) once it is over."""

    progress_unit: ClassVar[str] = "rounds"

    def progress(self) -> int:
        return self.round

    def rebels_at(self, loc: str) -> bool:
        """`loc` is held by the rebels a resigned player left behind (WQ-LEAVE-2)."""
        p = self.player(self.owner.get(loc))
        return p is not None and p.status == "resigned"

    def leader_at(self, loc: str) -> Leader | None:
        """The leader standing in `loc`, if any (a location holds at most one, WQ-DEF-3)."""
        pid = self.owner.get(loc)
        if pid is None:
            return None
        if self.hero.get(pid) == loc:
            return "hero"
        if self.sorcerer.get(pid) == loc:
            return "sorcerer"
        return None

    def pieces(self, loc: str) -> int:
        """Player pieces in `loc`: men plus a leader (WQ-DEF-2)."""
        return self.men.get(loc, 0) + (1 if self.leader_at(loc) else 0)

    def locations_of(self, pid: int) -> list[str]:
        return [loc for loc, o in self.owner.items() if o == pid]

    def leaders(self, pid: int) -> dict[Leader, str]:
        result: dict[Leader, str] = {}
        if pid in self.hero:
            result["hero"] = self.hero[pid]
        if pid in self.sorcerer:
            result["sorcerer"] = self.sorcerer[pid]
        return result
