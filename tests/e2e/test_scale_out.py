"""Two bot processes, one PostgreSQL database, one fake Discord: the scale-out keeps every game as one process would.

Each test starts the unmodified `python bot.py` twice (`DATABASE_URL` the test's fresh database, a short
`POST_TIMEOUT` and `TAKEOVER_SECONDS` so that takeovers happen within seconds) and reads the games from PostgreSQL
with asyncpg. Every test ends with the same checks (`cluster`, `Cluster.told`): no process logged an error or a
traceback, both exit cleanly, and the announcements pass the audit of tests/e2e/chaos.py: each outbox message in its
channel exactly once and in order, every action told, and each saved state the replay of its own action log.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from engine.core.models import from_json
from engine.core.record import GameRecord, replay
from engine.games import get
from engine.games.battlemist import RULESET as BATTLEMIST
from engine.games.battlemist.state import Phase as BMPhase
from engine.games.risk import RULESET
from tests.discord.fakeapi import InteractionRecord, SentMessage
from tests.discord.fakediscord import FakeDiscord, GatewaySession
from tests.e2e.botprocess import (
    ERROR_MARK,
    STARTUP_TIMEOUT_S,
    STEP_TIMEOUT_S,
    TOKEN,
    BotProcess,
    GameSnapshot,
    bot_env,
    errors_logged,
)
from tests.e2e.chaos import Posted, compare
from tests.e2e.test_risk_game import Humans

POST_TIMEOUT_S = 1.0
TAKEOVER_S = 3.0
"""The bots' TAKEOVER_SECONDS: a dead process's claims run out, and its AI seats are played on, this soon."""
SETTLE_TIMEOUT_S = 30.0
"""How long the processes may take to tell (and deliver) every move once the test stops acting."""
POLL_S = 0.02
GRACE_S = 1.0
"""How long a second firing of a timer, or a second copy of a post, is given to show up."""
GAME_TIMEOUT_S = 60.0
"""How long AI seats may take to play a Risk game out."""


# ------------------------------------------------------------------------------------------------ PostgreSQL


@dataclass(frozen=True)
class Row:
    """A game's row as PostgreSQL holds it, and its action count."""

    id: int
    ruleset: str
    status: str
    state: str | None
    lobby: dict[str, Any]
    version: int
    actions: int

    def parse(self) -> Any:
        """The saved state as the game's own model."""
        assert self.state is not None, "the game has no state yet"
        rules = get(self.ruleset)
        return from_json(rules.state_model, json.loads(self.state))


async def game_row(db: asyncpg.Connection, channel_id: str | int) -> Row:
    """The channel's newest game and its action count, read in one snapshot."""
    async with db.transaction(isolation="repeatable_read", readonly=True):
        row = await db.fetchrow("SELECT id, ruleset, status, state, lobby, version FROM games WHERE channel_id = $1 "
                                "ORDER BY id DESC LIMIT 1", int(channel_id))
        assert row is not None, f"no game in channel {channel_id}"
        count = await db.fetchval("SELECT COUNT(*) FROM actions WHERE game_id = $1", row["id"])
    return Row(id=row["id"], ruleset=row["ruleset"], status=row["status"], state=row["state"],
               lobby=json.loads(row["lobby"]), version=row["version"], actions=count)


async def record_of(db: asyncpg.Connection, game_id: int) -> GameRecord:
    """A game's record as the database holds it: seed, options, first seats and the logged actions."""
    row = await db.fetchrow("SELECT ruleset, seed, lobby, state FROM games WHERE id = $1", game_id)
    actions = await db.fetch("SELECT action FROM actions WHERE game_id = $1 ORDER BY seq", game_id)
    lobby = json.loads(row["lobby"])
    return GameRecord(game=row["ruleset"], seed=row["seed"], options=lobby["options"], seats=lobby["first_seats"],
                      actions=[json.loads(a["action"]) for a in actions],
                      schema_version=json.loads(row["state"])["schema_version"])


