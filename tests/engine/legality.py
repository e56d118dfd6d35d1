"""Legality has one source, checked by every game's tests: in positions that random legal games reach, every
button the rules offer is accepted, and the values autocomplete offers for a field are exactly those `apply`
accepts there, the rest of the action being legal (sound: nothing refused is offered; complete: nothing accepted
is left out). A game's `test_legal.py` declares its `Fields` and calls `play_and_check`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.errors import RuleError
from engine.core.models import Action, Event, GameState, Seat, to_json
from engine.core.play import play_out
from engine.core.ruleset import Ruleset
from engine.games import get

EVERY = 3
"""Check every third position of a game (the checks try each candidate value against the rules)."""

Fields = dict[str, dict[str, Any]]
"""Action type → field → how the field is tried: its candidates and the fields it fixes or frees."""


def accepted(ruleset: Ruleset, state: GameState, data: dict[str, Any]) -> bool:
    try:
        ruleset.apply(state, ruleset.parse_action(data))
    except RuleError:
        return False
    return True


def some_accepted(ruleset: Ruleset, state: GameState, data: dict[str, Any], free: str,
                  candidates: Iterable[Any]) -> bool:
    """Some value of the field `free` makes the action legal."""
    return any(accepted(ruleset, state, data | {free: x}) for x in candidates)


def numbers(_state: GameState, _player: int) -> list[int]:
    return list(range(0, 100))


def check_controls(ruleset: Ruleset, state: GameState, recent: list[Event]) -> int:
    """Every control offered to a seat that must decide is an action the rules accept from it."""
    checked = 0
    for player in dict.fromkeys(d.player for d in ruleset.pending(state)):
        for control in ruleset.controls(state, player, recent):
            for shown in control.options or (control,):
                assert accepted(ruleset, state, shown.action | {"player": player}), (shown, state.seq)
                checked += 1
    return checked


def check_choices(ruleset: Ruleset, fields: Fields, state: GameState, action: Action) -> int:
    """Each field of the action a policy took: the offered values are exactly the accepted ones."""
    data = to_json(action)
    checked = 0
    for name, how in fields.get(data["type"], {}).items():
        base = data | how.get("fixed", {})
        context = {k: v for k, v in base.items() if k not in (name, "type", "player")}
        offered = [c.value for c in ruleset.choices(state, action.player, f"{data['type']}.{name}", **context)]
        candidates = how["candidates"]
        candidates = candidates(state, action.player) if callable(candidates) else candidates
        free = how.get("free")
        legal = {x for x in candidates
                 if (some_accepted(ruleset, state, base | {name: x}, free[0], free[1]) if free
                     else accepted(ruleset, state, base | {name: x}))}
        assert offered == [x for x in candidates if x in offered], f"{name}: offered in the candidates' order"
        assert set(offered) == legal, (data["type"], name, state.seq)
        checked += 1
    return checked


def play_and_check(game: str, fields: Fields, options: Any, players: int, seed: int) -> tuple[int, int]:
    """Play a random and baseline game of `game`; check the controls and the `fields` choices every few steps."""
    ruleset = get(game)
    seats = [Seat(id=100 + k, name=f"P{k}") for k in range(players)]
    state, _ = ruleset.new_game(seats, options, seed)
    policies = {s.id: ruleset.policy("random" if k % 2 else "baseline") for k, s in enumerate(seats)}
    counts = [0, 0]
    recent: list[Event] = []

    def step(before: GameState, action: Action, after: GameState, events: list[Event]) -> None:
        nonlocal recent
        if before.seq % EVERY == 0:
            counts[0] += check_controls(ruleset, before, recent)
            counts[1] += check_choices(ruleset, fields, before, action)
        recent = events

    play_out(ruleset, state, policies, seed, max_actions=600, on_step=step)
    return counts[0], counts[1]
