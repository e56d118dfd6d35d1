"""/stats: results in this server by game (played, won, average place)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import check_options, locale_of, reply, service_of
from engine.core.i18n import translate
from engine.games import title
from engine.service.news import chunks

TOP = 10


class Stats(commands.Cog):
    """Per-server results, for everyone to see."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return check_options(interaction)

    @app_commands.command(name="stats", description="Results in this server by game: played, won, average place")
    @app_commands.describe(player="Whose results (leave out for the server's top players)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        locale = locale_of(interaction)
        table = await service_of(interaction).stats(interaction.guild_id or 0)
        lines = [translate("stats.header", locale)]
        for game, results in sorted(table.items()):
            rows = sorted(((uid, r) for uid, r in results.items() if player is None or uid == player.id),
                          key=lambda item: (-sum(won for _, won in item[1]), _average(item[1])))[:TOP]
            if not rows:
                continue
            lines.append(translate("stats.game", locale, game=title(game)))
            lines.extend(translate("stats.line", locale, player=f"<@{uid}>", played=len(r),
                                   won=sum(won for _, won in r), place=f"{_average(r):.1f}") for uid, r in rows)
        if len(lines) == 1:
            lines.append(translate("stats.none", locale))
        await reply(interaction, chunks(lines)[0], ephemeral=True)


def _average(results: list[tuple[int, bool]]) -> float:
    return sum(place for place, _ in results) / len(results)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Stats(bot))
