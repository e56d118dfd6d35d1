"""Views of any game: /board and /history. Public information only."""

from __future__ import annotations

import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import chunks, locale_of, reply, service_of, who
from engine.core.errors import RuleError
from engine.core.i18n import translate
from engine.games import get

PAGE = 15


class Views(commands.Cog):
    """The board and the game's history, for players and spectators alike."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="board", description="Show this channel's board")
    @app_commands.describe(view="The picture, or a text list of every territory (accessible, light on data)",
                           public="Post it for everyone instead of only you")
    async def board(self, interaction: discord.Interaction, view: Literal["map", "text"] = "map",
                    public: bool = False) -> None:
        service = service_of(interaction)
        game, state = await service.current(interaction.channel_id or 0)
        if state is None:
            raise RuleError("E_NOT_STARTED")
        if view == "map" and service.renderer is not None:
            await interaction.response.defer(ephemeral=not public, thinking=True)  # rendering takes a moment
            png = await service.board(game, state)
            assert png is not None
            await interaction.followup.send(file=discord.File(io.BytesIO(png), filename="board.png"),
                                            ephemeral=not public)
            return
        text = get(game.ruleset).text_board(state, locale_of(interaction))
        messages = chunks(text.splitlines())
        await reply(interaction, messages[0], ephemeral=not public)
        for extra in messages[1:]:
            await interaction.followup.send(extra, ephemeral=not public)

    @app_commands.command(name="history", description="What happened in this channel's game, page by page")
    @app_commands.describe(page="Page number; page 1 is the most recent")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        service = service_of(interaction)
        game, state = await service.current(interaction.channel_id or 0)
        total = await service.store.count_actions(game.id)
        pages = max(1, -(-total // PAGE))
        page = min(page, pages)
        offset = max(0, total - page * PAGE)
        rows = await service.store.actions(game.id, offset, min(PAGE, total - (page - 1) * PAGE))
        ruleset = get(game.ruleset)
        locale = locale_of(interaction)
        lines = [translate("history.header", locale, page=page, pages=pages, total=total)]
        if state is not None:
            for row in rows:
                events = [ruleset.parse_event(e) for e in row.events]
                texts = [t for e in events if (t := ruleset.narrate(e, state, locale))]
                actor = who(row.actor, state)
                lines.append(f"`#{row.seq}` {actor}: " + (" ".join(texts) or row.action.get("type", "?")))
        await reply(interaction, chunks(lines)[0], ephemeral=True)



async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Views(bot))