async def outbox(db: asyncpg.Connection) -> list[Posted]:
    """Every outbox row, in id order (as chaos.outbox reads SQLite)."""
    rows = await db.fetch("SELECT id, channel_id, payload, sent, delivered_at, parked FROM outbox ORDER BY id")
    return [Posted(id=r["id"], channel_id=str(r["channel_id"]), messages=len(json.loads(r["payload"])["messages"]),
                   sent=tuple(str(s) for s in json.loads(r["sent"])),
                   delivered=r["delivered_at"] is not None and not r["parked"]) for r in rows]


async def untold(db: asyncpg.Connection) -> list[str]:
    """The games whose story is not told up to their last action."""
    rows = await db.fetch("SELECT id, announced, (SELECT COALESCE(MAX(seq), 0) FROM actions "
                          "WHERE game_id = games.id) AS last FROM games ORDER BY id")
    return [f"game {r['id']}: told up to {r['announced']}, played up to {r['last']}" for r in rows
            if r["announced"] != r["last"]]


async def unreplayed(db: asyncpg.Connection) -> list[int]:
    """The games whose saved state is not the replay of their own action log."""
    wrong = []
    for row in await db.fetch("SELECT id, ruleset, state FROM games WHERE state IS NOT NULL ORDER BY id"):
        rules = get(row["ruleset"])
        replayed, _ = replay(rules, await record_of(db, row["id"]))
        if replayed.digest() != from_json(rules.state_model, json.loads(row["state"])).digest():
            wrong.append(row["id"])
    return wrong


async def seqs(db: asyncpg.Connection, game_id: int) -> list[int]:
    """The seq of each logged action of a game, in order."""
    return [r["seq"] for r in await db.fetch("SELECT seq FROM actions WHERE game_id = $1 ORDER BY seq", game_id)]


