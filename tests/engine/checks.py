"""Applying actions in every game's scenario tests: the input is never changed, and a refusal is complete."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeVar

import pytest

from engine.core.errors import RuleError
from engine.core.models import Action, Event, GameState, to_json
from engine.core.rng import RngState
from engine.core.ruleset import Ruleset

S = TypeVar("S", bound=GameState)
Act = Action | tuple[Any, ...]
"""An Action, or a tuple (kind, player) or (kind, player, {fields})."""


def as_action(ruleset: Ruleset, act: Act) -> Action:
    if isinstance(act, Action):
        return act
    return ruleset.parse_action({"type": act[0], "player": act[1], **(act[2] if len(act) > 2 else {})})


def with_dice(state: S, dice: list[int]) -> S:
    """The same position with these die faces used first, in the order the rules roll them."""
    return replace(state, rng=RngState(state=state.rng.state, forced=list(dice)))


def applied(ruleset: Ruleset, state: S, act: Act, dice: list[int] | None) -> tuple[S, list[Event]]:
    """Apply an action, checking the input is not mutated and the new state is of the same game."""
    if dice is not None:
        state = with_dice(state, dice)
    before = to_json(state)
    new_state, events = ruleset.apply(state, as_action(ruleset, act))
    assert to_json(state) == before, "apply mutated its input"
    assert isinstance(new_state, type(state))
    return new_state, events


def refused(ruleset: Ruleset, state: GameState, act: Act, code: str, dice: list[int] | None) -> RuleError:
    """Assert that the action is refused with `code`, a complete message, and an unchanged state."""
    if dice is not None:
        state = with_dice(state, dice)
    before = to_json(state)
    with pytest.raises(RuleError) as info:
        ruleset.apply(state, as_action(ruleset, act))
    assert to_json(state) == before
    assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value.message}"
    assert info.value.message and "{" not in info.value.message and info.value.message != code, info.value.message
    return info.value
