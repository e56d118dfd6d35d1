"""The board picture of a game, rendered off the event loop."""

from __future__ import annotations

import asyncio

from engine.core.models import Event, GameState
from engine.games import get
from engine.service.games import Games, lobby_of
from engine.store import GameRow

RECENT = 400
"""How many logged actions to scan for the last turn's events."""


class Boards(Games):
    """The board picture with the last turn highlighted."""

    async def board(self, game: GameRow, state: GameState) -> bytes | None:
        """The board picture with the last turn highlighted, rendered off the event loop (None: no renderer)."""
        if self.renderer is None:
            return None
        events = await self.recent_turn_events(game)
        lobby = lobby_of(game)
        away = frozenset(s.id for s in lobby.seats if lobby.absent(s.id))
        return await asyncio.to_thread(self.renderer, (game.id, game.version), state, events, away)

    async def recent_turn_events(self, game: GameRow) -> list[Event]:
        """Public events since the previous turn began: what the board highlights."""
        ruleset = get(game.ruleset)
        events = [ruleset.parse_event(e) for row in await self.store.recent_actions(game.id, RECENT)
                  for e in row.events]
        starts = [k for k, e in enumerate(events) if e.type == "turn_started"]
        first = starts[-2] if len(starts) >= 2 else 0
        return [e for e in events[first:] if e.private_to is None]
