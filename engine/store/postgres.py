"""The shared store: PostgreSQL through an asyncpg pool, for one bot process or several on one database.

It behaves as `SqliteStore` does, row for row and error for error; what several processes add is kept apart by
PostgreSQL itself: a session advisory lock per channel (`hold`), a transaction advisory lock per server while a
game is opened (the limits), and row locks skipped by claims (`FOR UPDATE SKIP LOCKED`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

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

MIGRATIONS = migrations.load("postgres")

# The namespaces (the first key) of this bot's advisory locks; the second key says which one of them.
MIGRATION_LOCK = 0x676D0001
CHANNEL_LOCKS = 0x676D0002
GUILD_LOCKS = 0x676D0003

SCHEMA_VERSION = (
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
    "INSERT INTO schema_version (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM schema_version)",
)
"""The one-row table that says how many migrations were applied (SQLite's PRAGMA user_version)."""

UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,  # the server can't be reached
    TimeoutError,  # nor connected to in time
    asyncpg.PostgresConnectionError,  # the connection failed or is gone
    asyncpg.InterfaceError,  # the connection was closed under the query
    asyncpg.InternalClientError,  # the server closed an idle connection as it was handed out
    asyncpg.LockNotAvailableError,  # a lock was not granted within lock_timeout
    asyncpg.TransactionRollbackError,  # a deadlock or a serialization failure
    asyncpg.InsufficientResourcesError,  # the disk or memory is full, or too many connections
    asyncpg.OperatorInterventionError,  # the server shuts down, starts up, or cancelled the query
    asyncpg.PostgresSystemError,  # an I/O error
    asyncpg.ReadOnlySQLTransactionError,  # a standby that can't be written
)
"""What the database does when it refuses the work, rather than this bot asking for something wrong."""

_COMMAND: ContextVar[Command | None] = ContextVar("postgres_command", default=None)
"""The interaction id that the current command's first write transaction records (see `Store.command`)."""


@dataclass(frozen=True, slots=True)
class _Held:
    """The connection that a task's `hold` locked the channel on; that task's store calls in the block use it."""

    store: PostgresStore
    task: asyncio.Task[Any] | None
    connection: PoolConnectionProxy


_HELD: ContextVar[_Held | None] = ContextVar("postgres_held", default=None)


@contextmanager
def _refusals() -> Iterator[None]:
    """Turn the database's refusals (unreachable, locked, full, shutting down) into StoreUnavailable."""
    try:
        yield
    except asyncpg.DataError:
        raise  # arguments a query can't take: a bug here, not the database's state
    except UNAVAILABLE as err:
        raise StoreUnavailable(str(err) or type(err).__name__) from err


def lock_key(snowflake: int) -> int:
    """A 64-bit Discord id folded into an advisory lock's 32-bit signed key (ids that fold alike share the lock)."""
    folded = (snowflake ^ (snowflake >> 32)) & 0xFFFFFFFF
    return folded - (1 << 32) if folded >= 1 << 31 else folded


