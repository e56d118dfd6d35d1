"""What every end-to-end game test shares: the unmodified `python bot.py` as a subprocess, and a read-only look
at its SQLite file."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sqlite3
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from engine.core.models import GameState, from_json
from engine.core.record import GameRecord
from tests.discord.fakeapi import InteractionRecord, SentMessage
from tests.discord.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
BOT_SCRIPT = ROOT / "bot.py"
TOKEN = "e2e-bot-token"
STARTUP_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 10.0
ERROR_MARK = "⚠️"
STEP_TIMEOUT_S = 15.0
ERROR_LINE = re.compile(r"^\S+ \S+ (ERROR|CRITICAL) ")
"""A line of the bot's log (`%(asctime)s %(levelname)s …`) at level ERROR or above."""
OPENING: tuple[tuple[tuple[str, ...], dict[str, str] | None], ...] = (
    (("new", "risk"), {"setup": "random_deal"}), (("game", "add-ai"), None), (("game", "add-ai"), None))
"""The commands that open a Risk lobby with two AI seats, as its host types them."""

S = TypeVar("S", bound=GameState)


# ------------------------------------------------------------------------------------------------ the bot process


class BotProcess:
    """`python bot.py` in its own OS process, its output in a log file per run."""

    def __init__(self, env: dict[str, str], workdir: Path) -> None:
        self.env = env
        self.workdir = workdir
        self.runs = 0
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self, *, background: bool = False) -> None:
        """Start a new bot process (the previous one must be gone); `background`: as a shell's background job
        starts it, SIGINT ignored."""
        assert self.proc is None or self.proc.returncode is not None, "the previous bot process is still running"
        self.runs += 1
        with self.log(self.runs).open("wb") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-X", "faulthandler", str(BOT_SCRIPT), cwd=self.workdir, env=self.env,
                stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=asyncio.subprocess.STDOUT,
                preexec_fn=ignore_sigint if background else None,
            )

    def log(self, run: int) -> Path:
        """The file holding the output of run number `run`."""
        return self.workdir / f"bot{run}.log"

    def logs(self) -> str:
        """The output of every run so far."""
        return "\n".join(f"--- bot run {n} ---\n{self.log(n).read_text(errors='replace')}"
                         for n in range(1, self.runs + 1) if self.log(n).exists())

    async def kill(self) -> None:
        """SIGKILL: no chance to clean up, like a crash or a power cut."""
        assert self.proc is not None and self.proc.returncode is None, "the bot process died by itself"
        self.proc.kill()
        await self.proc.wait()

    async def restart(self, fake: FakeDiscord, db: Path, last: GameSnapshot | None) -> None:
        """Kill the bot, check that the database holds what the last answered command left, and start it again,
        identified and its commands synced once more."""
        await self.kill()
        assert read_game(db) == last, "the database differs from what the last answered command left"
        await self.start()
        await fake.wait_until_identified(count=self.runs, timeout=STARTUP_TIMEOUT_S)
        await fake.wait_until(lambda: sum(r.route == "sync_global" for r in fake.requests) >= self.runs,
                              STARTUP_TIMEOUT_S, what="the command sync after the restart")

    async def stop(self, how: signal.Signals = signal.SIGTERM) -> None:
        """Ask the bot to stop, as a process manager does (SIGTERM) or Ctrl-C (SIGINT); kill it if it takes too
        long."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        proc.send_signal(how)
        try:
            await asyncio.wait_for(proc.wait(), STOP_TIMEOUT_S)
        except TimeoutError:  # stuck: its threads' stacks go to its log (faulthandler), then it is killed
            proc.send_signal(signal.SIGABRT)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), 2.0)
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


def ignore_sigint() -> None:
    """In the child before it runs Python: SIGINT ignored, as for a job a non-interactive shell puts in the
    background (Python then leaves it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, env: dict[str, str], workdir: Path) -> AsyncIterator[BotProcess]:
    """The unmodified bot started against `fake`, identified and its commands synced, then stopped; its logs are
    printed if the body fails, and it must exit cleanly."""
    bot = BotProcess(env, workdir)
    try:
        await bot.start()
        await fake.wait_until_identified(timeout=STARTUP_TIMEOUT_S)
        await fake.wait_for(lambda r: r.route == "sync_global", STARTUP_TIMEOUT_S)
        yield bot
    except BaseException:
        print(bot.logs())
        raise
    finally:
        await bot.stop()
    assert bot.proc is not None and bot.proc.returncode == 0, \
        f"the bot exited with {bot.proc.returncode}:\n{bot.logs()[-4000:]}"


# ------------------------------------------------------------------------------------------------ the database


@dataclass(frozen=True)
class GameSnapshot:
    """The channel's game row as committed in the database, and how many actions its log holds."""

    status: str
    state_json: str | None
    version: int
    actions: int

    def parse(self, model: type[S]) -> S:
        """The state as the game's own model."""
        assert self.state_json is not None, "the game has no state yet"
        return from_json(model, json.loads(self.state_json))


def errors_logged(logs: str) -> list[str]:
    """The lines of a bot's output that log an error (level ERROR or CRITICAL) or start a traceback."""
    return [line for line in logs.splitlines() if ERROR_LINE.match(line) or line.startswith("Traceback")]


