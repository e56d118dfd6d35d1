"""The default store: SQLite through aiosqlite, numbered migrations, games, the action log, timers, interactions."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiosqlite

from engine.store import migrations
from engine.store.base import (
    ActionRow,
    ChannelBusy,
    Command,
    DuplicateInteraction,
    GameRow,
    GuildFull,
    HostFull,
    PostRow,
    StoreError,
    StoreUnavailable,
    TimerRow,
    VersionConflict,
    holder_name,
)
from engine.store.rows import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    INTERACTIONS_KEPT,
    POST_COLUMNS,
    TIMER_COLUMNS,
    action_row,
    game_row,
    loads,
    post_row,
    timer_row,
)

LIVE = ("lobby", "running")

MIGRATIONS = migrations.load("sqlite")
_COMMAND: ContextVar[Command | None] = ContextVar("command", default=None)
"""The interaction id that the current command's first write transaction records (see `Store.command`)."""



WAL_TRIES = 20
"""Switching a file to write-ahead logging needs it alone for a moment, and SQLite's busy wait does not apply."""


async def _write_ahead(db: aiosqlite.Connection) -> None:
    """Switch the file to write-ahead logging, waiting a little while another connection opening it holds it."""
    for attempt in range(WAL_TRIES):
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError:
            if attempt == WAL_TRIES - 1:
                raise
            await asyncio.sleep(0.01 * (attempt + 1))


