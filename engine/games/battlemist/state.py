"""Battlemist options and state (spec §4's state machine): the JSON position format.

Containers hold frozen records and are never changed in place: a rule builds a new dict or list and assigns it
to its working copy of the state (`copier(BMState)`), so the state it was given stays as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.players import Player, SeatedState
from engine.games.battlemist.battle import Combat
from engine.games.battlemist.build import BuildState
from engine.games.battlemist.council import CouncilState
from engine.games.battlemist.data import RaceId
from engine.games.battlemist.economy import Economy
from engine.games.battlemist.initiative import InitiativeState
from engine.games.battlemist.movement import MoveStep
from engine.games.battlemist.phases import Phase
from engine.games.battlemist.pieces import EMPTY, CityMark, Count, Effects, HeroToken, Stars, Stock, Troops
from engine.games.battlemist.quest_state import QuestStep
from engine.games.battlemist.windows import Sighting


class BMOptions(BaseModel):
    """Table options: the board (BM-BRD-3), the race assignment (BM-SET-2, SET-5), player trades (BM-TRD-2),
    auto-casualty standing orders (BM-DIG-24), DM mirroring (BM-DIG-4) and the round cap (BM-VIC-3)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    board: Literal["fixed", "build"] = "fixed"
    races: Literal["random", "draft"] = "random"
    player_trades: bool = False
    auto_casualties: bool = False
    dm_mirror: bool = False
    round_cap: int = Field(default=0, ge=0, le=100)
    """0: no cap."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BMPlayer(Player):
    race: RaceId | None = None
    """None only while the race draft (BM-SET-5) is open."""


@dataclass(slots=True, kw_only=True)
class BMState(SeatedState):
    """A whole game of Battlemist; see docs/battlemist-position.md."""

    game: Literal["battlemist"] = "battlemist"
    options: BMOptions
    players: list[BMPlayer]
    """Seat order."""
    phase: Phase
    round: int = 0
    """Round number, 0 during setup (draft, build)."""
    regions: list[str]
    """The regions of this game: the map without the void homelands of absent races (BM-BRD-1), or the tiles
    placed so far in build mode."""
    stock: dict[int, Stock] = field(default_factory=dict)
    troops: dict[str, dict[int, Troops]] = field(default_factory=dict)
    """Region → player → their units there; a player with no units in a region has no entry."""
    heroes: list[HeroToken] = field(default_factory=list)
    cities: dict[str, CityMark] = field(default_factory=dict)
    occupied: dict[str, int] = field(default_factory=dict)
    """Homeland → the player occupying it (BM-HOM-1)."""
    stars: dict[int, Stars] = field(default_factory=dict)
    star_pool: Count = 0
    hands: dict[int, list[str]] = field(default_factory=dict)
    """Action cards by id (secret, BM-ACT-3)."""
    deck: list[str] = field(default_factory=list)
    """Action deck, top first (secret order)."""
    discard: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    """Events drawn this round and set aside for the Council, in draw order (BM-ACT-7, BM-COU-10)."""
    quests: dict[int, str] = field(default_factory=dict)
    """Each player's current adventure (secret until completed, BM-QST-3); no entry: no current quest."""
    quest_deck: list[str] = field(default_factory=list)
    """Quest deck, top first (secret order): adventures `QAnn`, `STAR` cards and artifacts `ARn`."""
    quest_discard: list[str] = field(default_factory=list)
    artifacts: dict[int, list[str]] = field(default_factory=dict)
    effects: Effects = field(default_factory=Effects)
    order: list[int] = field(default_factory=list)
    """This round's initiative order (BM-INI-2)."""
    active: int | None = None
    """The player whose individual turn it is (phases QUEST, MOVEMENT, COMBAT)."""
    build: BuildState | None = None
    """Build mode (BM-BRD-3): where each tile lies, and construction while it lasts; None on the fixed map."""
    council: CouncilState | None = None
    """The event before the Council now: its vote, then any private choices (BM-COU-4 … 13)."""
    initiative: InitiativeState | None = None
    """This round's initiative rolls while large-city owners choose their modifier (BM-INI-1)."""
    movement: MoveStep | None = None
    """The active player's movement step (BM-MOV-8): its W-MOVESTART effects and move orders."""
    cast: dict[int, list[str]] = field(default_factory=dict)
    """Each player's spells cast this round, as `<scope>:<spell>` (once per window, BM-SPL-1); cleared at END_ROUND."""
    sightings: dict[int, list[Sighting]] = field(default_factory=dict)
    """What each player's Spy and Far Sight showed him, the newest look at each player (secret to him, BM-DIG-1)."""
    economy: Economy | None = None
    """The economy phase or maintenance in progress: its order books and open trade offers (economy.py)."""
    quest_step: QuestStep | None = None
    """The active player's quest step while it runs (BM-QST-13)."""
    combat: Combat = field(default_factory=Combat)
    """The combat step: the battle in progress and the auto-casualty standing orders (battle.py, combat.py)."""
    winners: list[int] | None = None
    """None while the game goes on; the winning seats once it is over (BM-VIC-2: a shared victory)."""

    progress_unit: ClassVar[str] = "rounds"

    def progress(self) -> int:
        return self.round

    def race(self, pid: int) -> str:
        p = self.player(pid)
        race = getattr(p, "race", None)
        if race is None:
            raise ValueError(f"seat {pid} has no race yet")
        return str(race)

    def seat_of_race(self, race: str) -> int | None:
        return next((p.id for p in self.players if p.race == race), None)

    def homeland(self, pid: int) -> str:
        return f"H-{self.race(pid)}"

    def units(self, region: str, pid: int) -> Troops:
        return self.troops.get(region, {}).get(pid, EMPTY)

    def present(self, region: str) -> list[int]:
        """The players with units in `region`, in seat order."""
        here = self.troops.get(region, {})
        return [p.id for p in self.players if p.id in here]

    def controller(self, region: str) -> int | None:
        """Who controls `region` (BM-CTL-1, CTL-2): the player with army units there; a homeland its owner unless
        it is occupied. Monsters and heroes give no control."""
        if region.startswith("H-"):
            if region in self.occupied:
                return None
            return self.seat_of_race(region[2:])
        holders = [pid for pid, t in self.troops.get(region, {}).items() if t.army()]
        return holders[0] if len(holders) == 1 else None

    def controlled(self, pid: int) -> list[str]:
        """The non-homeland regions `pid` controls, in region-id order."""
        return sorted(r for r, here in self.troops.items()
                      if not r.startswith("H-") and pid in here and self.controller(r) == pid)

    def heroes_of(self, pid: int) -> list[HeroToken]:
        return [h for h in self.heroes if h.owner == pid]

    def hero(self, pid: int, number: int) -> HeroToken | None:
        return next((h for h in self.heroes if h.owner == pid and h.number == number), None)

    def large_cities(self, pid: int) -> int:
        """Large cities in regions `pid` controls (votes BM-COU-4, initiative BM-INI-1, merchants BM-TRD-1)."""
        return sum(1 for r, c in self.cities.items() if c.kind == "large_city" and self.controller(r) == pid)


