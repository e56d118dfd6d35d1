"""Board pictures: a game's state (and its last events) → PNG bytes, pure and synchronous; never imports discord.

The service calls `render_board` in a worker thread and keeps the bytes in a `cache.RenderCache`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from engine.core.models import Event, GameState
from engine.games import spec

if TYPE_CHECKING:
    from renderer.draw import Canvas

def has_board(game: str) -> bool:
    """Whether the game draws its board as a picture (its `GameSpec.renderer`); the others are shown as text."""
    return renderer_of(game) is not None


def renderer_of(game: str) -> str | None:
    """The module that draws `game`'s board (None: the game is shown as text, or there is no such game)."""
    try:
        return spec(game).renderer
    except KeyError:
        return None


def render_board(state: GameState, events: Sequence[Event] = (), *, locale: str = "en",
                 away: frozenset[int] = frozenset()) -> bytes:
    """The board of any game with a renderer, chosen by `state.game`; `away` seats are marked as AI-played."""
    return draw_board(state, events, locale=locale, away=away).png()


def draw_board(state: GameState, events: Sequence[Event] = (), *, locale: str = "en",
               away: frozenset[int] = frozenset()) -> Canvas:
    """The board of `render_board` on its palette canvas, not yet encoded (for a replay's frames)."""
    module = renderer_of(state.game)
    if module is None:
        raise ValueError(f"no board renderer for {state.game!r}")
    draw: Callable[..., Canvas] = importlib.import_module(module).draw
    return draw(state, events, locale=locale, away=away)
