"""The timekeeper keeps every game's clocks going: through storage errors, wall-clock jumps and downtime."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import timekeeper
from engine.service import Alarm, GameService
from engine.store import SqliteStore, StoreUnavailable
from engine.timekeeper import Timekeeper
from tests.engine.conftest import DAY, HOUR, FakeClock, Table, pending_player
from tests.engine.test_service import three_humans


async def test_a_storage_error_does_not_stop_the_clocks(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Disk full as a reminder falls due, and the clean-up fails too: the loop logs, waits and tries again."""
    state = await three_humans(table.service)
    first = pending_player(state)
    real_fire, real_drop = table.service.fire, table.service.store.delete_timer
    failing = True

    async def fire(timer: object) -> Alarm | None:
        if failing:
            raise StoreUnavailable("database or disk is full")
        return await real_fire(timer)  # type: ignore[arg-type]

    async def drop(timer_id: int) -> bool:
        if failing:
            raise StoreUnavailable("database or disk is full")
        return await real_drop(timer_id)

    monkeypatch.setattr(table.service, "fire", fire)
    monkeypatch.setattr(table.service.store, "delete_timer", drop)
    assert await table.tick(0.5 * DAY) == []
    assert await table.tick(2 * HOUR) == []
    failing = False  # space came back
    [reminder] = await table.tick(timekeeper.MAX_BACKOFF)
    assert (reminder.kind, reminder.player) == ("reminder", first)
    [*_, timeout] = await table.tick(DAY)
    assert (timeout.kind, timeout.player) == ("timeout", first)


async def test_a_failing_alarm_is_logged_and_the_next_one_still_fires(table: Table) -> None:
    state = await three_humans(table.service)
    first = pending_player(state)
    told: list[str] = []

    async def on_alarm(alarm: Alarm) -> None:
        told.append(alarm.kind)
        if len(told) == 1:
            raise RuntimeError("Discord is down")

    table.keeper.on_alarm = on_alarm
    await table.tick(0.5 * DAY)
    await table.tick(0.4 * DAY)
    assert told == ["reminder", "reminder"] and pending_player(await table.state()) == first


async def test_a_wall_clock_jump_is_noticed_within_a_nap(tmp_path: Path) -> None:
    """The wall clock jumps forward past a deadline while asyncio's own clock does not: it still fires."""
    wall, steady = FakeClock(), FakeClock()
    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    service = GameService(store, clock=wall, seed_source=lambda: 42)
    alarms: list[Alarm] = []

    async def on_alarm(alarm: Alarm) -> None:
        alarms.append(alarm)

    keeper = Timekeeper(service, on_alarm, clock=wall, sleep=steady.sleep)
    task = asyncio.create_task(keeper.run())
    try:
        await three_humans(service, turn_timer_hours=1.0)
        await asyncio.wait_for(keeper.idle.wait(), 10)
        wall.advance(HOUR + 178)  # NTP puts the wall clock right; the sleeping loop can't see it
        keeper.idle.clear()
        steady.advance(timekeeper.MAX_NAP)
        await asyncio.wait_for(keeper.idle.wait(), 10)
        assert [a.kind for a in alarms] == ["timeout"]
    finally:
        task.cancel()
        await store.close()


async def test_after_downtime_only_the_timeout_is_told(table: Table) -> None:
    """Reminders of a deadline that passed while the bot was down are not posted; the timeout is."""
    state = await three_humans(table.service)
    first = pending_player(state)
    alarms = await table.tick(DAY + HOUR)
    assert [(a.kind, a.player) for a in alarms][:1] == [("timeout", first)]
    assert "reminder" not in [a.kind for a in alarms]


async def test_after_a_shorter_downtime_one_reminder_is_told(table: Table) -> None:
    await three_humans(table.service)
    assert [a.kind for a in await table.tick(0.95 * DAY)] == ["reminder"]
