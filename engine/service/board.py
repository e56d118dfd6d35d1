"""The board picture of a game, rendered off the event loop, with the last turn's events kept at hand."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from engine.core.i18n import DEFAULT_LOCALE
from engine.core.models import Event, GameState, from_json
from engine.games import get
from engine.replays import TURN_EVENT
from engine.service.games import Games, lobby_of
from engine.store import GameRow

RECENT = 400
"""How many logged actions to scan for the last turn's events when a game's are not in memory."""


@dataclass(slots=True)
class Turns:
    """A game's public events since the previous turn began, as of action `seq`: what the board highlights."""

    seq: int
    events: list[dict[str, Any]] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    """Where each kept turn begins in `events`."""

    def add(self, seq: int, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event.get("private_to") is not None:
                continue
            if event.get("type") == TURN_EVENT:
                self.starts.append(len(self.events))
                if len(self.starts) > 2:  # keep the last turn and this one
                    cut = self.starts[-2]
                    self.events = self.events[cut:]
                    self.starts = [s - cut for s in self.starts[-2:]]
            self.events.append(event)
        self.seq = seq


class Boards(Games):
    """The board picture with the last turn highlighted."""

    def _note_turns(self, game_id: int, seq: int, events: list[dict[str, Any]]) -> None:
        """Keep the game's highlights up to date as an action is saved (no re-reading of the log)."""
        turns = self._turns.get(game_id)
        if turns is not None and turns.seq == seq - 1:
            turns.add(seq, events)
        else:
            self._turns.pop(game_id, None)

    async def _turn_events(self, game: GameRow, seq: int) -> list[dict[str, Any]]:
        """The public events since the previous turn began, as of action `seq`."""
        turns = self._turns.get(game.id)
        if turns is None or turns.seq != seq:
            turns = Turns(seq=seq)
            for row in await self.store.recent_actions(game.id, RECENT):
                turns.add(row.seq, row.events)
            turns.seq = seq
            self._turns[game.id] = turns
            while len(self._turns) > self.state_cache_size:
                del self._turns[next(iter(self._turns))]
        start = turns.starts[-2] if len(turns.starts) >= 2 else 0
        return turns.events[start:]

    async def board(self, channel_id: int, language: str | None = None) -> bytes | None:
        """The channel's board picture with the last turn highlighted, in `language` (default: the game's),
        rendered off the event loop (None: no renderer, or no game under way)."""
        game, state = await self._current(channel_id)
        if self.renderer is None or state is None:
            return None
        events = await self.recent_turn_events(game, state)
        lobby = lobby_of(game)
        away = frozenset(s.id for s in lobby.seats if lobby.absent(s.id))
        public = get(game.ruleset).view(state, None)
        return await asyncio.to_thread(self.renderer, (game.id, game.version), public, events, away,
                                       language or lobby.language)

    async def picture(self, game: str, post_id: int, state: dict[str, Any], events: list[dict[str, Any]],
                      away: list[int], language: str = DEFAULT_LOCALE) -> bytes | None:
        """The board a post shows (`state`: the public view it stored), rendered off the event loop (None: no
        renderer, or a game without one)."""
        if self.renderer is None:
            return None
        ruleset = get(game)
        position = from_json(ruleset.state_model, state)
        return await asyncio.to_thread(self.renderer, (-post_id, 0), position,
                                       [ruleset.parse_event(e) for e in events], frozenset(away), language)

    async def recent_turn_events(self, game: GameRow, state: GameState) -> list[Event]:
        """Public events since the previous turn began: what the board highlights."""
        ruleset = get(game.ruleset)
        return [ruleset.parse_event(e) for e in await self._turn_events(game, state.seq)]
