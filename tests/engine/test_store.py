"""The stores: migrations, one live game per channel, the optimistic version check, dedup, the outbox, and the claims
and locks that keep several processes apart. What is not about SQLite's file runs on both backends."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from engine.core.models import Seat
from engine.service import GameService
from engine.store import (
    MIGRATIONS,
    ChannelBusy,
    DuplicateInteraction,
    GameRow,
    GuildFull,
    HostFull,
    PostgresStore,
    SqliteStore,
    Store,
    StoreError,
    StoreUnavailable,
    VersionConflict,
    open_store,
)
from engine.store import postgres as pg

CHANNEL, OTHER = 1_234_567_890_123_456_789, 1_234_567_890_123_456_790
"""Discord ids are 64-bit: every id column must hold them."""
GUILD, HOST = 987_654_321_987_654_321, 876_543_210_876_543_210
LEASE = 60.0


class Clock:
    """Epoch seconds that move only when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(location: str, clock: Clock) -> AsyncIterator[Store]:
    store = await open_store(location, clock)
    yield store
    await store.close()


@pytest.fixture
async def other(store: Store, location: str, clock: Clock) -> AsyncIterator[Store]:
    """A second store on the same database, as another bot process opens it."""
    other = await open_store(location, clock)
    yield other
    await other.close()


@pytest.fixture
async def stores(postgres_url: str, clock: Clock) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two PostgreSQL stores on one database, each with its own pool, as two bot processes have them: a patient one
    (the default lock timeout) and an impatient one, whose locks not granted within 0.3 s are StoreUnavailable."""
    patient = await PostgresStore.open(postgres_url, clock)
    impatient = await PostgresStore.open(postgres_url, clock, lock_timeout=0.3)
    yield patient, impatient
    await patient.close()
    await impatient.close()


async def lobby(store: Store, channel: int = CHANNEL, guild: int | None = GUILD) -> GameRow:
    return await store.create_game(channel, guild, "risk", HOST, 7, {"game": "risk"})


def outcomes(results: list[object]) -> list[str]:
    """Concurrent writes' results, sorted, as names: "ok" or the error's class."""
    return sorted("ok" if not isinstance(r, BaseException) else type(r).__name__ for r in results)


# -- SQLite's file

async def test_migrations_build_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "new" / "bot.sqlite3"
    store = await SqliteStore.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    async with aiosqlite.connect(path) as db:
        async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
            tables = {row[0] for row in await cur.fetchall()}
        async with db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
    assert {"games", "actions", "timers", "standings"} <= tables
    assert await store.integrity_ok()
    await store.close()
    again = await SqliteStore.open(path)  # reopening applies nothing twice
    assert await again.migrate() == len(MIGRATIONS)
    await again.close()


async def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with aiosqlite.connect(path) as db:
        await db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
        await db.commit()
    with pytest.raises(StoreError, match="newer"):
        await SqliteStore.open(path)


async def test_migration_2_keeps_version_1_timers(tmp_path: Path) -> None:
    """A database written by schema 1 gains the timers' seat column; its timers survive the upgrade."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute("INSERT INTO games (channel_id, ruleset, status, host_id, seed, lobby, created_at, updated_at) "
               "VALUES (1, 'risk', 'running', 5, 1, '{}', 0, 0)")
    db.execute("INSERT INTO timers (game_id, kind, due_at, payload) VALUES (1, 'deadline', 99.0, '{}')")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    store = await SqliteStore.open(path)
    assert await store.schema_version() == len(MIGRATIONS) >= 2
    timer = await store.next_timer()
    assert timer is not None and (timer.kind, timer.due_at, timer.player) == ("deadline", 99.0, 0)
    await store.close()


INDEXED_QUERIES = [
    "SELECT id FROM outbox WHERE channel_id = 1 AND delivered_at IS NULL AND parked IS NULL ORDER BY id LIMIT 1",
    "UPDATE outbox SET parked = NULL, next_try = 0 WHERE channel_id = 1 AND parked IS NOT NULL",
    "SELECT id, parked FROM outbox WHERE channel_id = 1 AND parked IS NOT NULL ORDER BY id",
    "SELECT sent FROM outbox WHERE channel_id = 1 AND delivered_at IS NOT NULL ORDER BY id DESC LIMIT 1",
    "SELECT turns FROM actions WHERE game_id = 1 ORDER BY seq DESC LIMIT 1",
    "SELECT seq FROM actions WHERE game_id = 1 AND seq > 5 ORDER BY seq LIMIT 10",
]


