"""What both stores read back: the columns of each table in the order of its row type, and the conversions."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.store.base import ActionRow, GameRow, PostRow, TimerRow

INTERACTIONS_KEPT = 7 * 86400.0
"""How long a command's interaction id is remembered: Discord re-delivers an interaction within minutes."""


TIMER_COLUMNS = "id, game_id, kind, due_at, payload, player"


def loads(text: str | None, default: Any) -> Any:
    """A JSON column, or `default` when the row can't be read: one damaged row must not break every query."""
    try:
        return json.loads(text) if text is not None else default
    except ValueError:
        return default


def timer_row(row: Sequence[Any]) -> TimerRow:
    timer_id, game_id, kind, due_at, payload, player = row
    return TimerRow(timer_id, game_id, kind, due_at, loads(payload, {}), player)


GAME_COLUMNS = (
    "id, channel_id, guild_id, ruleset, status, host_id, seed, lobby, state, version, created_at, updated_at, "
    "announced, waiting"
)


def game_row(row: Sequence[Any]) -> GameRow:
    """A game row; an unreadable lobby reads as empty, which `lobby_of` refuses (E_GAME_CORRUPT) for that game alone."""
    values = list(row)
    values[7] = loads(values[7], {})
    values[13] = tuple(loads(values[13], []))
    return GameRow(*values)


ACTION_COLUMNS = "game_id, seq, actor, action, events, interaction_id, created_at, by_ai, turns"


def action_row(row: Sequence[Any]) -> ActionRow:
    game_id, seq, actor, action, events, interaction_id, created_at, by_ai, turns = row
    return ActionRow(game_id, seq, actor, json.loads(action), json.loads(events), interaction_id, created_at,
                     bool(by_ai), turns)


POST_COLUMNS = "id, game_id, channel_id, payload, created_at, attempts, sent, next_try"


def post_row(row: Sequence[Any]) -> PostRow:
    post_id, game_id, channel_id, payload, created_at, attempts, sent, next_try = row
    return PostRow(post_id, game_id, channel_id, loads(payload, {}), created_at, attempts, loads(sent, []),
                   next_try)
