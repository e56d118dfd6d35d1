"""Deadlines and reminders: runs the timekeeper, which fires due timers through the service (its posts tell the
channel, through the outbox)."""

from __future__ import annotations

import asyncio
import logging

from discord.ext import commands

from cogs.common import service_of_bot
from engine.service import Alarm
from engine.timekeeper import Timekeeper

log = logging.getLogger("gamemaster.timers")


class Timers(commands.Cog):
    """Owns the one background task that sleeps until the next timer is due (RISK-DIG-41)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.keeper = Timekeeper(service_of_bot(bot), self.on_alarm)
        self.task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.task = asyncio.create_task(self.keeper.run(), name="timekeeper")

    async def cog_unload(self) -> None:
        if self.task is not None:
            self.task.cancel()

    @staticmethod
    async def on_alarm(alarm: Alarm) -> None:
        log.info("game %s: %s for seat %s", alarm.outcome.game.id, alarm.kind, alarm.player)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Timers(bot))
