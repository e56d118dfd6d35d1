"""Risk's secrets for the views test (tests/engine/test_views.py): what to scramble, and the words that give
them away."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.core.models import GameState
from engine.games import get
from engine.games.risk import RiskState


def scramble_risk(s: GameState, viewer: int | None, rng: random.Random) -> dict[str, Any]:
    """Changes to every Risk secret `viewer` may not see: the others' missions, plans and standing defence."""
    assert isinstance(s, RiskState)
    others = [p.id for p in s.players if p.id != viewer]
    changes: dict[str, Any] = {}
    if s.phase.value != "game_over":
        changes["missions"] = {p: ("M01" if m != "M01" else "M02") if p in others else m
                               for p, m in s.missions.items()}
    changes["plans"] = {p: ({("alaska" if "alaska" not in plan else "peru"): sum(plan.values())} if p in others
                            else plan) for p, plan in s.plans.items()}
    changes["standing_defence"] = {p: 3 - d if p in others else d for p, d in s.standing_defence.items()}
    return changes


def risk_words(s: GameState) -> set[str]:
    """Text no public line may hold while the game runs: the missions' own wording."""
    assert isinstance(s, RiskState)
    board = get("risk").board  # type: ignore[attr-defined]
    return {board.mission[m].text.rstrip(".") for m in s.missions.values()} if s.phase.value != "game_over" else set()


def risk_prepare(s: GameState) -> GameState:
    """Every seat defends with one die for good (the AI seats never choose it, so the secret would stay unused)."""
    assert isinstance(s, RiskState)
    return replace(s, standing_defence={p.id: 1 for p in s.players})


SECRETS: dict[str, Any] = {
    "options": [{"mode": "secret_mission", "setup_placement": "simultaneous", "defender_dice": "choose"},
                {"mode": "standard", "setup": "random_deal"}],
    "prepare": risk_prepare, "scramble": scramble_risk, "words": risk_words}
