"""Running this area's handlers and automatic steps the way the game's `apply` will: on a shallow copy of the
state, with the game's Rng written back afterwards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.models import Action, Event, Seat, copier
from engine.core.rng import Rng
from engine.games.battlemist.state import BMState

clone = copier(BMState)


def run(state: BMState, handler: Callable[[BMState, Any, Rng], list[Event]],
        action: Action) -> tuple[BMState, list[Event]]:
    """`handler(copy, action, rng)`; the given state stays as it was."""
    new = clone(state)
    rng = Rng(new.rng)
    events = handler(new, action, rng)
    new.rng = rng.export()
    return new, events


def step(state: BMState, auto: Callable[[BMState, Rng], list[Event]]) -> tuple[BMState, list[Event]]:
    """An automatic step `auto(copy, rng)`."""
    new = clone(state)
    rng = Rng(new.rng)
    events = auto(new, rng)
    new.rng = rng.export()
    return new, events


def seats(n: int) -> list[Seat]:
    return [Seat(id=k, name=f"P{k}") for k in range(1, n + 1)]


def of(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
