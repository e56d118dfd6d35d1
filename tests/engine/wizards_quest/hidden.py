"""Wizard's Quest's secrets for the views test (tests/engine/test_views.py): the decoy markers' kinds."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.core.models import GameState
from engine.games.wizards_quest import WQState

KINDS = ("crown", "chest", "ring", "decoy")


def scramble_wq(s: GameState, viewer: int | None, rng: random.Random) -> dict[str, Any]:
    """Under the decoy variant, the kind of every marker `viewer` did not hide (until the game is over)."""
    assert isinstance(s, WQState)
    if not s.options.decoy or s.phase.value == "game_over":
        return {}
    return {"treasures": [t if t.hider == viewer or t.kind is None else
                          replace(t, kind=KINDS[(KINDS.index(t.kind) + 1) % 4]) for t in s.treasures]}


SECRETS: dict[str, Any] = {"options": [{"decoy": True}, {}], "prepare": lambda s: s, "scramble": scramble_wq,
                           "words": lambda s: set()}