async def wait_for_game(db: asyncpg.Connection, channel_id: str | int, done: Callable[[Row], bool],
                        timeout: float) -> Row:
    """The channel's game once `done` says so (polled)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done(row := await game_row(db, channel_id)):
        assert loop.time() < deadline, f"the game stopped at {row.actions} actions ({row.status})"
        await asyncio.sleep(0.05)
    return row


async def logged_for(db: asyncpg.Connection, interaction_id: str) -> int:
    """How many actions the log holds for one interaction."""
    return int(await db.fetchval("SELECT COUNT(*) FROM actions WHERE interaction_id = $1", interaction_id))


# ------------------------------------------------------------------------------------------------ two processes


@dataclass
class Cluster:
    """The fake Discord, the bot processes sharing one database, and a connection that reads it."""

    fake: FakeDiscord
    db: asyncpg.Connection
    bots: list[BotProcess]
    members: list[dict]

    def session(self, bot: BotProcess) -> GatewaySession:
        """The open gateway session of a bot process: the one whose id its current run logged."""
        log = bot.log(bot.runs).read_text(errors="replace") if bot.log(bot.runs).exists() else ""
        found = [s for s in self.fake.open_sessions if s.session_id and s.session_id in log]
        assert len(found) == 1, f"{len(found)} open sessions are the process's (run {bot.runs})"
        return found[0]

    async def connected(self, bot: BotProcess) -> GatewaySession:
        """Wait until the bot's current run is identified, synced and ready; its session."""
        def ready() -> GatewaySession | None:
            log = bot.log(bot.runs).read_text(errors="replace") if bot.log(bot.runs).exists() else ""
            if "ready: " not in log:
                return None
            found = [s for s in self.fake.open_sessions if s.session_id and s.session_id in log]
            return found[0] if found else None
        return await self.fake.wait_until(ready, STARTUP_TIMEOUT_S, what=f"the bot in {bot.workdir} to connect",
                                          poll=0.05)

    @property
    def sessions(self) -> list[GatewaySession]:
        """Each process's session, in the order of `bots`."""
        return [self.session(bot) for bot in self.bots]

    async def send(self, payload: dict, to: Sequence[GatewaySession]) -> InteractionRecord:
        """Deliver one interaction to these sessions at once."""
        return await self.fake.send_interaction(payload, to=list(to))

    def slash(self, member: dict, *path: str, channel: dict | None = None,
              options: dict[str, Any] | None = None) -> dict:
        """The payload of `/path…` by `member` in `channel` (the world's channel by default)."""
        return self.fake.world.slash(path[0], *path[1:], options=options or {}, user=member,
                                     channel=channel or self.fake.world.channel)

    async def at_once(self, payloads: Sequence[dict], first: int = 0) -> list[InteractionRecord]:
        """Deliver interactions all at once, each to one process, alternating between them (from `first`)."""
        sessions = self.sessions
        return list(await asyncio.gather(*(self.send(payload, [sessions[(first + k) % len(sessions)]])
                                           for k, payload in enumerate(payloads))))

    async def posted(self, records: Sequence[InteractionRecord]) -> None:
        """Wait until the database has applied each interaction and its channels' posts are delivered (a refusal
        fails at once)."""
        ids = [r.id for r in records]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STEP_TIMEOUT_S
        while True:
            for record in records:
                refused = [m.content for m in self.fake.responses(record.id) if m.content.startswith(ERROR_MARK)]
                assert not refused, f"interaction {record.id} was refused: {refused}"
            done = await self.db.fetchval(
                "SELECT COUNT(*) FROM (SELECT id FROM interactions WHERE id = ANY($1::text[]) UNION "
                "SELECT interaction_id FROM actions WHERE interaction_id = ANY($1::text[])) AS applied", ids)
            pending = await untold(self.db)  # after `done`: the posts of what was applied are queued
            waiting = await self.db.fetchval("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
            if done == len(ids) and not pending and not waiting:
                return
            assert loop.time() < deadline, f"{len(ids) - done} of {len(ids)} interactions not applied, " \
                f"{waiting} posts undelivered, not told: {pending}"
            await asyncio.sleep(POLL_S)

    async def applied(self, record: InteractionRecord, timeout: float = STEP_TIMEOUT_S) -> SentMessage:
        """Wait for the interaction's result, and check that it was not refused."""
        message = await self.fake.wait_for_result(record.id, timeout)
        assert not message.content.startswith(ERROR_MARK), f"refused: {message.content}"
        return message

    def answering(self, record: InteractionRecord) -> list[str]:
        """What is wrong with how the processes answered an interaction: it must have one accepted callback and no
        refusal shown to its user (a process that finds it applied by another says nothing)."""
        accepted = [r for r in self.fake.callbacks(record.id) if 200 <= r.status < 300]
        wrong = [] if len(accepted) == 1 else [f"{len(accepted)} accepted callbacks"]
        wrong += [f"refused: {m.content!r}" for m in self.fake.responses(record.id)
                  if not m.deleted and m.content.startswith(ERROR_MARK)]
        return wrong

    def all_answered_once(self, records: Sequence[InteractionRecord]) -> None:
        """Every interaction answered once, and not also refused."""
        wrong = [f"{described(r)} ({r.id}): {problem}" for r in records for problem in self.answering(r)]
        assert wrong == [], f"{len(wrong)} of {len(records)} interactions answered wrongly:\n" + "\n".join(wrong)

    async def told(self, timeout: float = SETTLE_TIMEOUT_S) -> None:
        """Wait until every move is told and every post delivered, then audit the channels (chaos.compare)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            async with self.db.transaction(isolation="repeatable_read", readonly=True):  # one snapshot: a move
                # saved before the outbox is read must not be told after it
                pending = await untold(self.db)
                posts = await outbox(self.db)
            if not pending and all(p.delivered for p in posts):
                break
            assert loop.time() < deadline, \
                f"not told: {pending}; undelivered posts: {[p.id for p in posts if not p.delivered]}"
            await asyncio.sleep(0.05)
        ledger = {channel: [m for m in messages if not str(m.nonce or "").startswith("b")]
                  for channel, messages in self.fake.ledger().items()}  # a pinned board's message is no post
        found = compare(posts, ledger)
        found.unreplayed = await unreplayed(self.db)
        assert not found.problems(), "\n".join(found.problems())
        boards = [m for messages in self.fake.ledger().values() for m in messages
                  if str(m.nonce or "").startswith("b")]
        assert len(boards) == len({m.channel_id for m in boards}), "a pinned board was posted twice"

    def check_logs(self) -> None:
        """No process logged an error or a traceback."""
        for bot in self.bots:
            errors = errors_logged(bot.logs())
            assert errors == [], f"{bot.workdir.name} logged errors:\n" + "\n".join(errors)


def described(record: InteractionRecord) -> str:
    """An interaction as its user sees it: `/game join`, or the custom id of a button."""
    data = record.payload["data"]
    if "custom_id" in data:
        return str(data["custom_id"])
    path, options = [data["name"]], data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group)
        path.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(path)


def environment(fake: FakeDiscord, tmp_path: Path, url: str, **extra: str) -> dict[str, str]:
    """The bots' environment: the fake Discord, the shared database, short post time-out and takeover."""
    return {**bot_env(fake.env(), tmp_path / "unused.sqlite3"), "DATABASE_URL": url,
            "POST_TIMEOUT": str(POST_TIMEOUT_S), "TAKEOVER_SECONDS": str(TAKEOVER_S), **extra}


@contextlib.asynccontextmanager
async def cluster(tmp_path: Path, url: str, *, members: int = 2, channels: Sequence[str] = (),
                  envs: Sequence[dict[str, str]] = ({}, {}), **fake_options: float) -> AsyncIterator[Cluster]:
    """Members and channels in the guild, then the bot processes (one per `envs`, started at once) against a fake
    Discord and the database at `url`; at the end both are stopped and must exit cleanly, and no error may be
    logged."""
    async with FakeDiscord(token=TOKEN, **fake_options) as fake:
        people = [await fake.add_member(f"Player {k + 1}") for k in range(members)]
        for name in channels:
            fake.world.add_channel(name)
        bots = []
        for k, extra in enumerate(envs):
            workdir = tmp_path / f"bot-{'ab'[k]}"
            workdir.mkdir()
            bots.append(BotProcess(environment(fake, tmp_path, url, **extra), workdir))
        db = await asyncpg.connect(url)
        group = Cluster(fake, db, bots, people)
        try:
            await asyncio.gather(*(bot.start() for bot in bots))
            await asyncio.gather(*(group.connected(bot) for bot in bots))
            yield group
            for bot in bots:
                await bot.stop()
            for bot in bots:
                assert bot.proc is not None and bot.proc.returncode == 0, \
                    f"{bot.workdir.name} exited with {bot.proc.returncode if bot.proc else None}"
            group.check_logs()
            assert not fake.unhandled(), [str(r) for r in fake.unhandled()]
        except BaseException:
            for bot in bots:
                print(f"=== {bot.workdir.name} ===\n{bot.logs()}")
            raise
        finally:
            for bot in bots:
                await bot.stop()
            await db.close()


# ------------------------------------------------------------------------------------------------ Risk players


def snapshot_of(row: Row) -> GameSnapshot:
    """A PostgreSQL row as the SQLite drivers read a game."""
    return GameSnapshot(status=row.status, state_json=row.state, version=row.version, actions=row.actions)


class Everywhere(Humans):
    """Plays Risk's human seats (as `Humans` does), each public command or button delivered to every process at
    once; a private one (a menu, a confirmation) goes to the first process only."""

    def __init__(self, group: Cluster, members: Sequence[dict], channel: dict | None = None) -> None:
        super().__init__(group.fake, Path("unused"), {int(m["user"]["id"]): m for m in members}, channel)
        self.group = group
        self.to: list[GatewaySession] | None = None
        """Where public interactions go (None: every process)."""
        self.sent: list[InteractionRecord] = []

    async def send(self, payload: dict, what: str, *, public: bool) -> tuple[InteractionRecord, SentMessage]:
        """Deliver one interaction (to every process when its result is public) and wait for its result."""
        sessions = self.group.sessions
        to = (self.to or sessions) if public else (self.to or sessions)[:1]
        record = await self.group.send(payload, to)
        if public:
            self.sent.append(record)
        return record, await self.answer(record, what, public=public)

    async def result(self, record: InteractionRecord) -> SentMessage:
        """A public result is the channel's next post (how the processes answered is checked at the end, by
        `Cluster.all_answered_once`); a private one is the answer."""
        if record not in self.sent:
            return await super().result(record)
        try:
            return await self.fake.wait_until(lambda: next((m for m in self.fake.messages(record.channel_id)
                                                            if m.source == "channel" and int(m.id) > int(record.id)),
                                                           None), STEP_TIMEOUT_S, what=f"the post after {record.id}")
        except TimeoutError:
            answers = [str(m) for m in self.fake.responses(record.id)]
            raise AssertionError(f"interaction {record.id} posted nothing; its answers: {answers}") from None

    async def read(self) -> Row:
        """The channel's game as PostgreSQL holds it now (also the driver's `snapshot`)."""
        row = await game_row(self.group.db, self.channel["id"])
        self.snapshot = snapshot_of(row)
        return row

    async def settled(self) -> GameSnapshot:
        """The game once its AI seats played and their posts are delivered: a human decides, or it is over."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_TIMEOUT_S
        while True:
            row = await self.read()
            assert self.snapshot is not None
            pending = await untold(self.group.db)  # after the row: what it holds has its posts queued
            waiting = await self.group.db.fetchval("SELECT COUNT(*) FROM outbox WHERE channel_id = $1 AND "
                                                   "delivered_at IS NULL", int(self.channel["id"]))
            if (row.status != "running" or self.decides(self.snapshot)) and not pending and not waiting:
                return self.snapshot
            assert loop.time() < deadline, f"the game never settled at {row.actions} actions"
            await asyncio.sleep(POLL_S)

    async def step_once(self) -> InteractionRecord:
        """One human decision, sent as a player would; exactly one action is logged for it."""
        before = await self.read()
        state = self.state
        pid = RULESET.pending(state)[0].player
        assert pid in self.members, f"AI seat {pid} decides at seq {state.seq}"
        action = self.policy.choose(state, pid, self.rng)
        record, attacked = await self.perform(state, pid, action)
        after = await self.read()
        assert await logged_for(self.group.db, record.id) == 1, f"{action!r} was not logged exactly once"
        assert after.actions == before.actions + 1, f"{action!r}: {after.actions - before.actions} actions logged"
        assert self.state.seq == state.seq + 1
        await self.collect_buttons(record, self.state, attacked)
        return record


async def insert_timer(db: asyncpg.Connection, game_id: int, player: int, kind: str, due_at: float,
                       due: float) -> int:
    """Arm a timer of a seat's clock behind the bots' backs, as another process would; its id."""
    return int(await db.fetchval("INSERT INTO timers (game_id, kind, due_at, payload, player) VALUES ($1, $2, $3, $4, "
                                 "$5) RETURNING id", game_id, kind, due_at, json.dumps({"due": due}), player))


def channel_posts(fake: FakeDiscord, channel_id: str, mark: str) -> list[SentMessage]:
    """The bot's posts in a channel that begin with `mark`."""
    return [m for m in fake.messages(channel_id) if m.source == "channel" and m.content.startswith(mark)]


# ------------------------------------------------------------------------------------------------ the tests


async def test_one_interaction_delivered_to_both_processes_is_applied_once(tmp_path: Path, postgres_url: str) -> None:
    """Every command and button of a Risk game's lobby and first moves goes to both processes at once: each is
    logged once, answered once, and changes the game as one application does."""
    async with cluster(tmp_path, postgres_url, members=3) as group:
        alice, bob, carol = group.members
        players = Everywhere(group, group.members)
        host = int(alice["user"]["id"])
        await players.slash(host, "new", "risk", options={"setup": "random_deal",
                                                                  "placement": "bulk_sequential"})
        opened = await players.read()
        for member in (bob, carol):
            await players.slash(int(member["user"]["id"]), "game", "join")
        joined = await players.read()
        assert [s["id"] for s in joined.lobby["seats"]] == [int(m["user"]["id"]) for m in group.members]
        assert joined.version == opened.version + 2, "a join was applied twice"
        await players.slash(host, "game", "start")
        await players.settled()
        started = await players.read()
        assert started.status == "running" and started.actions == 0 and players.state.seq == 0
        assert started.version == joined.version + 1, "the start was applied twice"
        assert await group.db.fetchval("SELECT COUNT(*) FROM games") == 1

        steps = 0
        while steps < 6 or not any(what.startswith("button") for what in players.used):
            assert steps < 30, f"no button pressed in {steps} moves: {dict(players.used)}"
            await players.step_once()
            await players.settled()
            steps += 1
        await group.told()
        assert sorted(await seqs(group.db, started.id)) == list(range(1, steps + 1))
        assert await group.db.fetchval("SELECT COUNT(*) FROM actions WHERE interaction_id IS NULL") == 0
        assert len(players.sent) == 4 + steps
        group.all_answered_once(players.sent)


async def test_both_processes_racing_in_one_channel_lose_no_update(tmp_path: Path, postgres_url: str) -> None:
    """Five members join a lobby at once, half through each process: all are seated. Then in a Battlemist game of
    six, every player locks W-ECONSTART at once, and then the economy's orders, through alternating processes: every
    lock is applied, one after another, and the game goes on to the quest."""
    async with cluster(tmp_path, postgres_url, members=6, channels=["battlemist"]) as group:
        host, *others = group.members
        ids = [int(m["user"]["id"]) for m in group.members]
        channel = group.fake.world.channel
        [opened] = await group.at_once([group.slash(host, "new", "risk")])
        await group.posted([opened])
        before = await game_row(group.db, channel["id"])
        joins = await group.at_once([group.slash(m, "game", "join") for m in others])
        await group.posted(joins)
        lobby = await game_row(group.db, channel["id"])
        assert sorted(s["id"] for s in lobby.lobby["seats"]) == sorted(ids), "a join was lost"
        assert lobby.version == before.version + len(others)

        table = group.fake.world.channels[-1]
        assert table["name"] == "battlemist"
        [opened] = await group.at_once([group.slash(host, "new", "battlemist", channel=table)])
        await group.posted([opened])
        await group.posted(await group.at_once([group.slash(m, "game", "join", channel=table) for m in others]))
        [begun] = await group.at_once([group.slash(host, "game", "start", channel=table)])
        await group.posted([begun])
        game = await game_row(group.db, table["id"])
        votes: list[InteractionRecord] = []
        by_id = dict(zip(ids, group.members, strict=True))
        while game.parse().phase is BMPhase.COUNCIL:  # the seed may open with a Council: everyone abstains in turn
            [voter] = {d.player for d in BATTLEMIST.pending(game.parse())}
            votes += await group.at_once([group.slash(by_id[voter], "bm", "vote", channel=table,
                                                      options={"choice": "abstain"})], first=len(votes))
            await group.posted(votes[-1:])
            game = await game_row(group.db, table["id"])
        assert game.parse().phase is BMPhase.ECONSTART
        assert sorted(d.player for d in BATTLEMIST.pending(game.parse())) == sorted(ids)

        locks: list[InteractionRecord] = []
        for phase, after in ((BMPhase.ECONSTART, BMPhase.ORDERS), (BMPhase.ORDERS, BMPhase.QUEST)):
            wave = await group.at_once([group.slash(m, "bm", "lock", channel=table) for m in group.members])
            await group.posted(wave)
            locks += wave
            row = await game_row(group.db, table["id"])
            assert row.actions == len(votes) + len(locks), f"{len(votes) + len(locks) - row.actions} locks lost"
            assert row.parse().phase is after, f"after every lock of {phase}: {row.parse().phase}"
            for record in wave:
                assert await logged_for(group.db, record.id) == 1
        assert await seqs(group.db, game.id) == list(range(1, len(votes) + len(locks) + 1))
        await group.told()
        group.all_answered_once([opened, begun, *joins, *votes, *locks])


async def test_a_timer_due_while_both_run_fires_once(tmp_path: Path, postgres_url: str) -> None:
    """A reminder, then a deadline, of the human seat of a Risk game against two AI seats fall due while both
    processes run (armed in the database, due once both timekeepers have seen them, so that both wake for them at
    the same moment): the reminder is posted once, the stand-in plays the missed turn once."""
    async with cluster(tmp_path, postgres_url, members=1) as group:
        [alice] = group.members
        alice_id = int(alice["user"]["id"])
        channel = group.fake.world.channel["id"]
        players = Everywhere(group, [alice])
        for k, path in enumerate([("new", "risk"), ("game", "add-ai"), ("game", "add-ai"),
                                  ("game", "start")]):
            options = {"setup": "random_deal", "placement": "bulk_sequential"} if k == 0 else {}
            await group.posted(await group.at_once([group.slash(alice, *path, options=options)], first=k))
        await players.settled()
        game = await players.read()
        assert game.status == "running" and players.decides(players.snapshot)  # type: ignore[arg-type]
        look = TAKEOVER_S / 2 + 0.5  # each timekeeper looks at the timers this often when the store is shared

        due = time.time() + 3600
        reminder = await insert_timer(group.db, game.id, alice_id, "reminder", time.time() + look, due)
        found = await group.fake.wait_until(lambda: channel_posts(group.fake, channel, "⏰"), 3 * look + STEP_TIMEOUT_S,
                                            what="the reminder", poll=POLL_S)
        assert f"<@{alice_id}>" in found[0].content
        await asyncio.sleep(GRACE_S)  # a second firing would come now
        assert len(channel_posts(group.fake, channel, "⏰")) == 1, "the reminder was posted twice"
        assert await group.db.fetchval("SELECT COUNT(*) FROM timers WHERE id = $1", reminder) == 0

        before = await players.read()
        deadline = time.time() + look
        await insert_timer(group.db, game.id, alice_id, "deadline", deadline, deadline)
        await group.fake.wait_until(lambda: channel_posts(group.fake, channel, "⌛"), 3 * look + STEP_TIMEOUT_S,
                                    what="the timeout", poll=POLL_S)
        await players.settled()
        await asyncio.sleep(GRACE_S)
        after = await players.read()
        assert len(channel_posts(group.fake, channel, "⌛")) == 1, "the timeout was told twice"
        assert after.lobby["status"][str(alice_id)]["timeouts"] == 1, "the deadline fired more than once"
        stand_in = [r["seq"] for r in await group.db.fetch(
            "SELECT seq FROM actions WHERE game_id = $1 AND actor = $2 AND by_ai ORDER BY seq", game.id, alice_id)]
        assert stand_in and stand_in == list(range(stand_in[0], stand_in[0] + len(stand_in))), \
            f"the stand-in played more than one run of Alice's decisions: {stand_in}"
        assert stand_in[0] == before.actions + 1
        await group.told()


async def test_a_process_killed_mid_chain_is_taken_over_and_every_post_goes_once(tmp_path: Path,
                                                                                 postgres_url: str) -> None:
    """Alice resigns from a Risk game through process A, whose four AI seats then play the game out, and A is
    killed (SIGKILL) mid-way while the post that tells the resignation is stuck in Discord (posted, unanswered) and
    A holds the channel's delivery: process B plays the game to its end (the resume timer), delivers that post only
    once A's claim ran out, and every post once; a restarted A posts nothing again. Discord's own dedupe of nonces
    is off: only the claims and the bots' look-up keep posts single."""
    async with cluster(tmp_path, postgres_url, members=1, nonce_window=0.0) as group:
        [alice] = group.members
        alice_id = int(alice["user"]["id"])
        channel = group.fake.world.channel["id"]
        first = group.bots[0]
        players = Everywhere(group, [alice])
        players.to = [group.session(first)]
        await players.slash(alice_id, "new", "risk", options={"setup": "random_deal",
                                                                      "placement": "bulk_sequential"})
        for _ in range(4):
            await players.slash(alice_id, "game", "add-ai")
        await players.slash(alice_id, "game", "start")
        await players.settled()
        _, confirm = await players.slash(alice_id, "risk", "resign", public=False)
        resign = next(c for c in confirm.custom_ids() if c.startswith("risk:resign:"))
        game = await players.read()
        stuck = group.fake.delay_next("POST", rf"^/channels/{channel}/messages$", 20.0, applied=True)
        await players.send(group.fake.world.component(resign, message=confirm.payload, user=alice), "resign",
                           public=True)
        assert stuck.hits == 1

        assert first.proc is not None
        holder = f":{first.proc.pid}:"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STEP_TIMEOUT_S
        while True:  # mid-way through the AI seats' play, and A claimed the channel's delivery a moment ago (it
            # lets go no sooner than POST_TIMEOUT after, when a try at the stuck post fails)
            row = await game_row(group.db, channel)
            claim = await group.db.fetchrow("SELECT holder, until FROM channel_claims WHERE channel_id = $1",
                                            int(channel))
            assert row.status == "running", f"the AI seats finished the game ({row.actions} actions) before the kill"
            if row.actions >= game.actions + 20 and claim is not None and holder in claim["holder"] \
                    and claim["until"] > time.time() + TAKEOVER_S - POST_TIMEOUT_S / 2:
                break
            assert loop.time() < deadline, "A never held the channel while its AI seats played"
            await asyncio.sleep(0.005)
        await first.kill()
        killed = await game_row(group.db, channel)
        assert killed.status == "running" and RULESET.winners(killed.parse()) is None
        told = await group.db.fetchval("SELECT MIN(id) FROM outbox WHERE channel_id = $1 AND delivered_at IS NULL",
                                       int(channel))
        assert told is not None, "the resignation's post is not waiting"

        final = await wait_for_game(group.db, channel, lambda r: r.status == "finished", GAME_TIMEOUT_S)
        assert final.actions > killed.actions and RULESET.winners(final.parse()) is not None
        await group.told()  # which replays every game's log
        delivered = await group.db.fetchval("SELECT delivered_at FROM outbox WHERE id = $1", told)
        assert delivered >= claim["until"], "B delivered the channel's posts while A's claim was live"

        shown = {c: [m.id for m in messages] for c, messages in group.fake.ledger(interactions=True).items()}
        await first.start()
        await group.connected(first)
        await asyncio.sleep(TAKEOVER_S / 2 + GRACE_S)  # its outbox swept, its timers looked at
        now = group.fake.ledger(interactions=True)
        known = {i for ids in shown.values() for i in ids}
        again = [f"{m.source} {m.payload.get('nonce')} {m.interaction_id}: {str(m.payload.get('content'))[:200]}"
                 for messages in now.values() for m in messages if m.id not in known]
        assert {c: [m.id for m in messages] for c, messages in now.items()} == shown, \
            f"the restarted process posted again: {again}"
        assert (await game_row(group.db, channel)).actions == final.actions
        await group.told()


async def test_sharded_processes_each_serve_their_own_shard(tmp_path: Path, postgres_url: str) -> None:
    """SHARD_COUNT=2: each process identifies with its shard, only the guild's shard gets the guild, and a slash
    command through it works end to end."""
    envs = ({"SHARD_COUNT": "2", "SHARD_IDS": "0"}, {"SHARD_COUNT": "2", "SHARD_IDS": "1"})
    async with cluster(tmp_path, postgres_url, envs=envs) as group:
        fake = group.fake
        assert sum(r.route == "sync_global" for r in fake.requests) == 2
        assert [s.shard for s in group.sessions] == [(0, 2), (1, 2)]  # each process identified as its SHARD_IDS
        assert len(fake.open_sessions) == 2
        home = (int(fake.world.guild_id) >> 22) % 2
        owners = [s for s in fake.open_sessions if s.owns(fake.world.guild_id)]
        assert owners == [group.sessions[home]]
        host = group.members[0]
        record = await group.send(group.slash(host, "new", "risk"), to=owners)
        created = await group.applied(record)
        assert "Risk" in created.content
        group.all_answered_once([record])
        row = await game_row(group.db, fake.world.channel["id"])
        assert row.status == "lobby" and [s["id"] for s in row.lobby["seats"]] == [int(host["user"]["id"])]
        await group.told()
