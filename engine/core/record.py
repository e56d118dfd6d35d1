"""Game records (seed, options, seats and actions) and their exact replay."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field, field_validator
from pydantic_core import PydanticCustomError

from engine.core.construct import copy_model
from engine.core.errors import RuleError
from engine.core.models import Event, GameState, Seat
from engine.core.ruleset import Ruleset
from engine.core.seats import RESEAT, reseat

FORMAT = "gm-record/1"
"""The one record format this engine reads and writes."""


class GameRecord(BaseModel):
    """Everything needed to replay a game exactly: the dice follow from the seed."""

    format: str = FORMAT
    game: str
    seed: int
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[Seat]
    actions: list[dict[str, Any]] = Field(default_factory=list)
    schema_version: int = 1
    """The state schema the game began under, which fixes how its dice are drawn (records without it: 1)."""

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value != FORMAT:
            raise PydanticCustomError("record_format", "this engine reads {known} records, not {given}",
                                      {"known": json.dumps(FORMAT), "given": json.dumps(value, ensure_ascii=False)})
        return value


def start(ruleset: Ruleset, record: GameRecord) -> tuple[GameState, list[Event]]:
    """The game's first position, under the schema the record was made with."""
    options = ruleset.options_model.model_validate(record.options)
    state, events = ruleset.new_game(record.seats, options, record.seed)
    if ruleset.state_model.too_new(record.schema_version):
        raise RuleError("E_RECORD_TOO_NEW", schema=record.schema_version, newest=ruleset.state_model.newest_schema())
    if record.schema_version < state.schema_version:  # the setup is the same; later dice follow the old schema
        state = copy_model(state, schema_version=record.schema_version)
    return state, events


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
