"""Announcements under faults and crashes, end to end: what such a game must leave behind, and what causes them.

`audit` reads the bot's database and the fake Discord's ledger and lists every way the story of the games went
wrong: a post the outbox still holds, a message of a post never in its channel (lost) or there more than once
(duplicated), posts out of outbox order, a bot message in a channel that is no outbox message, a message recorded
under another id than the channel's, a game whose story is not told up to its last action, a saved state that is
not the replay of its own action log, a game not finished, a database that fails `PRAGMA integrity_check`.

`Chaos` plays the one human seat of a Risk game through the real bot process (as `Humans` does) while it scripts
faults on the interaction's reply (its callback), on its webhook (followups, edits and deletes of the original
response) and on the channel's posts, and kills the bot (SIGKILL) while the AI seats play, restarting it each time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import re
import sqlite3
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.models import from_json
from engine.core.record import replay
from engine.games import get
from engine.games.risk import actions as A
from engine.games.risk.state import RiskState
from tests.discord.fakeapi import CALLBACK_WINDOW_S, Fault, InteractionRecord, SentMessage
from tests.discord.fakediscord import FakeDiscord
from tests.discord.payloads import APPLICATION_COMMAND, FLAG_EPHEMERAL
from tests.e2e.botprocess import (
    STARTUP_TIMEOUT_S,
    STEP_TIMEOUT_S,
    TOKEN,
    BotProcess,
    GameSnapshot,
    bot_env,
    errors_logged,
    integrity,
    logged_record,
    read_game,
    running,
)
from tests.e2e.test_risk_game import Humans

POST_TIMEOUT_S = 2.0
"""How long the bot waits for a channel post's answer here (POST_TIMEOUT), so that a time-out fits in a test."""
RETRY_AFTER_S = CALLBACK_WINDOW_S + 0.5
"""A 429's retry_after that runs past Discord's window for the interaction's reply."""
MAX_KILL_DELAY_S = 0.05
"""A kill comes at a random moment up to this long after the AI seats began to play."""
GAME_TIMEOUT_S = 60.0
"""How long the AI seats may take to play a game out once only they are left."""
KINDS = ("429 past the window", "500 three times", "time-out")
TARGETS = ("reply", "webhook", "post")

Table = tuple[dict, dict]
"""A human player (a member payload) and the channel they play in."""


# ------------------------------------------------------------------------------------------------ the audit


@dataclass(frozen=True)
class Posted:
    """One outbox row: its post's id, channel, how many messages it has, the ids recorded as sent, and whether
    it is delivered."""

    id: int
    channel_id: str
    messages: int
    sent: tuple[str, ...]
    delivered: bool

    def nonces(self) -> list[str]:
        """The nonce of each of its messages, as the delivery sends them."""
        return [f"{self.id}.{k}" for k in range(self.messages)]


@dataclass
class Audit:
    """Everything wrong with the announcements of a database's games, each kind in its own list."""

    lost: list[str] = field(default_factory=list)
    """The nonces of outbox messages never in their channel."""
    duplicated: list[str] = field(default_factory=list)
    """One nonce per extra copy of an outbox message in its channel."""
    disordered: list[str] = field(default_factory=list)
    """Channels whose messages are not in outbox order."""
    strays: list[str] = field(default_factory=list)
    """Bot messages in a channel that are no message of that channel's outbox."""
    misrecorded: list[int] = field(default_factory=list)
    """Delivered posts whose recorded message ids are not those of their messages in the channel."""
    undelivered: list[int] = field(default_factory=list)
    untold: list[str] = field(default_factory=list)
    """Games whose `announced` is not their last action's seq."""
    unreplayed: list[int] = field(default_factory=list)
    """Games whose saved state is not the replay of their action log."""
    unfinished: list[int] = field(default_factory=list)
    integrity: str = "ok"

    def problems(self) -> list[str]:
        """One line per kind of problem found; none when all is well."""
        found = [f"{name}: {value}" for name, value in vars(self).items() if value and name != "integrity"]
        return found + [f"integrity_check: {self.integrity}"] * (self.integrity != "ok")


