"""Battlemist positions for scenario tests, built directly (no setup, no earlier moves), and a check that a rule
left the position it was given as it was."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.models import to_json
from engine.core.rng import RngState
from engine.games.battlemist.data import load
from engine.games.battlemist.pieces import Stars, Stock, Troops
from engine.games.battlemist.state import BMOptions, BMPlayer, BMState, Phase

DATA = load()
COLOURS = {r.id: r.colour for r in DATA.rules.races}


def position(races: Sequence[str] = ("DAQ", "ORC"), *, phase: Phase = Phase.MOVEMENT, round: int = 1,
             troops: Mapping[str, Mapping[int, Mapping[str, int]]] | None = None,
             stock: Mapping[int, Mapping[str, int]] | None = None, dice: Sequence[int] = (), seed: int = 7,
             options: BMOptions | None = None, **fields: Any) -> BMState:
    """A game of `races` (players 1, 2 … in that order) at `phase`: every region of the races in play, each
    player with 1 unspent Star; `troops` as region → player → {kind: n}; the next dice forced to `dice`."""
    players = [BMPlayer(id=k, name=f"P{k}", colour=COLOURS[race], race=race) for k, race in enumerate(races, 1)]
    regions = [r for r in DATA.map.ids if not r.startswith("H-") or r[2:] in races]
    state = BMState(rng=RngState(state=seed, forced=list(dice)), options=options or BMOptions(), players=players,
                    phase=phase, round=round, regions=regions,
                    stock={p.id: Stock(**(stock or {}).get(p.id, {})) for p in players},
                    stars={p.id: Stars(owned=1) for p in players},
                    star_pool=DATA.rules.star_pool - len(players), order=[p.id for p in players],
                    active=players[0].id)
    state.troops = {region: {pid: Troops(**kinds) for pid, kinds in here.items()}
                    for region, here in (troops or {}).items()}
    for name, value in fields.items():
        setattr(state, name, value)
    return state


def snapshot(state: BMState) -> Any:
    """The position as JSON values, to compare with after a rule ran (inputs are never mutated)."""
    return to_json(state)
