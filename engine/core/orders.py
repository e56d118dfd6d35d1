"""Simultaneous secret orders, one mechanism for every game (design.md, BM-SIM-1 … SIM-5, NT-DIG-9, RISK-SET-27).

A simultaneous step opens an `Orders` book for the seats that must order. Each seat submits its orders
privately and may submit again (revise them) until it locks them; `draft` hands a seat its orders so far to
revise. Once every seat has locked, `reveal` gives all the orders in seat order, for the game to resolve
together. A seat that leaves the game is withdrawn from the book.

Nothing is revealed before the book is complete. A deadline never reveals half a book: the pending list
(`missing`) drives the deadline, and when it passes the service plays each missing seat's stand-in (the
ruleset's timeout action, or the AI policy), whose orders lock that seat like anyone's; the last lock completes
the book. Views show a seat its own orders and everyone who has locked, never another seat's orders (`redact`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from engine.core.errors import RuleError

T = TypeVar("T")
"""The type of one seat's orders: each game's own."""

LOCKED = "E_ORDERS_LOCKED"
"""The default code for orders changed or locked again after locking."""
OUTSIDE = "E_NO_ORDERS"
"""The default code for a seat that has nothing to order in this step."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Orders(Generic[T]):
    """One simultaneous step's book: who orders, each seat's orders so far, and who has locked them."""

    seats: list[int]
    """The seats that order in this step, in seat order."""
    drafts: dict[int, T] = field(default_factory=dict)
    """Each seat's orders so far: secret until revealed."""
    locked: list[int] = field(default_factory=list)
    """The seats whose orders are final, in seat order: public."""


def _open(book: Orders[T], seat: int, locked_error: str, outside_error: str) -> None:
    if seat not in book.seats:
        raise RuleError(outside_error)
    if seat in book.locked:
        raise RuleError(locked_error)


def draft(book: Orders[T], seat: int, *, locked_error: str = LOCKED, outside_error: str = OUTSIDE) -> T | None:
    """`seat`'s orders so far (None before its first), to revise; refused once they are locked."""
    _open(book, seat, locked_error, outside_error)
    return book.drafts.get(seat)


def submit(book: Orders[T], seat: int, orders: T, *, locked_error: str = LOCKED,
           outside_error: str = OUTSIDE) -> Orders[T]:
    """The book with `seat`'s orders set to `orders` (its first orders, or a revision); refused once locked."""
    _open(book, seat, locked_error, outside_error)
    return replace(book, drafts={**book.drafts, seat: orders})


def lock(book: Orders[T], seat: int, *, locked_error: str = LOCKED, outside_error: str = OUTSIDE) -> Orders[T]:
    """The book with `seat`'s orders final (a seat may lock without ordering: it orders nothing)."""
    _open(book, seat, locked_error, outside_error)
    done = set(book.locked) | {seat}
    return replace(book, locked=[p for p in book.seats if p in done])


def withdraw(book: Orders[T], seat: int) -> Orders[T]:
    """The book without `seat` (it left the game): it no longer orders, and its orders are dropped."""
    return replace(book, seats=[p for p in book.seats if p != seat],
                   drafts={p: o for p, o in book.drafts.items() if p != seat},
                   locked=[p for p in book.locked if p != seat])


def missing(book: Orders[T]) -> list[int]:
    """The seats still to lock, in seat order: the pending list, which says nothing of what anyone ordered."""
    return [p for p in book.seats if p not in book.locked]


def complete(book: Orders[T]) -> bool:
    """Every seat has locked: the orders may be revealed."""
    return len(book.locked) == len(book.seats)


def reveal(book: Orders[T]) -> list[tuple[int, T | None]]:
    """Every seat's orders in seat order (None: it locked without ordering), for the game to resolve together."""
    if not complete(book):
        raise ValueError(f"orders revealed while seats {missing(book)} have not locked")
    return [(p, book.drafts.get(p)) for p in book.seats]


def redact(book: Orders[T], viewer: int | None) -> dict[str, Any]:
    """What `viewer` (None: a spectator) may see of the book: who has locked and who is still missing, and
    the viewer's own orders, if it has any."""
    seen: dict[str, Any] = {"locked": list(book.locked), "missing": missing(book)}
    if viewer is not None and viewer in book.drafts:
        seen["orders"] = book.drafts[viewer]
    return seen
