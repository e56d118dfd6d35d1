"""Board pictures: a game's state (and its last events) → PNG bytes, pure and synchronous; never imports discord.

The service calls `render_board` in a worker thread and keeps the bytes in a `cache.RenderCache`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core.models import Event, GameState

if TYPE_CHECKING:
    from renderer.draw import Canvas

BOARDS = frozenset({"risk", "wizards_quest"})
"""Games with a board picture; the others are shown as text (`Ruleset.text_board`)."""


def has_board(game: str) -> bool:
    return game in BOARDS


def render_board(state: GameState, events: Sequence[Event] = (), *, locale: str = "en",
                 away: frozenset[int] = frozenset()) -> bytes:
    """The board of any game with a renderer, chosen by `state.game`; `away` seats are marked as AI-played."""
    return draw_board(state, events, locale=locale, away=away).png()


def draw_board(state: GameState, events: Sequence[Event] = (), *, locale: str = "en",
               away: frozenset[int] = frozenset()) -> Canvas:
    """The board of `render_board` on its palette canvas, not yet encoded (for a replay's frames)."""
    if state.game == "risk":
        from engine.games.risk.state import RiskState
        from renderer import risk

        assert isinstance(state, RiskState)
        return risk.draw(state, events, locale=locale, away=away)
    if state.game == "wizards_quest":
        from engine.games.wizards_quest.state import WQState
        from renderer import wizards_quest

        assert isinstance(state, WQState)
        return wizards_quest.draw(state, events, locale=locale, away=away)
    raise ValueError(f"no board renderer for {state.game!r}")
