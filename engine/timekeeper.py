"""Deadlines that survive restarts: one task sleeps until the earliest timer in SQLite is due.

Timers live in the store, so nothing is lost when the bot stops; on start the loop simply reads the earliest one.
Adding a sooner timer wakes the loop early (`poke`), so nothing polls.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from engine.service import Alarm, GameService

log = logging.getLogger("gamemaster.timers")

Sleep = Callable[[float], Awaitable[None]]
MAX_NAP = 24 * 3600.0
"""Sleep at most this long at once, so a wrong system clock heals within a day."""


class Timekeeper:
    """Fires due timers through the service and hands each alarm to `on_alarm` (the Discord side)."""

    def __init__(self, service: GameService, on_alarm: Callable[[Alarm], Awaitable[None]], *,
                 clock: Callable[[], float] = time.time, sleep: Sleep = asyncio.sleep) -> None:
        self.service = service
        self.on_alarm = on_alarm
        self.clock = clock
        self.sleep = sleep
        self._wake = asyncio.Event()
        self.idle = asyncio.Event()
        """Set while the loop waits for the next timer (nothing due is left unfired)."""
        service.on_timers_changed(self.poke)

    def poke(self) -> None:
        """A timer was added or removed: look again at the earliest one."""
        self._wake.set()

    async def run(self) -> None:
        while True:
            self._wake.clear()
            timer = await self.service.store.next_timer()
            if timer is None:
                self.idle.set()
                await self._wake.wait()
                self.idle.clear()
                continue
            delay = timer.due_at - self.clock()
            if delay > 0:
                await self._nap(min(delay, MAX_NAP))
                continue
            try:
                alarm = await self.service.fire(timer)
                if alarm is not None:
                    await self.on_alarm(alarm)
            except Exception:
                log.exception("timer %s of game %s failed; it is dropped", timer.id, timer.game_id)
                await self.service.drop_timer(timer)

    async def _nap(self, seconds: float) -> None:
        """Sleep `seconds`, or less if poked."""
        sleeper = asyncio.ensure_future(self.sleep(seconds))
        waker = asyncio.ensure_future(self._wake.wait())
        self.idle.set()
        try:
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.idle.clear()
            sleeper.cancel()
            waker.cancel()
