"""Seat changes outside the rules: a substitute player takes over a seat (`/game replace`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine.core.errors import RuleError
from engine.core.models import GameState, Seat

RESEAT = "reseat"
"""The record entry for a substitution: `{"type": "reseat", "player": old_id, "seat": {new seat}}`."""


class Reseat(BaseModel):
    """A substitution as the record writes it, checked like a rule action when a record is read."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["reseat"]
    player: int
    seat: Seat


USER_ID_MIN = 1 << 32
"""Discord user ids are snowflakes far above this; no count or small id in a state can be mistaken for one."""


def reseat(state: GameState, old: int, new: Seat) -> GameState:
    """The state with seat `old` handed to `new` (its id and name); counts as one action (seq + 1).

    States name players by Discord user id (design.md), so the substitution rewrites that id wherever it
    appears, as a value or as a key, and renames the seat's entry. Ids must be real user ids.
    """
    if old < USER_ID_MIN or new.id < USER_ID_MIN:
        raise RuleError("E_RESEAT_AI")
    data = _swap(state.model_dump(mode="json"), old, new)
    data["seq"] = state.seq + 1
    return type(state).model_validate(data)


def _swap(node: Any, old: int, new: Seat) -> Any:
    if isinstance(node, dict):
        out = {(str(new.id) if key == str(old) else key): _swap(value, old, new) for key, value in node.items()}
        if out.get("id") == new.id and isinstance(out.get("name"), str):
            out["name"] = new.name
        return out
    if isinstance(node, list):
        return [_swap(value, old, new) for value in node]
    if type(node) is int and node == old:
        return new.id
    return node
