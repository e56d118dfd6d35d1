"""Interactions nothing else answers: a button or menu from an older version of the bot, or a forged one."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.ext import commands

from cogs.common import locale_of
from cogs.guard import Deliveries
from engine.core.i18n import translate


def known(bot: discord.Client, custom_id: str) -> bool:
    """Whether a persistent button or menu the cogs registered answers this custom id."""
    items: list[type[discord.ui.DynamicItem[Any]]] = getattr(bot, "dynamic_items", [])
    patterns: list[re.Pattern[str]] = [item.__discord_ui_compiled_template__ for item in items]  # type: ignore[attr-defined]
    return any(pattern.fullmatch(custom_id) for pattern in patterns)


class Fallback(commands.Cog):
    """Answers, privately, a component interaction that no button or menu of this bot handles, so that Discord
    never shows "This interaction failed"."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if known(self.bot, custom_id) or interaction.response.is_done():
            return
        deliveries: Deliveries | None = getattr(self.bot, "deliveries", None)
        if deliveries is not None and not deliveries.first(interaction.id):
            return
        await interaction.response.send_message(translate("button.unknown", locale_of(interaction)), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Fallback(bot))