def compare(posts: Sequence[Posted], ledger: Mapping[str, Sequence[SentMessage]]) -> Audit:
    """What the channels show against what the outbox holds: each message of each post exactly once, in order."""
    found = Audit()
    for channel in sorted({p.channel_id for p in posts} | set(ledger)):
        mine = [p for p in posts if p.channel_id == channel]
        expected = [nonce for p in mine for nonce in p.nonces()]
        shown = list(ledger.get(channel, []))
        nonces = [str(m.nonce) for m in shown]
        counts = Counter(nonces)
        found.lost += [n for n in expected if not counts[n]]
        found.duplicated += [n for n in expected for _ in range(counts[n] - 1)]
        known = set(expected)
        found.strays += [str(m) for m in shown if m.nonce is None or str(m.nonce) not in known]
        if [n for n in dict.fromkeys(nonces) if n in known] != [n for n in expected if counts[n]]:
            found.disordered.append(channel)
        ids = {str(m.nonce): m.id for m in reversed(shown)}  # the first copy of each
        found.misrecorded += [p.id for p in mine if p.delivered and all(counts[n] for n in p.nonces())
                              and tuple(ids[n] for n in p.nonces()) != p.sent]
    return found


def outbox(db: Path) -> list[Posted]:
    """Every outbox row, in id order."""
    with _reading(db) as con:
        rows = con.execute("SELECT id, channel_id, payload, sent, delivered_at, parked FROM outbox ORDER BY id")
        return [Posted(id=post_id, channel_id=str(channel), messages=len(json.loads(payload)["messages"]),
                       sent=tuple(str(s) for s in json.loads(sent)), delivered=delivered is not None and not parked)
                for post_id, channel, payload, sent, delivered, parked in rows]


def unreplayed(db: Path) -> list[int]:
    """The games whose saved state is not the replay of their own action log."""
    with _reading(db) as con:
        games = con.execute("SELECT id, ruleset, state FROM games WHERE state IS NOT NULL ORDER BY id").fetchall()
    wrong = []
    for game_id, ruleset, state in games:
        rules = get(ruleset)
        replayed, _ = replay(rules, logged_record(db, game_id))
        if replayed.digest() != from_json(rules.state_model, json.loads(state)).digest():
            wrong.append(game_id)
    return wrong


BACKLOG_TIMEOUT_S = 4 * STEP_TIMEOUT_S
"""How long the audit waits for the posts a run left queued: after faults and kills they wait out back-offs and
rate limits, which a loaded machine stretches (it returns as soon as all is told)."""


def untold(db: Path) -> list[str]:
    """The games whose story is not told up to their last action (`announced`)."""
    with _reading(db) as con:
        return [f"game {game_id}: told up to {announced}, played up to {last}"
                for game_id, announced, last in con.execute(
                    "SELECT id, announced, (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = games.id) "
                    "FROM games ORDER BY id") if announced != last]


def audit(db: Path, ledger: Mapping[str, Sequence[SentMessage]]) -> Audit:
    """Everything wrong with the announcements of the database's games, given the channels' ledger."""
    posts = outbox(db)
    found = compare(posts, ledger)
    found.undelivered = [p.id for p in posts if not p.delivered]
    found.untold = untold(db)
    with _reading(db) as con:
        found.unfinished = [game_id for (game_id,) in con.execute(
            "SELECT id FROM games WHERE status != 'finished' ORDER BY id")]
    found.unreplayed = unreplayed(db)
    found.integrity = integrity(db)
    return found


async def told(db: Path, fake: FakeDiscord, timeout: float = BACKLOG_TIMEOUT_S) -> Audit:
    """The audit once every game is told to its end and the outbox has delivered it, or `timeout` passed (a
    game's last move is saved, and the game finished, before its post is queued)."""
    with contextlib.suppress(TimeoutError):
        await fake.wait_until(lambda: not untold(db) and all(p.delivered for p in outbox(db)), timeout,
                              what="every move told and delivered", poll=0.05)
    return audit(db, fake.ledger())


async def all_told(db: Path, fake: FakeDiscord, bot: BotProcess) -> Audit:
    """Assert that the audit, once all is told, finds nothing wrong, and that the bot logged no error."""
    found = await told(db, fake)
    assert not found.problems(), "\n".join(found.problems())
    assert errors_logged(bot.logs()) == []
    return found


@contextlib.contextmanager
def _reading(db: Path) -> Iterator[sqlite3.Connection]:
    con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=5.0)
    try:
        yield con
    finally:
        con.close()


def applied(db: Path, interaction_id: str) -> bool:
    """Whether the bot applied (and recorded) a command of this interaction."""
    with _reading(db) as con:
        return con.execute("SELECT 1 FROM interactions WHERE id = ?", (interaction_id,)).fetchone() is not None


# ------------------------------------------------------------------------------------------------ the faults


