"""Adjacency for the rest of the engine, in either board mode: the fixed map "Mennarra-39" without the void
homelands of absent races (BM-BRD-1, BRD-5, BRD-7), or the tiles where the players put them in build mode
(BM-BRD-3, BM-BLD-4). Every rule asks `neighbours(state, region)`; nothing else reads the map's links."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from engine.games.battlemist.data import load

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

Hex = tuple[int, int]
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
"""The six axial neighbours of a pointy-top hex (BM-BRD-7)."""


def around(spot: Hex) -> list[Hex]:
    """The six hexes beside `spot`."""
    return [(spot[0] + dq, spot[1] + dr) for dq, dr in DIRECTIONS]


def adjacency(positions: dict[str, Hex]) -> dict[str, list[str]]:
    """Which placed tiles touch which: two regions are adjacent only when both hexes exist (BM-BRD-7)."""
    at = {spot: region for region, spot in positions.items()}
    return {region: [at[n] for n in around(spot) if n in at] for region, spot in positions.items()}


@cache
def _fixed(regions: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The fixed map's links among `regions` (a void hex is no region, BM-BRD-1)."""
    present = set(regions)
    board = load().map.by_id
    return {r: tuple(n for n in board[r].neighbours if n in present) for r in regions}


def neighbours(state: BMState, region: str) -> Sequence[str]:
    """The regions adjacent to `region` in this game; empty for a region that is not in play."""
    if state.build is not None:
        return state.build.adjacency.get(region, [])
    return _fixed(tuple(state.regions)).get(region, ())


def hex_of(state: BMState, region: str) -> Hex:
    """Where `region` lies (axial q, r): its fixed-map hex, or where it was placed in build mode."""
    if state.build is not None:
        return state.build.positions[region]
    spot = load().map.by_id[region]
    return spot.q, spot.r


def distances(state: BMState, start: str, through: Iterable[str] | None = None) -> dict[str, int]:
    """Fewest steps from `start` to each region reachable through the regions in play (BM-BRD-6, BM-BLD-4);
    `through` narrows the regions walked."""
    allowed = set(state.regions if through is None else through)
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for here in frontier:
            for n in neighbours(state, here):
                if n in allowed and n not in seen:
                    seen[n] = seen[here] + 1
                    nxt.append(n)
        frontier = nxt
    return seen
