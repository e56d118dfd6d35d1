"""The timekeeper keeps every game's clocks going: through storage errors, wall-clock jumps and downtime."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import timekeeper
from engine.core.models import Seat
from engine.games import get
from engine.service import Alarm, GameService
from engine.store import SqliteStore, StoreUnavailable
from engine.timekeeper import Timekeeper
from tests.engine.conftest import DAY, HOUR, FakeClock, Table, pending_player
from tests.engine.test_service import CHANNEL, three_humans


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


async def test_ai_seats_cut_off_mid_game_play_on_when_their_resume_timer_falls_due(table: Table) -> None:
    """A process that dies while its AI seats play leaves their resume timer behind: whichever process fires it
    (here the same one, after a restart of its runners) plays the game on to its end."""
    service = table.service
    seats = [Seat(id=k, name=f"AI {k}", ai=True) for k in (1, 2, 3)]
    await service.new_game(CHANNEL, None, seats[0], "risk", {"setup": "random_deal"})
    for seat in seats[1:]:
        await service.join(CHANNEL, seat)
    await service.start(CHANNEL, seats[0].id)
    game, _ = await service.current(CHANNEL)
    armed = [t for t in await service.store.timers(game.id) if t.kind == "resume"]
    assert len(armed) == 1 and armed[0].due_at == table.clock() + service.takeover_after
    await service.stop()  # the runner dies between two actions, as with its process
    _, cut = await service.current(CHANNEL)
    assert cut is not None and get("risk").winners(cut) is None
    await table.tick(service.takeover_after / 2)
    _, still = await service.current(CHANNEL)
    assert still is not None and still.seq == cut.seq, "nobody plays on before the takeover time"
    await table.tick(service.takeover_after)
    _, done = await service.current(CHANNEL)
    assert done is not None and get("risk").winners(done) is not None
    assert [t for t in await service.store.timers(game.id) if t.kind == "resume"] == []


async def test_a_game_whose_ai_seats_are_done_keeps_no_resume_timer(table: Table) -> None:
    state = await three_humans(table.service)
    game, _ = await table.service.current(CHANNEL)
    assert state is not None and not [t for t in await table.service.store.timers(game.id) if t.kind == "resume"]
