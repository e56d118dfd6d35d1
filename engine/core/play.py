"""Drive a game with AI policies: used by the simulator, the demo and the property tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from engine.core.models import Action, Event, GameState
from engine.core.ruleset import Policy, Ruleset


def ai_random(seed: int, seq: int) -> random.Random:
    """A deterministic random source for an AI decision, independent of the game's dice."""
    return random.Random(seed * 1_000_003 + seq)


def play_out(
    ruleset: Ruleset,
    state: GameState,
    policies: Mapping[int, Policy],
    seed: int,
    max_actions: int = 20_000,
    on_step: Callable[[GameState, Action, GameState, list[Event]], None] | None = None,
) -> tuple[GameState, list[Action]]:
    """Let the policies play every pending decision until the game ends or `max_actions`."""
    actions: list[Action] = []
    rng = random.Random(seed)
    while ruleset.winners(state) is None and len(actions) < max_actions:
        decisions = ruleset.pending(state)
        if not decisions:
            raise RuntimeError(f"game stalled at seq {state.seq}: nothing pending and no winner")
        player = decisions[0].player
        action = policies[player].choose(state, player, rng)
        new_state, events = ruleset.apply(state, action)
        if on_step is not None:
            on_step(state, action, new_state, events)
        state = new_state
        actions.append(action)
    return state, actions
