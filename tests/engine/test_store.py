"""The SQLite store: migrations, one live game per channel, the optimistic version check, dedup."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from engine.store import MIGRATIONS, ChannelBusy, DuplicateInteraction, SqliteStore, StoreError, VersionConflict


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


async def test_one_live_game_per_channel(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    game = await store.create_game(1, 10, "risk", 100, 7, {"game": "risk"})
    with pytest.raises(ChannelBusy):
        await store.create_game(1, 10, "risk", 101, 8, {"game": "risk"})
    other = await store.create_game(2, 10, "risk", 101, 8, {"game": "risk"})
    assert other.id != game.id
    await store.update_game(game, status="finished")
    replacement = await store.create_game(1, 10, "risk", 102, 9, {"game": "risk"})
    assert (await store.live_game(1)) == replacement
    await store.close()


async def test_record_action_checks_the_version_and_writes_nothing_on_conflict(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    game = await store.create_game(1, None, "risk", 100, 7, {})
    saved = await store.record_action(game, 1, 100, {"type": "x"}, [], '{"s": 1}', "i-1")
    assert saved == await store.game(game.id)
    with pytest.raises(VersionConflict):
        await store.record_action(game, 2, 100, {"type": "y"}, [], '{"s": 2}', "i-2")
    assert await store.count_actions(game.id) == 1
    assert (await store.game(game.id)).state == '{"s": 1}'
    assert not await store.seen("i-2")
    await store.close()


async def test_a_retried_interaction_is_recognised(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    game = await store.create_game(1, None, "risk", 100, 7, {})
    fresh = await store.record_action(game, 1, 100, {"type": "x"}, [{"type": "e"}], "{}", "i-1")
    with pytest.raises(DuplicateInteraction):
        await store.record_action(fresh, 2, 100, {"type": "x"}, [], "{}", "i-1")
    assert await store.seen("i-1")
    [row] = await store.actions(game.id)
    assert row.seq == 1 and row.events == [{"type": "e"}] and row.interaction_id == "i-1"
    await store.close()


async def test_a_command_records_its_interaction_with_its_first_write(tmp_path: Path) -> None:
    """Each command is applied once per interaction: its id is written in the same transaction as its change."""
    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    game = await store.create_game(1, None, "risk", 100, 7, {})
    with store.command("i-9"):
        game = await store.update_game(game, lobby={"n": 1})
        game = await store.update_game(game, lobby={"n": 2})  # the same command's later writes: recorded once
    assert await store.seen("i-9")
    with pytest.raises(DuplicateInteraction), store.command("i-9"):
        await store.update_game(game, lobby={"n": 3})
    assert (await store.game(game.id)).lobby == {"n": 2}, "the duplicate's change was rolled back"
    await store.close()


async def test_timers_come_back_in_due_order_per_seat(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    game = await store.create_game(1, None, "risk", 100, 7, {})
    await store.add_timers(game.id, 100, [("deadline", 200.0, {"seq": 3}), ("reminder", 150.0, {})])
    await store.add_timers(game.id, 200, [("deadline", 300.0, {})])
    first = await store.next_timer()
    assert first is not None and (first.kind, first.due_at, first.player) == ("reminder", 150.0, 100)
    assert await store.delete_timer(first.id) is True
    assert await store.delete_timer(first.id) is False  # already gone: a second firing finds nothing
    nxt = await store.next_timer()
    assert nxt is not None and nxt.payload == {"seq": 3}
    await store.delete_timers(game.id, player=100)
    assert [(t.player, t.kind) for t in await store.timers(game.id)] == [(200, "deadline")]
    await store.delete_timers(game.id)
    assert await store.next_timer() is None
    await store.close()


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


@pytest.mark.parametrize("query", [
    "SELECT id FROM outbox WHERE channel_id = 1 AND delivered_at IS NULL AND parked IS NULL ORDER BY id LIMIT 1",
    "UPDATE outbox SET parked = NULL, next_try = 0 WHERE channel_id = 1 AND parked IS NOT NULL",
    "SELECT id, parked FROM outbox WHERE channel_id = 1 AND parked IS NOT NULL ORDER BY id",
    "SELECT sent FROM outbox WHERE channel_id = 1 AND delivered_at IS NOT NULL ORDER BY id DESC LIMIT 1",
    "SELECT turns FROM actions WHERE game_id = 1 ORDER BY seq DESC LIMIT 1",
    "SELECT seq FROM actions WHERE game_id = 1 AND seq > 5 ORDER BY seq LIMIT 10",
])
def test_the_outbox_and_log_queries_of_every_post_use_an_index(query: str) -> None:
    """Issue #14: every post reads and updates its channel's outbox; a scan would grow with the bot's history."""
    con = sqlite3.connect(":memory:")
    for migration in MIGRATIONS:
        con.executescript(migration)
    plan = " ".join(row[-1] for row in con.execute("EXPLAIN QUERY PLAN " + query))
    assert "SCAN" not in plan and ("INDEX" in plan or "PRIMARY KEY" in plan), plan
