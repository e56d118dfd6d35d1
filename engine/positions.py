"""Loading and saving positions (any game's state as JSON) and game records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.core.models import GameState
from engine.core.record import GameRecord
from engine.core.ruleset import Ruleset
from engine.games import get


def load_position(data: dict[str, Any]) -> tuple[Ruleset, GameState]:
    """Validate a position of any game; its `game` field names the ruleset."""
    ruleset = get(str(data.get("game", "")))
    return ruleset, ruleset.state_model.model_validate(data)


def dump_position(state: GameState) -> str:
    return state.model_dump_json(indent=2)


def read_json(path: str | Path) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def record_json(record: GameRecord) -> str:
    """A record as stable, byte-identical JSON for the same game."""
    return record.model_dump_json(indent=1) + "\n"
