"""/game for every game: the lobby (new, join, leave, add-ai, start, abandon), the table (status, vacation, back,
resign, votes), the host's controls (kick, replace, pause, resume, deadline) and the record (export, replay)."""

from __future__ import annotations

import io
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    acknowledge,
    check_options,
    done,
    is_moderator,
    locale_of,
    refuse,
    reply,
    seat_for,
    service_of,
    who,
)
from cogs.guard import Guarded
from cogs.translator import LANGUAGE_CHOICES
from engine.core.errors import RuleError
from engine.core.i18n import inert, mention, msg, timestamp, translate
from engine.core.record import PublicRecord
from engine.games import get, title
from engine.service.lobby import options_summary
from engine.service.news import ping
from engine.table import MAX_DEADLINE_HOURS, MAX_VACATION_DAYS, MIN_DEADLINE_HOURS, Lobby, winners_of

COLOURS = [app_commands.Choice(name=c.capitalize(), value=c)
           for c in ("red", "blue", "green", "yellow", "black", "pink")]


@app_commands.guild_only()
class Lobby_(commands.GroupCog, group_name="game", group_description="Start, join and manage a game"):
    """Thin glue from /game commands to the game service."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return check_options(interaction)

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    @app_commands.describe(colour="The colour you would like (a free one is given if it is taken)")
    @app_commands.choices(colour=COLOURS)
    async def join(self, interaction: discord.Interaction, colour: str | None = None) -> None:
        await acknowledge(interaction)
        await service_of(interaction).join(interaction.channel_id or 0, seat_for(interaction.user, colour),
                                           interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="leave", description="Give up your seat (during a game: resign, after a confirmation)")
    async def leave(self, interaction: discord.Interaction) -> None:
        game = await service_of(interaction).live(interaction.channel_id or 0)
        if game.status == "running":  # ruling 8: during a game, leaving is resigning
            await self.ask_to_resign(interaction)
            return
        await acknowledge(interaction)
        await service_of(interaction).leave(interaction.channel_id or 0, interaction.user.id,
                                            interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="add-ai", description="Host only: add an AI player to the lobby")
    async def add_ai(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        await service_of(interaction).add_ai(interaction.channel_id or 0, interaction.user.id,
                                             interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="start", description="Host only: seat everyone in random order and begin")
    async def start(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        await service_of(interaction).start(interaction.channel_id or 0, interaction.user.id,
                                            interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="status", description="Show this channel's game: seats, options, whose turn")
    async def status(self, interaction: discord.Interaction) -> None:
        game, state = await service_of(interaction).view(interaction.channel_id or 0, None)
        locale = locale_of(interaction)
        lobby = game.lobby
        ruleset = get(game.ruleset)
        lines = [translate("status.header", locale, game=title(ruleset.name), status=msg(f"status.state.{game.status}"),
                           host=who(game.host_id, state)),
                 translate("status.options", locale, options=options_summary(game.ruleset, lobby.options))]
        if state is None:
            lines.append(translate("status.seats", locale, seats=", ".join(
                inert(s.name) + (" 🤖" if s.ai else "") for s in lobby.seats)))
        else:
            winners = winners_of(ruleset, state, lobby)
            if winners is not None:
                lines.append(translate("status.winner", locale, winner=", ".join(who(w, state) for w in winners)
                                       or "—"))
            else:
                lines.extend(self.table_lines(lobby, locale))
                due = await service_of(interaction).deadlines(game.id)
                humans = lobby.humans()
                lines.extend(ping(ruleset, state, decision, humans, locale, due.get(decision.player), pinged=False)
                             for decision in ruleset.pending(state))
        lines += [translate("status.parked", locale, reason=inert(reason))
                  for reason in dict.fromkeys(await service_of(interaction).parked(interaction.channel_id or 0))]
        await reply(interaction, "\n".join(lines), ephemeral=True)

    @staticmethod
    def table_lines(lobby: Lobby, locale: str) -> list[str]:
        """The clock settings, a pause, and who is away."""
        clock = lobby.clock
        lines = []
        if lobby.paused is not None:
            lines.append(translate("status.paused", locale))
        if clock.turn_hours is None:
            lines.append(translate("status.deadline_off", locale))
        else:
            lines.append(translate("status.deadline", locale, hours=clock.turn_hours,
                                   mode=msg(f"status.mode_{clock.timeout_action}"), n=clock.absent_after))
        away = []
        for seat_id, status in lobby.status.items():
            if status.absent:
                away.append(translate("status.absent", locale, player=mention(seat_id)))
            elif status.vacation_until:
                away.append(translate("status.vacation", locale, player=mention(seat_id),
                                      until=timestamp(status.vacation_until, "f")))
        if away:
            lines.append(translate("status.away", locale, seats=", ".join(away)))
        return lines

    @app_commands.command(name="abandon", description="Host or moderator: end this channel's game without a winner")
    async def abandon(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        game = await service.live(interaction.channel_id or 0)
        if interaction.user.id != game.host_id and not is_moderator(interaction):
            raise RuleError("E_NOT_HOST", host=mention(game.host_id))
        await reply(interaction, translate("abandon.confirm", locale_of(interaction)), ephemeral=True,
                    view=confirm_view("abandon", game.id))

    # -- the table

    @app_commands.command(name="vacation", description="Going away? Your deadlines are extended by this many days")
    @app_commands.describe(days=f"How many days you are away (1–{MAX_VACATION_DAYS})")
    async def vacation(self, interaction: discord.Interaction,
                       days: app_commands.Range[int, 1, MAX_VACATION_DAYS]) -> None:
        await acknowledge(interaction)
        await service_of(interaction).vacation(interaction.channel_id or 0, interaction.user.id, days,
                                               interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="back", description="End your absence or vacation and play your own seat again")
    async def back(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        await service_of(interaction).back(interaction.channel_id or 0, interaction.user.id,
                                           interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="resign", description="Leave the game for good (you are asked to confirm)")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.ask_to_resign(interaction)

    @staticmethod
    async def ask_to_resign(interaction: discord.Interaction) -> None:
        """Show a seated player still in the game the resign confirmation."""
        service = service_of(interaction)
        game = await service.live(interaction.channel_id or 0)
        _, state = await service.current(interaction.channel_id or 0)
        if state is None:
            raise RuleError("E_NOT_STARTED")
        if interaction.user.id not in get(game.ruleset).alive(state):
            raise RuleError("E_NOT_PLAYER")
        await reply(interaction, translate("game.resign.confirm", locale_of(interaction)), ephemeral=True,
                    view=confirm_view("resign", game.id))

    @app_commands.command(name="vote", description="Vote to end the game: every remaining player must agree")
    @app_commands.describe(choice="Draw: nobody wins · surrender: the leader wins · withdraw: take your vote back")
    async def vote(self, interaction: discord.Interaction,
                   choice: Literal["draw", "surrender", "withdraw"]) -> None:
        await acknowledge(interaction)
        await service_of(interaction).vote(interaction.channel_id or 0, interaction.user.id, choice,
                                           interaction_id=str(interaction.id))
        await done(interaction)

    # -- the host's controls

    @app_commands.command(name="kick", description="Host or moderator: remove a player from the game")
    @app_commands.describe(player="Who to remove; the rules decide what happens to their pieces")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        await acknowledge(interaction)
        await service_of(interaction).kick(interaction.channel_id or 0, interaction.user.id, is_moderator(interaction),
                                           player.id, interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="replace", description="Host or moderator: a substitute takes over a player's seat")
    @app_commands.describe(old="The player who leaves", new="The substitute who takes over their seat")
    async def replace(self, interaction: discord.Interaction, old: discord.User, new: discord.User) -> None:
        if new.bot:
            raise RuleError("E_RESEAT_AI")
        await acknowledge(interaction)
        await service_of(interaction).replace(interaction.channel_id or 0, interaction.user.id,
                                              is_moderator(interaction), old.id, seat_for(new),
                                              interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="pause", description="Host or moderator: stop the clocks; play waits until resume")
    async def pause(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        await service_of(interaction).pause(interaction.channel_id or 0, interaction.user.id,
                                            is_moderator(interaction), interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="resume", description="Host or moderator: continue a paused game")
    async def resume(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        await service_of(interaction).resume(interaction.channel_id or 0, interaction.user.id,
                                             is_moderator(interaction), interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="deadline", description="Host or moderator: change the turn deadline, or turn it off")
    @app_commands.describe(hours=f"Hours per turn ({MIN_DEADLINE_HOURS:g}–{MAX_DEADLINE_HOURS:g}); leave out for off")
    async def deadline(self, interaction: discord.Interaction,
                       hours: app_commands.Range[float, MIN_DEADLINE_HOURS, MAX_DEADLINE_HOURS] | None = None) -> None:
        await acknowledge(interaction)
        await service_of(interaction).set_deadline(interaction.channel_id or 0, interaction.user.id,
                                                   is_moderator(interaction), hours, interaction_id=str(interaction.id))
        await done(interaction)

    @app_commands.command(name="language", description="Host or moderator: the language of this game's posts "
                          "and board, or of the server's new games")
    @app_commands.describe(language="The language", server="Make it the language of this server's new games (needs "
                           "Manage Server)")
    @app_commands.choices(language=list(LANGUAGE_CHOICES))
    async def language(self, interaction: discord.Interaction, language: str, server: bool = False) -> None:
        service = service_of(interaction)
        if server:
            perms = interaction.permissions
            if not (perms.manage_guild or perms.administrator):
                raise RuleError("E_SERVER_LANGUAGE_PERMISSION")
            await service.set_server_language(interaction.guild_id or 0, language)
            await reply(interaction, translate("language.server_set", locale_of(interaction),
                                               language=msg(f"language.{language}")), ephemeral=True)
            return
        await acknowledge(interaction)
        await service.set_language(interaction.channel_id or 0, interaction.user.id, is_moderator(interaction),
                                   language, interaction_id=str(interaction.id))
        await done(interaction)

    # -- the record

    @app_commands.command(name="export", description="The game record as JSON (replayable once the game is over)")
    async def export(self, interaction: discord.Interaction) -> None:
        record = await service_of(interaction).export(interaction.channel_id or 0)
        data = record.model_dump_json(indent=1).encode()
        key = "export.public" if isinstance(record, PublicRecord) else "export.done"
        await reply(interaction, translate(key, locale_of(interaction)),
                    files=[discord.File(io.BytesIO(data), filename="record.json")])

    @app_commands.command(name="replay", description="The game so far as an animated picture, one frame per turn")
    async def replay(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        if (await service.current(interaction.channel_id or 0))[1] is None:  # errors stay private
            raise RuleError("E_NOT_STARTED")
        await interaction.response.defer(thinking=True)  # it may wait for another replay, and drawing takes a while
        locale = locale_of(interaction)

        async def waiting() -> None:
            await reply(interaction, translate("replay.waiting", locale))

        made = await service.replay_gif(interaction.channel_id or 0, interaction.filesize_limit, on_wait=waiting)
        if made is None:
            await reply(interaction, translate("replay.none", locale))
            return
        lines = [translate("replay.done", locale) if made.shown == made.turns else
                 translate("replay.partial", locale, shown=made.shown, turns=made.turns, step=made.step)]
        if made.shrunk:
            lines.append(translate("replay.smaller", locale, width=made.width))
        await reply(interaction, "\n".join(lines), files=[discord.File(io.BytesIO(made.gif), filename="replay.gif")])




CONFIRM_LABELS = {"abandon": "Abandon the game", "resign": "Resign"}
KEPT = {"abandon": "abandon.kept", "resign": "game.resign.kept"}


class ConfirmButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"game:(?P<what>abandon|resign):(?P<game>\d+):(?P<answer>yes|no)"):
    """Confirm or cancel abandoning, or resigning from, one particular game; works after a restart too."""

    def __init__(self, what: str, game_id: int, answer: str) -> None:
        label, style = ((CONFIRM_LABELS[what], discord.ButtonStyle.danger) if answer == "yes"
                        else ("Keep playing", discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"game:{what}:{game_id}:{answer}"))
        self.what, self.game_id, self.answer = what, game_id, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> ConfirmButton:
        return cls(match["what"], int(match["game"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        if self.answer == "no":
            await interaction.response.edit_message(content=translate(KEPT[self.what], locale), view=None)
            return
        service = service_of(interaction)
        channel_id = interaction.channel_id or 0
        try:
            game = await service.live(channel_id)
            if game.id != self.game_id:
                await reply(interaction, translate("button.stale", locale), ephemeral=True)
                return
            await acknowledge(interaction)
            if self.what == "abandon":
                await service.abandon(channel_id, interaction.user.id, is_moderator(interaction),
                                      interaction_id=str(interaction.id))
            else:
                await service.act(channel_id, interaction.user.id, {"type": "resign"}, str(interaction.id))
        except RuleError as err:
            await refuse(interaction, err)
            return
        await done(interaction)


def confirm_view(what: str, game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(what, game_id, "yes"))
    view.add_item(ConfirmButton(what, game_id, "no"))
    return view


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ConfirmButton)
    await bot.add_cog(Lobby_(bot))
