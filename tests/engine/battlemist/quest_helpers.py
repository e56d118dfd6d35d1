"""Quest-step positions and a runner for the quest handlers (engine/games/battlemist/quest.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.models import Action, Event, copier
from engine.core.rng import Rng
from engine.games.battlemist.pieces import HeroToken
from engine.games.battlemist.quest import HANDLERS, begin_quest_step
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.helpers import position

copy = copier(BMState)


def hero(owner: int, number: int, region: str, life: int = 5) -> HeroToken:
    return HeroToken(owner=owner, number=number, region=region, life=life)


def step(races: Sequence[str] = ("DAQ", "ORC"), *, heroes: Sequence[HeroToken] = (), **fields: Any) -> BMState:
    """A position in player 1's quest step, W-PREQUEST open."""
    state = position(races, phase=Phase.QUEST, heroes=list(heroes), **fields)
    rng = Rng(state.rng)
    begin_quest_step(state, rng)
    state.rng = rng.export()
    return state


def run(state: BMState, *actions: Action) -> tuple[BMState, list[Event]]:
    """The actions applied one after the other to working copies, as the lead's `apply` will."""
    events: list[Event] = []
    for action in actions:
        state = copy(state)
        rng = Rng(state.rng)
        events += HANDLERS[action.type](state, action, rng)  # type: ignore[operator]
        state.rng = rng.export()
    return state, events


def types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events]