@dataclass(frozen=True)
class Injection:
    """A fault to script: on what (`reply`, `webhook` or `post`), which kind, and whether the request takes
    effect before the failure shows (a 500 after the message is posted, a late answer to a post that went); a
    429, which never takes effect, is then global instead of the route's."""

    target: str
    kind: str
    applied: bool = False

    def fits(self, payload: dict) -> bool:
        """Whether the interaction calls what this fault is on (a button on a public post calls no webhook)."""
        if self.target != "webhook":
            return True
        message = payload.get("message") or {}
        return payload["type"] == APPLICATION_COMMAND or bool(int(message.get("flags") or 0) & FLAG_EPHEMERAL)

    def script(self, fake: FakeDiscord, payload: dict) -> Fault:
        """Script the fault for this interaction's callback or webhook, or for its channel's next post."""
        token = re.escape(payload["token"])
        method, path, late = {
            "reply": ("POST", rf"^/interactions/{payload['id']}/{token}/callback$", RETRY_AFTER_S),
            "webhook": ("*", rf"^/webhooks/\d+/{token}(/|$)", RETRY_AFTER_S),
            "post": ("POST", rf"^/channels/{payload['channel_id']}/messages$", POST_TIMEOUT_S + 0.5),
        }[self.target]
        if self.kind == "429 past the window":
            return fake.fail_next(method, path, 429, retry_after=RETRY_AFTER_S,
                                  scope="global" if self.applied else "user")
        if self.kind == "500 three times":
            return fake.fail_next(method, path, 500, times=3, applied=self.applied)
        return fake.delay_next(method, path, late, applied=self.applied)

    def __str__(self) -> str:
        if self.kind == "429 past the window":
            return f"{'global ' * self.applied}{self.kind} on the {self.target}"
        return f"{self.kind} on the {self.target}{' after it took effect' * self.applied}"


def fault_plan(rng: random.Random, count: int) -> list[Injection]:
    """`count` faults: every kind on every target in a shuffled order, round after round, each round alternately
    before and after the request takes effect (per route and global, for a 429)."""
    rounds = ([Injection(target, kind, applied=r % 2 == 1) for target in TARGETS for kind in KINDS]
              for r in itertools.count())
    plan: list[Injection] = []
    while len(plan) < count:
        kinds = next(rounds)
        rng.shuffle(kinds)
        plan += kinds
    return plan[:count]


# ------------------------------------------------------------------------------------------------ the driver