def bot_env(fake_env: dict[str, str], db: Path) -> dict[str, str]:
    """The environment `python bot.py` gets: the fake Discord, the database, and limits a script can live with."""
    env = {**os.environ, **fake_env, "DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(db), "LOG_LEVEL": "INFO",
           "RATE_LIMIT_PER_MINUTE": "100000", "RATE_LIMIT_BURST": "1000"}  # a script plays faster than people
    env.pop("DEV_GUILD_ID", None)
    return env


def read_game(db: Path, channel_id: str | int | None = None) -> GameSnapshot:
    """Read the newest game (of a channel, if given) and its action count in one read transaction, without
    writing anything."""
    con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=5.0, isolation_level=None)
    try:
        con.execute("BEGIN")
        row = con.execute("SELECT id, status, state, version FROM games WHERE channel_id = ? OR ? IS NULL "
                          "ORDER BY id DESC LIMIT 1", (channel_id, channel_id)).fetchone()
        assert row is not None, "the bot stored no game"
        (count,) = con.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (row[0],)).fetchone()
        con.execute("COMMIT")
    finally:
        con.close()
    return GameSnapshot(status=row[1], state_json=row[2], version=row[3], actions=count)


def undelivered(db: Path, channel_id: str) -> int:
    """How many posts wait in the channel's outbox (parked ones aside)."""
    con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=5.0)
    try:
        (count,) = con.execute("SELECT COUNT(*) FROM outbox WHERE channel_id = ? AND delivered_at IS NULL "
                               "AND parked IS NULL", (int(channel_id),)).fetchone()
    finally:
        con.close()
    return int(count)


def logged_record(db: Path, game_id: int | None = None) -> GameRecord:
    """A game's record as the database holds it (the newest game's by default): seed, options, seats as seated,
    and the committed actions."""
    con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=5.0)
    try:
        row = con.execute("SELECT id, ruleset, seed, lobby, state FROM games WHERE id = ? OR ? IS NULL "
                          "ORDER BY id DESC LIMIT 1", (game_id, game_id)).fetchone()
        assert row is not None, "the bot stored no game"
        found, ruleset, seed, lobby, state = row
        actions = [a for (a,) in con.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (found,))]
    finally:
        con.close()
    data = json.loads(lobby)
    return GameRecord(game=ruleset, seed=seed, options=data["options"], seats=data["first_seats"],
                      actions=[json.loads(a) for a in actions], schema_version=json.loads(state)["schema_version"])


def integrity(db: Path) -> str:
    """PRAGMA integrity_check of the database file."""
    con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        return ", ".join(r[0] for r in con.execute("PRAGMA integrity_check").fetchall())
    finally:
        con.close()


class Driver:
    """What plays the human seats of an end-to-end game: waits for each answer, counts them, reads the game."""

    def __init__(self, fake: FakeDiscord, db: Path, channel: dict | None = None) -> None:
        self.fake = fake
        self.db = db
        self.channel = channel or fake.world.channel
        """Where the game is played (the world's channel unless told)."""
        self.interactions = 0
        self.used: Counter[str] = Counter()
        """How often each command or button was used."""
        self.snapshot: GameSnapshot | None = None
        """The game as read after the last acknowledged interaction."""

    async def answer(self, record: InteractionRecord, what: str, *, public: bool = True) -> SentMessage:
        """Wait for what shows the interaction's result (its private answer, or its post in the channel); a
        refusal means the bot or this driver is wrong."""
        self.interactions += 1
        self.used[what] += 1
        try:
            message = await self.result(record)
        except TimeoutError as exc:  # a callback after Discord's 3 s window shows here as 404 / 10062
            callbacks = ", ".join(str(r) for r in self.fake.callbacks(record.id)) or "none"
            raise AssertionError(f"no answer to {what} (interaction {self.interactions}); callbacks: {callbacks}") \
                from exc
        assert not message.content.startswith(ERROR_MARK), f"{what}: the bot refused: {message.content}"
        assert message.ephemeral is not public, f"{what}: expected a {'public' * public or 'private'} answer"
        return message

    async def result(self, record: InteractionRecord) -> SentMessage:
        """What shows the interaction's result (TimeoutError if nothing does within STEP_TIMEOUT_S)."""
        return await self.fake.wait_for_result(record.id, STEP_TIMEOUT_S)

    def refresh(self) -> GameSnapshot:
        self.snapshot = read_game(self.db, self.channel["id"])
        return self.snapshot

    async def settle(self, human_decides: Callable[[GameSnapshot], bool]) -> GameSnapshot:
        """The game once the AI seats have played what is theirs (in the background, after a command's answer):
        a human decides, or the game is over."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STEP_TIMEOUT_S
        while True:  # polled: the last step (marking a post delivered) makes no request the fake could wake on
            snapshot = read_game(self.db, self.channel["id"])
            if (snapshot.status != "running" or human_decides(snapshot)) and not undelivered(self.db,
                                                                                             self.channel["id"]):
                self.snapshot = snapshot
                return snapshot
            assert loop.time() < deadline, f"the AI seats or their posts never settled at seq {snapshot.actions}"
            await asyncio.sleep(0.005)

    def posted_after(self, record: InteractionRecord) -> list[SentMessage]:
        """The bot's posts in the interaction's channel since the interaction: its result, and what followed."""
        return [m for m in self.fake.messages(record.channel_id)
                if m.source == "channel" and int(m.id) > int(record.id)]
