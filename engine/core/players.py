"""Players and seat order: the base player model, the seated state's lookups, and seat cycling."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, TypeVar

from engine.core.i18n import inert
from engine.core.models import GameState

Status = Literal["active", "eliminated", "resigned"]
ACTIVE: Status = "active"


@dataclass(frozen=True, slots=True, kw_only=True)
class Player:
    """A seat as a game's state holds it; a game may add fields."""

    id: int
    name: str
    colour: str
    ai: bool = False
    status: Status = ACTIVE
    """`resigned` covers removal by the host too (a `remove` action); `eliminated` is a loss in play."""


P = TypeVar("P", bound=Player)


@dataclass(slots=True, kw_only=True)
class SeatedState(GameState):
    """A state with seats: `players` is declared by each game, in seat order, with its own player model."""

    if TYPE_CHECKING:
        players: Sequence[Player]

    def player(self, pid: int | None) -> Player | None:
        for p in self.players:
            if p.id == pid:
                return p
        return None

    def name(self, pid: int | None) -> str:
        """The seat's name as the messages show it (inert: a typed name never acts as markup)."""
        p = self.player(pid)
        return inert(p.name) if p else "nobody"

    def seat_order(self) -> list[int]:
        return [p.id for p in self.players]

    def active_ids(self) -> list[int]:
        """The seats still playing, in seat order."""
        return [p.id for p in self.players if p.status == ACTIVE]

    def next_active(self, after: int, *, including: bool = False) -> int:
        """The next seat still playing after `after` round the table (see `next_seat`); `after` itself when
        nobody plays, which no game in progress reaches."""
        seat = next_seat(self.seat_order(), after, self.active_ids(), including=including)
        return after if seat is None else seat


def with_status(players: Sequence[P], pid: int, status: Status) -> list[P]:
    """The seat list with `pid`'s status changed."""
    return [replace(p, status=status) if p.id == pid else p for p in players]


def seat_cycle(order: Sequence[int], start: int) -> list[int]:
    """Every seat once, from `start` round the table in seat order."""
    k = order.index(start)
    return [*order[k:], *order[:k]]


def next_seat(order: Sequence[int], after: int, eligible: Collection[int], *,
              including: bool = False) -> int | None:
    """The first seat of `eligible` after `after` round the table (`after` itself comes last, or first with
    `including`); None when none is eligible."""
    k = order.index(after)
    n = len(order)
    for step in range(0 if including else 1, n + (0 if including else 1)):
        seat = order[(k + step) % n]
        if seat in eligible:
            return seat
    return None
