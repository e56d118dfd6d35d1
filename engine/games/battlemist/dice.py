"""Battlemist dice (BM-DIE-1, DIE-3, DIE-4): every die comes from the game's seeded Rng, reads 1–10, and is
posted as an event that names its purpose."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from engine.core.models import Event
from engine.core.rng import Rng
from engine.games.battlemist.data import load


@dataclass(slots=True, kw_only=True)
class Rolled(Event):
    """One or more d10 rolled for `purpose` (BM-DIE-4): by `player` (None: the engine for the game), and the
    region it concerns. Setup, the Council and initiative roll for "build_order", "vote_order", "initiative",
    "initiative_tie" and "tremors"; every other rule may post its own rolls with a purpose of its own."""

    type: Literal["die_rolled"] = "die_rolled"
    purpose: str
    player: int | None = None
    dice: list[int] = field(default_factory=list)
    region: str | None = None


def d10(rng: Rng) -> int:
    """One die of the game (BM-DIE-3): the sides come from the data; a face "0" reads 10, so 1 … 10."""
    return rng.die(load().rules.die_sides)


def rank_by_rolls(rng: Rng, ids: Sequence[int], purpose: str) -> tuple[list[int], list[Event]]:
    """`ids` ordered by a d10 each, highest first; tied players re-roll among themselves (BM-A-9, BM-A-11)
    until every place is fixed. Returns the order and one `Rolled` event per die."""
    events: list[Event] = []
    rolls: dict[int, int] = {}
    for pid in ids:
        rolls[pid] = d10(rng)
        events.append(Rolled(purpose=purpose, player=pid, dice=[rolls[pid]]))
    order: list[int] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = [pid for pid in ids if rolls[pid] == value]
        if len(tied) == 1:
            order += tied
        else:
            sub, more = rank_by_rolls(rng, tied, purpose)
            order += sub
            events += more
    return order, events


def first_by_rolls(rng: Rng, ids: Sequence[int], purpose: str) -> tuple[int, list[Event]]:
    """Who of `ids` rolls highest on a d10; only those tied for the highest roll again (BM-BLD-9). Returns him and
    one `Rolled` event per die."""
    events: list[Event] = []
    while True:
        rolls = {pid: d10(rng) for pid in ids}
        events += [Rolled(purpose=purpose, player=pid, dice=[rolls[pid]]) for pid in ids]
        top = max(rolls.values())
        ids = [pid for pid in ids if rolls[pid] == top]
        if len(ids) == 1:
            return ids[0], events
