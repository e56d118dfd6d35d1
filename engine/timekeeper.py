"""Deadlines that survive restarts: one task sleeps until the earliest timer in the store is due.

Timers live in the store, so nothing is lost when the bot stops; on start the loop simply reads the earliest one.
With several processes on one store, each claims a due timer before firing it, so it fires once.
Adding a sooner timer wakes the loop early (`poke`). The loop naps in bounded steps, so a wall clock that jumps
forward is noticed within `MAX_NAP`, and no error stops it: it logs, waits and tries again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from engine.service import Alarm, GameService
from engine.store import StoreUnavailable

log = logging.getLogger("gamemaster.timers")

Sleep = Callable[[float], Awaitable[None]]
MAX_NAP = 30.0
"""Sleep at most this long at once: timers follow the wall clock, and asyncio's sleep does not."""
MAX_BACKOFF = 300.0
"""After failures in a row, wait 1, 2, 4 … seconds before the next try, at most this long."""


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
        """Fire timers as they fall due, for as long as the bot runs: an error is logged and the loop goes on."""
        failures = 0
        while True:
            try:
                await self._step()
                failures = 0
            except Exception:  # the store is down or full, or a bug: nothing may stop every game's clocks
                failures += 1
                wait = min(MAX_BACKOFF, 2.0 ** (failures - 1))
                log.exception("the timekeeper failed (%d in a row); it tries again in %.0f s", failures, wait)
                await self._nap(wait)

    async def _step(self) -> None:
        """Wait for the earliest timer, or fire it if it is due."""
        self._wake.clear()
        timer = await self.service.store.next_timer()
        # other processes add timers this one is not told of: it looks again every half takeover time
        look = self.service.takeover_after / 2 if self.service.store.shared else MAX_NAP
        if timer is None:
            if self.service.store.shared:
                await self._nap(look)
                return
            self.idle.set()
            await self._wake.wait()
            self.idle.clear()
            return
        delay = timer.due_at - self.clock()
        if delay > 0:
            await self._nap(min(delay, MAX_NAP, look))
            return
        if not await self.service.store.claim_timer(timer.id, self.service.takeover_after):
            return  # another process sharing the store took it just now: it fires it
        try:
            alarm = await self.service.fire(timer)
        except StoreUnavailable:
            raise  # the timer stays, and fires when the store works again
        except Exception:
            log.exception("timer %s of game %s failed; it is dropped", timer.id, timer.game_id)
            await self.service.drop_timer(timer)
            return
        if alarm is not None:
            try:
                await self.on_alarm(alarm)
            except Exception:
                log.exception("the alarm of timer %s (game %s) could not be told", timer.id, timer.game_id)

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
