"""The async game service: one game per channel, loaded, changed and saved one action at a time."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from engine.core.errors import RuleError, player_count_error
from engine.core.models import Action, Decision, Event, GameState, Seat
from engine.core.play import ai_random
from engine.core.ruleset import Ruleset
from engine.games import get
from engine.store import ChannelBusy, DuplicateInteraction, GameRow, Store

AI_NAMES = ("Ada", "Björn", "Chiyo", "Dmitri", "Eun-ji", "Farah")
MAX_AI_STEPS = 100_000
"""A safety valve: AI seats answering one command (an all-AI game plays out whole) stop after this many."""
RECENT = 400
"""How many logged actions to scan for the last turn's events."""

Renderer = Callable[[tuple[int, int], GameState, Sequence[Event]], bytes]
"""(cache key, state, last turn's events) → PNG bytes; pure and synchronous, run in a worker thread."""


class Lobby(BaseModel):
    """A game before it starts: its options and the seats taken so far (the host first)."""

    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[Seat] = Field(default_factory=list)
    ai_policy: str = "baseline"


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action with its events: a human's, or an AI seat's answering after it."""

    seq: int
    actor: int
    action: Action
    events: list[Event]
    ai: bool


@dataclass(slots=True)
class Outcome:
    """What a command did: the game row, the state after it, and the steps applied."""

    game: GameRow
    ruleset: Ruleset
    state: GameState | None
    steps: list[Step] = field(default_factory=list)
    duplicate: bool = False

    @property
    def events(self) -> list[Event]:
        return [e for step in self.steps for e in step.events]

    @property
    def pending(self) -> list[Decision]:
        return self.ruleset.pending(self.state) if self.state is not None else []

    @property
    def winners(self) -> list[int] | None:
        return self.ruleset.winners(self.state) if self.state is not None else None


class GameService:
    """Turns player commands into rule actions on the channel's game, safely and exactly once."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 seed_source: Callable[[], int] = lambda: secrets.randbits(63),
                 renderer: Renderer | None = None) -> None:
        self.store = store
        self.renderer = renderer
        self.clock = clock
        self.seed_source = seed_source
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[int, GameState]] = {}

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock that makes a channel's commands run one at a time (RISK-DIG-51)."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # -- reading

    async def live(self, channel_id: int) -> GameRow:
        game = await self.store.live_game(channel_id)
        if game is None:
            latest = await self.store.latest_game(channel_id)
            if latest is not None and latest.status == "finished" and latest.state is not None:
                state = self.state_of(latest)
                winners = get(latest.ruleset).winners(state) or []
                names = {s.id: s.name for s in Lobby.model_validate(latest.lobby).seats}
                raise RuleError("E_GAME_OVER", winner=", ".join(names.get(w, str(w)) for w in winners) or "nobody")
            raise RuleError("E_NO_GAME")
        return game

    def state_of(self, game: GameRow) -> GameState:
        """The game's state, parsed once per version."""
        cached = self._cache.get(game.id)
        if cached is not None and cached[0] == game.version:
            return cached[1]
        if game.state is None:
            raise RuleError("E_NOT_STARTED")
        ruleset = get(game.ruleset)
        try:
            state = ruleset.state_model.model_validate_json(game.state)
        except ValidationError as err:
            raise RuleError("E_GAME_CORRUPT") from err
        self._cache[game.id] = (game.version, state)
        return state

    async def current(self, channel_id: int) -> tuple[GameRow, GameState | None]:
        """The channel's live game, or its last one (finished games stay viewable)."""
        game = await self.store.live_game(channel_id) or await self.store.latest_game(channel_id)
        if game is None:
            raise RuleError("E_NO_GAME")
        return game, self.state_of(game) if game.state is not None else None

    # -- the lobby

    async def new_game(self, channel_id: int, guild_id: int | None, host: Seat, game: str,
                       options: dict[str, Any], ai_policy: str = "baseline") -> GameRow:
        try:
            ruleset = get(game)
        except KeyError as err:
            raise RuleError("E_UNKNOWN_GAME", game=game) from err
        try:
            validated = ruleset.options_model.model_validate(options)
        except ValidationError as err:
            problem = err.errors()[0]
            raise RuleError("E_BAD_OPTION", option=".".join(str(p) for p in problem["loc"]),
                            problem=problem["msg"]) from err
        lobby = Lobby(game=ruleset.name, options=validated.model_dump(mode="json"), seats=[host],
                      ai_policy=ai_policy)
        async with self.lock(channel_id):
            try:
                return await self.store.create_game(channel_id, guild_id, ruleset.name, host.id,
                                                    self.seed_source(), lobby.model_dump(mode="json"))
            except ChannelBusy as err:
                raise RuleError("E_CHANNEL_BUSY") from err

    async def _lobby(self, channel_id: int) -> tuple[GameRow, Lobby, Ruleset]:
        game = await self.live(channel_id)
        if game.status != "lobby":
            raise RuleError("E_ALREADY_STARTED")
        ruleset = get(game.ruleset)
        return game, Lobby.model_validate(game.lobby), ruleset

    def _host_name(self, lobby: Lobby, host_id: int) -> str:
        return next((s.name for s in lobby.seats if s.id == host_id), "the host")

    async def join(self, channel_id: int, seat: Seat) -> GameRow:
        async with self.lock(channel_id):
            game, lobby, ruleset = await self._lobby(channel_id)
            if any(s.id == seat.id for s in lobby.seats):
                raise RuleError("E_ALREADY_JOINED")
            _, most = ruleset.player_range(ruleset.options_model.model_validate(lobby.options))
            if len(lobby.seats) >= most:
                raise RuleError("E_GAME_FULL", mode=lobby.options.get("mode", ruleset.name), max=most)
            lobby.seats.append(seat)
            await self.store.update_game(game.id, game.version, lobby=lobby.model_dump(mode="json"))
            return await self.live(channel_id)

    async def add_ai(self, channel_id: int, by: int) -> GameRow:
        async with self.lock(channel_id):
            game, lobby, ruleset = await self._lobby(channel_id)
            if by != game.host_id:
                raise RuleError("E_NOT_HOST", host=self._host_name(lobby, game.host_id))
            _, most = ruleset.player_range(ruleset.options_model.model_validate(lobby.options))
            if len(lobby.seats) >= most:
                raise RuleError("E_GAME_FULL", mode=lobby.options.get("mode", ruleset.name), max=most)
            taken = {s.id for s in lobby.seats}
            ai_id = next(i for i in range(1, 100) if i not in taken)
            names = {s.name for s in lobby.seats}
            name = next((f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in names), f"AI {ai_id}")
            lobby.seats.append(Seat(id=ai_id, name=name, ai=True))
            await self.store.update_game(game.id, game.version, lobby=lobby.model_dump(mode="json"))
            return await self.live(channel_id)

    async def leave(self, channel_id: int, user_id: int) -> GameRow | None:
        """Leave a lobby; the host's seat passes to the next human, and an empty lobby closes."""
        async with self.lock(channel_id):
            game, lobby, _ = await self._lobby(channel_id)
            if not any(s.id == user_id for s in lobby.seats):
                raise RuleError("E_NOT_PLAYER")
            lobby.seats = [s for s in lobby.seats if s.id != user_id]
            humans = [s for s in lobby.seats if not s.ai]
            if not humans:
                await self.store.update_game(game.id, game.version, status="abandoned")
                return None
            host = humans[0].id if user_id == game.host_id else None
            await self.store.update_game(game.id, game.version, lobby=lobby.model_dump(mode="json"), host_id=host)
            return await self.live(channel_id)

    async def check_start(self, channel_id: int, by: int) -> tuple[GameRow, Lobby, Ruleset]:
        """Raise the error `start` would give, without changing anything."""
        game, lobby, ruleset = await self._lobby(channel_id)
        if by != game.host_id:
            raise RuleError("E_NOT_HOST", host=self._host_name(lobby, game.host_id))
        options = ruleset.options_model.model_validate(lobby.options)
        low, high = ruleset.player_range(options)
        if not low <= len(lobby.seats) <= high:
            raise player_count_error(lobby.options.get("mode", ruleset.name), low, high, len(lobby.seats))
        return game, lobby, ruleset

    async def start(self, channel_id: int, by: int) -> Outcome:
        """Seat the players in random order and deal; AI seats then play until a human must decide."""
        async with self.lock(channel_id):
            game, lobby, ruleset = await self.check_start(channel_id, by)
            options = ruleset.options_model.model_validate(lobby.options)
            seats = list(lobby.seats)
            random.Random(game.seed).shuffle(seats)
            state, events = ruleset.new_game(seats, options, game.seed)
            lobby.seats = seats
            await self.store.update_game(game.id, game.version, lobby=lobby.model_dump(mode="json"),
                                         state=state.model_dump_json(), status="running")
            game = await self.live(channel_id)
            outcome = Outcome(game=game, ruleset=ruleset, state=state,
                              steps=[Step(seq=0, actor=0, action=Action(type="start", player=by), events=events,
                                          ai=False)])
            await self._run_ai(outcome, lobby)
            return outcome

    async def abandon(self, channel_id: int, by: int, moderator: bool) -> GameRow:
        async with self.lock(channel_id):
            game = await self.live(channel_id)
            if by != game.host_id and not moderator:
                lobby = Lobby.model_validate(game.lobby)
                raise RuleError("E_NOT_HOST", host=self._host_name(lobby, game.host_id))
            await self.store.update_game(game.id, game.version, status="abandoned")
            await self.store.delete_timers(game.id)
            self._cache.pop(game.id, None)
            return game

    # -- play

    async def act(self, channel_id: int, user_id: int, data: dict[str, Any],
                  interaction_id: str | None = None) -> Outcome:
        """Apply one player command exactly once; RuleError leaves everything unchanged."""
        async with self.lock(channel_id):
            if interaction_id is not None and await self.store.action_by_interaction(interaction_id) is not None:
                game, state = await self.current(channel_id)
                return Outcome(game=game, ruleset=get(game.ruleset), state=state, duplicate=True)
            game = await self.live(channel_id)
            if game.status != "running":
                raise RuleError("E_NOT_STARTED")
            ruleset = get(game.ruleset)
            state = self.state_of(game)
            try:
                action = ruleset.parse_action({**data, "player": user_id})
            except ValidationError as err:
                raise RuleError("E_BAD_ACTION", problem=err.errors()[0]["msg"]) from err
            new_state, events = ruleset.apply(state, action)
            outcome = Outcome(game=game, ruleset=ruleset, state=state)
            try:
                await self._save(outcome, action, new_state, events, interaction_id, ai=False)
            except DuplicateInteraction:
                game, state = await self.current(channel_id)
                return Outcome(game=game, ruleset=ruleset, state=state, duplicate=True)
            await self._run_ai(outcome, Lobby.model_validate(game.lobby))
            return outcome

    async def _save(self, outcome: Outcome, action: Action, state: GameState, events: list[Event],
                    interaction_id: str | None, ai: bool) -> None:
        ruleset = outcome.ruleset
        game = outcome.game
        status = "finished" if ruleset.winners(state) is not None else "running"
        fresh = await self.store.record_action(
            game, state.seq, action.player, action.model_dump(mode="json"),
            [e.model_dump(mode="json") for e in events], state.model_dump_json(), interaction_id, status,
        )
        self._cache[game.id] = (fresh.version, state)
        outcome.game = fresh
        outcome.state = state
        outcome.steps.append(Step(seq=state.seq, actor=action.player, action=action, events=events, ai=ai))

    async def _run_ai(self, outcome: Outcome, lobby: Lobby) -> None:
        """Let AI seats answer every decision that is theirs, each as its own logged action."""
        ai_seats = {s.id for s in lobby.seats if s.ai}
        ruleset = outcome.ruleset
        for _ in range(MAX_AI_STEPS):
            state = outcome.state
            if state is None or ruleset.winners(state) is not None:
                return
            turn = [d for d in ruleset.pending(state) if d.player in ai_seats]
            if not turn:
                return
            player = turn[0].player
            policy = ruleset.policy(lobby.ai_policy)
            action = policy.choose(state, player, ai_random(outcome.game.seed, state.seq))
            new_state, events = ruleset.apply(state, action)
            await self._save(outcome, action, new_state, events, None, ai=True)

    async def resume_all(self) -> list[Outcome]:
        """After a restart, let AI seats finish every decision that is theirs (a crash may have cut them off)."""
        outcomes: list[Outcome] = []
        for game in await self.store.running_games():
            async with self.lock(game.channel_id):
                fresh = await self.store.game(game.id)
                if fresh is None or fresh.status != "running":
                    continue
                try:
                    state = self.state_of(fresh)
                except RuleError:
                    continue  # a corrupt game stays paused; its channel is told when someone acts there
                outcome = Outcome(game=fresh, ruleset=get(fresh.ruleset), state=state)
                await self._run_ai(outcome, Lobby.model_validate(fresh.lobby))
                if outcome.steps:
                    outcomes.append(outcome)
        return outcomes

    async def board(self, game: GameRow, state: GameState) -> bytes | None:
        """The board picture with the last turn highlighted, rendered off the event loop (None: no renderer)."""
        if self.renderer is None:
            return None
        events = await self.recent_turn_events(game)
        return await asyncio.to_thread(self.renderer, (game.id, game.version), state, events)

    async def recent_turn_events(self, game: GameRow) -> list[Event]:
        """Public events since the previous turn began: what the board highlights."""
        ruleset = get(game.ruleset)
        events = [ruleset.parse_event(e) for row in await self.store.recent_actions(game.id, RECENT)
                  for e in row.events]
        starts = [k for k, e in enumerate(events) if e.type == "turn_started"]
        first = starts[-2] if len(starts) >= 2 else 0
        return [e for e in events[first:] if e.private_to is None]

    async def history(self, channel_id: int, offset: int = 0, limit: int = 20) -> tuple[GameRow, list[Any], int]:
        """A page of the action log with the events of each action."""
        game, _ = await self.current(channel_id)
        rows = await self.store.actions(game.id, offset, limit)
        return game, rows, await self.store.count_actions(game.id)
