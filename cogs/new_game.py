"""/new <game>: open a game's lobby with its options, the table's clock and the language it speaks.

A top-level command of its own: every game's options together would pass the 4000 characters Discord allows one
command with its subcommands in any one language."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import acknowledge, check_options, done, seat_for, server_locale_of, service_of
from cogs.options import Parameter, new_game_command
from cogs.translator import LANGUAGE_CHOICES, described
from engine.core.spec import GameSpec
from engine.games import specs
from engine.table import MAX_DEADLINE_HOURS

CLOCK_PARAMETERS = [
    Parameter("timer", "turn_timer_hours", app_commands.Range[float, 0.05, MAX_DEADLINE_HOURS],
              described("lobby.option.timer"), 24.0),
    Parameter("timeout_action", "timeout_action", Literal["ai", "skip"],
              described("lobby.option.timeout_action"), "ai"),
    Parameter("absent_after", "absent_after", app_commands.Range[int, 1, 10],
              described("lobby.option.absent_after"), 2),
]
"""The table's clock, which every game's `/new` sets alike."""
LANGUAGE = Parameter("language", "language", str | None, described("lobby.option.language"), None,
                     LANGUAGE_CHOICES)


@app_commands.guild_only()
class NewGame(commands.GroupCog, group_name="new", group_description=described("lobby.new.group")):
    """One subcommand per registered game, with that game's options (see `cogs.options`)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()
        group = self.__cog_app_commands_group__
        assert group is not None
        for spec in specs():
            command = new_game_command(spec, [*CLOCK_PARAMETERS, LANGUAGE], self.open_game)
            command.add_check(check_options)
            group.add_command(command)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return check_options(interaction)

    async def open_game(self, interaction: discord.Interaction, spec: GameSpec, given: dict[str, Any]) -> None:
        """Open the lobby of a `/new <game>` command with the options the member set."""
        language = given.pop("language", None)
        timer = given["turn_timer_hours"]  # the clock's options always come, with CLOCK_PARAMETERS' defaults
        options = given | {"defender_timeout_minutes": 1.0 if timer <= 1 else 60.0}  # ruling 10
        await acknowledge(interaction)
        await service_of(interaction).new_game(interaction.channel_id or 0, interaction.guild_id,
                                               seat_for(interaction.user), spec.name, options,
                                               interaction_id=str(interaction.id), language=language,
                                               server_language=server_locale_of(interaction))
        await done(interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NewGame(bot))
