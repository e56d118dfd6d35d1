"""Deadlines and reminders: runs the timekeeper and tells the channel when a clock goes off."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.ext import commands

from cogs.common import announce, mentions, service_of_bot, timestamp, who
from engine.core.i18n import mention, translate
from engine.service import LOBBY_DAYS, Alarm, lobby_of
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

    async def on_alarm(self, alarm: Alarm) -> None:
        channel = self.bot.get_partial_messageable(alarm.outcome.game.channel_id)
        outcome = alarm.outcome
        if alarm.kind == "expired":
            await channel.send(translate("lobby.expired", game=outcome.ruleset.title, days=LOBBY_DAYS,
                                         host=mention(alarm.player)),
                               allowed_mentions=discord.AllowedMentions.none())
            return
        state = outcome.state
        assert state is not None
        player = who(alarm.player, state)
        if alarm.kind == "reminder":
            decision = next(d for d in outcome.pending if d.player == alarm.player)
            what = outcome.ruleset.prompt(decision, state)
            await channel.send(translate("timer.reminder", player=player, what=what, due=timestamp(alarm.due)),
                               allowed_mentions=mentions({alarm.player}))
            return
        clock = lobby_of(outcome.game).clock
        if alarm.kind == "absent":
            lead = translate("timer.absent", player=player, n=clock.absent_after)
        elif clock.timeout_action == "skip":
            lead = translate("timer.timeout_skip", player=player)
        else:
            lead = translate("timer.timeout", player=player)
        await announce(channel, outcome, service_of_bot(self.bot), lead=lead, also_ping={alarm.player})


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Timers(bot))

