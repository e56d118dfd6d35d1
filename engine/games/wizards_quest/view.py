"""What a seat or a spectator may see of a Wizard's Quest state (WQ-DIG-1, WQ-TRS-1, WQ-TRS-9)."""

from __future__ import annotations

from dataclasses import replace

from engine.core.views import SEALED, hands_seen, hidden
from engine.games.wizards_quest.state import Phase, WQState


def view(s: WQState, viewer: int | None) -> WQState:
    """`s` with the others' hands and the deck as placeholders and the dice sealed; under the decoy variant a
    marker's kind (None) is seen only by its hider until the game is over."""
    update = {"rng": SEALED, "deck": hidden(s.deck), "hands": hands_seen(s.hands, viewer)}
    if s.options.decoy and s.phase is not Phase.GAME_OVER:
        update["treasures"] = [t if t.hider == viewer else replace(t, kind=None) for t in s.treasures]
    return replace(s, **update)
