"""Load benchmark: 500 active Risk games, 20 commands a second for 60 s through the real dispatch path (issue #6);
latency from interaction arriving to reply sent, errors, peak memory, plus the store's throughput; on SQLite (one
process) or on PostgreSQL shared by several bot processes, side by side with SQLite.

Run from the repository root (about three minutes with the defaults):

    python benchmarks/load.py [--games 500] [--seconds 60] [--rate 20] [--warmup 3] [--store-seconds 5]
    python benchmarks/load.py --store-only        # only the raw GameService.act → SQLite figure
    python benchmarks/load.py --db var/bench.sqlite3   # keep the database (default: a temporary file)
    python benchmarks/load.py --store postgres --processes 2 [--database-url URL] [--no-baseline]
    python benchmarks/load.py --setup service     # open the games through GameService, not slash commands

Phase 1 (not timed) opens N games through the real bot and its real CommandTree, driven by the in-process
dispatch harness (tests/discord/harness.py): in its own channel each host runs
`/new game:risk setup:random_deal placement:bulk_sequential`, `/game add-ai` twice and `/game start`
(with `--setup service`: GameService.new_game, add_ai and start, as bot.py's demo does);
then (`--warmup N`) each game is advanced by a random 0…2N human moves through GameService.act, so the load
meets games at varied stages instead of all at their first move.

Phase 2 (timed) sends slash commands at `--rate` commands per second (an open-loop schedule: a slow reply never
delays the next arrival) to idle games picked at random; a game has at most one command in flight, like a human.
Each command is the baseline AI policy's choice for the human seat, read from `bot.service.current()` and
translated to `/risk place|attack|move|endattack|fortify|endturn|defend`; a trade the rules force is made with
`/risk trade` plus its card select (two interactions); an optional trade is skipped. The command answers (its
callback) as soon as the human's action is saved; the AI seats answer afterwards in the channel's background task,
and every post goes out from the outbox.
Latency is measured from just before discord.py parses the INTERACTION_CREATE payload to the moment the bot
sends the interaction callback (the acknowledgement), and to the end of the tasks discord.py started for it (the
command: its action saved, its post queued, its "thinking…" reply deleted; the AI seats' answer and the posts'
delivery go on in the background, and a game's next command waits for its AI seats).
HTTP is answered in-process by the harness's FakeAPI, so network time to Discord is not included.

Phase 3 calls `GameService.act` directly (no Discord) from one coroutine per game (the first `--store-games`), as
fast as it goes, and reports the actions written to the store per second.

`--store postgres --processes N` runs the same games, rate and phases on a PostgreSQL database shared by N bot
processes (spawned; each its own bot, harness and fake Discord, and every N-th game's channel, as shards split
servers; each sends its share of the rate, and a barrier starts the timed phases together), after the same
benchmark on SQLite in one process (`--no-baseline` skips it), and prints both side by side. The database is a
fresh one on the server of `--database-url` (a URL of a database there to connect to; dropped afterwards), else on
a throwaway server started with tests/postgres.py. Each run's figures are the processes' merged (phase 3: the
sum of their actions per second); memory is each process's peak RSS, the in-process fake Discord's records of
every request and message included.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import logging
import multiprocessing
import queue
import random
import resource
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dataclasses import replace

from bot import GameMasterBot, Settings
from engine.core.errors import RuleError
from engine.core.i18n import translate
from engine.core.models import Action, Seat, to_json
from engine.games.risk import RULESET, RiskState
from engine.games.risk import actions as A
from engine.games.risk.rules import valid_sets
from engine.games.risk.state import Phase
from engine.service import GameService, Outcome
from engine.store import SqliteStore, Store
from tests.discord import payloads
from tests.discord.fakeapi import FakeAPI, InteractionRecord, Reply
from tests.discord.harness import DispatchHarness
from tests.discord.payloads import STRING_SELECT, iter_components
from tests.postgres import Server, fresh_database, start_server

POLICY = RULESET.policy("baseline")
TARGET_P99_MS = 150.0
DISCORD_LIMIT_MS = 3000.0
TARGET_ACTIONS_PER_S = 500.0
UNEXPECTED = translate("error.unexpected", "en")
STORE_NAMES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}
CHANNELS = 10**17
"""Game i plays in channel CHANNELS + i and is hosted by member HOSTS + i, in every process and every store."""
HOSTS = 2 * 10**17
IDS_PER_PROCESS = 10**8
"""Each process mints its snowflakes (interactions, messages) from its own range: the database is shared."""
BACKGROUND = ("ai-seats-", "posts-")
"""The bot's tasks that go on after a command: the AI seats' turns and the outbox's deliveries."""
T = TypeVar("T")


