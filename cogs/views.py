"""Views of any game: /board and /history. Public information only."""

from __future__ import annotations

import io
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import check_options, locale_of, refuse, reply, service_of, who
from cogs.guard import Guarded
from engine.core.errors import RuleError
from engine.core.i18n import translate
from engine.games import get
from engine.service.games import lobby_of
from engine.service.news import chunks

PAGE = 15


class Views(commands.Cog):
    """The board and the game's history, for players and spectators alike."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return check_options(interaction)

    @app_commands.command(name="board", description="Show this channel's board")
    @app_commands.guild_only()
    @app_commands.describe(view="The picture, or a text list of every territory (accessible, light on data)",
                           public="Post it for everyone instead of only you")
    async def board(self, interaction: discord.Interaction, view: Literal["map", "text"] = "map",
                    public: bool = False) -> None:
        service = service_of(interaction)
        game, state = await service.view(interaction.channel_id or 0, None)
        if state is None:
            raise RuleError("E_NOT_STARTED")
        language = lobby_of(game).language if public else locale_of(interaction)  # for everyone, or for you
        if view == "map" and service.renderer is not None:
            await interaction.response.defer(ephemeral=not public, thinking=True)  # rendering takes a moment
            png = await service.board(interaction.channel_id or 0, language)
            if png is not None:
                await interaction.followup.send(file=discord.File(io.BytesIO(png), filename="board.png"),
                                                ephemeral=not public)
                return
        text = get(game.ruleset).text_board(state, language)
        messages = chunks(text.splitlines())
        await reply(interaction, messages[0], ephemeral=not public)
        for extra in messages[1:]:
            await interaction.followup.send(extra, ephemeral=not public)

    @app_commands.command(name="history", description="What happened in this channel's game, page by page")
    @app_commands.guild_only()
    @app_commands.describe(page="Page number; page 1 is the most recent")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        content, view = await history_page(interaction, page)
        await reply(interaction, content, ephemeral=True, view=view)


async def history_page(interaction: discord.Interaction, page: int) -> tuple[str, discord.ui.View]:
    """One page of the log (turn, actor, what happened) with Older / Newer buttons."""
    found = await service_of(interaction).history(interaction.channel_id or 0, page, PAGE)
    locale = locale_of(interaction)
    lines = [translate("history.header", locale, page=found.page, pages=found.pages, total=found.total)]
    state = found.state
    if state is not None:
        ruleset = get(found.ruleset)
        for entry in found.entries:
            texts = [t for e in entry.events if (t := ruleset.narrate(e, state, locale))]
            lines.append(translate("history.entry", locale, turn=entry.turn, actor=who(entry.actor, state),
                                   text=" ".join(texts) or entry.kind))
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryButton(found.game_id, found.page + 1, older=True, disabled=found.page >= found.pages))
    view.add_item(HistoryButton(found.game_id, found.page - 1, older=False, disabled=found.page <= 1))
    return chunks(lines)[0], view


class HistoryButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"history:(?P<game>\d+):(?P<page>\d+):(?P<dir>older|newer)"):
    """Turn the page of a /history reply; works after a restart too."""

    def __init__(self, game_id: int, page: int, *, older: bool, disabled: bool = False) -> None:
        label = "◀ Older" if older else "Newer ▶"
        custom_id = f"history:{game_id}:{max(page, 0)}:{'older' if older else 'newer'}"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id,
                                           disabled=disabled))
        self.game_id, self.page = game_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> HistoryButton:
        return cls(int(match["game"]), int(match["page"]), older=match["dir"] == "older")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            content, view = await history_page(interaction, self.page)
        except RuleError as err:
            await refuse(interaction, err)
            return
        await interaction.response.edit_message(content=content, view=view)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(HistoryButton)
    await bot.add_cog(Views(bot))