def _changed(status: str) -> int:
    """How many rows a statement changed, from the status it answered ("UPDATE 1", "DELETE 0", "INSERT 0 1")."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresStore:
    """One PostgreSQL database through a pool of connections; each write is its own transaction."""

    shared = True
    """Other processes may write the database: `hold` and the claims keep them apart."""

    def __init__(self, pool: asyncpg.Pool, clock: Callable[[], float] = time.time) -> None:
        self._pool = pool
        self._clock = clock
        self.holder = holder_name()

    @classmethod
    async def open(cls, url: str, clock: Callable[[], float] = time.time, *, min_size: int = 1, max_size: int = 10,
                   lock_timeout: float = 20.0) -> PostgresStore:
        """Connect a pool to the database at `url` and migrate it. A lock (a channel another process holds, a row
        another transaction writes) not granted within `lock_timeout` seconds is StoreUnavailable."""
        with _refusals():
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, server_settings={
                "lock_timeout": f"{lock_timeout * 1000:.0f}", "application_name": "gamemaster"})
        store = cls(pool, clock)
        try:
            await store.migrate()
            await store.forget_interactions()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

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
        """Within this block no other process holds the channel: a session advisory lock, on a connection kept for
        the block (on which this task's store calls in it run too). Waiting longer than the lock timeout is
        StoreUnavailable; a process that dies lets go with its connection."""
        key = (CHANNEL_LOCKS, lock_key(channel_id))
        with _refusals():
            connection = await self._pool.acquire()
        try:
            with _refusals():
                await connection.execute("SELECT pg_advisory_lock($1, $2)", *key)
            token = _HELD.set(_Held(self, asyncio.current_task(), connection))
            try:
                yield
            finally:
                _HELD.reset(token)
                with contextlib.suppress(*UNAVAILABLE):  # a lost connection has let go of the lock already
                    await connection.execute("SELECT pg_advisory_unlock($1, $2)", *key)
        finally:
            await self._pool.release(connection)  # which also lets go of a lock a cancelled wait was granted

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[PoolConnectionProxy]:
        """The connection this task's `hold` keeps, or else one from the pool for the while."""
        held = _HELD.get()
        if held is not None and held.store is self and held.task is asyncio.current_task():
            yield held.connection
        else:
            async with self._pool.acquire() as connection:
                yield connection

    async def seen(self, interaction_id: str) -> bool:
        """Whether a command or an action of this interaction was applied already."""
        row = await self._one("SELECT 1 FROM interactions WHERE id = $1 UNION ALL SELECT 1 FROM actions "
                              "WHERE interaction_id = $1 LIMIT 1", interaction_id)
        return row is not None

    async def forget_interactions(self) -> None:
        """Drop the interaction ids older than Discord could deliver again."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM interactions WHERE created_at < $1", self._clock() - INTERACTIONS_KEPT)

    async def _one(self, sql: str, *args: Any) -> asyncpg.Record | None:
        with _refusals():
            async with self._connection() as db:
                return await db.fetchrow(sql, *args)

    async def _all(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        with _refusals():
            async with self._connection() as db:
                return await db.fetch(sql, *args)

    async def schema_version(self) -> int:
        row = await self._one("SELECT version FROM schema_version")
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Apply the numbered migrations not yet applied, each in a transaction with its version; return the
        schema version. Another process migrating at the same time waits for this one, then finds them applied."""
        with _refusals():
            async with self._pool.acquire() as db:
                await db.execute("SET lock_timeout = 0")  # however long the other process's migrations take
                await db.execute("SELECT pg_advisory_lock($1, 0)", MIGRATION_LOCK)
                try:
                    await db.execute("RESET lock_timeout")
                    async with db.transaction():
                        for statement in SCHEMA_VERSION:
                            await db.execute(statement)
                    current = await db.fetchval("SELECT version FROM schema_version")
                    if current > len(MIGRATIONS):
                        raise StoreError(f"the database has schema {current}, newer than this bot's {len(MIGRATIONS)}")
                    for number in range(current + 1, len(MIGRATIONS) + 1):
                        async with db.transaction():
                            for statement in migrations.statements(MIGRATIONS[number - 1]):
                                await db.execute(statement)
                            await db.execute("UPDATE schema_version SET version = $1", number)
                finally:
                    with contextlib.suppress(*UNAVAILABLE):  # a lost connection has let go of the lock already
                        await db.execute("SELECT pg_advisory_unlock($1, 0)", MIGRATION_LOCK)
        return len(MIGRATIONS)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PoolConnectionProxy]:
        """One write transaction, committed at the end of the block, or rolled back on any error."""
        command = _COMMAND.get()
        with _refusals():
            async with self._connection() as db, db.transaction():
                yield db
                if command is not None and command.interaction_id is not None and not command.committed:
                    try:
                        await db.execute("INSERT INTO interactions (id, created_at) VALUES ($1, $2)",
                                         command.interaction_id, self._clock())
                    except asyncpg.UniqueViolationError as err:
                        raise DuplicateInteraction(command.interaction_id) from err
        if command is not None:
            command.committed = True  # the id is recorded: the command's later writes need not again

    # -- games

    async def live_game(self, channel_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 "
                              "AND status IN ('lobby', 'running')", channel_id)
        return game_row(row) if row else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The channel's live game, or else its most recent one."""
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
                              channel_id)
        return game_row(row) if row else None

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
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
        while the host has fewer open lobbies in it (counted under the server's lock, so two processes opening
        games in one server at once count one after the other); with `expires_at`, a timer (kind "expiry")
        closes the lobby then if it has not started."""
        now = self._clock()
        try:
            async with self.transaction() as db:
                if guild_id is not None and (max_live is not None or max_hosted is not None):
                    await db.execute("SELECT pg_advisory_xact_lock($1, $2)", GUILD_LOCKS, lock_key(guild_id))
                    live, hosted = await db.fetchrow(
                        "SELECT COUNT(*) FILTER (WHERE status IN ('lobby', 'running')), "
                        "COUNT(*) FILTER (WHERE host_id = $2 AND status = 'lobby') FROM games WHERE guild_id = $1",
                        guild_id, host_id)
                    if max_hosted is not None and hosted >= max_hosted:
                        raise HostFull(f"member {host_id} hosts {max_hosted} lobbies in guild {guild_id}")
                    if max_live is not None and live >= max_live:
                        raise GuildFull(f"guild {guild_id} has {max_live} live games")
                row = await db.fetchrow(
                    "INSERT INTO games (channel_id, guild_id, ruleset, status, host_id, seed, lobby, version, "
                    f"created_at, updated_at) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, 0, $7, $7) "
                    f"RETURNING {GAME_COLUMNS}",
                    channel_id, guild_id, ruleset, host_id, seed, json.dumps(lobby), now)
                if expires_at is not None:
                    await db.execute("INSERT INTO timers (game_id, kind, due_at, payload, player) "
                                     "VALUES ($1, 'expiry', $2, '{}', 0)", row["id"], expires_at)
        except asyncpg.UniqueViolationError as err:
            raise ChannelBusy("this channel already has a game") from err
        return game_row(row)

    async def update_game(
        self, game: GameRow, *, lobby: dict[str, Any] | None = None,
        state: str | None = None, status: str | None = None, host_id: int | None = None,
    ) -> GameRow:
        """Change a game's lobby, state, status or host if it is still at `game.version`; the new row."""
        now = self._clock()
        sets = ["version = version + 1", "updated_at = $1"]
        params: list[Any] = [now]
        for column, value in (("lobby", json.dumps(lobby) if lobby is not None else None), ("state", state),
                              ("status", status), ("host_id", host_id)):
            if value is not None:
                params.append(value)
                sets.append(f"{column} = ${len(params)}")
        params += [game.id, game.version]
        async with self.transaction() as db:
            done = await db.execute(f"UPDATE games SET {', '.join(sets)} WHERE id = ${len(params) - 1} "
                                    f"AND version = ${len(params)}", *params)
            if _changed(done) != 1:
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
                    "turns) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9 + COALESCE((SELECT turns FROM actions "
                    "WHERE game_id = $1 ORDER BY seq DESC LIMIT 1), 0))",
                    game.id, seq, actor, json.dumps(action), json.dumps(events), interaction_id, now, by_ai, opens,
                )
            except asyncpg.UniqueViolationError as err:
                if interaction_id is not None and err.constraint_name == "actions_interaction_id_key":
                    raise DuplicateInteraction(interaction_id) from err
                raise VersionConflict(f"action {seq} of game {game.id} exists already") from err
            done = await db.execute("UPDATE games SET state = $1, status = $2, version = version + 1, "
                                    "updated_at = $3 WHERE id = $4 AND version = $5",
                                    state, status, now, game.id, game.version)
            if _changed(done) != 1:
                raise VersionConflict(f"game {game.id} is no longer at version {game.version}")
        return replace(game, state=state, status=status, version=game.version + 1, updated_at=now)

    # -- the action log

    async def actions(self, game_id: int, after: int = 0, limit: int = 1_000_000) -> list[ActionRow]:
        """The actions logged after seq `after`, oldest first."""
        rows = await self._all(f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = $1 AND seq > $2 "
                               "ORDER BY seq LIMIT $3", game_id, after, limit)
        return [action_row(r) for r in rows]

    async def action_page(self, game_id: int, offset: int, limit: int) -> list[ActionRow]:
        """`limit` actions from the `offset`-th logged one on, oldest first (a page of the history)."""
        rows = await self._all(f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = $1 "
                               "ORDER BY seq LIMIT $2 OFFSET $3", game_id, limit, offset)
        return [action_row(r) for r in rows]

    async def recent_actions(self, game_id: int, limit: int) -> list[ActionRow]:
        """The last `limit` actions, oldest first."""
        rows = await self._all(f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = $1 "
                               "ORDER BY seq DESC LIMIT $2", game_id, limit)
        return [action_row(r) for r in reversed(rows)]

    async def count_actions(self, game_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM actions WHERE game_id = $1", game_id)
        return int(row[0]) if row else 0

    async def unranked_games(self, guild_id: int) -> list[GameRow]:
        """A server's finished games whose standings are not stored yet, oldest first."""
        return [game_row(r) for r in await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = $1 AND status = 'finished' AND NOT EXISTS "
            "(SELECT 1 FROM standings WHERE standings.game_id = games.id) ORDER BY id", guild_id)]

    async def add_standings(self, game_id: int, rows: list[tuple[int, int, bool, bool]]) -> None:
        """A finished game's (user, place, won, human) rows; a second writer of the same game changes nothing."""
        async with self.transaction() as db:
            await db.executemany(
                "INSERT INTO standings (game_id, user_id, place, won, human) VALUES ($1, $2, $3, $4, $5) "
                "ON CONFLICT DO NOTHING",
                [(game_id, user, place, bool(won), bool(human)) for user, place, won, human in rows])

    async def standings(self, guild_id: int) -> list[tuple[str, int, int, bool]]:
        """(ruleset, user, place, won) of every human seat in a server's finished games, oldest game first."""
        rows = await self._all(
            "SELECT games.ruleset, standings.user_id, standings.place, standings.won FROM standings "
            "JOIN games ON games.id = standings.game_id WHERE games.guild_id = $1 AND standings.human "
            "ORDER BY games.id, standings.place, standings.user_id", guild_id)
        return [(ruleset, user, place, bool(won)) for ruleset, user, place, won in rows]

    async def count_live_games(self, guild_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM games WHERE guild_id = $1 AND status IN ('lobby', 'running')",
                              guild_id)
        return int(row[0]) if row else 0

    # -- timers

    async def add_timers(self, game_id: int, player: int, timers: list[tuple[str, float, dict[str, Any]]]) -> None:
        """Arm one seat's clock: (kind, due_at, payload) rows, in one transaction."""
        async with self.transaction() as db:
            await db.executemany(
                "INSERT INTO timers (game_id, kind, due_at, payload, player) VALUES ($1, $2, $3, $4, $5)",
                [(game_id, kind, due_at, json.dumps(payload), player) for kind, due_at, payload in timers],
            )

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self._all(f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = $1 ORDER BY due_at, id",
                               game_id)
        return [timer_row(r) for r in rows]

    async def next_timer(self) -> TimerRow | None:
        row = await self._one(f"SELECT {TIMER_COLUMNS} FROM timers WHERE claimed_until IS NULL "
                              "OR claimed_until < $1 OR claimed_by = $2 ORDER BY due_at, id LIMIT 1",
                              self._clock(), self.holder)
        return timer_row(row) if row else None

    async def claim_timer(self, timer_id: int, lease: float) -> bool:
        now = self._clock()
        async with self.transaction() as db:
            claimed = await db.fetchval(
                "UPDATE timers SET claimed_by = $2, claimed_until = $3 WHERE id = (SELECT id FROM timers "
                "WHERE id = $1 AND (claimed_until IS NULL OR claimed_until < $4 OR claimed_by = $2) "
                "FOR UPDATE SKIP LOCKED) RETURNING id", timer_id, self.holder, now + lease, now)
        return claimed is not None

    async def delete_timer(self, timer_id: int) -> bool:
        """Remove one timer; False when it was gone already (another task fired or disarmed it)."""
        async with self.transaction() as db:
            return _changed(await db.execute("DELETE FROM timers WHERE id = $1", timer_id)) == 1

    async def delete_timers(self, game_id: int, player: int | None = None) -> None:
        """Disarm a game's clocks, or one seat's."""
        async with self.transaction() as db:
            if player is None:
                await db.execute("DELETE FROM timers WHERE game_id = $1", game_id)
            else:
                await db.execute("DELETE FROM timers WHERE game_id = $1 AND player = $2", game_id, player)

    # -- the outbox

    async def add_post(self, game: GameRow, payload: dict[str, Any], announced: int | None = None,
                       waiting: Sequence[int] | None = None, done_timer: int | None = None) -> GameRow:
        """Queue one announcement for the game's channel and, with `announced`, mark the actions up to that seq as
        told, in one transaction; with `done_timer`, that timer (a reminder) goes in the same transaction. Posts
        parked in the channel wait again (someone plays there: try them once more). The row as it is now."""
        now = self._clock()
        async with self.transaction() as db:
            if done_timer is not None:
                await db.execute("DELETE FROM timers WHERE id = $1", done_timer)
            await db.execute("INSERT INTO outbox (game_id, channel_id, payload, created_at) VALUES ($1, $2, $3, $4)",
                             game.id, game.channel_id, json.dumps(payload), now)
            await db.execute("UPDATE outbox SET parked = NULL, next_try = 0 WHERE channel_id = $1 "
                             "AND parked IS NOT NULL", game.channel_id)
            if announced is not None:
                await db.execute("UPDATE games SET announced = $1, waiting = $2 WHERE id = $3",
                                 announced, json.dumps(list(waiting or ())), game.id)
        if announced is None:
            return game
        return replace(game, announced=announced, waiting=tuple(waiting or ()))

    async def next_post(self, channel_id: int) -> PostRow | None:
        """The channel's oldest post not yet delivered nor parked: its posts go out in order."""
        row = await self._one(f"SELECT {POST_COLUMNS} FROM outbox WHERE channel_id = $1 AND delivered_at IS NULL "
                              "AND parked IS NULL ORDER BY id LIMIT 1", channel_id)
        return post_row(row) if row else None

    async def post_channels(self, now: float) -> list[int]:
        """The channels whose next post may be tried now, oldest post first, but those another process claimed."""
        rows = await self._all(
            "SELECT waiting.channel_id FROM (SELECT channel_id, MIN(id) AS first FROM outbox "
            "WHERE delivered_at IS NULL AND parked IS NULL GROUP BY channel_id) AS waiting "
            "JOIN outbox ON outbox.id = waiting.first WHERE outbox.next_try <= $1 AND NOT EXISTS "
            "(SELECT 1 FROM channel_claims AS c WHERE c.channel_id = waiting.channel_id AND c.until >= $2 "
            "AND c.holder <> $3) ORDER BY waiting.first", now, self._clock(), self.holder)
        return [int(channel_id) for (channel_id,) in rows]

    async def claim_channel(self, channel_id: int, lease: float) -> bool:
        now = self._clock()
        async with self.transaction() as db:
            claimed = await db.fetchval("INSERT INTO channel_claims (channel_id, holder, until) VALUES ($1, $2, $3) "
                                        "ON CONFLICT DO NOTHING RETURNING channel_id", channel_id, self.holder,
                                        now + lease)
            if claimed is None:  # claimed before: take it over if its claim ran out, or renew this process's own
                claimed = await db.fetchval(
                    "UPDATE channel_claims SET holder = $2, until = $3 WHERE channel_id = (SELECT channel_id "
                    "FROM channel_claims WHERE channel_id = $1 AND (until < $4 OR holder = $2) "
                    "FOR UPDATE SKIP LOCKED) RETURNING channel_id", channel_id, self.holder, now + lease, now)
        return claimed is not None

    async def release_channel(self, channel_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM channel_claims WHERE channel_id = $1 AND holder = $2",
                             channel_id, self.holder)

    async def next_retry(self) -> float | None:
        """When the earliest post that is waiting to be tried again may be tried."""
        row = await self._one("SELECT MIN(next_try) FROM outbox WHERE delivered_at IS NULL AND parked IS NULL")
        return float(row[0]) if row and row[0] is not None else None

    async def post_tried(self, post_id: int, sent: Sequence[int]) -> None:
        """Count an attempt at a post, as it begins, and keep the ids of its messages Discord has accepted."""
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET attempts = attempts + 1, sent = $1, next_try = 0 WHERE id = $2",
                             json.dumps(list(sent)), post_id)

    async def post_sent(self, post_id: int, sent: Sequence[int], retry_at: float | None = None) -> None:
        """Keep the ids of a post's messages Discord has accepted so far, within the attempt already counted;
        `retry_at` when the rest must wait."""
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET sent = $1, next_try = $2 WHERE id = $3",
                             json.dumps(list(sent)), retry_at or 0.0, post_id)

    async def post_delivered(self, post_id: int, sent: Sequence[int]) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET sent = $1, delivered_at = $2 WHERE id = $3",
                             json.dumps(list(sent)), self._clock(), post_id)

    async def post_parked(self, post_id: int, reason: str) -> None:
        """Set a post aside that can't be delivered (the channel is gone, or the bot may not post there)."""
        async with self.transaction() as db:
            await db.execute("UPDATE outbox SET parked = $1 WHERE id = $2", reason, post_id)

    async def last_delivered(self, channel_id: int) -> int | None:
        """The id of the last message the outbox delivered to the channel."""
        row = await self._one("SELECT sent FROM outbox WHERE channel_id = $1 AND delivered_at IS NOT NULL "
                              "ORDER BY id DESC LIMIT 1", channel_id)
        sent = loads(row[0], []) if row else []
        return int(sent[-1]) if sent else None

    async def parked_posts(self, channel_id: int) -> list[tuple[int, str]]:
        """(post id, why) of the channel's posts that could not be delivered."""
        rows = await self._all("SELECT id, parked FROM outbox WHERE channel_id = $1 AND parked IS NOT NULL "
                               "ORDER BY id", channel_id)
        return [(int(post_id), str(reason)) for post_id, reason in rows]

    async def board_message(self, game_id: int) -> int | None:
        """The message that shows the game's board, edited in place (None before the first)."""
        row = await self._one("SELECT message_id FROM boards WHERE game_id = $1", game_id)
        return int(row[0]) if row else None

    async def set_board_message(self, game_id: int, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO boards (game_id, message_id) VALUES ($1, $2) "
                             "ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id",
                             game_id, message_id)

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server chose for its new games (None: it has not chosen)."""
        row = await self._one("SELECT language FROM guilds WHERE guild_id = $1", guild_id)
        return str(row[0]) if row else None

    async def set_guild_language(self, guild_id: int, language: str) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO guilds (guild_id, language) VALUES ($1, $2) "
                             "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                             guild_id, language)
