"""What a seat or a spectator may see of a Wizard's Quest state (WQ-DIG-1, WQ-TRS-1, WQ-TRS-9)."""

from __future__ import annotations

from typing import Any

from engine.core.models import to_json
from engine.games.wizards_quest.state import Phase, WQState


def view(s: WQState, viewer: int | None) -> dict[str, Any]:
    """Hands and the deck order are private; under the decoy variant only the hider sees a marker's kind."""
    data = to_json(s, exclude={"rng", "deck", "hands"})
    data["deck_size"] = len(s.deck)
    data["hand_sizes"] = {str(pid): len(cards) for pid, cards in s.hands.items()}
    if viewer is not None and viewer in s.hands:
        data["hand"] = list(s.hands[viewer])
    if s.options.decoy and s.phase is not Phase.GAME_OVER:
        data["treasures"] = [
            t if t["hider"] == viewer else {**t, "kind": None} for t in data["treasures"]
        ]
    return data
