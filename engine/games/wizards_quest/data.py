"""Wizard's Quest static data (map, Petition deck, proposed numbers), loaded from data/ and validated."""

from __future__ import annotations

from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.graph import check_links

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "wizards_quest"

LinkKind = Literal["land", "bridge", "tunnel"]


class Castle(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: str = Field(pattern=r"^C[1-9]$")
    name: str


class Region(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: int = Field(ge=1, le=6)
    name: str
    territories: list[str] = Field(min_length=6, max_length=6)
    castles: list[Castle]


class Link(BaseModel):
    model_config = ConfigDict(frozen=True)
    a: str
    b: str
    kind: LinkKind


class Water(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: str
    name: str
    borders: list[str]


class WQMap(BaseModel):
    """The board (WQ-MAP-1 … MAP-7); derived lookups are built once after validation."""

    proposed: bool
    name: str
    regions: list[Region] = Field(min_length=6, max_length=6)
    links: list[Link]
    water: list[Water]

    @model_validator(mode="after")
    def _check(self) -> WQMap:
        ids = [t for r in self.regions for t in r.territories] + [c.id for r in self.regions for c in r.castles]
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate location id")
        for r in self.regions:
            if r.territories != [f"{r.id}.{t}" for t in range(1, 7)]:
                raise ValueError(f"region {r.id}: territories must be {r.id}.1 … {r.id}.6")
        check_links(((link.a, link.b) for link in self.links), set(ids), "link")
        for w in self.water:
            unknown = set(w.borders) - set(ids)
            if unknown:
                raise ValueError(f"{w.id} borders unknown locations {sorted(unknown)}")
        return self

    @cached_property
    def territories(self) -> tuple[str, ...]:
        return tuple(t for r in self.regions for t in r.territories)

    @cached_property
    def castles(self) -> tuple[str, ...]:
        return tuple(sorted((c.id for r in self.regions for c in r.castles), key=lambda c: int(c[1:])))

    @cached_property
    def ids(self) -> tuple[str, ...]:
        """Every location in location order (WQ-MAP-7): 1.1 … 6.6, then C1 … C8."""
        return self.territories + self.castles

    @cached_property
    def order(self) -> dict[str, int]:
        return {loc: k for k, loc in enumerate(self.ids)}

    @cached_property
    def region_of(self) -> dict[str, int]:
        result = {t: r.id for r in self.regions for t in r.territories}
        result.update({c.id: r.id for r in self.regions for c in r.castles})
        return result

    @cached_property
    def region(self) -> dict[int, Region]:
        return {r.id: r for r in self.regions}

    @cached_property
    def members(self) -> dict[int, tuple[str, ...]]:
        """A region's locations in location order: its territories, then its castles."""
        return {r.id: tuple(loc for loc in self.ids if self.region_of[loc] == r.id) for r in self.regions}

    @cached_property
    def castle_name(self) -> dict[str, str]:
        return {c.id: c.name for r in self.regions for c in r.castles}

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        """Adjacent locations (land, bridge or tunnel) in location order (WQ-DEF-5)."""
        result: dict[str, set[str]] = {loc: set() for loc in self.ids}
        for link in self.links:
            result[link.a].add(link.b)
            result[link.b].add(link.a)
        return {loc: tuple(sorted(n, key=self.order.__getitem__)) for loc, n in result.items()}

    @cached_property
    def link_kind(self) -> dict[tuple[str, str], LinkKind]:
        result: dict[tuple[str, str], LinkKind] = {}
        for link in self.links:
            result[(link.a, link.b)] = result[(link.b, link.a)] = link.kind
        return result

    @cached_property
    def waters_of(self) -> dict[str, frozenset[str]]:
        return {loc: frozenset(w.id for w in self.water if loc in w.borders) for loc in self.ids}

    @cached_property
    def water_name(self) -> dict[str, str]:
        return {w.id: w.name for w in self.water}

    @cached_property
    def water_pairs(self) -> dict[tuple[str, str], tuple[str, ...]]:
        """The bodies of water each pair of locations borders, for the pairs that share any."""
        table = {(a, b): tuple(w.id for w in self.water if a in w.borders and b in w.borders)
                 for a in self.ids for b in self.ids}
        return {pair: waters for pair, waters in table.items() if waters}

    @cached_property
    def across_water(self) -> dict[str, tuple[str, ...]]:
        """The other locations each location shares a body of water with, in location order (a boat's reach)."""
        return {a: tuple(b for b in self.ids if b != a and (a, b) in self.water_pairs) for a in self.ids}

    def shared_water(self, a: str, b: str) -> tuple[str, ...]:
        """Bodies of water both locations border (water-adjacency, WQ-DEF-5), in data order."""
        return self.water_pairs.get((a, b), ())

    def territory(self, region: int, face: int) -> str:
        """The territory picked by a region die and a territory die (WQ-MAP-1)."""
        return self.region[region].territories[face - 1]


CardTarget = Literal["none", "orc_location", "unprotected_territory", "territory", "march"]


class CardType(BaseModel):
    """One Petition card type (WQ-CARD-1 … CARD-16); `code` names its effect in the engine."""

    model_config = ConfigDict(frozen=True)
    code: Literal["levy", "muster", "extra_campaign", "grand_campaign", "champions_call", "orcbane", "dragon_lure",
                  "wizards_summons", "forced_march", "fair_winds", "blessed_arms", "orc_uprising", "plague",
                  "famine", "dragons_hunger", "wizards_truce"]
    name: str
    copies: int = Field(ge=1)
    boat_copies: int = Field(ge=0)
    immediate: bool
    men: int = 0
    campaigns: int = 0
    pieces: int = 0
    target: CardTarget = "none"

    @model_validator(mode="after")
    def _check(self) -> CardType:
        if self.boat_copies > self.copies:
            raise ValueError(f"{self.code}: more boat copies than copies")
        return self


class Deck(BaseModel):
    """The Petition deck (WQ-CARD-0). Card instances are `<code>-<n>`; the first `boat_copies` carry a boat."""

    proposed: bool
    cards: list[CardType]

    @cached_property
    def by_code(self) -> dict[str, CardType]:
        return {c.code: c for c in self.cards}

    @cached_property
    def instances(self) -> tuple[str, ...]:
        return tuple(f"{c.code}-{n}" for c in self.cards for n in range(1, c.copies + 1))

    def card(self, instance: str) -> CardType:
        return self.by_code[instance.rsplit("-", 1)[0]]

    def has_boat(self, instance: str) -> bool:
        return int(instance.rsplit("-", 1)[1]) <= self.card(instance).boat_copies


class Defence(BaseModel):
    player: int
    orcs: int
    dragon: int
    mage: int


class Modifiers(BaseModel):
    castle: int
    bridge: int
    tunnel: int
    defender_leader: int
    attacker_leader: int
    blessed_arms: int


class Rewards(BaseModel):
    crown_campaigns: int
    chest_men: int


class Params(BaseModel):
    """Every proposed number of the rules, so that the printed originals can replace them (WQ-DIG-7)."""

    proposed: bool
    players: dict[Literal["min", "max"], int]
    colours: list[str]
    castle_men: int
    unpicked_castle_orcs: int
    setup_orc_territories: int
    setup_orcs_each: int
    starting_men: dict[int, int]
    deploy_batch: int
    leader_cost: int
    orc_cap: int
    orc_growth_rolls: int
    orc_growth: int
    frenzy_at: int
    prosper_men: int
    prosper_orcs: int
    min_reinforcement: int
    hand_limit: int
    defence: Defence
    wounds: dict[Literal["dragon", "mage"], int]
    modifiers: Modifiers
    d_clamp: tuple[int, int]
    dragon_reward_men: int
    rewards: Rewards


class WQData(BaseModel):
    """Everything static a game needs."""

    map: WQMap
    deck: Deck
    params: Params


@cache
def standard() -> WQData:
    def read(name: str) -> str:
        return (DATA_DIR / name).read_text(encoding="utf-8")

    return WQData(map=WQMap.model_validate_json(read("map.json")),
                  deck=Deck.model_validate_json(read("petitions.json")),
                  params=Params.model_validate_json(read("rules.json")))
