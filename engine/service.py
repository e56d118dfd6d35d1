"""The async game service: one game per channel, loaded, changed and saved one action at a time."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from engine.core.errors import RuleError, first_problem, player_count_error
from engine.core.i18n import mention
from engine.core.models import Action, Decision, Event, GameState, Seat
from engine.core.play import ai_random
from engine.core.record import GameRecord, PublicEntry, PublicRecord
from engine.core.ruleset import Ruleset
from engine.core.seats import RESEAT, reseat
from engine.games import get
from engine.replays import TURN_EVENT, Animator, Replay, Replays
from engine.store import (
    ActionRow,
    ChannelBusy,
    DuplicateInteraction,
    GameRow,
    GuildFull,
    HostFull,
    Store,
    StoreUnavailable,
    TimerRow,
)
from engine.table import (
    CLOCK_OPTIONS,
    MAX_DEADLINE_HOURS,
    MAX_VACATION_DAYS,
    MIN_DEADLINE_HOURS,
    REMINDERS,
    Clock,
    Lobby,
    Result,
    placements,
    winners_of,
)

log = logging.getLogger("gamemaster.service")

AI_NAMES = ("Ada", "Björn", "Chiyo", "Dmitri", "Eun-ji", "Farah")
MAX_AI_STEPS = 100_000
"""A safety valve: AI seats answering one command (an all-AI game plays out whole) stop after this many."""
LOBBY_DAYS = 7
"""A lobby that has not started after this many days closes, with a notice."""
RECENT = 400
"""How many logged actions to scan for the last turn's events."""

Renderer = Callable[[tuple[int, int], GameState, Sequence[Event], frozenset[int]], bytes | None]
"""(cache key, state, last turn's events, seats away) → PNG bytes, or None for a game without a picture; pure and
synchronous, run in a worker thread."""


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action with its events: a human's, or an AI seat's answering after it."""

    seq: int
    actor: int
    action: Action
    events: list[Event]
    ai: bool


@dataclass(frozen=True, slots=True)
class Alarm:
    """A timer that went off: a reminder, or a deadline the seat missed (and what was done about it)."""

    kind: str
    """"reminder", "timeout" (a stand-in played this decision), "absent" (it plays on until /game back), or
    "expired" (a lobby that never started was closed; `player` is its host)."""
    player: int
    outcome: Outcome
    due: float


@dataclass(frozen=True, slots=True)
class VoteTally:
    kind: str
    voters: list[int]
    needed: list[int]
    outcome: Outcome | None
    """Set when the vote carried and ended the game."""


@dataclass(frozen=True, slots=True)
class HistoryPage:
    game: GameRow
    state: GameState | None
    page: int
    pages: int
    total: int
    entries: list[tuple[int, ActionRow]]
    """(turn, logged action), oldest first."""


@dataclass(slots=True)
class Outcome:
    """What a command did: the game row, the state after it, and the steps applied."""

    game: GameRow
    ruleset: Ruleset
    state: GameState | None
    steps: list[Step] = field(default_factory=list)
    duplicate: bool = False
    new_host: int | None = None
    """Set when the host left the game and the host's powers passed to this seat."""
    deadlines: dict[int, float] = field(default_factory=dict)
    """When each pending human seat's clock runs out (epoch seconds)."""
    waiting_before: frozenset[int] | None = None
    """The seats whose decision was pending before the command: a post about it pings only the others. Unless
    given, the seats pending in the state the outcome starts from."""

    def __post_init__(self) -> None:
        if self.waiting_before is None:
            state = self.state
            self.waiting_before = frozenset(d.player for d in self.ruleset.pending(state)) if state else frozenset()

    @property
    def events(self) -> list[Event]:
        return [e for step in self.steps for e in step.events]

    @property
    def pending(self) -> list[Decision]:
        return self.ruleset.pending(self.state) if self.state is not None else []

    @property
    def winners(self) -> list[int] | None:
        return self.ruleset.winners(self.state) if self.state is not None else None


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
        return ruleset.state_model.model_validate(saved)
    except (ValidationError, ValueError, KeyError) as err:
        raise RuleError("E_GAME_CORRUPT") from err