@pytest.mark.parametrize("query", INDEXED_QUERIES)
def test_the_outbox_and_log_queries_of_every_post_use_an_index(query: str) -> None:
    """Issue #14: every post reads and updates its channel's outbox; a scan would grow with the bot's history."""
    con = sqlite3.connect(":memory:")
    for migration in MIGRATIONS:
        con.executescript(migration)
    plan = " ".join(row[-1] for row in con.execute("EXPLAIN QUERY PLAN " + query))
    assert "SCAN" not in plan and ("INDEX" in plan or "PRIMARY KEY" in plan), plan


# -- PostgreSQL's database

async def test_postgres_migrations_build_an_empty_database(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url)
    assert await store.schema_version() == len(pg.MIGRATIONS) == len(MIGRATIONS)
    await store.close()
    again = await PostgresStore.open(postgres_url)  # reopening applies nothing twice
    assert await again.migrate() == len(pg.MIGRATIONS)
    await again.close()
    db = await asyncpg.connect(postgres_url)
    try:
        tables = {r[0] for r in await db.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert tables == {"games", "actions", "timers", "standings", "interactions", "outbox", "boards",
                          "channel_claims", "guilds", "schema_version"}
        assert await db.fetchval("SELECT COUNT(*) FROM schema_version") == 1
        ids = await db.fetch("SELECT table_name, column_name FROM information_schema.columns WHERE data_type "
                             "<> 'bigint' AND column_name IN ('channel_id', 'guild_id', 'host_id', 'actor', "
                             "'user_id', 'player', 'message_id', 'seed', 'id', 'game_id') AND table_schema = 'public' "
                             "AND table_name <> 'interactions'")
        assert ids == [], "every Discord id and row id is 64-bit"
    finally:
        await db.close()


async def test_postgres_a_newer_schema_is_refused(postgres_url: str) -> None:
    await (await PostgresStore.open(postgres_url)).close()
    db = await asyncpg.connect(postgres_url)
    await db.execute("UPDATE schema_version SET version = $1", len(pg.MIGRATIONS) + 1)
    await db.close()
    with pytest.raises(StoreError, match="newer"):
        await PostgresStore.open(postgres_url)


async def test_postgres_migrations_run_at_once_by_two_processes_leave_one_schema(postgres_url: str) -> None:
    opened = await asyncio.gather(*(PostgresStore.open(postgres_url) for _ in range(3)), return_exceptions=True)
    try:
        assert all(isinstance(store, PostgresStore) for store in opened), opened
        assert [await store.schema_version() for store in opened] == [len(pg.MIGRATIONS)] * 3  # type: ignore[union-attr]
        game = await lobby(opened[0])  # type: ignore[arg-type]
        assert await opened[1].game(game.id) == game  # type: ignore[union-attr]
    finally:
        for store in opened:
            if isinstance(store, PostgresStore):
                await store.close()


async def test_postgres_migration_5_counts_the_turns_of_an_older_log(postgres_url: str) -> None:
    """No PostgreSQL database predates the outbox, but migration 5's back-fill means what SQLite's does."""
    db = await asyncpg.connect(postgres_url)
    try:
        for statement in pg.SCHEMA_VERSION:
            await db.execute(statement)
        for migration in pg.MIGRATIONS[:4]:
            await db.execute(migration)
        await db.execute("UPDATE schema_version SET version = 4")
        await db.execute("INSERT INTO games (channel_id, ruleset, status, host_id, seed, lobby, created_at, "
                         "updated_at) VALUES (1, 'risk', 'running', 5, 1, '{}', 0, 0)")
        for seq, events in enumerate([[{"type": "turn_started"}], [{"type": "x"}], [{"type": "turn_started"}]], 1):
            await db.execute("INSERT INTO actions (game_id, seq, actor, action, events, created_at) "
                             "VALUES (1, $1, 5, '{}', $2, 0)", seq, json.dumps(events))
    finally:
        await db.close()
    store = await PostgresStore.open(postgres_url)
    assert [a.turns for a in await store.actions(1)] == [1, 1, 2]
    assert (await store.game(1)).announced == 3  # type: ignore[union-attr]
    await store.close()


async def test_postgres_the_outbox_and_log_queries_of_every_post_use_an_index(postgres_url: str) -> None:
    """Issue #14 on PostgreSQL: with sequential scans discouraged, each query finds an index to use."""
    await (await PostgresStore.open(postgres_url)).close()
    db = await asyncpg.connect(postgres_url)
    try:
        await db.execute("SET enable_seqscan = off")
        for query in INDEXED_QUERIES:
            plan = " ".join(row[0] for row in await db.fetch("EXPLAIN " + query))
            assert "Seq Scan" not in plan and "Index" in plan, (query, plan)
    finally:
        await db.close()


# -- both backends

async def test_open_store_picks_the_backend_from_the_location(store: Store, location: str) -> None:
    assert isinstance(store, PostgresStore if location.startswith("postgresql://") else SqliteStore)
    assert store.shared is isinstance(store, PostgresStore)


async def test_open_store_takes_a_sqlite_url(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    assert isinstance(store, SqliteStore) and (tmp_path / "bot.sqlite3").exists()
    await store.close()


async def test_one_live_game_per_channel(store: Store) -> None:
    game = await store.create_game(CHANNEL, GUILD, "risk", HOST, 7, {"game": "risk"})
    assert (game.channel_id, game.guild_id, game.host_id, game.lobby, game.status) == (
        CHANNEL, GUILD, HOST, {"game": "risk"}, "lobby")
    with pytest.raises(ChannelBusy):
        await store.create_game(CHANNEL, GUILD, "risk", 101, 8, {"game": "risk"})
    other = await store.create_game(OTHER, GUILD, "risk", 101, 8, {"game": "risk"})
    assert other.id != game.id
    await store.update_game(game, status="finished")
    replacement = await store.create_game(CHANNEL, GUILD, "risk", 102, 9, {"game": "risk"})
    assert (await store.live_game(CHANNEL)) == replacement == await store.latest_game(CHANNEL)
    assert await store.count_live_games(GUILD) == 2


async def test_a_server_and_a_host_have_their_limits(store: Store, clock: Clock) -> None:
    await store.create_game(1, GUILD, "risk", HOST, 1, {}, max_live=2, max_hosted=1, expires_at=clock() + 10)
    with pytest.raises(HostFull):
        await store.create_game(2, GUILD, "risk", HOST, 1, {}, max_live=2, max_hosted=1)
    second = await store.create_game(2, GUILD, "risk", 5, 1, {}, max_live=2, max_hosted=1)
    with pytest.raises(GuildFull):
        await store.create_game(3, GUILD, "risk", 6, 1, {}, max_live=2, max_hosted=1)
    await store.create_game(3, None, "risk", 6, 1, {}, max_live=2, max_hosted=1)  # no server: no limit
    assert [g.channel_id for g in await store.lobbies_without_expiry()] == [2, 3]
    await store.update_game(second, status="abandoned")
    await store.create_game(4, GUILD, "risk", 6, 1, {}, max_live=2, max_hosted=1)


async def test_record_action_checks_the_version_and_writes_nothing_on_conflict(store: Store) -> None:
    game = await store.create_game(CHANNEL, None, "risk", HOST, 7, {})
    saved = await store.record_action(game, 1, HOST, {"type": "x"}, [], '{"s": 1}', "i-1")
    assert saved == await store.game(game.id)
    with pytest.raises(VersionConflict):
        await store.record_action(game, 2, HOST, {"type": "y"}, [], '{"s": 2}', "i-2")
    assert await store.count_actions(game.id) == 1
    assert (await store.game(game.id)).state == '{"s": 1}'  # type: ignore[union-attr]
    assert not await store.seen("i-2")
    with pytest.raises(VersionConflict):
        await store.update_game(game, state='{"s": 3}')


async def test_a_retried_interaction_is_recognised(store: Store) -> None:
    game = await store.create_game(CHANNEL, None, "risk", HOST, 7, {})
    fresh = await store.record_action(game, 1, HOST, {"type": "x"}, [{"type": "e"}], "{}", "i-1")
    with pytest.raises(DuplicateInteraction):
        await store.record_action(fresh, 2, HOST, {"type": "x"}, [], "{}", "i-1")
    assert await store.seen("i-1")
    [row] = await store.actions(game.id)
    assert row.seq == 1 and row.events == [{"type": "e"}] and row.interaction_id == "i-1"


async def test_a_command_records_its_interaction_with_its_first_write(store: Store) -> None:
    """Each command is applied once per interaction: its id is written in the same transaction as its change."""
    game = await store.create_game(CHANNEL, None, "risk", HOST, 7, {})
    with store.command("i-9") as command:
        assert not command.committed
        game = await store.update_game(game, lobby={"n": 1})
        assert command.committed
        game = await store.update_game(game, lobby={"n": 2})  # the same command's later writes: recorded once
    assert await store.seen("i-9")
    with pytest.raises(DuplicateInteraction), store.command("i-9"):
        await store.update_game(game, lobby={"n": 3})
    assert (await store.game(game.id)).lobby == {"n": 2}, "the duplicate's change was rolled back"  # type: ignore[union-attr]


async def test_old_interaction_ids_are_forgotten_at_open(location: str, clock: Clock) -> None:
    store = await open_store(location, clock)
    game = await lobby(store)
    with store.command("old"):
        await store.update_game(game, lobby={})
    await store.close()
    clock.now += 8 * 86400
    store = await open_store(location, clock)
    assert not await store.seen("old")
    await store.close()


async def test_the_action_log_reads_in_pages_and_counts_turns(store: Store) -> None:
    game = await store.create_game(CHANNEL, None, "risk", HOST, 7, {})
    for seq in range(1, 6):
        game = await store.record_action(game, seq, HOST + seq, {"n": seq}, [], "{}", None, by_ai=seq % 2 == 0,
                                         opens=1 if seq in (1, 4) else 0)
    rows = await store.actions(game.id)
    assert [(r.seq, r.actor, r.action, r.by_ai, r.turns) for r in rows] == [
        (1, HOST + 1, {"n": 1}, False, 1), (2, HOST + 2, {"n": 2}, True, 1), (3, HOST + 3, {"n": 3}, False, 1),
        (4, HOST + 4, {"n": 4}, True, 2), (5, HOST + 5, {"n": 5}, False, 2)]
    assert [r.seq for r in await store.actions(game.id, after=2, limit=2)] == [3, 4]
    assert [r.seq for r in await store.action_page(game.id, 1, 3)] == [2, 3, 4]
    assert [r.seq for r in await store.recent_actions(game.id, 2)] == [4, 5]
    assert await store.running_games() == [game], "an action saves a running game"
    assert await store.untold_ends() == []
    ended = await store.update_game(game, status="finished")
    assert await store.untold_ends() == [ended]
    await store.add_post(ended, {"end": True}, announced=5)
    assert await store.untold_ends() == []


async def test_standings_and_boards(store: Store) -> None:
    game = await lobby(store)
    assert await store.unranked_games(GUILD) == []
    done = await store.update_game(game, status="finished")
    assert await store.unranked_games(GUILD) == [done]
    await store.add_standings(game.id, [(HOST, 1, True, True), (1, 2, False, False), (HOST + 1, 3, False, True)])
    await store.add_standings(game.id, [(HOST, 3, False, True)])  # a second writer changes nothing
    assert await store.standings(GUILD) == [("risk", HOST, 1, True), ("risk", HOST + 1, 3, False)]
    assert await store.unranked_games(GUILD) == []
    assert await store.board_message(game.id) is None
    await store.set_board_message(game.id, CHANNEL + 1)
    await store.set_board_message(game.id, CHANNEL + 2)
    assert await store.board_message(game.id) == CHANNEL + 2


async def test_a_server_keeps_the_language_it_chose(store: Store) -> None:
    assert await store.guild_language(GUILD) is None
    await store.set_guild_language(GUILD, "ko")
    await store.set_guild_language(GUILD, "ru")
    await store.set_guild_language(GUILD + 1, "de")
    assert [await store.guild_language(GUILD), await store.guild_language(GUILD + 1)] == ["ru", "de"]


async def test_timers_come_back_in_due_order_per_seat(store: Store) -> None:
    game = await store.create_game(CHANNEL, None, "risk", HOST, 7, {})
    await store.add_timers(game.id, HOST, [("deadline", 200.0, {"seq": 3}), ("reminder", 150.0, {})])
    await store.add_timers(game.id, 200, [("deadline", 300.0, {})])
    first = await store.next_timer()
    assert first is not None and (first.kind, first.due_at, first.player) == ("reminder", 150.0, HOST)
    assert await store.delete_timer(first.id) is True
    assert await store.delete_timer(first.id) is False  # already gone: a second firing finds nothing
    nxt = await store.next_timer()
    assert nxt is not None and nxt.payload == {"seq": 3}
    await store.delete_timers(game.id, player=HOST)
    assert [(t.player, t.kind) for t in await store.timers(game.id)] == [(200, "deadline")]
    await store.delete_timers(game.id)
    assert await store.next_timer() is None


async def test_the_outbox_goes_out_in_order_and_parked_posts_wait_again(store: Store, clock: Clock) -> None:
    game = await lobby(store)
    await store.add_timers(game.id, HOST, [("reminder", 5.0, {})])
    [reminder] = await store.timers(game.id)
    game = await store.add_post(game, {"n": 1}, announced=0, waiting=[HOST], done_timer=reminder.id)
    assert game.waiting == (HOST,) and await store.timers(game.id) == []
    assert await store.game(game.id) == game
    first = await store.next_post(CHANNEL)
    assert first is not None and (first.payload, first.attempts, first.sent) == ({"n": 1}, 0, [])
    assert await store.post_channels(clock()) == [CHANNEL]
    await store.post_tried(first.id, [CHANNEL + 5])
    await store.post_sent(first.id, [CHANNEL + 5], retry_at=clock() + 30)
    assert await store.next_retry() == clock() + 30
    assert await store.post_channels(clock()) == [], "its first post waits to be tried again"
    await store.post_tried(first.id, [CHANNEL + 5])
    await store.post_delivered(first.id, [CHANNEL + 5, CHANNEL + 6])
    assert await store.last_delivered(CHANNEL) == CHANNEL + 6
    assert await store.next_retry() is None
    await store.add_post(game, {"n": 2})
    second = await store.next_post(CHANNEL)
    assert second is not None and second.payload == {"n": 2}
    await store.post_parked(second.id, "Missing Access")
    assert await store.next_post(CHANNEL) is None and await store.next_retry() is None
    assert await store.parked_posts(CHANNEL) == [(second.id, "Missing Access")]
    await store.add_post(game, {"n": 3})  # someone plays there: the parked post is tried again
    assert await store.parked_posts(CHANNEL) == []
    assert [(p.payload, p.attempts) for p in [await store.next_post(CHANNEL)]] == [({"n": 2}, 0)]


# -- several processes on one database

async def test_a_claimed_timer_is_left_to_its_holder_until_the_lease_runs_out(store: Store, other: Store,
                                                                             clock: Clock) -> None:
    game = await lobby(store)
    await store.add_timers(game.id, HOST, [("deadline", 10.0, {}), ("reminder", 20.0, {})])
    first = await store.next_timer()
    assert first is not None and first.due_at == 10.0
    assert await store.claim_timer(first.id, LEASE)
    assert (await store.next_timer()) == first, "a claim hides the timer from the others only"
    assert (await other.next_timer()).due_at == 20.0  # type: ignore[union-attr]
    assert not await other.claim_timer(first.id, LEASE)
    assert await store.claim_timer(first.id, LEASE), "its holder renews it"
    clock.now += LEASE + 1
    assert (await other.next_timer()) == first
    assert await other.claim_timer(first.id, LEASE)
    assert not await store.claim_timer(first.id, LEASE)
    assert await other.delete_timer(first.id)
    assert not await other.claim_timer(first.id, LEASE), "a timer that is gone can't be claimed"


async def test_a_timer_claimed_at_once_by_two_processes_goes_to_one(store: Store, other: Store) -> None:
    game = await lobby(store)
    await store.add_timers(game.id, HOST, [("deadline", 10.0, {}) for _ in range(5)])
    for timer in await store.timers(game.id):
        claims = await asyncio.gather(store.claim_timer(timer.id, LEASE), other.claim_timer(timer.id, LEASE))
        assert sorted(claims) == [False, True]


async def test_a_channel_claimed_by_one_process_is_left_out_by_the_other(store: Store, other: Store,
                                                                        clock: Clock) -> None:
    game = await lobby(store)
    await store.add_post(game, {"n": 1})
    await store.add_post(await lobby(store, OTHER), {"n": 2})
    assert await store.claim_channel(CHANNEL, LEASE)
    assert await store.claim_channel(CHANNEL, LEASE), "its holder renews it"
    assert not await other.claim_channel(CHANNEL, LEASE)
    assert await store.post_channels(clock()) == [CHANNEL, OTHER]
    assert await other.post_channels(clock()) == [OTHER]
    await other.release_channel(CHANNEL)  # only its holder lets go of a claim
    assert not await other.claim_channel(CHANNEL, LEASE)
    clock.now += LEASE + 1
    assert await other.post_channels(clock()) == [CHANNEL, OTHER]
    assert await other.claim_channel(CHANNEL, LEASE)
    assert not await store.claim_channel(CHANNEL, LEASE)
    await other.release_channel(CHANNEL)
    assert await store.claim_channel(CHANNEL, LEASE)


async def test_a_channel_claimed_at_once_by_two_processes_goes_to_one(store: Store, other: Store) -> None:
    for channel in range(1, 6):
        claims = await asyncio.gather(store.claim_channel(channel, LEASE), other.claim_channel(channel, LEASE))
        assert sorted(claims) == [False, True]


async def test_two_processes_opening_games_in_one_server_keep_its_limits(store: Store, other: Store) -> None:
    for guild in range(1, 6):
        results = await asyncio.gather(
            store.create_game(guild * 10, guild, "risk", HOST, 1, {}, max_live=1),
            other.create_game(guild * 10 + 1, guild, "risk", HOST + 1, 1, {}, max_live=1), return_exceptions=True)
        assert outcomes(results) == ["GuildFull", "ok"]
        results = await asyncio.gather(
            store.create_game(guild * 10 + 2, guild * 100, "risk", HOST, 1, {}, max_hosted=1),
            other.create_game(guild * 10 + 3, guild * 100, "risk", HOST, 1, {}, max_hosted=1), return_exceptions=True)
        assert outcomes(results) == ["HostFull", "ok"]
        results = await asyncio.gather(lobby(store, guild * 10 + 4), lobby(other, guild * 10 + 4),
                                       return_exceptions=True)
        assert outcomes(results) == ["ChannelBusy", "ok"]


async def test_one_interaction_recorded_at_once_by_two_processes_applies_once(store: Store, other: Store) -> None:
    games = [await lobby(store, channel) for channel in (CHANNEL, OTHER)]

    async def command(store: Store, game: GameRow) -> None:
        with store.command("i-1"):
            await store.update_game(game, lobby={"changed": True})

    assert outcomes(await asyncio.gather(command(store, games[0]), command(other, games[1]),
                                         return_exceptions=True)) == ["DuplicateInteraction", "ok"]
    assert sorted([(await store.game(g.id)).lobby == {"changed": True} for g in games]) == [False, True]  # type: ignore[union-attr]
    games = [await store.game(g.id) for g in games]
    results = await asyncio.gather(*(s.record_action(g, 1, HOST, {}, [], "{}", "i-2") for s, g in zip(
        (store, other), games, strict=True)), return_exceptions=True)  # type: ignore[arg-type]
    assert outcomes(results) == ["DuplicateInteraction", "ok"]


@pytest.mark.parametrize("seqs", [(1, 1), (1, 2)])
async def test_two_processes_writing_one_version_conflict(store: Store, other: Store, seqs: tuple[int, int]) -> None:
    game = await lobby(store)
    results = await asyncio.gather(*(s.record_action(game, seq, HOST, {"seq": seq}, [], f'{{"s": {seq}}}', None)
                                     for s, seq in zip((store, other), seqs, strict=True)), return_exceptions=True)
    assert outcomes(results) == ["VersionConflict", "ok"]
    assert await store.count_actions(game.id) == 1
    fresh = await store.game(game.id)
    assert fresh is not None and fresh.version == game.version + 1
    results = await asyncio.gather(store.update_game(fresh, lobby={"a": 1}), other.update_game(fresh, lobby={"b": 1}),
                                   return_exceptions=True)
    assert outcomes(results) == ["VersionConflict", "ok"]


async def test_postgres_holds_on_one_channel_exclude_each_other(stores: tuple[PostgresStore, PostgresStore]) -> None:
    patient, other = stores
    entered: list[str] = []

    async def hold(store: PostgresStore, channel: int, name: str) -> None:
        async with store.hold(channel):
            entered.append(name)

    async with other.hold(CHANNEL):
        waiting = asyncio.create_task(hold(patient, CHANNEL, "the same channel"))
        await asyncio.wait_for(hold(patient, OTHER, "another channel"), 5)
        await asyncio.sleep(0.2)
        assert entered == ["another channel"] and not waiting.done(), "the same channel waits"
        entered.append("the holder lets go")
    await asyncio.wait_for(waiting, 5)
    assert entered == ["another channel", "the holder lets go", "the same channel"]


async def test_postgres_a_stuck_holder_is_unavailable_and_a_dead_one_lets_go(
        stores: tuple[PostgresStore, PostgresStore], postgres_url: str) -> None:
    patient, impatient = stores
    async with patient.hold(CHANNEL):
        with pytest.raises(StoreUnavailable):  # after its lock timeout
            async with impatient.hold(CHANNEL):
                pass
    dying = await asyncpg.connect(postgres_url)  # a process that holds the channel, then dies
    await dying.execute("SELECT pg_advisory_lock($1, $2)", pg.CHANNEL_LOCKS, pg.lock_key(CHANNEL))

    async def hold() -> None:
        async with patient.hold(CHANNEL):
            pass

    waiting = asyncio.create_task(hold())
    await asyncio.sleep(0.1)
    assert not waiting.done()
    dying.terminate()
    await asyncio.wait_for(waiting, 5)


async def test_postgres_a_command_runs_on_the_connection_its_hold_keeps(postgres_url: str) -> None:
    """A hold's connection serves its commands: a pool of one does not wait for itself."""
    store = await PostgresStore.open(postgres_url, max_size=1)
    try:
        async with asyncio.timeout(5), store.hold(CHANNEL):
            game = await lobby(store)
            with store.command("i-1"):
                await store.record_action(game, 1, HOST, {}, [], "{}", "i-1")
            assert await store.seen("i-1")
    finally:
        await store.close()


async def test_postgres_a_claim_skips_a_timer_being_claimed_instead_of_waiting(
        stores: tuple[PostgresStore, PostgresStore], postgres_url: str) -> None:
    store, _ = stores
    game = await lobby(store)
    await store.add_timers(game.id, HOST, [("deadline", 10.0, {})])
    [timer] = await store.timers(game.id)
    db = await asyncpg.connect(postgres_url)
    try:
        async with db.transaction():
            await db.execute("SELECT 1 FROM timers WHERE id = $1 FOR UPDATE", timer.id)
            assert not await asyncio.wait_for(store.claim_timer(timer.id, LEASE), 1)
        assert await store.claim_timer(timer.id, LEASE)
    finally:
        await db.close()


async def test_postgres_a_locked_row_or_a_lost_connection_is_unavailable_and_writes_nothing(
        stores: tuple[PostgresStore, PostgresStore], postgres_url: str) -> None:
    patient, impatient = stores
    game = await lobby(patient)
    db = await asyncpg.connect(postgres_url)
    try:
        async with db.transaction():
            await db.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)
            with pytest.raises(StoreUnavailable), impatient.command("i-1"):  # after its lock timeout
                await impatient.record_action(game, 1, HOST, {}, [], "{}", "i-1")
            waiting = asyncio.create_task(patient.record_action(game, 1, HOST, {}, [], "{}", "i-2"))
            async with asyncio.timeout(5):
                while not (pids := await db.fetch("SELECT pid FROM pg_stat_activity WHERE wait_event_type = "
                                                  "'Lock' AND datname = current_database()")):
                    await asyncio.sleep(0.02)
            await db.execute("SELECT pg_terminate_backend($1)", pids[0][0])  # the server drops the connection
            with pytest.raises(StoreUnavailable):
                await waiting
    finally:
        await db.close()
    assert await patient.count_actions(game.id) == 0 and not await patient.seen("i-1") and not await patient.seen("i-2")
    assert await patient.game(game.id) == game, "the pool connects again"


# -- the game service

async def play_an_ai_game(store: Store) -> tuple[GameRow, list[object]]:
    """Two AI seats play a game of Risk out; the game's row and its action log as the store reads them back."""
    service = GameService(store, clock=lambda: 1_800_000_000.0, seed_source=lambda: 42)
    await service.new_game(CHANNEL, GUILD, Seat(id=1, name="Ada", ai=True), "risk",
                           {"setup": "random_deal", "mode": "two_player"})
    await service.join(CHANNEL, Seat(id=2, name="Bo", ai=True))
    await service.start(CHANNEL, 1)
    await service.idle(CHANNEL)
    await service.settle()
    game = await store.latest_game(CHANNEL)
    assert game is not None
    return game, [*await store.actions(game.id), await store.timers(game.id), await store.next_post(CHANNEL)]


async def test_the_service_plays_a_game_on_each_backend_as_on_sqlite(location: str, tmp_path: Path) -> None:
    async with contextlib.AsyncExitStack() as stores:  # each closed, whatever fails: an open one outlives the test
        reference = await SqliteStore.open(tmp_path / "reference.sqlite3", clock=lambda: 1_800_000_000.0)
        stores.push_async_callback(reference.close)
        store = await open_store(location, clock=lambda: 1_800_000_000.0)
        stores.push_async_callback(store.close)
        expected, played = await play_an_ai_game(reference), await play_an_ai_game(store)
    assert expected[0].status == "finished" and len(expected[1]) > 100
    assert played == expected


async def test_three_processes_opening_a_new_sqlite_file_at_once_migrate_it_once(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    results = await asyncio.gather(*(SqliteStore.open(path) for _ in range(3)), return_exceptions=True)
    opened = [r for r in results if isinstance(r, SqliteStore)]
    try:
        assert len(opened) == 3, results
        assert [await s.schema_version() for s in opened] == [len(MIGRATIONS)] * 3
    finally:
        for s in opened:
            await s.close()


async def test_a_restarted_sqlite_process_takes_over_what_its_crashed_run_claimed_at_once(tmp_path: Path,
                                                                                        clock: Clock) -> None:
    """One process uses an SQLite file: a run that crashed left claims that nobody else will ever let run out."""
    path = tmp_path / "bot.sqlite3"
    crashed = await SqliteStore.open(path, clock)
    game = await crashed.create_game(CHANNEL, GUILD, "risk", HOST, 1, {})
    await crashed.add_timers(game.id, HOST, [("deadline", clock() - 1, {})])
    timer = await crashed.next_timer()
    assert timer is not None and await crashed.claim_timer(timer.id, LEASE)
    assert await crashed.claim_channel(CHANNEL, LEASE)
    await crashed.close()  # as good as killed: the claims stay in the file
    restarted = await SqliteStore.open(path, clock)
    try:
        assert await restarted.next_timer() == timer and await restarted.claim_timer(timer.id, LEASE)
        assert await restarted.claim_channel(CHANNEL, LEASE)
    finally:
        await restarted.close()
