"""What every game's `view` shares: the placeholder of a hidden card, the sealed dice, and telling a view apart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from engine.core.models import GameState
from engine.core.rng import RngState

HIDDEN = "hidden"
"""What a view shows in place of a card (or an order) it hides; how many there are stays visible."""

SEALED = RngState(state=0, forced=[0])
"""The dice of every view: the same for all, so no view foretells a die. No real die shows the forced face 0, so
this also marks a state as a view."""

T = TypeVar("T")


def hidden(cards: Sequence[str]) -> list[str]:
    """As many placeholders as `cards`, in no order."""
    return [HIDDEN] * len(cards)


def hands_seen(hands: Mapping[int, Sequence[str]], viewer: int | None) -> dict[int, list[str]]:
    """Every hand as `viewer` sees it: its own in full, the others' as placeholders."""
    return {pid: list(cards) if pid == viewer else hidden(cards) for pid, cards in hands.items()}


def own(secrets: Mapping[int, T], viewer: int | None) -> dict[int, T]:
    """Of secrets held per seat, only the viewer's."""
    return {pid: secret for pid, secret in secrets.items() if pid == viewer}


def is_view(state: GameState) -> bool:
    """Whether `state` is a view (its secrets replaced), which no rule may be applied to."""
    return state.rng == SEALED
