"""What a seat or a spectator may see of a Risk state (RISK-DIG-2 … DIG-8, DIG-38)."""

from __future__ import annotations

from typing import Any

from engine.games.risk.state import Phase, RiskState


def view(s: RiskState, viewer: int | None) -> dict[str, Any]:
    data = s.model_dump(mode="json", exclude={"rng", "deck", "hands", "missions", "plans", "standing_defence"})
    data["deck_size"] = len(s.deck)
    data["hand_sizes"] = {str(pid): len(cards) for pid, cards in s.hands.items()}
    data["plans_submitted"] = sorted(p for p, plan in s.plans.items() if sum(plan.values()) == s.setup_left.get(p))
    over = s.phase is Phase.GAME_OVER
    if viewer is not None and viewer in s.hands:
        data["hand"] = list(s.hands[viewer])
        if viewer in s.plans:
            data["plan"] = dict(s.plans[viewer])
    if over:
        data["missions"] = {str(pid): m for pid, m in s.missions.items()}
    elif viewer is not None and viewer in s.missions:
        data["missions"] = {str(viewer): s.missions[viewer]}
    return data
