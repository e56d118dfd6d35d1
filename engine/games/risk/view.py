"""What a seat or a spectator may see of a Risk state (RISK-DIG-2 … DIG-8, DIG-38)."""

from __future__ import annotations

from typing import Any

from engine.core.models import to_json
from engine.core.orders import redact
from engine.games.risk.state import Phase, RiskState


def view(s: RiskState, viewer: int | None) -> dict[str, Any]:
    data = to_json(s, exclude={"rng", "deck", "hands", "missions", "plans", "standing_defence"})
    data["deck_size"] = len(s.deck)
    data["hand_sizes"] = {str(pid): len(cards) for pid, cards in s.hands.items()}
    plans = redact(s.plan_book(), viewer)
    data["plans_submitted"] = sorted(plans["locked"])
    over = s.phase is Phase.GAME_OVER
    if viewer is not None and viewer in s.hands:
        data["hand"] = list(s.hands[viewer])
        if "orders" in plans:
            data["plan"] = dict(plans["orders"])
    if over:
        data["missions"] = {str(pid): m for pid, m in s.missions.items()}
    elif viewer is not None and viewer in s.missions:
        data["missions"] = {str(viewer): s.missions[viewer]}
    return data
