"""Battlemist: the ruleset object the service, CLI and bot use, over ruleset.py, rules.py, legal.py, ai.py,
text.py and position.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.controls import Choice, Control
from engine.core.models import Action, Decision, Event, Seat
from engine.core.ruleset import Policy
from engine.core.spec import GameSpec
from engine.games.battlemist import legal, position, rules, ruleset, text
from engine.games.battlemist.ai import POLICIES
from engine.games.battlemist.data import load
from engine.games.battlemist.state import BMOptions, BMState


class BattlemistRuleset:
    name = "battlemist"
    title = "Battlemist"
    state_model = BMState
    options_model = BMOptions
    reaction_kinds: frozenset[str] = ruleset.REACTIONS
    die_sides = 10
    """Battlemist rolls d10s (BM-DIC-1): what `apply --dice` accepts."""

    def player_range(self, options: BMOptions) -> tuple[int, int]:
        seating = load().rules.seating
        return min(map(int, seating)), max(map(int, seating))

    def parse_action(self, data: dict[str, Any]) -> Action:
        return ruleset.ACTION_ADAPTER.validate_python(data)  # type: ignore[no-any-return]

    def check_position(self, state: BMState) -> None:
        position.check_position(state)

    def parse_event(self, data: dict[str, Any]) -> Event:
        return ruleset.EVENT_ADAPTER.validate_python(data)  # type: ignore[no-any-return]

    def new_game(self, seats: Sequence[Seat], options: BMOptions, seed: int) -> tuple[BMState, list[Event]]:
        return ruleset.new_game(seats, options, seed)

    def apply(self, state: BMState, action: Action) -> tuple[BMState, list[Event]]:
        return rules.apply(state, action)

    def pending(self, state: BMState) -> list[Decision]:
        return ruleset.pending(state)

    def view(self, state: BMState, viewer: int | None) -> BMState:
        return ruleset.view(state, viewer)

    def winners(self, state: BMState) -> list[int] | None:
        return ruleset.winners(state)

    def alive(self, state: BMState) -> list[int]:
        return state.active_ids()

    def ranking(self, state: BMState) -> list[int]:
        return ruleset.ranking(state)

    def policy(self, name: str) -> Policy:
        return POLICIES[name]()

    def narrate(self, event: Event, state: BMState, locale: str = "en") -> str | None:
        return text.narrate(event, state, locale)

    def sequel(self, event: Event, previous: Event, state: BMState, locale: str = "en") -> str | None:
        return text.sequel(event, previous, state, locale)

    def summary(self, player: int, events: Sequence[Event], state: BMState, locale: str = "en") -> str:
        return text.summary(player, events, state, locale)

    def prompt(self, decision: Decision, state: BMState, locale: str = "en") -> str:
        return text.prompt(decision, state, locale)

    def text_board(self, state: BMState, locale: str = "en") -> str:
        return text.text_board(state, locale)

    def timeout_action(self, state: BMState, player: int) -> Action:
        return ruleset.timeout_action(state, player)

    def choices(self, state: BMState, player: int, field: str, **context: Any) -> list[Choice]:
        return legal.choices(state, player, field, **context)

    def controls(self, state: BMState, player: int, recent: Sequence[Event] = ()) -> list[Control]:
        return legal.controls(state, player, recent)


RULESET = BattlemistRuleset()
SPEC = GameSpec(RULESET, aliases=("bm",), renderer="renderer.battlemist", cog="cogs.battlemist", rule_prefix="BM",
                summarised=("board", "races", "round_cap"), pinned_board=True)
__all__ = ["RULESET", "SPEC", "BMOptions", "BMState", "BattlemistRuleset"]
