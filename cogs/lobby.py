"""The lobby for every game: /game new, join, leave, add-ai, start, status, abandon."""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import announce, is_moderator, locale_of, ping, refuse, reply, seat_for, service_of, who
from engine.core.errors import RuleError
from engine.core.i18n import translate
from engine.games import get
from engine.service import Lobby

COLOURS = [app_commands.Choice(name=c.capitalize(), value=c)
           for c in ("red", "blue", "green", "yellow", "black", "pink")]


class Lobby_(commands.GroupCog, group_name="game", group_description="Start, join and manage a game"):
    """Thin glue from /game commands to the game service."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a new game in this channel; you become its host")
    @app_commands.describe(
        game="Which game to play",
        mode="standard (3–6), secret_mission (3–6) or two_player (2 + a Neutral army)",
        setup="claim territories in turn, or deal them at random",
        placement="how the starting armies go out: one at a time, all at once per turn, or secret plans",
        fortify="move between neighbours only, or along a chain of your own territories",
        defender_dice="roll the most defence dice automatically, or let defenders choose",
        mission_set="the 12 US missions, or 14 with the two European ones",
        destroy_rule="a destroy mission completes whoever eliminates the target, or turns into 24 territories",
    )
    async def new(
        self, interaction: discord.Interaction, game: Literal["risk"] = "risk",
        mode: Literal["standard", "secret_mission", "two_player"] = "standard",
        setup: Literal["claim", "random_deal"] = "claim",
        placement: Literal["one_at_a_time", "bulk_sequential", "simultaneous"] = "one_at_a_time",
        fortify: Literal["adjacent", "connected"] = "adjacent",
        defender_dice: Literal["auto_max", "choose"] = "auto_max",
        mission_set: Literal["us12", "euro14"] = "us12",
        destroy_rule: Literal["anyone", "convert_24"] = "anyone",
    ) -> None:
        options: dict[str, Any] = {"mode": mode, "setup": setup, "setup_placement": placement,
                                   "fortify_mode": fortify, "defender_dice": defender_dice,
                                   "mission_set": mission_set, "destroy_rule": destroy_rule}
        row = await service_of(interaction).new_game(interaction.channel_id or 0, interaction.guild_id,
                                                     seat_for(interaction.user), game, options)
        title = get(row.ruleset).title
        await reply(interaction, translate("lobby.created", locale_of(interaction), host=interaction.user.mention,
                                           game=title, options=self.summary(row.lobby["options"])))

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    @app_commands.describe(colour="The colour you would like (a free one is given if it is taken)")
    @app_commands.choices(colour=COLOURS)
    async def join(self, interaction: discord.Interaction, colour: str | None = None) -> None:
        row = await service_of(interaction).join(interaction.channel_id or 0, seat_for(interaction.user, colour))
        seats = Lobby.model_validate(row.lobby).seats
        await reply(interaction, translate("lobby.joined", locale_of(interaction), player=interaction.user.mention,
                                           n=len(seats)))

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        row = await service_of(interaction).leave(interaction.channel_id or 0, interaction.user.id)
        key = "lobby.left" if row is not None else "lobby.closed"
        await reply(interaction, translate(key, locale_of(interaction), player=interaction.user.mention))

    @app_commands.command(name="add-ai", description="Host only: add an AI player to the lobby")
    async def add_ai(self, interaction: discord.Interaction) -> None:
        row = await service_of(interaction).add_ai(interaction.channel_id or 0, interaction.user.id)
        seat = Lobby.model_validate(row.lobby).seats[-1]
        await reply(interaction, translate("lobby.ai_added", locale_of(interaction), name=seat.name))

    @app_commands.command(name="start", description="Host only: seat everyone in random order and begin")
    async def start(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        await service.check_start(interaction.channel_id or 0, interaction.user.id)  # errors stay private
        await interaction.response.defer(thinking=True)  # dealing and AI turns can take a moment
        outcome = await service.start(interaction.channel_id or 0, interaction.user.id)
        state = outcome.state
        assert state is not None
        order = ", ".join(who(p.id, state) for p in getattr(state, "players", []))
        lead = translate("lobby.started", locale_of(interaction), game=outcome.ruleset.title, order=order)
        await interaction.followup.send(lead)
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        await announce(channel, outcome, service, always_board=True)

    @app_commands.command(name="status", description="Show this channel's game: seats, options, whose turn")
    async def status(self, interaction: discord.Interaction) -> None:
        game, state = await service_of(interaction).current(interaction.channel_id or 0)
        locale = locale_of(interaction)
        lobby = Lobby.model_validate(game.lobby)
        ruleset = get(game.ruleset)
        lines = [translate("status.header", locale, game=ruleset.title, status=game.status,
                           host=who(game.host_id, state)),
                 translate("status.options", locale, options=self.summary(lobby.options))]
        if state is None:
            lines.append(translate("status.seats", locale, seats=", ".join(
                s.name + (" 🤖" if s.ai else "") for s in lobby.seats)))
        else:
            winners = ruleset.winners(state)
            if winners is not None:
                lines.append(translate("status.winner", locale, winner=", ".join(who(w, state) for w in winners)))
            lines.extend(ping(ruleset, state, decision, locale) for decision in ruleset.pending(state))
        await reply(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="abandon", description="Host or moderator: end this channel's game without a winner")
    async def abandon(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        game = await service.live(interaction.channel_id or 0)
        if interaction.user.id != game.host_id and not is_moderator(interaction):
            raise RuleError("E_NOT_HOST", host=f"<@{game.host_id}>")
        view = discord.ui.View(timeout=None)
        view.add_item(AbandonButton(game.id, "yes"))
        view.add_item(AbandonButton(game.id, "no"))
        await reply(interaction, translate("abandon.confirm", locale_of(interaction)), ephemeral=True, view=view)

    @staticmethod
    def summary(options: dict[str, Any]) -> str:
        shown = ("mode", "setup", "setup_placement", "fortify_mode", "defender_dice")
        return ", ".join(f"{k}: {options[k]}" for k in shown if k in options)



class AbandonButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"game:abandon:(?P<game>\d+):(?P<answer>yes|no)"):
    """Confirm or cancel abandoning one particular game; works after a restart too."""

    def __init__(self, game_id: int, answer: str) -> None:
        label, style = (("Abandon the game", discord.ButtonStyle.danger) if answer == "yes"
                        else ("Keep playing", discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"game:abandon:{game_id}:{answer}"))
        self.game_id, self.answer = game_id, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> AbandonButton:
        return cls(int(match["game"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        if self.answer == "no":
            await interaction.response.edit_message(content=translate("abandon.kept", locale), view=None)
            return
        service = service_of(interaction)
        try:
            game = await service.live(interaction.channel_id or 0)
            if game.id != self.game_id:
                await reply(interaction, translate("button.stale", locale), ephemeral=True)
                return
            await service.abandon(interaction.channel_id or 0, interaction.user.id, is_moderator(interaction))
        except RuleError as err:
            await refuse(interaction, err)
            return
        await interaction.response.edit_message(content=translate("abandon.done_private", locale), view=None)
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(translate("abandon.done", locale, player=interaction.user.mention))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(AbandonButton)
    await bot.add_cog(Lobby_(bot))
