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
from engine.core.seats import RESEAT, Reseat, reseat

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


PUBLIC_FORMAT = "gm-public/1"
"""A running game's export: what everyone at the table may see, never enough to replay it or foresee a die."""


class PublicEntry(BaseModel):
    """One logged action as the public saw it: who did what kind of thing, and the public events."""

    seq: int
    actor: int
    type: str
    events: list[dict[str, Any]] = Field(default_factory=list)


class PublicRecord(BaseModel):
    """A game still being played, exported without its secrets: no seed, no dice state, no hands, missions,
    orders or deck, and no action's own contents (they may hold a secret, such as where a decoy went)."""

    format: str = PUBLIC_FORMAT
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[Seat]
    position: dict[str, Any]
    """The position as a spectator sees it (the ruleset's `view(state, None)`)."""
    history: list[PublicEntry] = Field(default_factory=list)


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
        entry = Reseat.model_validate(data)
        return reseat(state, entry.player, entry.seat), []
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
