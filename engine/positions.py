"""Loading and saving positions (any game's state as JSON) and game records, checked as strictly as each other."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine.core.check import quoted
from engine.core.errors import FormatError
from engine.core.models import GameState, from_json, json_text
from engine.core.record import GameRecord
from engine.core.ruleset import Ruleset
from engine.core.views import is_view
from engine.games import NAMES, get


def ruleset_named(name: object) -> Ruleset:
    """The ruleset a position's or a record's `game` field names, or FormatError listing the known games."""
    try:
        return get(str(name))
    except KeyError:
        raise FormatError("game", f"there is no game {quoted(name)} (the games are {', '.join(NAMES)})") from None


_JSON_KINDS = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "true or false",
               type(None): "null"}


def _object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise FormatError("", f"{what} is a JSON object, not {_JSON_KINDS.get(type(data), type(data).__name__)}")
    return data


def load_position(data: Any) -> tuple[Ruleset, GameState]:
    """Validate a position of any game as strictly as a record; its `game` field names the ruleset.

    Raises FormatError naming the first field that breaks the format (docs/*-position.md).
    """
    ruleset = ruleset_named(_object(data, "a position").get("game"))
    version = data.get("schema_version", 1)
    if ruleset.state_model.too_new(version):
        raise FormatError("schema_version", f"{version} is newer than this engine reads "
                                            f"({ruleset.state_model.newest_schema()} at most)")
    try:
        state = from_json(ruleset.state_model, data)
    except ValidationError as err:
        raise FormatError.of(err) from None
    if state.schema_version < 1:
        raise FormatError("schema_version", f"{state.schema_version} is out of range: schemas start at 1")
    if is_view(state):
        raise FormatError("rng", "this is a view, whose secrets are hidden: no game can go on from it")
    ruleset.check_position(state)
    return ruleset, state


def load_record(data: Any) -> tuple[Ruleset, GameRecord]:
    """Validate a game record and find its ruleset; FormatError names the first field that is wrong."""
    try:
        record = GameRecord.model_validate(_object(data, "a game record"))
    except ValidationError as err:
        raise FormatError.of(err) from None
    return ruleset_named(record.game), record


def dump_position(state: GameState) -> str:
    return json_text(state, indent=2)


def read_json(path: str | Path) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def record_json(record: GameRecord) -> str:
    """A record as stable, byte-identical JSON for the same game."""
    return record.model_dump_json(indent=1) + "\n"