# ---------------------------------------------------------------------------------------------- small helpers


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of unsorted values; NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summary_ms(values: Sequence[float]) -> str:
    """p50/p90/p99/max of durations in seconds, printed in milliseconds."""
    if not values:
        return "n=0"
    ms = [v * 1000 for v in values]
    return (f"p50 {percentile(ms, 50):7.1f}  p90 {percentile(ms, 90):7.1f}  p99 {percentile(ms, 99):7.1f}  "
            f"max {max(ms):7.1f} ms  (n={len(ms)})")


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class ErrorLog(logging.Handler):
    """Counts records at ERROR and above (exceptions the bot logged), keeping the first few messages."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0
        self.samples: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        if len(self.samples) < 5:
            exc = record.exc_info[1] if record.exc_info else None
            self.samples.append(f"{record.name}: {record.getMessage()} {exc!r}" if exc else record.getMessage())


class Machine:
    """CPU use of this process and the host's CPU steal over a phase (steal: Linux /proc/stat, else n/a)."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()
        self.stat = self._stat()

    @staticmethod
    def _stat() -> list[int] | None:
        try:
            with open("/proc/stat", encoding="ascii") as f:
                return [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None

    def summary(self) -> str:
        wall = time.perf_counter() - self.wall
        text = f"process CPU {100 * (time.process_time() - self.cpu) / wall:.0f}% of one core"
        after = self._stat()
        if self.stat is not None and after is not None and len(after) > 7:
            total = sum(after[:8]) - sum(self.stat[:8])
            text += f", host CPU steal {100 * (after[7] - self.stat[7]) / max(1, total):.1f}%"
        return text


async def roundtrip_us(store: str, location: str, n: int = 300) -> float:
    """Median time of one `SELECT 1` on a connection of its own: aiosqlite's thread hand-off, or the server's trip."""
    times = []
    if store == "postgres":
        import asyncpg  # here: the SQLite runs never load it

        conn = await asyncpg.connect(location)
        try:
            for _ in range(n):
                started = time.perf_counter()
                await conn.fetchval("SELECT 1")
                times.append(time.perf_counter() - started)
        finally:
            await conn.close()
    else:
        async with aiosqlite.connect(location) as db:
            for _ in range(n):
                started = time.perf_counter()
                await db.execute("SELECT 1")
                times.append(time.perf_counter() - started)
    return percentile(times, 50) * 1e6


class WriteLog:
    """Timestamps every committed action (Store.record_action returning), to count writes in a time window."""

    def __init__(self, store: Store) -> None:
        self.times: list[float] = []
        record = store.record_action
        times = self.times

        async def timed_record(*args: Any, **kwargs: Any) -> Any:
            saved = await record(*args, **kwargs)
            times.append(time.perf_counter())
            return saved

        store.record_action = timed_record  # type: ignore[method-assign]

    def between(self, start: float, end: float) -> int:
        return bisect.bisect_right(self.times, end) - bisect.bisect_left(self.times, start)


class LoopMonitor:
    """Measures how late a 5 ms sleep wakes up: the event loop's stalls (synchronous work blocking it)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.005)
            self.lags.append(time.perf_counter() - started - 0.005)

    def start(self) -> None:
        self.lags = []
        self._task = asyncio.create_task(self._run(), name="benchmark-loop-monitor")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


def merge(runs: Sequence[T]) -> T:
    """Several processes' figures of one phase as one: lists joined, counts summed, durations the longest."""
    values: dict[str, Any] = {}
    for f in fields(runs[0]):  # type: ignore[arg-type]
        items = [getattr(run, f.name) for run in runs]
        if isinstance(items[0], list):
            values[f.name] = [x for item in items for x in item]
        elif isinstance(items[0], Counter):
            values[f.name] = sum(items, Counter())
        elif isinstance(items[0], float):
            values[f.name] = max(items)
        else:
            values[f.name] = sum(items)
    return type(runs[0])(**values)


# ---------------------------------------------------------------------------------------------- the games


@dataclass
class Game:
    """One benchmark game: its channel, its human host and the Discord member payload of that host."""

    index: int
    channel: dict[str, Any]
    host: dict[str, Any]
    finished: bool = False

    @property
    def channel_id(self) -> int:
        return int(self.channel["id"])

    @property
    def human(self) -> int:
        return int(self.host["user"]["id"])


def add_games(h: DispatchHarness, total: int, mine: Sequence[int]) -> list[Game]:
    """Every game's channel into the fake Discord (any process may post anywhere), and this process's games."""
    channels = [h.world.add_channel(f"risk-{index}", id=str(CHANNELS + index)) for index in range(total)]
    return [Game(index, channels[index], h.add_member(f"Host {index}", id=str(HOSTS + index))) for index in mine]


def bare_game(index: int) -> Game:
    """Game `index` without Discord (the raw store benchmark): its channel and host ids only."""
    return Game(index, {"id": str(CHANNELS + index)}, {"user": {"id": str(HOSTS + index)}})


@dataclass(frozen=True)
class Command:
    """`/risk <kind> options…`; for kind "trade", `/risk trade` and then its card select with `cards`."""

    kind: str
    options: dict[str, Any] = field(default_factory=dict)
    cards: tuple[str, ...] = ()


def to_command(action: Action) -> Command | None:
    """Translate a Risk action into the /risk slash command that makes it (None if there is none)."""
    if isinstance(action, A.Place):
        return Command("place", {"territory": action.territory, "count": action.count})
    if isinstance(action, A.Deploy):  # bulk placement: one territory per /risk place (the rest stays to place)
        territory, count = next(iter(action.placements.items()))
        return Command("place", {"territory": territory, "count": count})
    if isinstance(action, A.Attack):
        options: dict[str, Any] = {"source": action.source, "target": action.target, "until": action.until,
                                   "keep": action.keep, "move": action.move or "max"}
        if action.dice is not None:
            options["dice"] = action.dice
        return Command("attack", options)
    if isinstance(action, A.Move):
        return Command("move", {"count": action.count})
    if isinstance(action, A.EndAttack):
        return Command("endattack")
    if isinstance(action, A.Fortify):
        return Command("fortify", {"source": action.source, "target": action.target, "count": action.count})
    if isinstance(action, A.EndTurn):
        return Command("endturn")
    if isinstance(action, A.Defend):
        return Command("defend", {"dice": action.dice})
    if isinstance(action, A.Claim):
        return Command("claim", {"territory": action.territory})
    if isinstance(action, A.PlaceNeutral):
        return Command("neutral", {"territory": action.territory})
    if isinstance(action, A.Trade):
        return Command("trade", cards=tuple(action.cards))
    return None


def must_trade(state: RiskState, pid: int) -> bool:
    """Whether the rules force `pid` to trade now (5+ cards in reinforcement, or after an elimination)."""
    i = state.interrupt
    if i is not None:
        return i.kind == "elim_trade"
    return state.phase is Phase.REINFORCE and len(state.hands.get(pid, [])) >= 5


def choose_action(state: RiskState, pid: int, rng: random.Random) -> Action:
    """The baseline policy's choice; an optional trade is skipped (the policy sees an empty hand)."""
    view = state
    if not must_trade(state, pid) and valid_sets(RULESET.board, state.hands.get(pid, [])):
        view = replace(state, hands={**state.hands, pid: []})
    return POLICY.choose(view, pid, rng)


def humans_turn(state: RiskState | None, pid: int) -> bool:
    return state is not None and RULESET.winners(state) is None and any(
        d.player == pid for d in RULESET.pending(state))


# ---------------------------------------------------------------------------------------------- measuring


@dataclass
class Sample:
    """One interaction: when it was due, dispatched, answered (callback) and finished, and what came of it."""

    kind: str
    game: int
    due: float
    started: float
    acked: float | None
    done: float
    result: str
    interaction_id: str = ""
    ai_actions: int = 0
    act_seconds: float | None = None
    detail: str = ""

    @property
    def ack_latency(self) -> float | None:
        return None if self.acked is None else self.acked - self.started

    @property
    def done_latency(self) -> float:
        return self.done - self.started


@dataclass
class ActTiming:
    """What GameService.act reported for one interaction id (timed by a wrapper)."""

    seconds: float
    ai_actions: int


def created_by(call: Callable[[], None]) -> list[asyncio.Task[Any]]:
    """The tasks that `call` creates, caught by a task factory (not by a scan of every task: see below)."""
    # asyncio.all_tasks() grows with the channels (the bot keeps each channel's last send): ms inside the timing
    loop = asyncio.get_running_loop()
    previous = loop.get_task_factory()
    created: list[asyncio.Task[Any]] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        task = previous(loop, coro, **kwargs) if previous else asyncio.Task(coro, loop=loop, **kwargs)
        created.append(task)  # type: ignore[arg-type]
        return task  # type: ignore[return-value]

    loop.set_task_factory(factory)
    try:
        call()
    finally:
        loop.set_task_factory(previous)
    return created


async def deliver(h: DispatchHarness, payload: dict[str, Any]) -> tuple[InteractionRecord, float, list[str]]:
    """Deliver one INTERACTION_CREATE, await the tasks it started; return its record, start time and failures."""
    wire = json.dumps(payload)
    record = h.api.register_interaction(payload)
    started = time.perf_counter()
    tasks = created_by(lambda: h.bot._connection.parse_interaction_create(json.loads(wire)))
    failures: list[str] = []
    if tasks:
        finished, pending = await asyncio.wait(tasks, timeout=30)
        failures += [f"{t.get_name()} still running after 30 s" for t in pending]
        failures += [repr(t.exception()) for t in finished if not t.cancelled() and t.exception()]
    return record, started, failures


def classify(api: FakeAPI, record: InteractionRecord, failures: list[str]) -> tuple[str, str]:
    """ok; refused (a private ⚠️ rule message); error (an exception, no reply, or the unexpected-error reply)."""
    if failures:
        return "error", "; ".join(failures)
    if not record.acknowledged:
        return "error", "no interaction callback"
    message = api.message(record.original_message_id or "")
    content = message.content if message is not None else ""
    if message is not None and message.ephemeral and content.startswith("⚠️"):
        return ("error" if UNEXPECTED in content else "refused"), content[:120]
    return "ok", ""


class Bench:
    """Drives the bot through the dispatch harness and records per-interaction timings."""

    def __init__(self, harness: DispatchHarness, service: GameService, games: list[Game], seed: int) -> None:
        self.h = harness
        self.games = games
        self.service = service
        self.seed = seed
        self.samples: list[Sample] = []
        self.callback_at: dict[str, float] = {}
        self.acts: dict[str, ActTiming] = {}
        self.skipped = 0
        self.unexpressible = 0
        self.refusals: Counter[str] = Counter()
        self._install_probes()

    def _install_probes(self) -> None:
        """Timestamp interaction callbacks as the bot sends them; time GameService.act per interaction."""
        api = self.h.api
        handle = api.handle
        callback_at = self.callback_at

        def timed_handle(method: str, path: str, **kwargs: Any) -> Reply:
            if path.endswith("/callback") and path.startswith("/interactions/"):
                callback_at.setdefault(path.split("/")[2], time.perf_counter())
            return handle(method, path, **kwargs)

        api.handle = timed_handle  # type: ignore[method-assign]

        act = self.service.act
        acts = self.acts

        async def timed_act(channel_id: int, user_id: int, data: dict[str, Any],
                            interaction_id: str | None = None, **options: Any) -> Outcome:
            started = time.perf_counter()
            outcome = await act(channel_id, user_id, data, interaction_id, **options)
            if interaction_id is not None:
                acts[interaction_id] = ActTiming(time.perf_counter() - started,
                                                 sum(1 for step in outcome.steps if step.ai))
            return outcome

        self.service.act = timed_act  # type: ignore[method-assign]

    async def dispatch(self, payload: dict[str, Any], kind: str, game: Game, due: float) -> Sample:
        """Deliver one INTERACTION_CREATE, time it and classify what came of it."""
        record, started, failures = await deliver(self.h, payload)
        done = time.perf_counter()
        acked = self.callback_at.pop(record.id, None)
        result, detail = classify(self.h.api, record, failures)
        act = self.acts.pop(record.id, None)
        sample = Sample(kind, game.index, due, started, acked, done, result, record.id,
                        act.ai_actions if act else 0, act.seconds if act else None, detail)
        if result == "refused":
            self.refusals[detail] += 1
        self.samples.append(sample)
        return sample

    async def command(self, game: Game, due: float) -> list[Sample]:
        """Read the game, pick the human's action and send it as one slash command (a trade: two interactions)."""
        await self.service.idle(game.channel_id)  # the AI seats' turns come first, as a player waits for them
        _row, state = await self.service.current(game.channel_id)
        if not isinstance(state, RiskState) or not humans_turn(state, game.human):
            game.finished = True
            return []
        rng = random.Random(self.seed * 1_000_003 + game.index * 10_007 + state.seq)
        command = to_command(choose_action(state, game.human, rng))
        if command is None:
            self.unexpressible += 1
            command = Command("endturn")
        if command.kind != "trade":
            payload = self.h.world.slash("risk", command.kind, options=command.options, user=game.host,
                                         channel=game.channel)
            return [await self.dispatch(payload, command.kind, game, due)]
        payload = self.h.world.slash("risk", "trade", user=game.host, channel=game.channel)
        opened = await self.dispatch(payload, "trade", game, due)
        message = self.h.api.message(self.h.api.interactions[opened.interaction_id].original_message_id or "")
        select = next((c["custom_id"] for c in iter_components(message.components if message else [])
                       if c.get("type") == STRING_SELECT), None)
        if opened.result != "ok" or message is None or select is None:
            return [opened]
        pick = self.h.world.component(select, message=message.payload, values=list(command.cards), user=game.host)
        return [opened, await self.dispatch(pick, "trade-select", game, time.perf_counter())]


# ---------------------------------------------------------------------------------------------- phases

SETUP_COMMANDS: tuple[tuple[tuple[str, ...], dict[str, Any]], ...] = (
    (("new", "risk"), {"setup": "random_deal", "placement": "bulk_sequential"}),
    (("game", "add-ai"), {}),
    (("game", "add-ai"), {}),
    (("game", "start"), {}),
)
"""How a host opens a benchmark game: `/new risk …`, `/game add-ai` twice, `/game start`."""


def seed_games(service: GameService, games: Sequence[Game], seed: int) -> None:
    """Reproducible dice, the same for a game whichever process opens it: game i's seed is seed × 10⁶ + i."""
    service.seed_source = iter([seed * 1_000_000 + game.index for game in games]).__next__


async def quiesce() -> None:
    """Wait until the AI seats' turns and the posts' deliveries that are under way have ended."""
    while running := [t for t in asyncio.all_tasks() if t.get_name().startswith(BACKGROUND)]:
        await asyncio.wait(running)


async def open_games(service: GameService, games: Sequence[Game], guild_id: int | None,
                     h: DispatchHarness | None) -> None:
    """Open 3-seat games (host + 2 AI) one by one: through slash commands with a harness, else through GameService."""
    for game in games:
        if h is None:
            await service.new_game(game.channel_id, guild_id, Seat(id=game.human, name=f"Host {game.index}"), "risk",
                                   {"setup": "random_deal", "setup_placement": "bulk_sequential"})
            for _ in range(2):
                await service.add_ai(game.channel_id, game.human)
            await service.start(game.channel_id, game.human)
            continue
        for path, options in SETUP_COMMANDS:
            payload = h.world.slash(*path, options=options, user=game.host, channel=game.channel)
            record, _started, failures = await deliver(h, payload)
            result, detail = classify(h.api, record, failures)
            if result != "ok":
                raise RuntimeError(f"/{' '.join(path)} in game {game.index}: {result} {detail}")
    await quiesce()


async def count_actions(store: Store, service: GameService, games: Sequence[Game]) -> int:
    """Rows in the actions table for these games (every human and AI action is one row)."""
    total = 0
    for game in games:
        row, _ = await service.current(game.channel_id)
        total += await store.count_actions(row.id)
    return total


async def load_phase(bench: Bench, rate: float, seconds: float, phase: float = 0.0) -> tuple[float, float]:
    """Send commands at `rate` a second for `seconds`, open loop, `phase` of a tick late; return (start, elapsed)."""
    rng = random.Random(bench.seed)
    idle = deque(rng.sample(bench.games, len(bench.games)))
    running: set[asyncio.Task[None]] = set()

    async def one(game: Game, due: float) -> None:
        try:
            await bench.command(game, due)
        finally:
            if not game.finished:
                idle.append(game)

    started = time.perf_counter()
    ticks = int(seconds * rate)
    for tick in range(ticks):
        due = started + (tick + phase) / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if not idle:
            bench.skipped += 1
            continue
        game = idle.popleft()
        task = asyncio.create_task(one(game, due), name=f"benchmark-game-{game.index}")
        running.add(task)
        task.add_done_callback(running.discard)
    if running:
        await asyncio.gather(*running)
    return started, time.perf_counter() - started


async def policy_move(service: GameService, game: Game, seed: int, tag: str) -> Outcome | None:
    """Play the human's next move (the baseline policy's, trades included) through GameService.act.

    Return None when the game is over for the human (nothing to decide): the game is marked finished.
    Raises RuleError if the rules refuse the move.
    """
    await service.idle(game.channel_id)  # the AI seats answer the last move in the background
    _row, state = await service.current(game.channel_id)
    if not isinstance(state, RiskState) or not humans_turn(state, game.human):
        game.finished = True
        return None
    rng = random.Random(seed * 1_000_003 + game.index * 10_007 + state.seq)
    action = POLICY.choose(state, game.human, rng)
    return await service.act(game.channel_id, game.human, to_json(action),
                             f"{tag}-{game.index}-{state.seq}")


async def warm_up(service: GameService, games: Sequence[Game], per_game: int, seed: int) -> int:
    """Advance every game by 0…2×per_game human moves (random), so the load meets games at varied stages."""
    rng = random.Random(seed)  # drawn by game index: a game goes as far whichever process plays it
    draws = [rng.randint(0, 2 * per_game) for _ in range(max((g.index for g in games), default=-1) + 1)]

    async def one(game: Game, moves: int) -> None:
        for _ in range(moves):
            if await policy_move(service, game, seed, "warmup") is None:
                return

    await asyncio.gather(*(one(g, draws[g.index]) for g in games))
    await quiesce()
    return sum(draws[g.index] for g in games)


async def stages(service: GameService, games: Sequence[Game]) -> str:
    """How many games are in each phase (with a pending interrupt shown as phase/interrupt)."""
    found: Counter[str] = Counter()
    for game in games:
        _row, state = await service.current(game.channel_id)
        if isinstance(state, RiskState):
            found[state.phase.value + (f"/{state.interrupt.kind}" if state.interrupt else "")] += 1
    return ", ".join(f"{name} {n}" for name, n in found.most_common())


@dataclass
class LoadRun:
    """The timed Discord phase of one process, or of several merged."""

    games: int
    samples: list[Sample]
    skipped: int
    unexpressible: int
    refusals: Counter[str]
    finished: int
    elapsed: float
    written: int
    in_window: int
    loop_lags: list[float]
    machine: list[str]


@dataclass
class StoreRun:
    """The raw GameService phase of one process, or of several merged."""

    games: int = 0
    commands: int = 0
    refused: int = 0
    finished: int = 0
    act_seconds: list[float] = field(default_factory=list)
    in_window: int = 0
    written: int = 0
    elapsed: float = 0.0
    machine: list[str] = field(default_factory=list)


async def store_phase(store: Store, service: GameService, writes: WriteLog, games: Sequence[Game],
                      args: argparse.Namespace) -> StoreRun:
    """Hammer GameService.act: a coroutine per game of the first `--store-games`, its moves back to back."""
    playing = [g for g in games if g.index < args.store_games and not g.finished]
    run = StoreRun(games=len(playing))
    before = await count_actions(store, service, playing)
    machine = Machine()
    opened = time.perf_counter()
    deadline = opened + args.store_seconds

    async def hammer(game: Game) -> None:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            try:
                outcome = await policy_move(service, game, args.seed, "store")
            except RuleError:
                run.refused += 1
                continue
            if outcome is None:
                run.finished += 1
                return
            run.act_seconds.append(time.perf_counter() - started)
            run.commands += 1

    await asyncio.gather(*(hammer(g) for g in playing))
    run.elapsed = time.perf_counter() - opened
    run.machine.append(machine.summary())
    run.in_window = writes.between(opened, deadline)
    run.written = await count_actions(store, service, playing) - before
    return run


def report_store(run: StoreRun, args: argparse.Namespace, config: Config) -> None:
    """Print the raw store phase's figures."""
    if run.games == 0:
        print("\nRaw store: skipped, every game is over")
        return
    seconds = args.store_seconds
    rate = run.in_window / seconds
    some = f" (--store-games: of the first {args.store_games} of {args.games})" if args.games > args.store_games else ""
    spread = f", {config.processes} processes at once (the sum of theirs)" if config.processes > 1 else ""
    print(f"\nRaw store: GameService.act → {config.name}, no Discord, {run.games} games{some}, one coroutine each"
          f"{spread}, {seconds:g} s window ({run.elapsed:.1f} s until the last command in flight finished)")
    print(f"  human commands: {run.commands} ({run.commands / run.elapsed:.0f}/s), refused {run.refused}, "
          f"games over {run.finished}")
    print(f"  actions (human + AI rows) committed in the window: {run.in_window} → {rate:.0f} actions/s "
          f"(target ≥ {TARGET_ACTIONS_PER_S:.0f}: {'met' if rate >= TARGET_ACTIONS_PER_S else 'NOT met'})")
    print(f"  rows in `actions` before/after (cross-check): +{run.written} in {run.elapsed:.1f} s")
    print(f"  act() latency under this saturation: {summary_ms(run.act_seconds)}")
    for index, line in enumerate(run.machine):
        print(f"  machine{f' (process {index + 1})' if len(run.machine) > 1 else ''}: {line}")


def report_load(run: LoadRun, args: argparse.Namespace, config: Config) -> None:
    """Print the timed Discord phase's figures."""
    samples = run.samples
    ok = [s for s in samples if s.result == "ok"]
    by_result = Counter(s.result for s in samples)
    spread = (f"; {config.processes} processes, each with 1 game in {config.processes} and 1/{config.processes} "
              f"of the rate" if config.processes > 1 else "")
    print(f"\nDiscord load: {run.games} games, {args.rate:g} commands/s scheduled for {args.seconds:g} s "
          f"(open loop), one command in flight per game{spread}")
    print("  the board is rendered and attached after every turn and conquest, as in play")
    print(f"  commands sent: {len(samples)} (ok {by_result['ok']}, refused {by_result['refused']}, "
          f"errors {by_result['error']}); ticks with no idle game: {run.skipped}; "
          f"actions without a slash command: {run.unexpressible}")
    print(f"  achieved: {len(samples) / run.elapsed:.1f} commands/s over {run.elapsed:.1f} s; "
          f"games over for their human by the end: {run.finished}")
    print(f"  actions written to {config.name}: {run.written} rows in {run.elapsed:.1f} s "
          f"({run.written / max(1, len(ok)):.1f} per command: the human's + the AI seats' answering it); "
          f"{run.in_window / args.seconds:.0f} actions/s committed during the {args.seconds:g} s schedule")
    acks = [s.ack_latency for s in ok if s.ack_latency is not None]
    print(f"  latency, dispatched → callback sent: {summary_ms(acks)}")
    print(f"  latency, dispatched → all tasks done: {summary_ms([s.done_latency for s in ok])}")
    p99 = percentile(acks, 99) * 1000 if acks else float("nan")
    verdict = "met" if p99 < TARGET_P99_MS else "NOT met"
    print(f"  target p99 < {TARGET_P99_MS:.0f} ms: {verdict}; over Discord's 3 s limit: "
          f"{sum(1 for a in acks if a * 1000 > DISCORD_LIMIT_MS)}")
    acts = [s.act_seconds for s in ok if s.act_seconds is not None]
    print(f"  of which GameService.act (rules + AI turns + {config.name}): {summary_ms(acts)}")
    print(f"  schedule lag (due → dispatched; includes reading the state): "
          f"{summary_ms([s.started - s.due for s in samples])}")
    print(f"  event-loop stalls (5 ms sleep overshoot): {summary_ms(run.loop_lags)}")
    print("  by command (callback latency):")
    kinds: defaultdict[str, list[Sample]] = defaultdict(list)
    for s in ok:
        kinds[s.kind].append(s)
    for kind, group in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        ai = sum(s.ai_actions for s in group) / len(group)
        print(f"    {kind:13} {summary_ms([s.ack_latency or 0 for s in group])}  AI actions/cmd {ai:.1f}")
    print("  by AI actions answering the command (callback latency):")
    buckets: defaultdict[str, list[float]] = defaultdict(list)
    for s in ok:
        label = "0" if s.ai_actions == 0 else "1-9" if s.ai_actions < 10 else "10-29" if s.ai_actions < 30 else "30+"
        buckets[label].append(s.ack_latency or 0)
    for label in ("0", "1-9", "10-29", "30+"):
        if buckets[label]:
            print(f"    {label:>5} AI actions: {summary_ms(buckets[label])}")
    slowest = sorted(ok, key=lambda s: -(s.ack_latency or 0))[:5]
    print("  slowest: " + ", ".join(f"{s.kind}@game{s.game} {(s.ack_latency or 0) * 1000:.0f} ms "
                                     f"({s.ai_actions} AI)" for s in slowest))
    for detail, n in run.refusals.most_common(5):
        print(f"  refused ×{n}: {detail}")
    for s in [s for s in samples if s.result == "error"][:5]:
        print(f"  error: {s.kind}@game{s.game}: {s.detail}")


async def timed(say: Callable[[str], None], label: str, work: Callable[[], Awaitable[T]]) -> tuple[T, float]:
    """Run `work`, say how long it took; return its value and that time."""
    started = time.perf_counter()
    value = await work()
    seconds = time.perf_counter() - started
    say(f"{label}: {seconds:.1f} s (not measured)")
    return value, seconds


# ---------------------------------------------------------------------------------------------- one process


@dataclass(frozen=True)
class Config:
    """A way to run the benchmark: a store, and how many bot processes share it."""

    store: str
    processes: int = 1

    @property
    def name(self) -> str:
        """The store's name, e.g. PostgreSQL."""
        return STORE_NAMES[self.store]

    @property
    def label(self) -> str:
        """The store and the number of processes, e.g. PostgreSQL ×2."""
        return f"{self.name} ×{self.processes}"


@dataclass(frozen=True)
class Share:
    """One process's part of a run: the run's arguments, where its store is, and its index among the processes."""

    args: argparse.Namespace
    config: Config
    location: str
    """The SQLite file, or the PostgreSQL database's URL."""
    index: int = 0
    prefix: str = ""
    """Put before the lines it prints as it goes (several processes print at once)."""

    @property
    def games(self) -> range:
        """Every N-th game from its index on: the channels split between the processes."""
        return range(self.index, self.args.games, self.config.processes)

    def say(self, text: str) -> None:
        """Print one line at once."""
        print(self.prefix + text, flush=True)


@dataclass
class ShareResult:
    """What one process measured, for the parent to merge and print."""

    index: int
    setup_seconds: float
    warmup_seconds: float
    load: LoadRun
    store: StoreRun | None
    exceptions: int
    exception_samples: list[str]
    requests: int
    messages: int
    peak_rss_mb: float


async def run_share(share: Share, together: Callable[[], Awaitable[None]]) -> ShareResult:
    """One bot process's run: setup and warm-up, then, with the others (`together`), the load and raw store phases."""
    args, config, say = share.args, share.config, share.say
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    logging.getLogger("discord").setLevel(logging.WARNING)
    where: dict[str, Any] = ({"database_url": share.location} if config.store == "postgres" else
                             {"database_path": Path(share.location), "database_url": None})
    bot = GameMasterBot(Settings(**where, max_games_per_server=args.games + 10))  # its one server holds its games
    try:
        async with DispatchHarness(bot, setup_hook=True, timeout=60) as h:
            assert bot.store is not None
            store, service = bot.store, bot.service
            games = add_games(h, args.games, share.games)
            seed_games(service, games, args.seed)
            how = "/new, add-ai ×2, start" if args.setup == "commands" else "GameService (no Discord)"
            _, setup_seconds = await timed(say, f"setup: {len(games)} games through {how}",
                                           lambda: open_games(service, games, int(h.world.guild_id),
                                                              h if args.setup == "commands" else None))
            warmup_seconds = 0.0
            if args.warmup > 0:
                moves, warmup_seconds = await timed(
                    say, f"warm-up: 0…{2 * args.warmup} human moves per game through GameService.act",
                    lambda: warm_up(service, games, args.warmup, args.seed))
                say(f"  {moves} warm-up moves (and the AI turns answering them)")
            say(f"  game stages at the start of the load: {await stages(service, games)}")
            say(f"  peak RSS after setup: {peak_rss_mb():.0f} MB")
            client = "asyncpg" if config.store == "postgres" else "aiosqlite"
            say(f"  calibration: one {client} statement round trip "
                f"{await roundtrip_us(config.store, share.location):.0f} µs (median)")
            bench = Bench(h, service, games, args.seed)
            writes = WriteLog(store)
            before = await count_actions(store, service, games)
            monitor = LoopMonitor()
            await together()  # every process starts the timed phase at once
            monitor.start()
            machine = Machine()
            started, elapsed = await load_phase(bench, args.rate / config.processes, args.seconds,
                                                share.index / config.processes)
            used = machine.summary()
            await monitor.stop()
            load = LoadRun(len(games), bench.samples, bench.skipped, bench.unexpressible, bench.refusals,
                           sum(g.finished for g in games), elapsed,
                           await count_actions(store, service, games) - before,
                           writes.between(started, started + args.seconds), monitor.lags, [used])
            raw = None
            if args.store_seconds > 0:
                await together()
                raw = await store_phase(store, service, writes, games, args)
            await together()  # no process stops while another still measures
            return ShareResult(share.index, setup_seconds, warmup_seconds, load, raw, errors.count,
                               list(errors.samples), len(h.api.requests), len(h.api.messages()), peak_rss_mb())
    finally:
        await bot.close()
        logging.getLogger().removeHandler(errors)


def share_process(share: Share, barrier: Barrier, results: Queue[ShareResult]) -> None:
    """A spawned bot process: snowflakes of its own, its share of the games, and its result sent to the parent."""
    payloads.number_ids_from(1 + share.index * IDS_PER_PROCESS)  # the harness's ids, a range of its own

    async def together() -> None:
        await asyncio.to_thread(barrier.wait)

    results.put(asyncio.run(run_share(share, together)))


# ---------------------------------------------------------------------------------------------- several processes


async def run_config(args: argparse.Namespace, config: Config, location: str, prefixed: bool) -> list[ShareResult]:
    """Run `config` in as many spawned processes, on the store at `location`; return their results in order."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(config.processes)
    results: Queue[ShareResult] = context.Queue()
    processes = []
    for index in range(config.processes):
        mark = f" #{index + 1}" if config.processes > 1 else ""
        share = Share(args, config, location, index, f"[{config.label}{mark}] " if prefixed else "")
        processes.append(context.Process(target=share_process, args=(share, barrier, results),
                                         name=f"load-{config.store}-{index + 1}"))
    for process in processes:
        process.start()
    found: dict[int, ShareResult] = {}
    try:
        while len(found) < config.processes:
            try:
                result = results.get_nowait()
            except queue.Empty:
                failed = next((p for p in processes if p.exitcode not in (None, 0)), None)
                if failed is not None:
                    raise SystemExit(f"{config.label}: process {failed.name} failed (exit code {failed.exitcode}); "
                                     "its traceback is above") from None
                await asyncio.sleep(0.2)
                continue
            found[result.index] = result
    finally:
        if len(found) < config.processes:
            barrier.abort()
            for process in processes:
                if process.is_alive():
                    process.terminate()
        for process in processes:
            process.join()
    return [found[index] for index in range(config.processes)]


@contextmanager
def postgres_server(url: str | None) -> Iterator[Server]:
    """The PostgreSQL server of `url`, else a throwaway one (tests/postgres.py), stopped and deleted on exit."""
    if url:
        yield Server(url)
        return
    with start_server() as server:
        if server is None:
            raise SystemExit("no PostgreSQL server here: install PostgreSQL's server binaries or give --database-url")
        yield server


def run_on_postgres(args: argparse.Namespace, config: Config, prefixed: bool) -> list[ShareResult]:
    """Run `config` on a fresh database of the PostgreSQL server, dropped afterwards."""
    with postgres_server(args.database_url) as server:
        async def on_a_fresh_database() -> list[ShareResult]:
            async with fresh_database(server) as url:
                place = "the server of --database-url" if args.database_url else "a throwaway server"
                print(f"database: a fresh PostgreSQL database on {place}, shared by {config.processes} bot "
                      f"process{'es' if config.processes > 1 else ''}; Python {sys.version.split()[0]}")
                return await run_config(args, config, url, prefixed)

        return asyncio.run(on_a_fresh_database())


def report(config: Config, shares: Sequence[ShareResult], args: argparse.Namespace) -> None:
    """Print one configuration's figures, its processes' merged."""
    load = merge([share.load for share in shares])
    report_load(load, args, config)
    for index, line in enumerate(load.machine):
        print(f"  machine during the load{f' (process {index + 1})' if len(shares) > 1 else ''}: {line}")
    samples = [m for share in shares for m in share.exception_samples]
    print(f"  exceptions logged by the bot: {sum(share.exceptions for share in shares)}"
          + "".join(f"\n    {m}" for m in samples[:5]))
    print(f"  fake-Discord requests recorded: {sum(share.requests for share in shares)}, "
          f"messages kept: {sum(share.messages for share in shares)}")
    raws = [share.store for share in shares if share.store is not None]
    if raws:
        report_store(merge(raws), args, config)
    print(f"\n{config.label}: setup {max(share.setup_seconds for share in shares):.1f} s, warm-up "
          f"{max(share.warmup_seconds for share in shares):.1f} s (the slowest process); peak RSS per process: "
          + ", ".join(f"{share.peak_rss_mb:.0f} MB" for share in shares))


def run_and_report(args: argparse.Namespace, config: Config, db: Path, prefixed: bool) -> list[ShareResult]:
    """Run one configuration (on the SQLite file `db`, or on PostgreSQL), print its figures, return its results."""
    if prefixed:
        print(f"\n===== {config.label} =====")
    if config.store == "postgres":
        shares = run_on_postgres(args, config, prefixed)
    else:
        print(f"database: {db} (WAL, synchronous=NORMAL); Python {sys.version.split()[0]}")
        shares = asyncio.run(run_config(args, config, str(db), prefixed))
    report(config, shares, args)
    return shares


def spread_ms(values: Sequence[float]) -> str:
    """p50/p99/max of durations in seconds, in milliseconds."""
    if not values:
        return "-"
    return f"{percentile(values, 50) * 1000:.1f}/{percentile(values, 99) * 1000:.1f}/{max(values) * 1000:.1f}"


def print_table(runs: Sequence[tuple[Config, Sequence[ShareResult]]], args: argparse.Namespace) -> None:
    """The configurations side by side, one row each."""
    how = "slash commands" if args.setup == "commands" else "GameService"
    print(f"\nSide by side: {args.games} games (opened through {how}), {args.rate:g} commands/s for "
          f"{args.seconds:g} s, raw store {args.store_seconds:g} s; latency p50/p99/max in ms")
    print(f"{'configuration':<15} {'callback':>18} {'whole':>20} {'errors':>6} {'exc':>4} {'cmd/s':>6} "
          f"{'store act/s':>11} {'setup s':>8}  RSS MB per process")
    for config, shares in runs:
        load = merge([share.load for share in shares])
        ok = [s for s in load.samples if s.result == "ok"]
        raws = [share.store for share in shares if share.store is not None]
        store_rate = f"{merge(raws).in_window / args.store_seconds:.0f}" if raws else "-"
        print(f"{config.label:<15} {spread_ms([s.ack_latency for s in ok if s.ack_latency is not None]):>18} "
              f"{spread_ms([s.done_latency for s in ok]):>20} "
              f"{sum(s.result == 'error' for s in load.samples):>6} {sum(share.exceptions for share in shares):>4} "
              f"{len(load.samples) / load.elapsed:>6.1f} {store_rate:>11} "
              f"{max(share.setup_seconds for share in shares):>8.0f}  "
              + ", ".join(f"{share.peak_rss_mb:.0f}" for share in shares))


async def store_only_benchmark(args: argparse.Namespace, db: Path) -> None:
    """Phase 3 alone, on SQLite: the games opened and warmed up through GameService, then hammered."""
    store = await SqliteStore.open(db)
    service = GameService(store)
    games = [bare_game(index) for index in range(args.games)]
    seed_games(service, games, args.seed)
    try:
        await timed(print, f"setup: {args.games} games through GameService",
                    lambda: open_games(service, games, None, None))
        print(f"  calibration: one aiosqlite statement round trip {await roundtrip_us('sqlite', str(db)):.0f} µs "
              f"(median)")
        if args.warmup > 0:
            moves, _ = await timed(print, f"warm-up: 0…{2 * args.warmup} human moves per game",
                                   lambda: warm_up(service, games, args.warmup, args.seed))
            print(f"  {moves} warm-up moves; game stages: {await stages(service, games)}")
        run = await store_phase(store, service, WriteLog(store), games, args)
        report_store(run, args, Config("sqlite"))
        print(f"\npeak RSS: {peak_rss_mb():.0f} MB")
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500, help="games active at once (default 500)")
    parser.add_argument("--seconds", type=float, default=60, help="length of the Discord load phase")
    parser.add_argument("--rate", type=float, default=20, help="commands per second scheduled across all games")
    parser.add_argument("--warmup", type=int, default=3,
                        help="before the load, advance each game by a random 0…2×N human moves (not measured)")
    parser.add_argument("--store-seconds", type=float, default=5, help="length of the raw GameService phase (0: skip)")
    parser.add_argument("--store-games", type=int, default=500,
                        help="games hammered at once in the raw GameService phase: the first N (default 500)")
    parser.add_argument("--store-only", action="store_true", help="only the raw GameService → SQLite phase")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="SQLite file to use (default: a fresh one in a temporary directory)")
    parser.add_argument("--store", choices=("sqlite", "postgres"),
                        help="sqlite: one bot process on SQLite; postgres: --processes bot processes on one PostgreSQL "
                             "database, after the same on SQLite (default: postgres with --processes > 1 or "
                             "--database-url, else sqlite)")
    parser.add_argument("--processes", type=int, default=1, help="bot processes sharing PostgreSQL (default 1)")
    parser.add_argument("--database-url", help="a PostgreSQL database to connect to, on whose server a fresh "
                                               "database is made and dropped (default: a throwaway server)")
    parser.add_argument("--no-baseline", action="store_true", help="with --store postgres, skip the SQLite run")
    parser.add_argument("--setup", choices=("commands", "service"), default="commands",
                        help="open the games through slash commands (default) or through GameService (faster)")
    args = parser.parse_args()
    store = args.store or ("postgres" if args.processes > 1 or args.database_url else "sqlite")
    if args.store_only and args.store_seconds <= 0:
        parser.error("--store-only needs --store-seconds > 0")
    if args.store_only and store != "sqlite":
        parser.error("--store-only is the SQLite figure alone")
    if args.db is not None and args.db.exists():
        parser.error(f"--db {args.db} exists already; give a new file")
    if args.store_games < 1:
        parser.error("--store-games must be at least 1")
    if args.processes < 1 or args.games < args.processes:
        parser.error("--processes must be at least 1, and at most --games")
    if store == "sqlite" and (args.processes > 1 or args.database_url or args.no_baseline):
        parser.error("SQLite is one process's file: --processes, --database-url and --no-baseline are for "
                     "--store postgres")
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # before the processes' own lines
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="gm-latency-") as tmp:
        db = args.db or Path(tmp) / "bench.sqlite3"
        if args.store_only:
            print(f"database: {db} (WAL, synchronous=NORMAL); Python {sys.version.split()[0]}")
            asyncio.run(store_only_benchmark(args, db))
        else:
            configs = [] if store == "postgres" and args.no_baseline else [Config("sqlite")]
            configs += [Config("postgres", args.processes)] if store == "postgres" else []
            print_table([(config, run_and_report(args, config, db, len(configs) > 1 or args.processes > 1))
                         for config in configs], args)
    print(f"\ntotal run time {time.perf_counter() - started:.0f} s")

if __name__ == "__main__":
    main()
