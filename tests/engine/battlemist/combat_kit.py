"""Driving the combat step in tests: begin it on a position, apply combat actions the way the lead's `apply` will
(on a shallow copy, the dice written back), and play the timeout defaults to the end."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Action, Event, copier
from engine.core.rng import Rng
from engine.games.battlemist import combat as C
from engine.games.battlemist.battle import Battle
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.helpers import position

copy = copier(BMState)


def combat(troops: Mapping[str, Mapping[int, Mapping[str, int]]], *, dice: Sequence[int] = (),
           races: Sequence[str] = ("DAQ", "ORC"), **fields: Any) -> tuple[BMState, list[Event]]:
    """A position of `races` with `troops` whose combat step of player 1 has begun."""
    state = copy(position(races, phase=Phase.COMBAT, troops=troops, dice=dice, **fields))
    rng = Rng(state.rng)
    events = C.begin_combat(state, rng)
    state.rng = rng.export()
    return state, events


def act(state: BMState, action: Action) -> tuple[BMState, list[Event]]:
    """Apply one combat action to a copy of `state`; the given state is left as it was."""
    new = copy(state)
    rng = Rng(new.rng)
    events = C.HANDLERS[action.type](new, action, rng)
    new.rng = rng.export()
    return new, events


def acts(state: BMState, *actions: Action,
         using: Callable[[BMState, Action], tuple[BMState, list[Event]]] = act) -> tuple[BMState, list[Event]]:
    """`actions` one after another (by default as combat actions alone; `using=apply` for the whole game's)."""
    events: list[Event] = []
    for action in actions:
        state, more = using(state, action)
        events += more
    return state, events


def refused(state: BMState, action: Action) -> RuleError:
    with pytest.raises(RuleError) as err:
        act(state, action)
    return err.value


def passes(state: BMState) -> tuple[BMState, list[Event]]:
    """Both W-BATTLESTART passes: round 1 begins."""
    b = battle(state)
    return acts(state, C.BattlePass(player=b.attacker.player), C.BattlePass(player=b.defender.player))


def battle(state: BMState) -> Battle:
    b = state.combat.battle
    assert b is not None
    return b


def timeouts(state: BMState, limit: int = 200) -> tuple[BMState, list[Event]]:
    """Play every pending decision by its timeout default until the combat step is over."""
    events: list[Event] = []
    for _ in range(limit):
        waiting = C.pending(state)
        if not waiting:
            return state, events
        state, more = act(state, C.timeout_combat(state, waiting[0].player))
        events += more
    raise AssertionError("the combat step did not end")


def until(state: BMState, kind: str, limit: int = 50) -> tuple[BMState, list[Event]]:
    """Play the timeout defaults until a decision of `kind` is pending."""
    events: list[Event] = []
    for _ in range(limit):
        waiting = C.pending(state)
        if not waiting or any(d.kind == kind for d in waiting):
            return state, events
        state, more = act(state, C.timeout_combat(state, waiting[0].player))
        events += more
    raise AssertionError(f"no {kind} decision came")


def of(events: Sequence[Event], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]


def kinds(decisions: Sequence[Any]) -> list[tuple[int, str]]:
    return [(d.player, d.kind) for d in decisions]
