"""Battlemist static data (BM-DIG-26): the map, the races, units, cities, cards, spells, artifacts and quests.

Every value the spec marks [P] lives in `data/battlemist/*.json`, validated here when loaded, so that a group
owning the printed originals can replace it without touching the engine.
"""

from __future__ import annotations

from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.graph import check_links

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "battlemist"

Resource = Literal["grain", "wood", "iron"]
RESOURCES: tuple[Resource, ...] = ("grain", "wood", "iron")
Terrain = Literal["plains", "forest", "mountain", "desert", "homeland"]
STOPS: frozenset[str] = frozenset({"forest", "mountain"})
"""Terrain that stops a unit or hero entering it (BM-MOV-2, BM-QST-15)."""
RaceId = Literal["DAQ", "ELF", "DWA", "KHR", "ORC", "DRK"]
RACES: tuple[RaceId, ...] = ("DAQ", "ELF", "DWA", "KHR", "ORC", "DRK")
ArmyType = Literal["infantry", "archers", "cavalry"]
ARMY: tuple[ArmyType, ...] = ("infantry", "archers", "cavalry")
MonsterType = Literal["giant", "firebreather", "dragon"]
MONSTERS: tuple[MonsterType, ...] = ("giant", "firebreather", "dragon")
Window = Literal["econstart", "econorders", "prequest", "quest", "encounter", "movestart", "battlestart", "rally",
                 "individual"]
"""The timing windows of BM-WIN-1 (W-ECONSTART …), lower case."""

Cost = dict[Resource, int]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Region(Frozen):
    """A hex of the fixed layout (BM-BRD-8): axial coordinates, terrain, base yield, neighbours."""

    id: str = Field(pattern=r"^(H-[A-Z]{3}|N\d\d)$")
    name: str
    terrain: Terrain
    q: int
    r: int
    neighbours: list[str]
    yield_: Cost = Field(default_factory=dict, alias="yield")
    race: RaceId | None = None
    """The race whose homeland this is (homelands only)."""

    @model_validator(mode="after")
    def _homeland(self) -> Region:
        if (self.terrain == "homeland") != (self.race is not None) or (self.race and self.id != f"H-{self.race}"):
            raise ValueError(f"{self.id}: a homeland is H-<race> and names its race; no other region does")
        if self.terrain == "homeland" and self.yield_:
            raise ValueError(f"{self.id}: a homeland yields by its race card")
        return self


class BoardMap(Frozen):
    """The whole layout; each region's neighbours must be the hexes beside it (BM-BRD-7), so adjacency is
    symmetric."""

    name: str
    proposed: bool
    regions: list[Region]

    @model_validator(mode="after")
    def _check(self) -> BoardMap:
        ids = [r.id for r in self.regions]
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate region id")
        check_links(((r.id, n) for r in self.regions for n in r.neighbours if r.id < n), set(ids), "neighbour")
        at = {(r.q, r.r): r.id for r in self.regions}
        for region in self.regions:
            hexes = {at[(region.q + dq, region.r + dr)] for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1),
                                                                      (-1, 1)) if (region.q + dq, region.r + dr) in at}
            if hexes != set(region.neighbours):
                raise ValueError(f"{region.id}: neighbours {sorted(region.neighbours)} are not its hexes' "
                                 f"{sorted(hexes)}")
        return self

    @cached_property
    def by_id(self) -> dict[str, Region]:
        return {r.id: r for r in self.regions}

    @cached_property
    def ids(self) -> tuple[str, ...]:
        """Every region in region-id order: homelands first, then N01 … N33."""
        return tuple(sorted(self.by_id))

    @cached_property
    def neutral(self) -> tuple[str, ...]:
        return tuple(i for i in self.ids if i.startswith("N"))

    def homeland(self, race: str) -> str:
        return f"H-{race}"

    def distances(self, start: str, present: frozenset[str]) -> dict[str, int]:
        """Fewest steps from `start` to each region of `present`, through `present` only (BM-BRD-7, BM-BLD-4)."""
        seen = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for here in frontier:
                for n in self.by_id[here].neighbours:
                    if n in present and n not in seen:
                        seen[n] = seen[here] + 1
                        nxt.append(n)
            frontier = nxt
        return seen


class UnitValues(Frozen):
    """A combat value R/K (a die ≥ R routs, ≥ K kills, BM-CMB-17) and a movement allowance."""

    rout: int = Field(ge=1, le=11)
    kill: int = Field(ge=1, le=11)
    move: int = Field(ge=0)


class Race(Frozen):
    """A race card (BM-RACE-1, BM-RACE-2)."""

    id: RaceId
    name: str
    colour: str
    alignment: Literal["good", "neutral", "evil"]
    homeland_yield: Cost
    start: Cost
    units: dict[ArmyType, UnitValues]
    abilities: list[str]


