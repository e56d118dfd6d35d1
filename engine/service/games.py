"""The games repository: locks, the state cache, reading games and saving them one change at a time."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from pydantic import ValidationError

from engine.core.errors import RuleError
from engine.core.models import Action, Event, GameState
from engine.core.views import is_view
from engine.games import get
from engine.replays import TURN_EVENT, Animator, Replays
from engine.service.models import Game, Outcome, Step

if TYPE_CHECKING:
    from engine.service.board import Turns
from engine.core.models import from_json, json_text, to_json
from engine.store import DuplicateInteraction, GameRow, Store, StoreUnavailable, VersionConflict
from engine.table import Lobby, winners_of

log = logging.getLogger("gamemaster.service")

Links = Callable[[str, str], str]
"""(text, its language) → the text as it is sent."""


def unlinked(text: str, language: str) -> str:
    return text


Renderer = Callable[[tuple[int, int], GameState, Sequence[Event], frozenset[int], str], bytes | None]
"""(cache key, state, last turn's events, seats away, language) → PNG bytes, or None for a game without a
picture; pure and synchronous, run in a worker thread."""


def lobby_of(game: GameRow) -> Lobby:
    """The game's table, or a clear error for this channel alone when its row can't be read."""
    try:
        return Lobby.model_validate(game.lobby)
    except ValidationError as err:
        raise RuleError("E_GAME_CORRUPT") from err


def parse_state(game: GameRow) -> GameState:
    """The game's state from its row, or a clear error for this channel alone when it can't be read."""
    if game.state is None:
        raise RuleError("E_NOT_STARTED")
    try:
        ruleset = get(game.ruleset)
        saved = json.loads(game.state)
        if isinstance(saved, dict) and ruleset.state_model.too_new(saved.get("schema_version")):
            raise RuleError("E_GAME_TOO_NEW")
        return from_json(ruleset.state_model, saved)
    except (ValidationError, ValueError, KeyError) as err:
        raise RuleError("E_GAME_CORRUPT") from err


class Games:
    """The shared core of the service: the store, the channel locks and the parsed states."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 seed_source: Callable[[], int] = lambda: secrets.randbits(63),
                 renderer: Renderer | None = None, animator: Animator | None = None,
                 max_games_per_guild: int | None = None, max_lobbies_per_member: int | None = None,
                 state_cache_size: int = 1024, takeover_after: float = 60.0,
                 links: Links | None = None) -> None:
        self.store = store
        self.links: Links = links or unlinked
        """What a post's lines become, in its language, before they are split into messages (the bot links the
        commands they quote)."""
        self.takeover_after = takeover_after
        """With several processes: how long work a process claimed (a due timer, a channel's posts, its AI seats'
        turns) stays its own without a sign of life, before another process takes it over."""
        self.max_games_per_guild = max_games_per_guild
        self.max_lobbies_per_member = max_lobbies_per_member
        """Open lobbies one member may host in a server at once."""
        self.state_cache_size = state_cache_size
        """How many games' parsed states stay in memory (the most recently used)."""
        self.renderer = renderer
        self._replays = Replays(animator)
        self.clock = clock
        self.seed_source = seed_source
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[int, GameState]] = {}
        self._on_timers: Callable[[], None] | None = None
        self._on_posts: Callable[[int], None] | None = None
        self._armed: dict[int, dict[int, float | None]] = {}
        self._turns: dict[int, Turns] = {}
        """Each game's board highlights (see Boards), kept as actions are saved."""
        self._runners: dict[int, asyncio.Task[None]] = {}
        """The task that plays each channel's AI seats and stand-ins (see Play)."""
        self._resumes: dict[int, float] = {}
        """When each game's resume timer is due, for the games whose AI seats this process is playing (see Play)."""

    @asynccontextmanager
    async def _command(self, channel_id: int, interaction_id: str | None) -> AsyncIterator[None]:
        """One command in the channel: run alone, and applied once per interaction (a re-delivery is refused)."""
        async with self.exclusive(channel_id):
            if interaction_id is not None and await self.store.seen(interaction_id):
                raise RuleError("E_DUPLICATE")
            with self.store.command(interaction_id) as command:
                try:
                    yield
                except DuplicateInteraction as err:
                    raise RuleError("E_DUPLICATE") from err
                except StoreUnavailable as err:  # said in words: whether the command took effect or not
                    log.warning("game storage failed in channel %s: %s", channel_id, err)
                    raise RuleError("E_STORAGE_AFTER" if command.committed else "E_STORAGE") from err
                except VersionConflict as err:  # another process changed the game meanwhile
                    log.info("channel %s: %s", channel_id, err)
                    raise RuleError("E_CONFLICT_AFTER" if command.committed else "E_CONFLICT") from err

    async def applied(self, interaction_id: str) -> bool:
        """Whether a command of this interaction was applied already, by this process or an earlier one."""
        return await self.store.seen(interaction_id)

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock that makes this process's commands in a channel run one at a time (RISK-DIG-51)."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def exclusive(self, channel_id: int) -> AsyncIterator[None]:
        """Run alone in the channel: among this process's tasks (its lock), then among every process that shares
        the store (the store's hold, taken by one task of a process at a time)."""
        async with self.lock(channel_id), self.store.hold(channel_id):
            yield

    async def live(self, channel_id: int) -> GameRow:
        game = await self.store.live_game(channel_id)
        if game is None:
            latest = await self.store.latest_game(channel_id)
            if latest is not None and latest.status == "finished" and latest.state is not None:
                state = self.state_of(latest)
                lobby = lobby_of(latest)
                winners = winners_of(get(latest.ruleset), state, lobby) or []
                names = {s.id: s.name for s in lobby.seats}
                raise RuleError("E_GAME_OVER", winner=", ".join(names.get(w, str(w)) for w in winners) or "nobody")
            raise RuleError("E_NO_GAME")
        return game

    def state_of(self, game: GameRow) -> GameState:
        """The game's state, parsed once per version; the most recently used states stay in memory."""
        cached = self._cache.pop(game.id, None)
        if cached is not None and cached[0] == game.version:
            self._cache[game.id] = cached  # the most recently used go last
            return cached[1]
        state = parse_state(game)
        self._remember(game.id, game.version, state)
        return state

    def _remember(self, game_id: int, version: int, state: GameState) -> None:
        self._cache.pop(game_id, None)
        self._cache[game_id] = (version, state)
        while len(self._cache) > self.state_cache_size:
            del self._cache[next(iter(self._cache))]  # the least recently used

    async def current(self, channel_id: int) -> tuple[Game, GameState | None]:
        """The channel's live game, or its last one (finished games stay viewable), and its whole position, secrets
        included: for the service's own use, tests and tools. What players are shown comes from `view`."""
        game, state = await self._current(channel_id)
        return Game.of(game, lobby_of(game)), state

    async def view(self, channel_id: int, viewer: int | None) -> tuple[Game, GameState | None]:
        """The channel's game (as `current`) and its position as `viewer` may see it (None: the public)."""
        game, state = await self._current(channel_id)
        return Game.of(game, lobby_of(game)), get(game.ruleset).view(state, viewer) if state is not None else None

    async def _current(self, channel_id: int) -> tuple[GameRow, GameState | None]:
        game = await self.store.live_game(channel_id) or await self.store.latest_game(channel_id)
        if game is None:
            raise RuleError("E_NO_GAME")
        return game, self.state_of(game) if game.state is not None else None

    async def _save(self, outcome: Outcome, action: Action, state: GameState, events: list[Event],
                    interaction_id: str | None, ai: bool) -> None:
        ruleset = outcome.ruleset
        game = outcome.game
        if is_view(state):
            raise ValueError("a view hides the game's secrets: no rule is applied to it and it is never saved")
        status = "finished" if ruleset.winners(state) is not None else "running"
        logged = [to_json(e) for e in events]
        fresh = await self.store.record_action(game, state.seq, action.player, to_json(action),
                                               logged, json_text(state), interaction_id, status, by_ai=ai,
                                               opens=sum(e.type == TURN_EVENT for e in events))
        self._remember(game.id, fresh.version, state)
        self._note_turns(game.id, state.seq, logged)
        outcome.game = fresh
        outcome.state = state
        outcome.steps.append(Step(seq=state.seq, actor=action.player, action=action, events=events, ai=ai))

    async def _save_lobby(self, outcome: Outcome, lobby: Lobby, status: str | None = None) -> None:
        game = outcome.game
        outcome.game = await self.store.update_game(game, lobby=lobby.model_dump(mode="json"), status=status)
        if outcome.state is not None:
            self._remember(game.id, outcome.game.version, outcome.state)
