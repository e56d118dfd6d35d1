"""Per-user rate limiting for every slash command and button: a busy server can't be flooded by one member."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from engine.core.i18n import translate
from engine.service import GameService
from engine.store import StoreUnavailable

PRUNE_AT = 10_000
"""Forget users whose buckets are full again once this many are tracked."""
REMEMBERED = 4096
"""How many interaction ids each process remembers, to know a re-delivery (Discord re-sends within seconds)."""


class Deliveries:
    """The interactions this process has received: a second delivery of one is ignored, unanswered."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self.size = size
        self._seen: OrderedDict[int, None] = OrderedDict()

    def first(self, interaction_id: int) -> bool:
        """True the first time an interaction id arrives, and remembers it; False for a re-delivery."""
        if interaction_id in self._seen:
            return False
        self._seen[interaction_id] = None
        if len(self._seen) > self.size:
            self._seen.popitem(last=False)
        return True


class RateLimiter:
    """A token bucket per user: `burst` commands at once, refilled at `per_minute` a minute."""

    def __init__(self, per_minute: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.clock = clock
        self._buckets: dict[int, tuple[float, float]] = {}

    def allow(self, user_id: int) -> float:
        """0 when `user_id` may act now (and it is counted), else the seconds until they may."""
        now = self.clock()
        tokens, stamp = self._buckets.get(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        if tokens < 1.0:
            self._buckets[user_id] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[user_id] = (tokens - 1.0, now)
        if len(self._buckets) > PRUNE_AT:
            self._buckets = {u: b for u, b in self._buckets.items()
                             if min(self.burst, b[0] + (now - b[1]) * self.rate) < self.burst}
        return 0.0


async def applied(interaction: discord.Interaction) -> bool:
    """Whether the database says a command of this interaction was applied already (False if it can't say: the
    command itself then tells the user that the storage failed)."""
    service: GameService | None = getattr(interaction.client, "service", None)
    if service is None:
        return False
    try:
        return await service.applied(str(interaction.id))
    except StoreUnavailable:
        return False


async def admit(interaction: discord.Interaction) -> bool:
    """True if the user may go on; otherwise they are told privately why not (a direct message, or going too
    fast), and nothing happens. A second delivery of the same interaction gets no answer at all, whether this
    process or an earlier one received the first: the first one answers it, and Discord would refuse a second
    answer."""
    deliveries: Deliveries | None = getattr(interaction.client, "deliveries", None)
    if deliveries is not None and not deliveries.first(interaction.id):
        return False
    if interaction.type is not discord.InteractionType.autocomplete and await applied(interaction):
        return False  # delivered again after a restart, which forgot it: the process that applied it answered
    if interaction.guild_id is None:  # every game lives in a server's channel; Discord offers none of it in DMs
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        elif not interaction.response.is_done():
            await interaction.response.send_message("⚠️ " + translate("error.server_only"), ephemeral=True)
        return False
    if interaction.type is discord.InteractionType.autocomplete:
        return True  # suggestions are read-only and cheap
    limiter: RateLimiter | None = getattr(interaction.client, "limiter", None)
    wait = limiter.allow(interaction.user.id) if limiter is not None else 0.0
    if wait <= 0:
        return True
    message = "⚠️ " + translate("error.rate_limited", seconds=max(1, round(wait)))
    if not interaction.response.is_done():
        await interaction.response.send_message(message, ephemeral=True)
    return False


class GuardedTree(app_commands.CommandTree[Any]):
    """The command tree, with the rate limit checked before any slash command runs."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await admit(interaction)


class Guarded:
    """Mixin for buttons and menus (DynamicItems): the same rate limit as slash commands."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await admit(interaction)