class SqliteStore:
    """One SQLite database; writes are serialised, each in its own transaction."""

    shared = False
    """One process has the database: its per-channel locks keep commands apart, and it may keep what it read."""

    def __init__(self, db: aiosqlite.Connection, clock: Any = time.time) -> None:
        self._db = db
        self._write = asyncio.Lock()
        self._clock = clock
        self.holder = holder_name()

    @classmethod
    async def open(cls, path: str | Path, clock: Any = time.time) -> SqliteStore:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # sqlite3 opens BEGIN IMMEDIATE itself before the first write of a transaction: one round trip fewer
        db = await aiosqlite.connect(str(path), isolation_level="IMMEDIATE")
        store = cls(db, clock)
        try:
            await db.execute("PRAGMA busy_timeout=5000")  # first: another process opening the file may hold it
            await _write_ahead(db)
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await store.migrate()
            await store.forget_interactions()
            await store.forget_claims()
        except BaseException:
            await db.close()  # an open connection's thread would keep the process alive
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    @contextmanager
    def command(self, interaction_id: str | None) -> Iterator[Command]:
        """Within this block, the first write transaction also records `interaction_id`, so a second delivery of
        the interaction finds it (`seen`) and the change is never applied twice; DuplicateInteraction if it is
        recorded already. The Command it gives says whether a write of the block committed."""
        command = Command(interaction_id)
        token = _COMMAND.set(command)
        try:
            yield command
        finally:
            _COMMAND.reset(token)

    @asynccontextmanager
    async def hold(self, channel_id: int) -> AsyncIterator[None]:
        """Nothing to do: no other process writes this database (the service's own lock keeps its commands apart)."""
        yield

    async def seen(self, interaction_id: str) -> bool:
        """Whether a command or an action of this interaction was applied already."""
        row = await self._one("SELECT 1 FROM interactions WHERE id = ? UNION ALL SELECT 1 FROM actions "
                              "WHERE interaction_id = ? LIMIT 1", (interaction_id, interaction_id))
        return row is not None

    async def forget_claims(self) -> None:
        """Drop the claims of earlier runs: this process is the only one that uses the file, so what a run that
        crashed had claimed is this one's to do, at once."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM channel_claims")
            await db.execute("UPDATE timers SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by IS NOT NULL")

    async def forget_interactions(self) -> None:
        """Drop the interaction ids older than Discord could deliver again."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM interactions WHERE created_at < ?", (self._clock() - INTERACTIONS_KEPT,))

    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        """The first row of a query, in one round trip to the database thread."""
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return list(await self._db.execute_fetchall(sql, params))
        except sqlite3.OperationalError as err:
            raise StoreUnavailable(str(err)) from err

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Apply the numbered migrations not yet applied; return the schema version."""
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise StoreError(f"the database has schema {current}, newer than this bot's {len(MIGRATIONS)}")
        for number in range(current + 1, len(MIGRATIONS) + 1):
            async with self.transaction() as db:
                await db.execute("BEGIN IMMEDIATE")  # DDL does not open a transaction by itself
                async with db.execute("PRAGMA user_version") as cursor:
                    row = await cursor.fetchone()
                if row is not None and row[0] >= number:
                    continue  # another process opening the same file applied it meanwhile
                for statement in migrations.statements(MIGRATIONS[number - 1]):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")
        return len(MIGRATIONS)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (begun by the first write), committed, or rolled back on any error."""
        async with self._write:
            try:
                yield self._db
                command = _COMMAND.get()
                record = command is not None and command.interaction_id is not None and not command.committed
                if record:
                    try:
                        await self._db.execute("INSERT INTO interactions (id, created_at) VALUES (?, ?)",
                                               (command.interaction_id, self._clock()))
                    except sqlite3.IntegrityError as err:
                        raise DuplicateInteraction(str(command.interaction_id)) from err
                await self._db.commit()
                if command is not None:
                    command.committed = True  # the id is recorded: the command's later writes need not again
            except sqlite3.OperationalError as err:
                await self._rollback()
                raise StoreUnavailable(str(err)) from err
            except BaseException:
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.Error):  # nothing was open, or the connection is gone: nothing written
            await self._db.rollback()

    async def integrity_ok(self) -> bool:
        row = await self._one("PRAGMA integrity_check")
        return bool(row) and row[0] == "ok"

    # -- games

    async def live_game(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        )
        return game_row(row) if row else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The channel's live game, or else its most recent one."""
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                              (channel_id,))
        return game_row(row) if row else None

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return game_row(row) if row else None

    async def running_games(self) -> list[GameRow]:
        return [game_row(r) for r in await self._all(f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'running'")]

    async def untold_ends(self) -> list[GameRow]:
        """Finished games whose last moves no post has told (a crash came between the end and its post)."""
        return [game_row(r) for r in await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'finished' AND announced < "
            "(SELECT COALESCE(MAX(seq), 0) FROM actions WHERE actions.game_id = games.id)")]

    async def lobbies_without_expiry(self) -> list[GameRow]:
        """Open lobbies with no expiry timer (opened before lobbies expired)."""
        return [game_row(r) for r in await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'lobby' AND NOT EXISTS "
            "(SELECT 1 FROM timers WHERE timers.game_id = games.id AND timers.kind = 'expiry')")]

    async def create_game(
        self, channel_id: int, guild_id: int | None, ruleset: str, host_id: int, seed: int, lobby: dict[str, Any],
        max_live: int | None = None, max_hosted: int | None = None, expires_at: float | None = None,
    ) -> GameRow:
        """Open a lobby. With `max_live`, only while the server has fewer live games, and with `max_hosted`, only
        while the host has fewer open lobbies in it (both checked in the insert itself); with `expires_at`, a
        timer (kind "expiry") closes the lobby then if it has not started."""
        now = self._clock()
        try:
            async with self.transaction() as db:
                cur = await db.execute(
                    "INSERT INTO games (channel_id, guild_id, ruleset, status, host_id, seed, lobby, version, "
                    "created_at, updated_at) SELECT ?, ?, ?, 'lobby', ?, ?, ?, 0, ?, ? "
                    "WHERE (? IS NULL OR ? IS NULL OR (SELECT COUNT(*) FROM games WHERE guild_id = ? "
                    "AND status IN ('lobby', 'running')) < ?) AND (? IS NULL OR ? IS NULL OR (SELECT COUNT(*) "
                    "FROM games WHERE guild_id = ? AND host_id = ? AND status = 'lobby') < ?)",
                    (channel_id, guild_id, ruleset, host_id, seed, json.dumps(lobby), now, now,
                     guild_id, max_live, guild_id, max_live, guild_id, max_hosted, guild_id, host_id, max_hosted),
                )
                if cur.rowcount != 1:
                    hosted = await self._one("SELECT COUNT(*) FROM games WHERE guild_id = ? AND host_id = ? "
                                             "AND status = 'lobby'", (guild_id, host_id))
                    if max_hosted is not None and hosted[0] >= max_hosted:
                        raise HostFull(f"member {host_id} hosts {max_hosted} lobbies in guild {guild_id}")
                    raise GuildFull(f"guild {guild_id} has {max_live} live games")
                game_id = cur.lastrowid
                if expires_at is not None:
                    await db.execute("INSERT INTO timers (game_id, kind, due_at, payload, player) "
                                     "VALUES (?, 'expiry', ?, '{}', 0)", (game_id, expires_at))
        except sqlite3.IntegrityError as err:
            raise ChannelBusy("this channel already has a game") from err
        row = await self.game(int(game_id or 0))
        assert row is not None
        return row

    async def update_game(
        self, game: GameRow, *, lobby: dict[str, Any] | None = None,
        state: str | None = None, status: str | None = None, host_id: int | None = None,
    ) -> GameRow:
        """Change a game's lobby, state, status or host if it is still at `game.version`; the new row."""
        now = self._clock()
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        for column, value in (("lobby", json.dumps(lobby) if lobby is not None else None), ("state", state),
                              ("status", status), ("host_id", host_id)):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        async with self.transaction() as db:
            cur = await db.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?", (*params, game.id, game.version)
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game.id} is no longer at version {game.version}")
        changed = {k: v for k, v in (("lobby", lobby), ("state", state), ("status", status), ("host_id", host_id))
                   if v is not None}
        return replace(game, **changed, version=game.version + 1, updated_at=now)

    async def record_action(
        self, game: GameRow, seq: int, actor: int, action: dict[str, Any], events: list[dict[str, Any]],
        state: str, interaction_id: str | None, status: str = "running", by_ai: bool = False, opens: int = 0,
    ) -> GameRow:
        """Append one action (which opens `opens` turns) and save the new state in one transaction, checking the
        version; the new row."""
        now = self._clock()
        async with self.transaction() as db:
            try:
                await db.execute(
                    "INSERT INTO actions (game_id, seq, actor, action, events, interaction_id, created_at, by_ai, "
                    "turns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ? + COALESCE((SELECT turns FROM actions "
                    "WHERE game_id = ? ORDER BY seq DESC LIMIT 1), 0))",
                    (game.id, seq, actor, json.dumps(action), json.dumps(events), interaction_id, now, int(by_ai),
                     opens, game.id),
                )
            except sqlite3.IntegrityError as err:
                if interaction_id is not None and "interaction_id" in str(err):
                    raise DuplicateInteraction(interaction_id) from err
                raise VersionConflict(f"action {seq} of game {game.id} exists already") from err
            cur = await db.execute(
                "UPDATE games SET state = ?, status = ?, version = version + 1, updated_at = ? "
                "WHERE id = ? AND version = ?",
                (state, status, now, game.id, game.version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game.id} is no longer at version {game.version}")
        return replace(game, state=state, status=status, version=game.version + 1, updated_at=now)

    # -- the action log

    async def actions(self, game_id: int, after: int = 0, limit: int = 1_000_000) -> list[ActionRow]:
        """The actions logged after seq `after`, oldest first."""
        rows = await self._all(
            f"SELECT {ACTION_COLUMNS} FROM actions "
            "WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?", (game_id, after, limit),
        )
        return [action_row(r) for r in rows]

    async def action_page(self, game_id: int, offset: int, limit: int) -> list[ActionRow]:
        """`limit` actions from the `offset`-th logged one on, oldest first (a page of the history)."""
        rows = await self._all(
            f"SELECT {ACTION_COLUMNS} FROM actions "
            "WHERE game_id = ? ORDER BY seq LIMIT ? OFFSET ?", (game_id, limit, offset),
        )
        return [action_row(r) for r in rows]

    async def recent_actions(self, game_id: int, limit: int) -> list[ActionRow]:
        """The last `limit` actions, oldest first."""
        rows = await self._all(
            f"SELECT {ACTION_COLUMNS} FROM actions "
            "WHERE game_id = ? ORDER BY seq DESC LIMIT ?", (game_id, limit),
        )
        return [action_row(r) for r in reversed(rows)]

    async def count_actions(self, game_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    async def unranked_games(self, guild_id: int) -> list[GameRow]:
        """A server's finished games whose standings are not stored yet, oldest first."""
        return [game_row(r) for r in await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'finished' AND NOT EXISTS "
            "(SELECT 1 FROM standings WHERE standings.game_id = games.id) ORDER BY id", (guild_id,))]

    async def add_standings(self, game_id: int, rows: list[tuple[int, int, bool, bool]]) -> None:
        """A finished game's (user, place, won, human) rows; a second writer of the same game changes nothing."""
        async with self.transaction() as db:
            await db.executemany(
                "INSERT OR IGNORE INTO standings (game_id, user_id, place, won, human) VALUES (?, ?, ?, ?, ?)",
                [(game_id, user, place, int(won), int(human)) for user, place, won, human in rows])

    async def standings(self, guild_id: int) -> list[tuple[str, int, int, bool]]:
        """(ruleset, user, place, won) of every human seat in a server's finished games, oldest game first."""
        rows = await self._all(
            "SELECT games.ruleset, standings.user_id, standings.place, standings.won FROM standings "
            "JOIN games ON games.id = standings.game_id WHERE games.guild_id = ? AND standings.human = 1 "
            "ORDER BY games.id, standings.place, standings.user_id", (guild_id,))
        return [(ruleset, user, place, bool(won)) for ruleset, user, place, won in rows]

    async def count_live_games(self, guild_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM games WHERE guild_id = ? AND status IN ('lobby', 'running')",
                              (guild_id,))
        return int(row[0]) if row else 0

    # -- timers

    async def add_timers(self, game_id: int, player: int, timers: list[tuple[str, float, dict[str, Any]]]) -> None:
        """Arm one seat's clock: (kind, due_at, payload) rows, in one transaction."""
        async with self.transaction() as db:
            await db.executemany(
                "INSERT INTO timers (game_id, kind, due_at, payload, player) VALUES (?, ?, ?, ?, ?)",
                [(game_id, kind, due_at, json.dumps(payload), player) for kind, due_at, payload in timers],
            )

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self._all(f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? ORDER BY due_at, id",
                               (game_id,))
        return [timer_row(r) for r in rows]

    async def next_timer(self) -> TimerRow | None:
        row = await self._one(f"SELECT {TIMER_COLUMNS} FROM timers WHERE claimed_until IS NULL OR claimed_until < ? "
                              "OR claimed_by = ? ORDER BY due_at, id LIMIT 1", (self._clock(), self.holder))
        return timer_row(row) if row else None

    async def claim_timer(self, timer_id: int, lease: float) -> bool:
        now = self._clock()
        async with self.transaction() as db:
            cur = await db.execute("UPDATE timers SET claimed_by = ?, claimed_until = ? WHERE id = ? AND "
                                   "(claimed_until IS NULL OR claimed_until < ? OR claimed_by = ?)",
                                   (self.holder, now + lease, timer_id, now, self.holder))
            return cur.rowcount == 1

    async def delete_timer(self, timer_id: int) -> bool:
        """Remove one timer; False when it was gone already (another task fired or disarmed it)."""
        async with self.transaction() as db:
            cur = await db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
            return cur.rowcount == 1

    async def delete_timers(self, game_id: int, player: int | None = None) -> None:
        """Disarm a game's clocks, or one seat's."""
        async with self.transaction() as db:
            if player is None:
                await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
            else:
                await db.execute("DELETE FROM timers WHERE game_id = ? AND player = ?", (game_id, player))

    # -- the outbox

    async def add_post(self, game: GameRow, payload: dict[str, Any], announced: int | None = None,
                       waiting: Sequence[int] | None = None, done_timer: int | None = None) -> GameRow:
        """Queue one announcement for the game's channel and, with `announced`, mark the actions up to that seq as
        told, in one transaction; with `done_timer`, that timer (a reminder) goes in the same transaction. Posts
        parked in the channel wait again (someone plays there: try them once more). The row as it is now."""
        now = self._clock()
        async with self.transaction() as db:
            if done_timer is not None:
                await db.execute("DELETE FROM timers WHERE id = ?", (done_timer,))
            await db.execute("INSERT INTO outbox (game_id, channel_id, payload, created_at) VALUES (?, ?, ?, ?)",
                             (game.id, game.channel_id, json.dumps(payload), now))
            await db.execute("UPDATE outbox SET parked = NULL, next_try = 0 WHERE channel_id = ? "
                             "AND parked IS NOT NULL", (game.channel_id,))
            if announced is not None:
                await db.execute("UPDATE games SET announced = ?, waiting = ? WHERE id = ?",
                                 (announced, json.dumps(list(waiting or ())), game.id))
        if announced is None:
            return game
        return replace(game, announced=announced, waiting=tuple(waiting or ()))

    async def next_post(self, channel_id: int) -> PostRow | None:
        """The channel's oldest post not yet delivered nor parked: its posts go out in order."""
        row = await self._one(f"SELECT {POST_COLUMNS} FROM outbox WHERE channel_id = ? AND delivered_at IS NULL "
                              "AND parked IS NULL ORDER BY id LIMIT 1", (channel_id,))
        return post_row(row) if row else None

    async def post_channels(self, now: float) -> list[int]:
        """The channels whose next post may be tried now, oldest post first, but those another process claimed."""
        rows = await self._all(
            "SELECT channel_id, MIN(id) AS first FROM outbox WHERE delivered_at IS NULL AND parked IS NULL "
            "AND NOT EXISTS (SELECT 1 FROM channel_claims c WHERE c.channel_id = outbox.channel_id AND c.until >= ? "
            "AND c.holder <> ?) GROUP BY channel_id HAVING (SELECT next_try FROM outbox WHERE id = first) <= ? "
            "ORDER BY first", (self._clock(), self.holder, now))
        return [int(channel_id) for channel_id, _ in rows]

    async def claim_channel(self, channel_id: int, lease: float) -> bool:
        now = self._clock()
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT INTO channel_claims (channel_id, holder, until) VALUES (?, ?, ?) ON CONFLICT (channel_id) "
                "DO UPDATE SET holder = excluded.holder, until = excluded.until "
                "WHERE channel_claims.until < ? OR channel_claims.holder = excluded.holder",
                (channel_id, self.holder, now + lease, now))
            return cur.rowcount == 1

    async def release_channel(self, channel_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM channel_claims WHERE channel_id = ? AND holder = ?",
                             (channel_id, self.holder))

    async def next_retry(self) -> float | None:
        """When the earliest post that is waiting to be tried again may be tried."""
        row = await self._one("SELECT MIN(next_try) FROM outbox WHERE delivered_at IS NULL AND parked IS NULL")
        return float(row[0]) if row and row[0] is not None else None

    async def post_tried(self, post_id: int, sent: Sequence[int]) -> None:
        """Count an attempt at a post, as it begins, and keep the ids of its messages Discord has accepted."""
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET attempts = attempts + 1, sent = ?, next_try = 0 WHERE id = ?",
                             (json.dumps(list(sent)), post_id))

    async def post_sent(self, post_id: int, sent: Sequence[int], retry_at: float | None = None) -> None:
        """Keep the ids of a post's messages Discord has accepted so far, within the attempt already counted;
        `retry_at` when the rest must wait."""
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET sent = ?, next_try = ? WHERE id = ?",
                             (json.dumps(list(sent)), retry_at or 0.0, post_id))

    async def post_delivered(self, post_id: int, sent: Sequence[int]) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET sent = ?, delivered_at = ? WHERE id = ?",
                             (json.dumps(list(sent)), self._clock(), post_id))

    async def post_parked(self, post_id: int, reason: str) -> None:
        """Set a post aside that can't be delivered (the channel is gone, or the bot may not post there)."""
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET parked = ? WHERE id = ?", (reason, post_id))

    async def last_delivered(self, channel_id: int) -> int | None:
        """The id of the last message the outbox delivered to the channel."""
        row = await self._one("SELECT sent FROM outbox WHERE channel_id = ? AND delivered_at IS NOT NULL "
                              "ORDER BY id DESC LIMIT 1", (channel_id,))
        sent = loads(row[0], []) if row else []
        return int(sent[-1]) if sent else None

    async def parked_posts(self, channel_id: int) -> list[tuple[int, str]]:
        """(post id, why) of the channel's posts that could not be delivered."""
        rows = await self._all("SELECT id, parked FROM outbox WHERE channel_id = ? AND parked IS NOT NULL "
                               "ORDER BY id", (channel_id,))
        return [(int(post_id), str(reason)) for post_id, reason in rows]

    async def board_message(self, game_id: int) -> int | None:
        """The message that shows the game's board, edited in place (None before the first)."""
        row = await self._one("SELECT message_id FROM boards WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else None

    async def set_board_message(self, game_id: int, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO boards (game_id, message_id) VALUES (?, ?) "
                             "ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id",
                             (game_id, message_id))

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server chose for its new games (None: it has not chosen)."""
        row = await self._one("SELECT language FROM guilds WHERE guild_id = ?", (guild_id,))
        return str(row[0]) if row else None

    async def set_guild_language(self, guild_id: int, language: str) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO guilds (guild_id, language) VALUES (?, ?) "
                             "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                             (guild_id, language))
