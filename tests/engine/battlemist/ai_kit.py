"""Battlemist as the generic test tools and `engine.core.record.replay` take a ruleset, without registering the
game: a thin object over ruleset.py, rules.py, legal.py and ai.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.controls import Choice, Control
from engine.core.models import Action, Decision, Event, Seat
from engine.core.ruleset import Policy
from engine.games.battlemist import ai, legal, rules, ruleset
from engine.games.battlemist.state import BMOptions, BMState


class Battlemist:
    name = "battlemist"
    state_model = BMState
    options_model = BMOptions

    def new_game(self, seats: Sequence[Seat], options: BMOptions, seed: int) -> tuple[BMState, list[Event]]:
        return ruleset.new_game(seats, options, seed)

    def apply(self, state: BMState, action: Action) -> tuple[BMState, list[Event]]:
        return rules.apply(state, action)

    def parse_action(self, data: dict[str, Any]) -> Action:
        return ruleset.ACTION_ADAPTER.validate_python(data)  # type: ignore[no-any-return]

    def pending(self, state: BMState) -> list[Decision]:
        return ruleset.pending(state)

    def winners(self, state: BMState) -> list[int] | None:
        return ruleset.winners(state)

    def choices(self, state: BMState, player: int, field: str, **context: Any) -> list[Choice]:
        return legal.choices(state, player, field, **context)

    def controls(self, state: BMState, player: int, recent: Sequence[Event] = ()) -> list[Control]:
        return legal.controls(state, player, recent)

    def policy(self, name: str) -> Policy:
        return ai.POLICIES[name]()


RULES = Battlemist()


def seats(n: int) -> list[Seat]:
    return [Seat(id=k, name=f"P{k}") for k in range(1, n + 1)]