class GameService:
    """Turns player commands into rule actions on the channel's game, safely and exactly once."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 seed_source: Callable[[], int] = lambda: secrets.randbits(63),
                 renderer: Renderer | None = None, animator: Animator | None = None,
                 max_games_per_guild: int | None = None, max_lobbies_per_member: int | None = None,
                 state_cache_size: int = 1024) -> None:
        self.store = store
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
        self._armed: dict[int, dict[int, float | None]] = {}

    @asynccontextmanager
    async def _command(self, channel_id: int, interaction_id: str | None) -> AsyncIterator[None]:
        """One command in the channel: run alone, and applied once per interaction (a re-delivery is refused)."""
        async with self.lock(channel_id):
            if interaction_id is not None and await self.store.seen(interaction_id):
                raise RuleError("E_DUPLICATE")
            try:
                with self.store.command(interaction_id):
                    yield
            except DuplicateInteraction as err:
                raise RuleError("E_DUPLICATE") from err

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

    async def current(self, channel_id: int) -> tuple[GameRow, GameState | None]:
        """The channel's live game, or its last one (finished games stay viewable)."""
        game = await self.store.live_game(channel_id) or await self.store.latest_game(channel_id)
        if game is None:
            raise RuleError("E_NO_GAME")
        return game, self.state_of(game) if game.state is not None else None

    # -- the lobby

    async def new_game(self, channel_id: int, guild_id: int | None, host: Seat, game: str,
                       options: dict[str, Any], ai_policy: str = "baseline",
                       interaction_id: str | None = None) -> GameRow:
        try:
            ruleset = get(game)
        except KeyError as err:
            raise RuleError("E_UNKNOWN_GAME", game=game) from err
        fields = ruleset.options_model.model_fields
        own = {k: v for k, v in options.items() if k in fields or k not in CLOCK_OPTIONS}
        try:
            chosen = ruleset.options_model.model_validate(own).model_dump(mode="json")
            clock = Clock.from_options({**options, **chosen})
        except ValidationError as err:
            option, problem = first_problem(err)
            raise RuleError("E_BAD_OPTION", option=option, problem=problem) from err
        lobby = Lobby(game=ruleset.name, options=chosen, seats=[host], ai_policy=ai_policy, clock=clock)
        async with self._command(channel_id, interaction_id):
            try:
                row = await self.store.create_game(channel_id, guild_id, ruleset.name, host.id,
                                                   self.seed_source(), lobby.model_dump(mode="json"),
                                                   max_live=self.max_games_per_guild,
                                                   max_hosted=self.max_lobbies_per_member,
                                                   expires_at=self.clock() + LOBBY_DAYS * 86400)
            except ChannelBusy as err:
                raise RuleError("E_CHANNEL_BUSY") from err
            except GuildFull as err:
                raise RuleError("E_TOO_MANY_GAMES", most=self.max_games_per_guild) from err
            except HostFull as err:
                raise RuleError("E_TOO_MANY_LOBBIES", most=self.max_lobbies_per_member) from err
            self._timers_changed()
            return row

    async def _lobby(self, channel_id: int) -> tuple[GameRow, Lobby, Ruleset]:
        game = await self.live(channel_id)
        if game.status != "lobby":
            raise RuleError("E_ALREADY_STARTED")
        ruleset = get(game.ruleset)
        return game, lobby_of(game), ruleset

    async def join(self, channel_id: int, seat: Seat, interaction_id: str | None = None) -> GameRow:
        async with self._command(channel_id, interaction_id):
            game, lobby, ruleset = await self._lobby(channel_id)
            if any(s.id == seat.id for s in lobby.seats):
                raise RuleError("E_ALREADY_JOINED")
            _, most = ruleset.player_range(ruleset.options_model.model_validate(lobby.options))
            if len(lobby.seats) >= most:
                raise RuleError("E_GAME_FULL", mode=lobby.options.get("mode", ruleset.name), max=most)
            lobby.seats.append(seat)
            return await self.store.update_game(game, lobby=lobby.model_dump(mode="json"))

    async def add_ai(self, channel_id: int, by: int, interaction_id: str | None = None) -> GameRow:
        async with self._command(channel_id, interaction_id):
            game, lobby, ruleset = await self._lobby(channel_id)
            if by != game.host_id:
                raise RuleError("E_NOT_HOST", host=mention(game.host_id))
            _, most = ruleset.player_range(ruleset.options_model.model_validate(lobby.options))
            if len(lobby.seats) >= most:
                raise RuleError("E_GAME_FULL", mode=lobby.options.get("mode", ruleset.name), max=most)
            taken = {s.id for s in lobby.seats}
            ai_id = next(i for i in range(1, 100) if i not in taken)
            names = {s.name for s in lobby.seats}
            name = next((f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in names), f"AI {ai_id}")
            lobby.seats.append(Seat(id=ai_id, name=name, ai=True))
            return await self.store.update_game(game, lobby=lobby.model_dump(mode="json"))

    async def leave(self, channel_id: int, user_id: int, interaction_id: str | None = None) -> GameRow | None:
        """Leave a lobby; the host's seat passes to the next human, and an empty lobby closes."""
        async with self._command(channel_id, interaction_id):
            game, lobby, _ = await self._lobby(channel_id)
            if not any(s.id == user_id for s in lobby.seats):
                raise RuleError("E_NOT_PLAYER")
            lobby.seats = [s for s in lobby.seats if s.id != user_id]
            humans = [s for s in lobby.seats if not s.ai]
            if not humans:
                await self.store.update_game(game, status="abandoned")
                return None
            host = humans[0].id if user_id == game.host_id else None
            return await self.store.update_game(game, lobby=lobby.model_dump(mode="json"), host_id=host)

    async def check_start(self, channel_id: int, by: int) -> tuple[GameRow, Lobby, Ruleset]:
        """Raise the error `start` would give, without changing anything."""
        game, lobby, ruleset = await self._lobby(channel_id)
        if by != game.host_id:
            raise RuleError("E_NOT_HOST", host=mention(game.host_id))
        options = ruleset.options_model.model_validate(lobby.options)
        low, high = ruleset.player_range(options)
        if not low <= len(lobby.seats) <= high:
            raise player_count_error(lobby.options.get("mode", ruleset.name), low, high, len(lobby.seats))
        return game, lobby, ruleset

    async def start(self, channel_id: int, by: int, interaction_id: str | None = None) -> Outcome:
        """Seat the players in random order and deal; AI seats then play until a human must decide."""
        async with self._command(channel_id, interaction_id):
            game, lobby, ruleset = await self.check_start(channel_id, by)
            options = ruleset.options_model.model_validate(lobby.options)
            seats = list(lobby.seats)
            random.Random(game.seed).shuffle(seats)
            state, events = ruleset.new_game(seats, options, game.seed)
            lobby.seats = lobby.first_seats = seats
            game = await self.store.update_game(game, lobby=lobby.model_dump(mode="json"),
                                                state=state.model_dump_json(), status="running")
            await self.store.delete_timers(game.id)  # the lobby's expiry
            self._forget_clocks(game.id)
            outcome = Outcome(game=game, ruleset=ruleset, state=state, waiting_before=frozenset(),
                              steps=[Step(seq=0, actor=0, action=Action(type="start", player=by), events=events,
                                          ai=False)])
            await self._after(outcome, lobby)
            return outcome

    async def abandon(self, channel_id: int, by: int, moderator: bool, interaction_id: str | None = None) -> GameRow:
        async with self._command(channel_id, interaction_id):
            game = await self.live(channel_id)
            if by != game.host_id and not moderator:
                raise RuleError("E_NOT_HOST", host=mention(game.host_id))
            await self.store.update_game(game, status="abandoned")
            await self.store.delete_timers(game.id)
            self._forget_clocks(game.id)
            self._cache.pop(game.id, None)
            return game

    # -- play

    async def act(self, channel_id: int, user_id: int, data: dict[str, Any],
                  interaction_id: str | None = None, game_name: str | None = None) -> Outcome:
        """Apply one player command exactly once; RuleError leaves everything unchanged.

        With `game_name`, a channel playing another game refuses it: one game's commands never reach another's
        rules.
        """
        async with self.lock(channel_id):
            if interaction_id is not None and await self.store.seen(interaction_id):
                game, state = await self.current(channel_id)
                return Outcome(game=game, ruleset=get(game.ruleset), state=state, duplicate=True)
            game = await self.live(channel_id)
            if game.status != "running":
                raise RuleError("E_NOT_STARTED")
            ruleset = get(game.ruleset)
            if game_name is not None and ruleset.name != game_name:
                raise RuleError("E_OTHER_GAME", game=ruleset.title)
            lobby = lobby_of(game)
            state = self.state_of(game)
            stand_ins = lobby.stand_ins()
            if any(d.player in stand_ins for d in ruleset.pending(state)):
                healing = Outcome(game=game, ruleset=ruleset, state=state)  # a storage fault stopped AI seats
                await self._after(healing, lobby)
                game, state = healing.game, healing.state or state
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
            try:
                status = lobby.status.get(user_id)
                if status is not None and ((status.timeouts and not status.absent) or status.clock_left is not None):
                    if not status.absent:
                        status.timeouts = 0  # the count is of consecutive timeouts (RISK-DIG-48)
                    status.clock_left = None  # the decision a vacation held is answered
                    await self._save_lobby(outcome, lobby)
                await self._keep_a_host(outcome, lobby)
                await self._after(outcome, lobby)
            except StoreUnavailable:  # the player's action is saved; AI seats go on at the next command
                log.exception("game %s: storage failed after a %s", game.id, action.type)
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
        self._remember(game.id, fresh.version, state)
        outcome.game = fresh
        outcome.state = state
        outcome.steps.append(Step(seq=state.seq, actor=action.player, action=action, events=events, ai=ai))

    async def _save_lobby(self, outcome: Outcome, lobby: Lobby, status: str | None = None) -> None:
        game = outcome.game
        outcome.game = await self.store.update_game(game, lobby=lobby.model_dump(mode="json"), status=status)
        if outcome.state is not None:
            self._remember(game.id, outcome.game.version, outcome.state)

    async def _keep_a_host(self, outcome: Outcome, lobby: Lobby) -> None:
        """When the host is out of the game (resigned, kicked, eliminated), the next human still playing is host."""
        state = outcome.state
        if state is None or outcome.game.status != "running":
            return
        alive = set(outcome.ruleset.alive(state))
        heir = next((s.id for s in lobby.seats if not s.ai and s.id in alive), None)
        if outcome.game.host_id in alive or heir is None:
            return
        outcome.game = await self.store.update_game(outcome.game, host_id=heir)
        outcome.new_host = heir
        self._remember(outcome.game.id, outcome.game.version, state)

    async def _after(self, outcome: Outcome, lobby: Lobby) -> None:
        """After a command: AI seats and stand-ins play their decisions, then the seats' clocks are re-armed."""
        await self._run_ai(outcome, lobby)
        await self._arm(outcome, lobby)

    def _stand_in(self, outcome: Outcome, lobby: Lobby, player: int) -> Action:
        """What an AI stand-in plays for `player` (the ai policy, or the skip auto-play)."""
        state = outcome.state
        assert state is not None
        seat = lobby.seat(player)
        if seat is not None and not seat.ai and lobby.clock.timeout_action == "skip":
            return outcome.ruleset.timeout_action(state, player)
        policy = outcome.ruleset.policy(lobby.ai_policy)
        return policy.choose(state, player, ai_random(outcome.game.seed, state.seq))

    async def _play_for(self, outcome: Outcome, lobby: Lobby, players: set[int]) -> None:
        """Answer every decision of `players`, each as its own logged action, until none is theirs."""
        ruleset = outcome.ruleset
        for _ in range(MAX_AI_STEPS):
            state = outcome.state
            if state is None or ruleset.winners(state) is not None:
                return
            turn = [d for d in ruleset.pending(state) if d.player in players]
            if not turn:
                return
            action = self._stand_in(outcome, lobby, turn[0].player)
            new_state, events = ruleset.apply(state, action)
            await self._save(outcome, action, new_state, events, None, ai=True)

    async def _run_ai(self, outcome: Outcome, lobby: Lobby) -> None:
        """Let AI seats, and stand-ins for absent players (RISK-DIG-49), answer every decision that is theirs."""
        await self._play_for(outcome, lobby, lobby.stand_ins())

    # -- clocks

    async def _seat_clocks(self, game_id: int) -> dict[int, float | None]:
        """Which seats have timers armed, with their deadline: the timers table as this process last wrote it."""
        clocks = self._armed.get(game_id)
        if clocks is None:
            clocks = {}
            for timer in await self.store.timers(game_id):
                if timer.kind == "deadline":
                    clocks[timer.player] = timer.due_at
                else:
                    clocks.setdefault(timer.player, None)
            self._armed[game_id] = clocks
        return clocks

    def _forget_clocks(self, game_id: int) -> None:
        """The game's timers changed outside `_arm`: read them again next time."""
        self._armed.pop(game_id, None)

    async def _arm(self, outcome: Outcome, lobby: Lobby) -> None:
        """Give each pending human seat a deadline and reminders; disarm the seats no longer pending.

        A seat's clock runs while it stays pending and restarts when the decision comes back to it. Mid-turn
        commands usually change nothing here and cost no database work.
        """
        game, state, ruleset = outcome.game, outcome.state, outcome.ruleset
        armed = await self._seat_clocks(game.id)
        over = state is None or game.status != "running" or ruleset.winners(state) is not None
        waiting: dict[int, Decision] = {}
        if not over and lobby.paused is None:
            assert state is not None
            stand_ins = lobby.stand_ins()
            for decision in ruleset.pending(state):
                if decision.player not in stand_ins:
                    waiting.setdefault(decision.player, decision)
        for player in armed.keys() - waiting.keys():
            await self.store.delete_timers(game.id, player)
            armed.pop(player)
        now = self.clock()
        for player, decision in waiting.items():
            deadline = armed.get(player)
            if deadline is None:
                length = lobby.clock.seconds(decision, ruleset)
                if length is None:
                    continue
                if player in armed:  # reminders without their deadline: start the clock cleanly
                    await self.store.delete_timers(game.id, player)
                status = lobby.status.get(player)
                away = (status.vacation_until or 0.0) if status else 0.0
                left = status.clock_left if status and status.clock_left is not None else length
                deadline = armed[player] = await self._wind(game.id, player, max(now, away) + left, length)
            outcome.deadlines[player] = deadline

    async def _wind(self, game_id: int, player: int, due: float, length: float) -> float:
        """Arm one seat's deadline at `due` with its reminders (the timekeeper looks again); returns `due`."""
        now = self.clock()
        rows: list[tuple[str, float, dict[str, Any]]] = [("deadline", due, {"due": due})]
        rows += [("reminder", due - length * (1 - f), {"due": due}) for f in REMINDERS if due - length * (1 - f) > now]
        await self.store.add_timers(game_id, player, rows)
        self._timers_changed()
        return due

    def _timers_changed(self) -> None:
        if self._on_timers is not None:
            self._on_timers()

    async def _rewind(self, outcome: Outcome, lobby: Lobby, player: int | None = None) -> None:
        """Restart clocks from scratch: one seat's, or every seat's."""
        await self.store.delete_timers(outcome.game.id, player)
        self._forget_clocks(outcome.game.id)
        await self._arm(outcome, lobby)

    async def deadlines(self, game: GameRow) -> dict[int, float]:
        """Each seat's running deadline."""
        return {p: due for p, due in (await self._seat_clocks(game.id)).items() if due is not None}

    async def drop_timer(self, timer: TimerRow) -> None:
        """Remove a timer that could not be handled."""
        await self.store.delete_timer(timer.id)
        self._forget_clocks(timer.game_id)

    def on_timers_changed(self, callback: Callable[[], None]) -> None:
        """Call `callback` whenever timers may have been added (the timekeeper wakes up early)."""
        self._on_timers = callback

    async def fire(self, timer: TimerRow) -> Alarm | None:
        """A due timer: remind the seat, or play its missed decision; None when it no longer applies."""
        row = await self.store.game(timer.game_id)
        if row is None:
            await self.store.delete_timer(timer.id)
            return None
        async with self.lock(row.channel_id):
            self._forget_clocks(timer.game_id)  # this timer goes now, whatever happens
            game = await self.store.game(timer.game_id)
            if game is None or timer.id not in {t.id for t in await self.store.timers(game.id)}:
                return None  # disarmed or handled meanwhile
            if timer.kind == "expiry":
                return await self._expire(game, timer)
            lobby = lobby_of(game)
            try:
                state = self.state_of(game) if game.status == "running" and lobby.paused is None else None
            except RuleError:
                state = None
            ruleset = get(game.ruleset)
            decision = next((d for d in ruleset.pending(state) if d.player == timer.player), None) if state else None
            if decision is None:
                await self.store.delete_timer(timer.id)
                return None
            outcome = Outcome(game=game, ruleset=ruleset, state=state)
            due = float(timer.payload.get("due", timer.due_at))
            if timer.kind == "reminder":
                await self.store.delete_timer(timer.id)
                now = self.clock()
                later = [t for t in await self.store.timers(game.id) if t.player == timer.player and
                         t.kind == "reminder" and timer.due_at < t.due_at <= now]
                if due <= now or later:
                    return None  # after downtime: the timeout itself, or the latest reminder, says it
                outcome.deadlines[timer.player] = due
                return Alarm(kind="reminder", player=timer.player, outcome=outcome, due=due)
            await self._play_for(outcome, lobby, {timer.player})  # RISK-DIG-42: the stand-in plays it
            await self.store.delete_timers(game.id, timer.player)  # a decision of theirs that follows gets a new clock
            status = lobby.status_of(timer.player)
            status.clock_left = None
            status.timeouts += decision.kind not in ruleset.reaction_kinds  # a missed defence: ruling 22
            newly_absent = not status.absent and status.timeouts >= lobby.clock.absent_after
            status.absent = status.absent or newly_absent  # RISK-DIG-48
            await self._save_lobby(outcome, lobby)
            await self._after(outcome, lobby)
            return Alarm(kind="absent" if newly_absent else "timeout", player=timer.player, outcome=outcome,
                         due=due)

    async def _expire(self, game: GameRow, timer: TimerRow) -> Alarm | None:
        """Close a lobby that never started (LOBBY_DAYS after it opened)."""
        await self.store.delete_timer(timer.id)
        if game.status != "lobby":
            return None
        game = await self.store.update_game(game, status="abandoned")
        return Alarm(kind="expired", player=game.host_id, outcome=Outcome(game=game, ruleset=get(game.ruleset),
                                                                          state=None), due=timer.due_at)

    async def resume_all(self) -> list[Outcome]:
        """After a restart, let AI seats finish every decision that is theirs (a crash may have cut them off)."""
        for lobby in await self.store.lobbies_without_expiry():  # opened before lobbies expired
            await self.store.add_timers(lobby.id, 0, [("expiry", lobby.created_at + LOBBY_DAYS * 86400, {})])
        outcomes: list[Outcome] = []
        for game in await self.store.running_games():
            async with self.lock(game.channel_id):
                fresh = await self.store.game(game.id)
                if fresh is None or fresh.status != "running":
                    continue
                try:
                    outcome = Outcome(game=fresh, ruleset=get(fresh.ruleset), state=self.state_of(fresh))
                    await self._after(outcome, lobby_of(fresh))  # clocks a crash left unarmed too
                except Exception:  # one damaged game must not keep the others, or the bot, from starting
                    log.exception("game %s could not resume; its channel is told when someone acts there", game.id)
                    continue
                if outcome.steps:
                    outcomes.append(outcome)
        return outcomes

    # -- the table: absences, moderation, votes

    async def _running(self, channel_id: int) -> tuple[Outcome, Lobby]:
        game = await self.live(channel_id)
        if game.status != "running":
            raise RuleError("E_NOT_STARTED")
        return Outcome(game=game, ruleset=get(game.ruleset), state=self.state_of(game)), lobby_of(game)

    @staticmethod
    def _host_only(outcome: Outcome, by: int, moderator: bool) -> None:
        if by != outcome.game.host_id and not moderator:
            raise RuleError("E_NOT_HOST", host=mention(outcome.game.host_id))

    def _playing_human(self, outcome: Outcome, lobby: Lobby, user_id: int) -> None:
        """Refuse unless `user_id` is a human seat still in the game."""
        seat = lobby.seat(user_id)
        if seat is None or seat.ai:
            raise RuleError("E_NOT_PLAYER")
        assert outcome.state is not None
        if user_id not in outcome.ruleset.alive(outcome.state):
            raise RuleError("E_ELIMINATED")

    async def vacation(self, channel_id: int, user_id: int, days: int,
                       interaction_id: str | None = None) -> tuple[Outcome, float]:
        """Stretch the seat's deadlines for `days` (1–14); returns when the vacation ends."""
        if not 1 <= days <= MAX_VACATION_DAYS:
            raise RuleError("E_VACATION_DAYS", most=MAX_VACATION_DAYS)
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._playing_human(outcome, lobby, user_id)
            now = self.clock()
            until = now + days * 86400
            status = lobby.status_of(user_id)
            running = (await self.deadlines(outcome.game)).get(user_id)
            if running is not None and status.clock_left is None:
                status.clock_left = max(0.0, running - max(now, status.vacation_until or 0.0))
            status.vacation_until = until
            await self._save_lobby(outcome, lobby)
            await self._rewind(outcome, lobby, user_id)
            return outcome, until

    async def back(self, channel_id: int, user_id: int, interaction_id: str | None = None) -> Outcome:
        """End an absence or a vacation: the player decides again, with what was left of the clock (a decision
        that came to them while away gets a whole one)."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._playing_human(outcome, lobby, user_id)
            status = lobby.status.get(user_id)
            if status is None or not (status.absent or status.timeouts or status.vacation_until):
                raise RuleError("E_NOT_AWAY")
            held = lobby.status.pop(user_id).clock_left
            if held is not None:
                lobby.status_of(user_id).clock_left = held
            await self._save_lobby(outcome, lobby)
            await self._rewind(outcome, lobby, user_id)
            return outcome

    async def pause(self, channel_id: int, by: int, moderator: bool, interaction_id: str | None = None) -> Outcome:
        """Stop every clock until `resume`; players may still play, without deadlines (ruling 16)."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._host_only(outcome, by, moderator)
            if lobby.paused is not None:
                raise RuleError("E_PAUSED")
            now = self.clock()
            lobby.paused = {p: max(0.0, due - now) for p, due in (await self.deadlines(outcome.game)).items()}
            await self._save_lobby(outcome, lobby)
            await self.store.delete_timers(outcome.game.id)
            self._forget_clocks(outcome.game.id)
            return outcome

    async def resume(self, channel_id: int, by: int, moderator: bool, interaction_id: str | None = None) -> Outcome:
        """Restart the clocks where they stopped."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._host_only(outcome, by, moderator)
            if lobby.paused is None:
                raise RuleError("E_NOT_PAUSED")
            left, lobby.paused = lobby.paused, None
            await self._save_lobby(outcome, lobby)
            now = self.clock()
            assert outcome.state is not None
            armed = await self._seat_clocks(outcome.game.id)
            for decision in outcome.ruleset.pending(outcome.state):
                player = decision.player
                length = lobby.clock.seconds(decision, outcome.ruleset)
                if player in left and length is not None and player not in armed:
                    armed[player] = await self._wind(outcome.game.id, player, now + left[player], length)
            await self._after(outcome, lobby)
            return outcome

    async def set_deadline(self, channel_id: int, by: int, moderator: bool, hours: float | None,
                           interaction_id: str | None = None) -> Outcome:
        """Change the turn deadline (None: off); running clocks restart with the new length."""
        if hours is not None and not MIN_DEADLINE_HOURS <= hours <= MAX_DEADLINE_HOURS:
            raise RuleError("E_DEADLINE_RANGE", low=int(MIN_DEADLINE_HOURS), high=int(MAX_DEADLINE_HOURS))
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._host_only(outcome, by, moderator)
            lobby.clock = lobby.clock.model_copy(update={"turn_hours": hours})
            await self._save_lobby(outcome, lobby)
            await self._rewind(outcome, lobby)
            return outcome

    async def kick(self, channel_id: int, by: int, moderator: bool, target: int,
                   interaction_id: str | None = None) -> Outcome:
        """Remove a seat from the game; the rules decide what happens to its pieces (RISK-DIG-30, DIG-50)."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._host_only(outcome, by, moderator)
            assert outcome.state is not None
            if target not in outcome.ruleset.alive(outcome.state):
                raise RuleError("E_NOT_PLAYER_TARGET", player=self._seat_name(lobby, target))
            action = outcome.ruleset.parse_action({"type": "remove", "target": target, "player": by})
            new_state, events = outcome.ruleset.apply(outcome.state, action)
            await self._save(outcome, action, new_state, events, None, ai=False)
            await self._keep_a_host(outcome, lobby)
            await self._after(outcome, lobby)
            return outcome

    async def replace(self, channel_id: int, by: int, moderator: bool, old: int, new: Seat,
                      interaction_id: str | None = None) -> Outcome:
        """A substitute takes over a human seat: its pieces, cards and turn (the record logs the swap)."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._host_only(outcome, by, moderator)
            assert outcome.state is not None
            seat = lobby.seat(old)
            if seat is None or seat.ai or old not in outcome.ruleset.alive(outcome.state):
                raise RuleError("E_NOT_PLAYER_TARGET", player=self._seat_name(lobby, old))
            if lobby.seat(new.id) is not None:
                raise RuleError("E_ALREADY_SEATED", player=new.name)
            substitute = new.model_copy(update={"colour": seat.colour})
            new_state = reseat(outcome.state, old, substitute)
            entry = {"type": RESEAT, "player": old, "seat": substitute.model_dump(mode="json")}
            fresh = await self.store.record_action(outcome.game, new_state.seq, by, entry, [],
                                                   new_state.model_dump_json(), None)
            lobby.seats = [substitute if s.id == old else s for s in lobby.seats]
            lobby.status.pop(old, None)
            lobby.votes = {k: [v for v in vs if v != old] for k, vs in lobby.votes.items()}  # nobody voted for them
            outcome.game = await self.store.update_game(fresh, lobby=lobby.model_dump(mode="json"),
                                                        host_id=substitute.id if fresh.host_id == old else None)
            outcome.state = new_state
            outcome.steps.append(Step(seq=new_state.seq, actor=by, action=Action(type=RESEAT, player=old), events=[],
                                      ai=False))
            self._remember(fresh.id, outcome.game.version, new_state)
            await self._rewind(outcome, lobby, old)
            return outcome

    def _seat_name(self, lobby: Lobby, seat_id: int) -> str:
        seat = lobby.seat(seat_id)
        return seat.name if seat else f"<@{seat_id}>"

    async def vote(self, channel_id: int, user_id: int, kind: str, interaction_id: str | None = None) -> VoteTally:
        """Vote to end the game as a draw, or by surrender to the leader; it carries when every remaining
        human agrees. `withdraw` takes back the user's votes."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._playing_human(outcome, lobby, user_id)
            assert outcome.state is not None
            alive = outcome.ruleset.alive(outcome.state)
            needed = [h for h in lobby.humans() if h in alive and not lobby.absent(h)] or [user_id]
            if kind == "withdraw":
                lobby.votes = {k: [v for v in vs if v != user_id] for k, vs in lobby.votes.items()}
                await self._save_lobby(outcome, lobby)
                return VoteTally(kind=kind, voters=[], needed=needed, outcome=None)
            if kind not in ("draw", "surrender"):
                raise RuleError("E_BAD_VOTE")
            voters = lobby.votes.setdefault(kind, [])
            if user_id not in voters:
                voters.append(user_id)
            carried = set(needed) <= set(voters)
            if carried:
                winners = [] if kind == "draw" else outcome.ruleset.ranking(outcome.state)[:1]
                lobby.result = Result(kind=kind, winners=winners)  # type: ignore[arg-type]
                await self._save_lobby(outcome, lobby, status="finished")
                await self.store.delete_timers(outcome.game.id)
                self._forget_clocks(outcome.game.id)
            else:
                await self._save_lobby(outcome, lobby)
            return VoteTally(kind=kind, voters=list(voters), needed=needed, outcome=outcome if carried else None)

    # -- history, records and results

    async def export(self, channel_id: int) -> GameRecord | PublicRecord:
        """The record for anyone who asks: the whole record once the game is over; while it runs, only what
        the public may see, since the seed and the logged actions would let anyone foresee every die and learn
        every secret."""
        game, state = await self.current(channel_id)
        if state is None:
            raise RuleError("E_NOT_STARTED")
        if game.status != "running":
            return await self._full_record(game)
        lobby = lobby_of(game)
        history = [PublicEntry(seq=row.seq, actor=row.actor, type=str(row.action.get("type", "?")),
                               events=[e for e in row.events if e.get("private_to") is None])
                   for row in await self.store.actions(game.id)]
        return PublicRecord(game=game.ruleset, options=lobby.options, seats=lobby.first_seats or lobby.seats,
                            position=get(game.ruleset).view(state, None), history=history)

    async def record(self, channel_id: int) -> GameRecord:
        """The whole game record (seed, options, seats, actions) that replays the game exactly: for a game that
        is over, and for the bot's own use (the demo, replays); `export` is what players get."""
        game, state = await self.current(channel_id)
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
        game, state = await self.current(channel_id)
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

    async def history(self, channel_id: int, page: int, size: int) -> HistoryPage:
        """Page `page` (1 = the latest) of the action log, each entry with the turn it belongs to."""
        game, state = await self.current(channel_id)
        rows = await self.store.actions(game.id)
        pages = max(1, -(-len(rows) // size))
        page = min(max(page, 1), pages)
        turn, turns = 0, []
        for row in rows:
            turns.append(turn)
            turn += sum(1 for e in row.events if e.get("type") == TURN_EVENT)
        stop = len(rows) - (page - 1) * size
        start_at = max(0, stop - size)
        return HistoryPage(game=game, state=state, page=page, pages=pages, total=len(rows),
                           entries=list(zip(turns[start_at:stop], rows[start_at:stop], strict=True)))
