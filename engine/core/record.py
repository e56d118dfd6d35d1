"""Game records (seed, options, seats and actions) and their exact replay."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from engine.core.models import Event, GameState, Seat
from engine.core.ruleset import Ruleset
from engine.core.seats import RESEAT, reseat


class GameRecord(BaseModel):
    """Everything needed to replay a game exactly: the dice follow from the seed."""

    format: str = "gm-record/1"
    game: str
    seed: int
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[Seat]
    actions: list[dict[str, Any]] = Field(default_factory=list)


def start(ruleset: Ruleset, record: GameRecord) -> tuple[GameState, list[Event]]:
    options = ruleset.options_model.model_validate(record.options)
    return ruleset.new_game(record.seats, options, record.seed)


def apply_entry(ruleset: Ruleset, state: GameState, data: dict[str, Any]) -> tuple[GameState, list[Event]]:
    """One entry of a record: a rule action, or a substitution (`reseat`), which has no events."""
    if data.get("type") == RESEAT:
        return reseat(state, data["player"], Seat.model_validate(data["seat"])), []
    return ruleset.apply(state, ruleset.parse_action(data))


def replay(ruleset: Ruleset, record: GameRecord) -> tuple[GameState, list[Event]]:
    """Replay a record; raises RuleError (with `.index` set) at the first illegal action."""
    state, events = start(ruleset, record)
    for index, data in enumerate(record.actions):
        try:
            state, new = apply_entry(ruleset, state, data)
        except Exception as exc:
            exc.index = index  # type: ignore[attr-defined]
            raise
        events.extend(new)
    return state, events