class Ability(Frozen):
    """A race's special ability (BM-RACE-3); each numeric field is the value it changes."""

    race: RaceId
    name: str
    text: str
    cavalry_cap: int | None = None
    archer_cap: int | None = None
    melee_cap: int | None = None
    rally: int | None = None
    ignores: Literal["forest", "mountain"] | None = None
    siege: int | None = None
    plunder: int | None = None
    infantry_per_grain: int | None = None
    """Infantry fed by one grain of upkeep (0: none pay)."""
    raise_after_kills: int | None = None


class UnitType(Frozen):
    cost: Cost
    upkeep: Cost


class Monster(UnitValues):
    """A monster unit (BM-MON-6): its melee value, movement, melee slot rank (1 first, BM-CMB-19) and flight."""

    rank: int = Field(ge=1)
    flies: bool


class Hero(Frozen):
    """The hero profile (BM-HER-2) and limits (BM-HER-1, 8, 9)."""

    cost: Cost
    life: int
    attacks: int
    hit: int
    damage: int
    move: int
    heal: int
    """Life a hero regains at home at the start of his owner's quest step (BM-HER-11)."""
    per_round: int
    max_alive: int


class City(Frozen):
    cost: Cost
    upkeep: Cost
    placement: int
    votes: int
    siege: int
    plunder: Cost


class Homeland(Frozen):
    placement: int
    siege: int


class Caps(Frozen):
    """Attackers per step per side (BM-CMB-13 … 15)."""

    archery: int
    cavalry: int
    melee: int


class Merchant(Frozen):
    rate: int
    good_rate: int
    """The rate with a large city or the Merchant's Ledger (BM-TRD-1)."""


class Rules(Frozen):
    """Every number of the rules that the spec proposes or the seed gives."""

    proposed: bool
    races: list[Race]
    abilities: dict[str, Ability]
    seating: dict[str, list[list[RaceId]]]
    """Player count → for each seat, the races it may take (BM-SET-1)."""
    units: dict[ArmyType, UnitType]
    monsters: dict[MonsterType, Monster]
    hero: Hero
    cities: dict[Literal["city", "large_city"], City]
    homeland: Homeland
    start_units: dict[ArmyType, int]
    start_stars: int
    star_pool: int
    victory_stars: int
    hand_limit: int
    stack_limit: int
    caps: Caps
    rally_table: list[int] = Field(min_length=10, max_length=10)
    """Routed units back for a modified rally roll of 1 … 10 (BM-RAL-2)."""
    guild_prices: list[int] = Field(min_length=1)
    """Price in each resource by Stars owned; the last entry holds for more (BM-GLD-2)."""
    merchant: Merchant
    overrun_kills: int
    die_sides: int

    @model_validator(mode="after")
    def _check(self) -> Rules:
        if [r.id for r in self.races] != list(RACES):
            raise ValueError(f"races must be {RACES} in that order")
        for race in self.races:
            unknown = [a for a in race.abilities if a not in self.abilities or self.abilities[a].race != race.id]
            if unknown:
                raise ValueError(f"{race.id}: unknown abilities {unknown}")
        for count, seats in self.seating.items():
            if len(seats) != int(count):
                raise ValueError(f"seating for {count} players lists {len(seats)} seats")
        return self

    @cached_property
    def race(self) -> dict[str, Race]:
        return {r.id: r for r in self.races}

    def ability(self, race: str, field: str) -> int | str | None:
        """The value that one of `race`'s abilities sets for `field`, if any."""
        for name in self.race[race].abilities:
            value = getattr(self.abilities[name], field)
            if value is not None:
                return value
        return None

    def guild_price(self, stars: int) -> int:
        return self.guild_prices[min(stars, len(self.guild_prices) - 1)]


class ActionCard(Frozen):
    """An action card of the deck (BM-ACT-8); `count` copies."""

    id: str = Field(pattern=r"^AC\d\d$")
    name: str
    count: int = Field(ge=1)
    window: Window
    text: str
    defender_only: bool = False
    cost: Cost = Field(default_factory=dict)
    monster: MonsterType | None = None
    extra_move: int | None = None
    """Extra regions for one hero's move this quest step (AC01)."""
    hero_hit: int | None = None
    """The hit number it gives a hero in this encounter or duel (AC10)."""
    heal: int | None = None
    """Life it gives back to one hero (AC11)."""
    move_bonus: int | None = None
    """Extra movement for the player's units that start the movement step in the chosen region (AC02)."""
    free_terrain: Literal["all", "region"] | None = None
    """The player's units ignore forest and mountain stops this step: all of them, or those that start it in the
    chosen region (AC03)."""
    placement: int | None = None
    """Extra homeland placements this round (AC06)."""
    units: int | None = None
    """How many recruited units `saving` applies to (AC08)."""
    saving: Cost = Field(default_factory=dict)
    """What each of those units costs less, down to 0 (AC08)."""
    build_cost: Cost = Field(default_factory=dict)
    """What one city or large city built this round costs instead (AC09)."""
    modifier: int | None = None
    """The number a battle card adds: to combat dice (AC04) or to a rally roll (AC05)."""
    reveals: bool = False
    """Shows its player one other player's hand and current quest card (AC15)."""


