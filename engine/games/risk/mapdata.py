"""The Risk map and card data, loaded from data/ and validated by pydantic."""

from __future__ import annotations

from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, model_validator

from engine.core.graph import check_links

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "risk"

Symbol = Literal["infantry", "cavalry", "artillery"]


class Continent(BaseModel):
    id: str
    name: str
    bonus: int


class Territory(BaseModel):
    id: str
    name: str
    continent: str
    symbol: Symbol
    aliases: list[str] = []


class Edge(BaseModel):
    a: str
    b: str
    sea: bool = False


class Mission(BaseModel):
    id: str
    text: str
    continents: list[str] = []
    extra_continents: int = 0
    territories: int = 0
    min_armies: int = 1
    destroy: str | None = None
    sets: list[str]


class RiskMap(BaseModel):
    """The static data of one Risk board; derived lookups are built once after validation."""

    name: str
    continents: list[Continent]
    territories: list[Territory]
    edges: list[Edge]
    wild_cards: list[str]
    missions: list[Mission]
    colours: list[str]
    trade_values: list[int]
    trade_step: int
    starting_armies: dict[int, int]

    @model_validator(mode="after")
    def _check(self) -> RiskMap:
        ids = [t.id for t in self.territories]
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate territory id")
        known_continents = {c.id for c in self.continents}
        for t in self.territories:
            if t.continent not in known_continents:
                raise ValueError(f"{t.id}: unknown continent {t.continent}")
        check_links(((e.a, e.b) for e in self.edges), set(ids), "edge")
        for m in self.missions:
            if m.destroy is not None and m.destroy not in self.colours:
                raise ValueError(f"{m.id}: unknown colour {m.destroy}")
        return self

    @cached_property
    def ids(self) -> list[str]:
        return [t.id for t in self.territories]

    @cached_property
    def territory(self) -> dict[str, Territory]:
        return {t.id: t for t in self.territories}

    @cached_property
    def continent(self) -> dict[str, Continent]:
        return {c.id: c for c in self.continents}

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        """Neighbours in table order, so that every iteration is the same in every process."""
        order = {t: k for k, t in enumerate(self.ids)}
        result: dict[str, set[str]] = {t: set() for t in self.ids}
        for e in self.edges:
            result[e.a].add(e.b)
            result[e.b].add(e.a)
        return {t: tuple(sorted(n, key=order.__getitem__)) for t, n in result.items()}

    @cached_property
    def neighbour_sets(self) -> dict[str, frozenset[str]]:
        return {t: frozenset(n) for t, n in self.neighbours.items()}

    @cached_property
    def members(self) -> dict[str, tuple[str, ...]]:
        return {c.id: tuple(t.id for t in self.territories if t.continent == c.id) for c in self.continents}

    @cached_property
    def member_sets(self) -> dict[str, frozenset[str]]:
        """Each continent's territories as a set, in the continents' table order."""
        return {c: frozenset(members) for c, members in self.members.items()}

    @cached_property
    def mission(self) -> dict[str, Mission]:
        return {m.id: m for m in self.missions}

    @cached_property
    def symbols(self) -> dict[str, str]:
        return {t.id: t.symbol for t in self.territories}

    def card_symbol(self, card: str) -> str:
        return "wild" if card in self.wild_cards else self.symbols[card]

    def is_card(self, card: str) -> bool:
        return card in self.symbols or card in self.wild_cards

    def trade_value(self, n: int) -> int:
        """Armies for the n-th set traded in the game (1-based)."""
        values = self.trade_values
        return values[n - 1] if n <= len(values) else values[-1] + self.trade_step * (n - len(values))


@cache
def classic() -> RiskMap:
    return RiskMap.model_validate_json((DATA_DIR / "classic.json").read_text(encoding="utf-8"))
