"""What every cog shares: seats from users, option checks, private replies and errors, acknowledging commands."""

from __future__ import annotations

import contextlib
import logging
import math
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands

from engine.core.errors import RuleError
from engine.core.i18n import mention, translate
from engine.core.models import GameState, Seat
from engine.games import get
from engine.service import GameService
from engine.service.news import MESSAGE_LIMIT, state_name

if TYPE_CHECKING:
    from bot import GameMasterBot, Settings

log = logging.getLogger("gamemaster.cogs")
S = TypeVar("S", bound=GameState)

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices or select options."""
PRIVATE_DEFER = "deferred privately"
"""Marks an interaction whose "thinking…" only its user sees (`Interaction.extras`): a refusal simply fills it."""
AI_ID_LIMIT = 1000
"""Seat ids below this are AI seats (Discord user ids are far larger)."""


def service_of(interaction: discord.Interaction) -> GameService:
    return service_of_bot(interaction.client)


def service_of_bot(bot: discord.Client) -> GameService:
    gm: GameMasterBot = bot  # type: ignore[assignment]
    return gm.service


def settings_of_bot(bot: discord.Client) -> Settings:
    gm: GameMasterBot = bot  # type: ignore[assignment]
    return gm.settings


def seat_for(user: discord.abc.User, colour: str | None = None) -> Seat:
    return Seat(id=user.id, name=(user.display_name or user.name)[:100], colour=colour)


def who(pid: int, state: GameState | None) -> str:
    """A mention for a human seat, the name for an AI seat."""
    return mention(pid) if pid >= AI_ID_LIMIT else state_name(pid, state)


def is_moderator(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_channels or perms.administrator))


OPTION_TYPES: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
    discord.AppCommandOptionType.user: (discord.User, discord.Member),
}
"""The Python values discord.py hands over for each option type the bot declares."""


class BadOption(app_commands.AppCommandError):
    """An option value the command does not declare; answered like a rule error (see on_app_command_error)."""

    def __init__(self, option: str) -> None:
        super().__init__(option)
        self.original = RuleError("E_BAD_OPTION_VALUE", option=option)


def check_options(interaction: discord.Interaction) -> bool:
    """Refuse option values of another type than the command declares (a cog's interaction_check).

    Discord's client enforces the types, but discord.py passes any payload through unchecked, e.g. one sent
    against an older version of a command. Ranges and choices are the service's and the rules' to check.
    """
    command = interaction.command
    if interaction.type is not discord.InteractionType.application_command or not isinstance(
            command, app_commands.Command):
        return True
    given = vars(interaction.namespace)
    for param in command.parameters:
        value = given.get(param.display_name)
        if value is None and not param.required:
            continue
        kinds = OPTION_TYPES.get(param.type, (object,))
        if (not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)
                or (isinstance(value, float) and not math.isfinite(value))):
            raise BadOption(param.display_name)
    return True


def locale_of(interaction: discord.Interaction) -> str:
    return str(interaction.locale.value).split("-")[0] if interaction.locale else "en"


async def reply(interaction: discord.Interaction, content: str, *, ephemeral: bool = False,
                view: discord.ui.View | None = None, files: Sequence[discord.File] = (),
                allowed_mentions: discord.AllowedMentions | None = None) -> None:
    """Answer an interaction whether or not it was deferred or answered already; it pings nobody unless
    `allowed_mentions` says whom."""
    kwargs: dict[str, object] = {"ephemeral": ephemeral, "files": list(files),
                                 "allowed_mentions": allowed_mentions or discord.AllowedMentions.none()}
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(content, **kwargs)  # type: ignore[arg-type]
    else:
        await interaction.response.send_message(content, **kwargs)  # type: ignore[arg-type]


async def refuse(interaction: discord.Interaction, err: RuleError) -> None:
    """A rule or permission problem: a polite private message; nothing changed.

    The message may quote an option, which Discord lets run to 6000 characters: it is cut to fit one message.
    """
    text = "⚠️ " + err.localized(locale_of(interaction))
    await private(interaction, text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…")


async def private(interaction: discord.Interaction, content: str) -> None:
    """Reply only to the user, even after a public "thinking…" defer (whose placeholder is removed)."""
    if interaction.response.type == discord.InteractionResponseType.deferred_channel_message and \
            not interaction.extras.get(PRIVATE_DEFER):
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.warning("could not remove the thinking message")
    await reply(interaction, content, ephemeral=True)


async def game_state(interaction: discord.Interaction, model: type[S]) -> S:
    """The channel's game state, refused politely unless the channel plays the game of `model`."""
    game, state = await service_of(interaction).current(interaction.channel_id or 0)
    if not isinstance(state, model):
        if state is None:
            raise RuleError("E_NOT_STARTED")
        raise RuleError("E_OTHER_GAME", game=get(game.ruleset).title)
    return state


async def stale(interaction: discord.Interaction, state: GameState, seq: int) -> bool:
    """A button offered at another moment of the game does nothing: say so privately (RISK-DIG-52)."""
    if state.seq == seq:
        return False
    await reply(interaction, translate("button.stale", locale_of(interaction)), ephemeral=True)
    return True


def normalise(text: str) -> str:
    return re.sub(r"[\s_\-.,:'’]+", " ", text.strip().lower()).strip()


def choices(current: str, items: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """Autocomplete choices (name, value) matching what was typed: any case, the start of the name or of a word."""
    key = normalise(current)
    found = []
    for name, value in items:
        spelled = normalise(name)
        if not key or spelled.startswith(key) or any(w.startswith(key) for w in spelled.split()):
            found.append(app_commands.Choice(name=name[:100], value=value))
    return found[:MAX_CHOICES]


def mentions(users: set[int]) -> discord.AllowedMentions:
    """Let a post ping exactly these users, and nobody else (no @everyone, no roles)."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in sorted(users)])


async def acknowledge(interaction: discord.Interaction) -> None:
    """Answer a command that changes the game within Discord's 3 seconds, privately ("thinking…"): its result is
    the game's post in the channel, delivered from the outbox, so it shows there and only there. A failed
    acknowledgement changes nothing of that."""
    if interaction.response.is_done():
        return
    try:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
            interaction.extras[PRIVATE_DEFER] = True
    except discord.HTTPException as err:
        log.warning("could not acknowledge interaction %s: %s", interaction.id, err)


async def done(interaction: discord.Interaction) -> None:
    """The command's result is queued for the channel: take the private "thinking…" away. A button on a private
    confirmation becomes "Done."; one on a public post keeps it (it is stale now)."""
    with contextlib.suppress(discord.HTTPException):
        if interaction.type is not discord.InteractionType.component:
            await interaction.delete_original_response()
        elif interaction.message is not None and interaction.message.flags.ephemeral:
            await interaction.edit_original_response(content=translate("done", locale_of(interaction)), view=None)


async def act(interaction: discord.Interaction, game: str, data: dict[str, object]) -> None:
    """Apply one action of `game` for the user: acknowledged at once, its result the game's post in the channel
    (with the buttons of whatever is pending next)."""
    await acknowledge(interaction)
    await service_of(interaction).act(interaction.channel_id or 0, interaction.user.id, dict(data),
                                      str(interaction.id), game_name=game)
    await done(interaction)


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """Any failure becomes a private message; an unexpected one is logged, never shown as a traceback."""
    original = getattr(error, "original", error)
    if isinstance(original, RuleError):
        await refuse(interaction, original)
        return
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.info("a stale command list sent %s", getattr(error, "name", error))  # the client's list is old
        message = translate("error.stale_command", locale_of(interaction))
    elif isinstance(error, app_commands.CheckFailure):
        message = translate("error.not_allowed", locale_of(interaction))
    else:
        log.exception("command failed", exc_info=original)
        message = translate("error.unexpected", locale_of(interaction))
    try:
        await private(interaction, "⚠️ " + message)
    except discord.HTTPException:
        log.warning("could not tell the user about the failure")
