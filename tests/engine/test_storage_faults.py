"""Storage faults: a locked or full database, or a row this bot can't read, costs one channel at most, loses nothing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from engine.core.errors import RuleError
from engine.games.risk import RiskState
from engine.service import GameService
from engine.store import PostgresStore, StoreUnavailable
from tests.engine.conftest import served
from tests.engine.test_service import ALICE, BOB, CHANNEL, OTHER, code_of, seat, three_humans


@pytest.fixture
async def postgres_service(postgres_url: str) -> AsyncIterator[GameService]:
    """The service on PostgreSQL, where a lock not granted within 0.2 s is a storage error."""
    async with served(await PostgresStore.open(postgres_url, lock_timeout=0.2)) as service:
        yield service


def deploy_all(state: RiskState) -> dict[str, object]:
    pid = state.current
    return {"type": "deploy", "placements": {state.territories_of(pid)[0]: state.setup_left[pid]}}


async def snapshot(service: GameService, channel: int = CHANNEL) -> tuple[str | None, int, int]:
    game = await service.store.live_game(channel)
    assert game is not None
    return game.state, game.version, await service.store.count_actions(game.id)


async def test_storage_locked_database_refuses_clearly_and_loses_nothing(sqlite_service: GameService,
                                                                         tmp_path: Path) -> None:
    service = sqlite_service
    state = await three_humans(service)
    before = await snapshot(service)
    await service.store._db.execute("PRAGMA busy_timeout=50")  # don't wait 5 s for the lock in a test
    other = sqlite3.connect(tmp_path / "bot.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        assert await code_of(service.act(CHANNEL, state.current, deploy_all(state))) == "E_STORAGE"
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert await snapshot(service) == before
    outcome = await service.act(CHANNEL, state.current, deploy_all(state))
    assert outcome.state is not None and outcome.state.seq == state.seq + 1


async def test_storage_locked_row_on_postgres_refuses_clearly_and_loses_nothing(postgres_service: GameService,
                                                                                postgres_url: str) -> None:
    service = postgres_service
    state = await three_humans(service)
    before = await snapshot(service)
    other = await asyncpg.connect(postgres_url)
    try:
        async with other.transaction():  # another writer holds the game's row
            await other.execute("SELECT 1 FROM games WHERE channel_id = $1 FOR UPDATE", CHANNEL)
            assert await code_of(service.act(CHANNEL, state.current, deploy_all(state))) == "E_STORAGE"
    finally:
        await other.close()
    assert await snapshot(service) == before
    outcome = await service.act(CHANNEL, state.current, deploy_all(state))
    assert outcome.state is not None and outcome.state.seq == state.seq + 1


async def test_storage_disk_full_refuses_clearly_and_loses_nothing(sqlite_service: GameService,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    service = sqlite_service
    state = await three_humans(service)
    db = service.store._db
    before = await snapshot(service)
    pages = (await (await db.execute("PRAGMA page_count")).fetchone())[0]  # type: ignore[index]
    await db.execute(f"PRAGMA max_page_count={pages}")  # a real full disk: no page can be added
    with pytest.raises(StoreUnavailable):  # a storage error, which only the service words for players
        await service.store.add_timers(1, 1, [("reminder", 0.0, {"blob": "y" * 300_000})])
    await db.execute("PRAGMA max_page_count=1073741823")
    assert await snapshot(service) == before
    assert not any("blob" in t.payload for t in await service.store.timers(1))  # rolled back whole
    # The move's own write hits the full disk (simulated: SQLite reuses free space, so it rarely would here).
    real_execute = db.execute

    async def full_on_action_insert(sql: str, *args: object) -> object:
        if sql.startswith("INSERT INTO actions"):
            raise sqlite3.OperationalError("database or disk is full")
        return await real_execute(sql, *args)

    monkeypatch.setattr(db, "execute", full_on_action_insert)
    assert await code_of(service.act(CHANNEL, state.current, deploy_all(state))) == "E_STORAGE"
    assert await snapshot(service) == before
    monkeypatch.setattr(db, "execute", real_execute)
    outcome = await service.act(CHANNEL, state.current, deploy_all(state))  # space again: the move goes through
    assert outcome.state is not None and outcome.state.seq == state.seq + 1
    assert await service.store.integrity_ok()


async def test_storage_row_from_a_newer_version_stops_only_its_channel(service: GameService) -> None:
    await three_humans(service)
    await three_humans(service, OTHER)
    game = await service.store.live_game(CHANNEL)
    assert game is not None and game.state is not None
    newer = json.loads(game.state) | {"schema_version": 99}
    await service.store.update_game(game, state=json.dumps(newer))
    _, state = await service.current(OTHER)
    assert isinstance(state, RiskState)
    assert await code_of(service.act(CHANNEL, ALICE, {"type": "end_turn"})) == "E_GAME_TOO_NEW"
    assert await code_of(service.current(CHANNEL)) == "E_GAME_TOO_NEW"
    moved = await service.act(OTHER, state.current, deploy_all(state))
    assert moved.state is not None and moved.state.seq == state.seq + 1
    assert len(await service.resume_all()) == 0  # a restart skips it without failing


async def test_storage_corrupt_lobby_row_stops_only_its_channel(service: GameService) -> None:
    await three_humans(service)
    await three_humans(service, OTHER)
    game = await service.store.live_game(CHANNEL)
    assert game is not None
    await service.store.update_game(game, lobby={"game": "risk", "seats": "not a list"})
    assert await code_of(service.act(CHANNEL, BOB, {"type": "end_turn"})) == "E_GAME_CORRUPT"
    _, state = await service.current(OTHER)
    assert isinstance(state, RiskState)
    assert (await service.act(OTHER, state.current, deploy_all(state))).state is not None
    assert seat(ALICE).id == ALICE


async def test_an_error_after_the_command_took_effect_says_so(service: GameService,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """#14: an error after the change was saved never says that nothing changed."""
    await service.new_game(CHANNEL, 1, seat(ALICE), "risk", {"setup": "random_deal"})
    await service.add_ai(CHANNEL, ALICE)
    await service.add_ai(CHANNEL, ALICE)

    async def full(*_: object, **__: object) -> None:
        raise StoreUnavailable("database or disk is full")

    monkeypatch.setattr(service.store, "delete_timers", full)  # the start is saved; its clean-up fails
    with pytest.raises(RuleError) as info:
        await service.start(CHANNEL, ALICE)
    assert info.value.code == "E_STORAGE_AFTER" and "was carried out" in info.value.message
    assert (await service.live(CHANNEL)).status == "running"
    monkeypatch.undo()
    monkeypatch.setattr(service.store, "update_game", full)  # nothing is saved at all
    with pytest.raises(RuleError) as info:
        await service.vote(CHANNEL, ALICE, "draw")
    assert info.value.code == "E_STORAGE" and "not carried out" in info.value.message