class Chaos(Humans):
    """Plays one human seat of Risk games against AI seats while Discord fails under the bot and the bot dies."""

    def __init__(self, fake: FakeDiscord, db: Path, bot: BotProcess, table: Table, *, seed: int,
                 plan: Sequence[Injection] = ()) -> None:
        member, channel = table
        super().__init__(fake, db, {int(member["user"]["id"]): member}, channel)
        self.bot = bot
        self.member = member
        self.chance = random.Random(seed)
        self.plan = list(plan)
        """The faults still to script, each on the next interaction it fits whose result is public."""
        self.scripted: list[tuple[Injection, Fault]] = []
        self.kill_quota = 0
        self.kills = 0
        self.cut = 0
        """Kills that came while an AI seat had the game's decision."""
        self.downtime: list[float] = []
        """Seconds from each kill until the restarted bot was connected again."""
        self.armed = False
        self.repeat = 1
        """How many times the gateway delivers each interaction."""
        self.sent: list[InteractionRecord] = []

    def read(self) -> GameSnapshot:
        return read_game(self.db, self.channel["id"])

    # -- faults

    async def send(self, payload: dict, what: str, *, public: bool) -> tuple[InteractionRecord, SentMessage]:
        injection = next((i for i in self.plan if i.fits(payload)), None) if public else None
        if injection is not None:
            self.plan.remove(injection)
            self.scripted.append((injection, injection.script(self.fake, payload)))
        record = await self.fake.send_interaction(payload)
        await self.fake.redeliver(record, self.repeat - 1)
        self.sent.append(record)
        return record, await self.answer(record, what, public=public)

    def fired(self) -> list[tuple[Injection, Fault]]:
        """The scripted faults that shaped a request."""
        return [(i, f) for i, f in self.scripted if f.hits]

    async def result(self, record: InteractionRecord) -> SentMessage:
        """A public result shows once the command is applied (its reply may have failed): the channel's next post;
        an answer only its user sees (a refusal, a menu) shows as it comes. An end of turn the AI seats answer
        may be cut off by a kill (see `perform`)."""
        def answered() -> SentMessage | bool | None:
            if applied(self.db, record.id):
                return True
            return next((m for m in self.fake.responses(record.id) if m.ephemeral and not m.loading
                         and not m.deleted), None)

        answer = await self.fake.wait_until(answered, STEP_TIMEOUT_S, what=f"interaction {record.id} to be applied",
                                            poll=0.005)
        if isinstance(answer, SentMessage):
            return answer
        if self.armed and not self.decides(self.read()):
            self.armed = False
            await asyncio.sleep(self.chance.uniform(0, MAX_KILL_DELAY_S))
            await self.crash()
        return await self.fake.wait_until(lambda: next((m for m in self.fake.messages(record.channel_id)
                                                        if m.source == "channel" and int(m.id) > int(record.id)),
                                                       None), STEP_TIMEOUT_S, what=f"the post after {record.id}")

    # -- kills

    async def perform(self, s: RiskState, pid: int, action: A.Action) -> tuple[InteractionRecord, bool]:
        """As `Humans`; an end of turn is followed by a kill while there are kills to come."""
        self.armed = self.kills < self.kill_quota and isinstance(action, A.EndTurn | A.Fortify)
        try:
            return await super().perform(s, pid, action)
        finally:
            self.armed = False

    async def crash(self) -> None:
        """SIGKILL the bot, check that the database holds exactly what was committed, and start the bot again."""
        await self.bot.kill()
        down = time.monotonic()
        self.kills += 1
        snapshot = self.read()
        self.cut += snapshot.status == "running" and not self.decides(snapshot)
        assert integrity(self.db) == "ok"
        assert unreplayed(self.db) == [], "a saved state is not the replay of its action log"
        await self.bot.start()
        await self.fake.wait_until_identified(count=self.bot.runs, timeout=STARTUP_TIMEOUT_S)
        self.downtime.append(time.monotonic() - down)

    async def kill_while_ai_play(self) -> None:
        """Once the AI seats have moved on since the last start, kill the bot at a random moment."""
        at = self.read().actions
        await self.fake.wait_until(lambda: self.read().actions > at or self.read().status != "running",
                                   STARTUP_TIMEOUT_S, what="the AI seats to play on", poll=0.005)
        await asyncio.sleep(self.chance.uniform(0, MAX_KILL_DELAY_S))
        if self.read().status == "running":
            await self.crash()

    # -- a whole game

    async def open_game(self) -> None:
        """`/new` of Risk (territories dealt at random), two AI seats, `/game start`."""
        pid = int(self.member["user"]["id"])
        await self.slash(pid, "new", "risk", options={"setup": "random_deal",
                                                      "placement": "bulk_sequential"})
        for _ in range(2):
            await self.slash(pid, "game", "add-ai")
        await self.slash(pid, "game", "start")
        await self.settled()

    async def play(self, *, kills: int = 0, resign_after: int | None = None) -> None:
        """Play the game to its end. Until `kills` kills are done (counted over every game of this driver), each
        end of the human's turn is followed by one, and so are moments of the AI seats' play once they are alone.
        With `resign_after`, the human resigns after that many interactions of this game once every fault is
        scripted."""
        self.kill_quota = kills
        pid = int(self.member["user"]["id"])
        begun = self.interactions
        while (snapshot := self.refresh()).status == "running":
            if not self.decides(snapshot):
                if self.kills < kills:
                    await self.kill_while_ai_play()
                else:
                    await self.fake.wait_until(lambda: self.read().status != "running", GAME_TIMEOUT_S,
                                               what="the AI seats to finish the game", poll=0.05)
                continue
            if resign_after is not None and self.interactions - begun >= resign_after and not self.plan:
                _, confirm = await self.slash(pid, "risk", "resign", public=False)
                resign = next(c for c in confirm.custom_ids() if c.startswith("risk:resign:"))
                await self.send(self.fake.world.component(resign, message=confirm.payload, user=self.member),
                                "resign", public=True)
                continue
            await self.step()
            await self.settled()


@contextlib.asynccontextmanager
async def running_bot(tmp_path: Path, tables: int = 1,
                      **fake_options: float) -> AsyncIterator[tuple[FakeDiscord, BotProcess, list[Table]]]:
    """A fake Discord with `tables` members, each with a channel of their own, and `python bot.py` connected to it
    (its log printed if the block fails); the bot is stopped at the end."""
    async with FakeDiscord(token=TOKEN, **fake_options) as fake:
        seated = [(await fake.add_member(f"Player {k + 1}"), fake.world.add_channel(f"table-{k + 1}"))
                  for k in range(tables)]
        env = {**bot_env(fake.env(), tmp_path / "bot.sqlite3"), "POST_TIMEOUT": str(POST_TIMEOUT_S)}
        async with running(fake, env, tmp_path) as bot:
            yield fake, bot, seated
