"""Shared fixtures of the engine tests: a game service on a fake clock with its timekeeper running."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.games import get
from engine.games.risk import RiskState
from engine.service import Alarm, GameService
from engine.store import SqliteStore, Store, open_store
from engine.table import Lobby
from engine.timekeeper import Timekeeper
from renderer.animate import replay_gif
from tests.engine.test_service import CHANNEL

HOUR = 3600.0
DAY = 24 * HOUR
GUILD = 1


class FakeClock:
    """Epoch seconds that move only when a test says so; `sleep` waits on this clock, not the real one."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, future))
        await future

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for due, future in list(self._sleepers):
            if due <= self.now and not future.done():
                future.set_result(None)
        self._sleepers = [(d, f) for d, f in self._sleepers if not f.done()]


@dataclass
class Table:
    service: GameService
    clock: FakeClock
    keeper: Timekeeper
    alarms: list[Alarm] = field(default_factory=list)

    async def tick(self, seconds: float) -> list[Alarm]:
        """Move time on and return the alarms that went off meanwhile (and what the AI seats did after them)."""
        seen = len(self.alarms)
        self.keeper.idle.clear()
        self.clock.advance(seconds)
        self.keeper.poke()
        await asyncio.wait_for(self.keeper.idle.wait(), 10)
        await self.service.settle()
        await asyncio.wait_for(self.keeper.idle.wait(), 10)
        return self.alarms[seen:]

    async def state(self) -> RiskState:
        """The channel's state once its AI seats have played."""
        await self.service.idle(CHANNEL)
        _, state = await self.service.current(CHANNEL)
        assert isinstance(state, RiskState)
        return state

    async def lobby(self) -> Lobby:
        game, _ = await self.service.current(CHANNEL)
        return game.lobby

    async def deadlines(self) -> dict[int, float]:
        game, _ = await self.service.current(CHANNEL)
        return await self.service.deadlines(game.id)


async def open_table(location: str | Path, clock: FakeClock) -> tuple[Table, Store, asyncio.Task[None]]:
    store = await open_store(location)
    service = GameService(store, clock=clock, seed_source=lambda: 42, animator=replay_gif)
    table = Table(service, clock, None)  # type: ignore[arg-type]

    async def on_alarm(alarm: Alarm) -> None:
        table.alarms.append(alarm)

    table.keeper = Timekeeper(service, on_alarm, clock=clock, sleep=clock.sleep)
    return table, store, asyncio.create_task(table.keeper.run())


@asynccontextmanager
async def served(store: Store) -> AsyncIterator[GameService]:
    """A game service on `store`, settled and closed afterwards."""
    service = GameService(store, seed_source=lambda: 42)
    yield service
    await service.settle()
    await store.close()


@pytest.fixture
async def service(location: str) -> AsyncIterator[GameService]:
    """A game service on either store."""
    async with served(await open_store(location)) as service:
        yield service


@pytest.fixture
async def sqlite_service(tmp_path: Path) -> AsyncIterator[GameService]:
    """A game service on SQLite, for the tests that damage its rows by hand."""
    async with served(await SqliteStore.open(tmp_path / "bot.sqlite3")) as service:
        yield service


@pytest.fixture
async def table(location: str) -> AsyncIterator[Table]:
    """A game service on either store, with its timekeeper running on a fake clock."""
    t, store, task = await open_table(location, FakeClock())
    await asyncio.wait_for(t.keeper.idle.wait(), 10)
    yield t
    task.cancel()
    await t.service.settle()
    await store.close()


def pending_player(state: RiskState) -> int:
    return get("risk").pending(state)[0].player
