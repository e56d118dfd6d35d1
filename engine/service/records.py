"""Records: the export, the full record, the replay GIF, the history and the server's standings."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from engine.core.errors import RuleError
from engine.core.models import to_json
from engine.core.record import GameRecord, PublicEntry, PublicRecord
from engine.games import get
from engine.replays import TURN_EVENT, Replay
from engine.service.games import Games, lobby_of, parse_state
from engine.service.models import Entry, HistoryPage
from engine.store import GameRow
from engine.table import placements, winners_of

log = logging.getLogger("gamemaster.service")


class Records(Games):
    """What a game leaves behind and what players may read of it."""

    async def export(self, channel_id: int) -> GameRecord | PublicRecord:
        """The record for anyone who asks: the whole record once the game is over; while it runs, only what
        the public may see, since the seed and the logged actions would let anyone foresee every die and learn
        every secret."""
        game, state = await self._current(channel_id)
        if state is None:
            raise RuleError("E_NOT_STARTED")
        if game.status != "running":
            return await self._full_record(game)
        lobby = lobby_of(game)
        history = [PublicEntry(seq=row.seq, actor=row.actor, type=str(row.action.get("type", "?")),
                               events=[e for e in row.events if e.get("private_to") is None])
                   for row in await self.store.actions(game.id)]
        return PublicRecord(game=game.ruleset, options=lobby.options, seats=lobby.first_seats or lobby.seats,
                            position=to_json(get(game.ruleset).view(state, None)), history=history)

    async def record(self, channel_id: int) -> GameRecord:
        """The whole game record (seed, options, seats, actions) that replays the game exactly: for a game that
        is over, and for the bot's own use (the demo, replays); `export` is what players get."""
        game, state = await self._current(channel_id)
        if state is None:
            raise RuleError("E_NOT_STARTED")
        return await self._full_record(game)

    async def _full_record(self, game: GameRow) -> GameRecord:
        """The game's whole record, seed included, for replaying it inside the service: never handed out."""
        state = self.state_of(game)
        lobby = lobby_of(game)
        actions = [row.action for row in await self.store.actions(game.id)]
        return GameRecord(game=game.ruleset, seed=game.seed, options=lobby.options,
                          seats=lobby.first_seats or lobby.seats, actions=actions, schema_version=state.schema_version)

    async def replay_gif(self, channel_id: int, max_bytes: int,
                         on_wait: Callable[[], Awaitable[None]] | None = None) -> Replay | None:
        """The game so far as an animated GIF of at most `max_bytes`, one frame per turn or as many as fit (None: no
        animator, or no turn played yet). The moves are replayed and drawn in a worker thread, one replay at a time
        per server (`on_wait()` is told when this one waits its turn); a picture of the same version is reused."""
        game, state = await self._current(channel_id)
        if state is None:
            raise RuleError("E_NOT_STARTED")
        return await self._replays.replay(game.guild_id, (game.id, game.version), lambda: self._full_record(game),
                                          max_bytes, on_wait)

    async def stats(self, guild_id: int) -> dict[str, dict[int, list[tuple[int, bool]]]]:
        """Per game, each human's (place, won) in the server's finished games; a draw places but wins nothing.

        A game's standings are worked out from its state once, the first time it is counted, and stored.
        """
        for game in await self.store.unranked_games(guild_id):
            try:
                state = parse_state(game)  # not kept in the cache: finished games are read once here
                lobby = lobby_of(game)
                ruleset = get(game.ruleset)
                won = set(winners_of(ruleset, state, lobby) or [])
                places = placements(ruleset, state, lobby)
            except (RuleError, KeyError, ValueError):
                log.warning("game %s can't be read; /stats leaves it out", game.id)
                continue
            humans = set(lobby.humans())
            await self.store.add_standings(game.id, [(seat_id, place, seat_id in won, seat_id in humans)
                                                     for seat_id, place in places.items()])
        table: dict[str, dict[int, list[tuple[int, bool]]]] = {}
        for ruleset_name, user_id, place, won in await self.store.standings(guild_id):
            table.setdefault(ruleset_name, {}).setdefault(user_id, []).append((place, won))
        return table

    async def history(self, channel_id: int, page: int, size: int) -> HistoryPage:
        """Page `page` (1 = the latest) of the action log as the public saw it, each entry with the turn it belongs
        to."""
        game, state = await self._current(channel_id)
        total = await self.store.count_actions(game.id)
        pages = max(1, -(-total // size))
        page = min(max(page, 1), pages)
        stop = total - (page - 1) * size
        start_at = max(0, stop - size)
        ruleset = get(game.ruleset)
        entries = []
        for row in await self.store.action_page(game.id, start_at, stop - start_at):
            events = [ruleset.parse_event(e) for e in row.events if e.get("private_to") is None]
            entries.append(Entry(seq=row.seq, turn=row.turns - sum(e.type == TURN_EVENT for e in events),
                                 actor=row.actor, kind=str(row.action.get("type", "?")), events=events))
        public = None if state is None else ruleset.view(state, None)
        return HistoryPage(game_id=game.id, ruleset=game.ruleset, state=public, page=page, pages=pages, total=total,
                           entries=entries)