class EventCard(Frozen):
    """An event (BM-EVT-1, BM-EVT-2): threshold T for 6 players and its outcomes."""

    id: str = Field(pattern=r"^EV\d$")
    name: str
    count: int = Field(ge=1)
    threshold: int = Field(ge=1)
    a: str
    b: str
    destroy_on: int | None = None
    a_at: int | None = None
    b_at: int | None = None
    remove: int | None = None
    movement: int | None = None
    """Every unit's movement value this round (EV6)."""
    surcharge: int | None = None
    """What outcome A adds to every spell's Star cost this round, per copy (EV4)."""

    def needed(self, players: int) -> int:
        """T' = max(1, T − (6 − N)) (BM-EVT-1)."""
        return max(1, self.threshold - (6 - players))


class Spell(Frozen):
    """A spell of the spell book (BM-SPL-3); cost in star power."""

    id: str = Field(pattern=r"^SP\d\d$")
    name: str
    cost: int = Field(ge=0)
    window: Window
    text: str
    private: bool = False
    """Its result is told to its caster alone (BM-SPL-2)."""
    reveals: bool = False
    """As ActionCard.reveals (SP08)."""
    dice: int | None = None
    kill_on: int | None = None
    routs: int | None = None
    monster: MonsterType | None = None
    heal: int | None = None
    """Life it gives back to one hero (SP01)."""
    move_bonus: int | None = None
    """As ActionCard.move_bonus (SP02)."""
    free_terrain: Literal["all", "region"] | None = None
    """As ActionCard.free_terrain (SP03)."""
    modifier: int | None = None
    """The number a battle spell adds: to a rally roll (SP04), to the opponent's combat dice (SP07), to the
    cursed type's rout and kill values (SP12)."""


class Artifact(Frozen):
    """A unique artifact (BM-ART-2); the hero fields are what it changes in its holder's heroes' profile."""

    id: str = Field(pattern=r"^AR\d$")
    name: str
    text: str
    hero_hit: int | None = None
    hero_life: int | None = None
    hero_move: int | None = None
    merchant: bool = False
    """Its holder always trades with merchants at the good rate (AR6, BM-TRD-1)."""
    rally: int | None = None
    """Added to its holder's rally rolls (AR4)."""


class Cards(Frozen):
    proposed: bool
    actions: list[ActionCard]
    events: list[EventCard]
    spells: list[Spell]
    artifacts: list[Artifact]

    @cached_property
    def card(self) -> dict[str, ActionCard | EventCard]:
        return {c.id: c for c in [*self.actions, *self.events]}

    @cached_property
    def actions_by_id(self) -> dict[str, ActionCard]:
        return {c.id: c for c in self.actions}

    @cached_property
    def spell(self) -> dict[str, Spell]:
        return {s.id: s for s in self.spells}

    @cached_property
    def artifact(self) -> dict[str, Artifact]:
        return {a.id: a for a in self.artifacts}


class Foe(Frozen):
    """An encounter monster profile (BM-QST-7): `count` of them, each L life, A attacks, hit on H, D damage."""

    name: str
    count: int = Field(ge=1)
    life: int = Field(ge=1)
    attacks: int = Field(ge=1)
    hit: int = Field(ge=1)
    damage: int = Field(ge=1)


class Adventure(Frozen):
    id: str = Field(pattern=r"^QA\d\d$")
    target: str
    encounter: list[Foe] = Field(default_factory=list)


class Quests(Frozen):
    """The quest deck (BM-QST-10 … 12): adventures, Star of Timorran cards and the unique artifacts."""

    proposed: bool
    adventures: list[Adventure]
    stars: int = Field(ge=0)
    artifacts: list[str]

    @cached_property
    def adventure(self) -> dict[str, Adventure]:
        return {a.id: a for a in self.adventures}


class BattlemistData(Frozen):
    """Everything static, cross-checked: card and quest ids resolve, quest targets are neutral regions."""

    map: BoardMap
    rules: Rules
    cards: Cards
    quests: Quests

    @model_validator(mode="after")
    def _check(self) -> BattlemistData:
        neutral = set(self.map.neutral)
        wrong = [a.id for a in self.quests.adventures if a.target not in neutral]
        if wrong:
            raise ValueError(f"adventures {wrong} target no neutral region")
        unknown = [a for a in self.quests.artifacts if a not in self.cards.artifact]
        if unknown:
            raise ValueError(f"quest artifacts {unknown} are not artifacts")
        homes = {r.race for r in self.map.regions if r.race}
        if homes != set(RACES):
            raise ValueError("the map must hold one homeland per race")
        return self


@cache
def load(directory: Path = DATA_DIR) -> BattlemistData:
    """The game data, validated (a broken file fails here, not mid-game)."""
    parts = {name: (directory / f"{name}.json").read_text(encoding="utf-8")
             for name in ("map", "rules", "cards", "quests")}
    return BattlemistData.model_validate({
        "map": BoardMap.model_validate_json(parts["map"]),
        "rules": Rules.model_validate_json(parts["rules"]),
        "cards": Cards.model_validate_json(parts["cards"]),
        "quests": Quests.model_validate_json(parts["quests"]),
    })
