"""The pieces a Battlemist position is made of: stocks, troops, heroes, cities, Stars and the round's effects.

All are frozen: a rule replaces one with a new one (`Stock.plus`, `Troops.plus`, `dataclasses.replace`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field

from engine.games.battlemist.data import ARMY, MONSTERS, RESOURCES, ArmyType, MonsterType, Resource

Count = Annotated[int, Field(ge=0)]
UnitKind = ArmyType | MonsterType
UNIT_KINDS: tuple[str, ...] = (*ARMY, *MONSTERS)



@dataclass(frozen=True, slots=True, kw_only=True)
class Stock:
    """A player's personal stock of resources (BM-RES-1); never negative (BM-UPK-4). Public (BM-A-29)."""

    grain: Count = 0
    wood: Count = 0
    iron: Count = 0

    def get(self, resource: Resource) -> int:
        return int(getattr(self, resource))

    def plus(self, other: dict[str, int]) -> Stock:
        return Stock(**{r: self.get(r) + other.get(r, 0) for r in RESOURCES})

    def minus(self, other: dict[str, int]) -> Stock:
        """The stock after paying `other`; ValueError if it is short of anything."""
        left = {r: self.get(r) - other.get(r, 0) for r in RESOURCES}
        if any(v < 0 for v in left.values()):
            raise ValueError("short")
        return Stock(**left)

    def covers(self, other: dict[str, int]) -> bool:
        return all(self.get(r) >= other.get(r, 0) for r in RESOURCES)


@dataclass(frozen=True, slots=True, kw_only=True)
class Troops:
    """One player's units in one region: army units (BM-UNIT-1) and monsters (BM-MON-6)."""

    infantry: Count = 0
    archers: Count = 0
    cavalry: Count = 0
    giant: Count = 0
    firebreather: Count = 0
    dragon: Count = 0

    def get(self, kind: str) -> int:
        return int(getattr(self, kind))

    def army(self) -> int:
        """Army units: what control (BM-CTL-1) and stacking (BM-MOV-6) count."""
        return self.infantry + self.archers + self.cavalry

    def total(self) -> int:
        return self.army() + self.giant + self.firebreather + self.dragon

    def plus(self, kind: str, n: int) -> Troops:
        values = {k: self.get(k) for k in UNIT_KINDS}
        values[kind] += n
        if values[kind] < 0:
            raise ValueError(f"fewer than {-n} {kind}")
        return Troops(**values)

    def counts(self) -> dict[str, int]:
        return {k: self.get(k) for k in UNIT_KINDS if self.get(k)}


@dataclass(frozen=True, slots=True, kw_only=True)
class HeroToken:
    """A hero on the board (BM-HER-2): his owner's number for him, where he stands and his life."""

    owner: int
    number: Annotated[int, Field(ge=1)]
    region: str
    life: Annotated[int, Field(ge=1)]


@dataclass(frozen=True, slots=True, kw_only=True)
class CityMark:
    """A city or large city (BM-CITY-5); `since` is the round it became what it is (its benefits start the round
    after, BM-CITY-4, and a large city needs a city that existed at the start of the round, BM-CITY-2)."""

    kind: Literal["city", "large_city"]
    since: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Stars:
    """A player's Stars of Timorran (BM-STAR-1, STAR-3): owned, and how many of them are spent this round."""

    owned: Count = 0
    spent: Count = 0

    @property
    def power(self) -> int:
        """Unspent Stars: spell power (BM-MAG-1)."""
        return self.owned - self.spent


@dataclass(frozen=True, slots=True, kw_only=True)
class Effects:
    """What this round's events, cards and spells change until the round ends (cleared at END_ROUND)."""

    failed_harvest: Literal["", "half", "none"] = ""
    mana_storm: Literal["", "costly", "none"] = ""
    blizzard: Literal["", "slow", "no_mountains"] = ""
    """Each event's harshest outcome in force this round (B over A)."""
    halvings: Count = 0
    """How often the grain income is halved this round: once per Failed Harvest A (two copies halve twice)."""
    surcharge: Count = 0
    """Stars every spell costs more this round: 1 per Mana Storm A (two copies add 2)."""
    bountiful: list[str] = field(default_factory=list)
    """Regions that yield a second time (AC07, SP10), once per play."""
    sabotaged: list[str] = field(default_factory=list)
    """City regions that yield undoubled (AC16)."""
    reinforcements: list[int] = field(default_factory=list)
    """Players whose homeland placement limit is +2 (AC06), once per play."""


EMPTY = Troops()
