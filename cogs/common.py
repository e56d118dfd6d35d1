"""What every cog shares: seats from users, option checks, private replies and errors, acknowledging commands."""

from __future__ import annotations

import contextlib
import logging
import math
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.guard import Guarded
from engine.core.controls import Choice, Control
from engine.core.errors import RuleError
from engine.core.i18n import language_of, mention, translate, words
from engine.core.models import Event, GameState, Seat
from engine.core.names import normalise
from engine.core.ruleset import Ruleset
from engine.games import get, title
from engine.service import GameService
from engine.service.games import unlinked
from engine.service.news import MESSAGE_LIMIT, state_name

if TYPE_CHECKING:
    from bot import GameMasterBot, Settings

log = logging.getLogger("gamemaster.cogs")
S = TypeVar("S", bound=GameState)

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices or select options."""
AUTOCOMPLETE_NAME = 100
BUTTON_LABEL = 80
"""Discord's longest autocomplete choice name, and button or menu option label."""
PRIVATE_DEFER = "deferred privately"
"""Marks an interaction whose "thinking…" only its user sees (`Interaction.extras`): a refusal simply fills it."""
AI_ID_LIMIT = 1000
"""Seat ids below this are AI seats (Discord user ids are far larger)."""


def service_of(interaction: discord.Interaction) -> GameService:
    return service_of_bot(interaction.client)


def service_of_bot(bot: discord.Client) -> GameService:
    gm: GameMasterBot = bot  # type: ignore[assignment]
    return gm.service


def links_of(bot: discord.Client) -> Callable[[str, str], str]:
    """What a reply's text becomes before it is sent: its quoted commands linked (a bot of ours), or itself."""
    return getattr(bot, "links", unlinked)


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
    """The language of the member's own Discord client: what their private replies are written in."""
    return language_of(interaction.locale.value if interaction.locale else None)


def server_locale_of(interaction: discord.Interaction) -> str | None:
    """The server's preferred locale as Discord gives it (Community servers set one): a new game's default."""
    return interaction.guild_locale.value if interaction.guild_locale else None


ALREADY_ANSWERED = 40060
"""Discord's error code for a second answer to one interaction."""


def answered_elsewhere(err: BaseException) -> bool:
    """Whether Discord refused an answer because the interaction has one already: another process sharing the
    store (or an earlier run) received the same delivery and answered it, so this one says nothing."""
    return isinstance(err, discord.HTTPException) and err.code == ALREADY_ANSWERED


async def reply(interaction: discord.Interaction, content: str, *, ephemeral: bool = False,
                view: discord.ui.View | None = None, files: Sequence[discord.File] = (),
                allowed_mentions: discord.AllowedMentions | None = None) -> None:
    """Answer an interaction whether or not it was deferred or answered already; it pings nobody unless
    `allowed_mentions` says whom. An interaction another process answered first is left to that answer."""
    content = links_of(interaction.client)(content, locale_of(interaction))
    kwargs: dict[str, object] = {"ephemeral": ephemeral, "files": list(files),
                                 "allowed_mentions": allowed_mentions or discord.AllowedMentions.none()}
    if view is not None:
        kwargs["view"] = view
    try:
        if interaction.response.is_done():
            await interaction.followup.send(content, **kwargs)  # type: ignore[arg-type]
        else:
            await interaction.response.send_message(content, **kwargs)  # type: ignore[arg-type]
    except discord.HTTPException as err:
        if not answered_elsewhere(err):
            raise
        log.info("interaction %s was answered by another delivery of it", interaction.id)


async def refuse(interaction: discord.Interaction, err: RuleError) -> None:
    """A rule or permission problem: a polite private message; nothing changed.

    The message may quote an option, which Discord lets run to 6000 characters: it is cut to fit one message.
    """
    if err.code == "E_DUPLICATE":  # another delivery of this interaction was applied, and answers it
        await withdraw(interaction)
        return
    text = links_of(interaction.client)("⚠️ " + err.localized(locale_of(interaction)), locale_of(interaction))
    await private(interaction, text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…")


async def withdraw(interaction: discord.Interaction) -> None:
    """Say nothing after all: take away the "thinking…" this process showed, if it did."""
    if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()


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
    """The channel's game state as the user may see it, refused politely unless the channel plays the game of
    `model`."""
    game, state = await service_of(interaction).view(interaction.channel_id or 0, interaction.user.id)
    if not isinstance(state, model):
        if state is None:
            raise RuleError("E_NOT_STARTED")
        raise RuleError("E_OTHER_GAME", game=title(game.ruleset))
    return state


async def stale(interaction: discord.Interaction, state: GameState, seq: int) -> bool:
    """A button offered at another moment of the game does nothing: say so privately (RISK-DIG-52)."""
    if state.seq == seq:
        return False
    await reply(interaction, translate("button.stale", locale_of(interaction)), ephemeral=True)
    return True



def matching(current: str, offered: Iterable[Choice], locale: str) -> list[app_commands.Choice[Any]]:
    """The offered values that match what was typed, as Discord shows them (at most 25, names of at most 100
    characters): any case, the start of the label, of its value or an alias, or of any of their words."""
    key = normalise(current)
    found: list[app_commands.Choice[Any]] = []
    for choice in offered:
        name = words(choice.label, locale)
        spellings = [normalise(x) for x in (name, str(choice.value), *choice.aliases)]
        if not key or any(x.startswith(key) or any(w.startswith(key) for w in x.split()) for x in spellings):
            found.append(app_commands.Choice(name=name[:AUTOCOMPLETE_NAME], value=choice.value))
            if len(found) == MAX_CHOICES:
                break
    return found


async def suggest(interaction: discord.Interaction, game: str, current: str, field: str,
                  **context: Any) -> list[app_commands.Choice[Any]]:
    """Autocomplete of `field` from the rules of `game`: nothing when the channel plays no such game."""
    ruleset = get(game)
    try:
        state = await game_state(interaction, ruleset.state_model)
    except RuleError:
        return []
    return matching(current, ruleset.choices(state, interaction.user.id, field, **context), locale_of(interaction))


Completer = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[Any]]]]


def completer(game: str, field: str, *context: str) -> Completer:
    """The autocomplete of an action field from the rules of `game`; the command's options named in `context`,
    as typed so far, go with it."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Any]]:
        given = {name: getattr(interaction.namespace, name, None) for name in context}
        return await suggest(interaction, game, current, field, **given)
    return complete


def offered(ruleset: Ruleset, state: GameState, recent: Sequence[Event]) -> list[Control]:
    """The controls of every seat that must decide now, in the order the rules list the decisions."""
    deciders = dict.fromkeys(d.player for d in ruleset.pending(state))
    return [control for player in deciders for control in ruleset.controls(state, player, recent)]


STYLES: dict[str, discord.ButtonStyle] = {"primary": discord.ButtonStyle.primary,
                                          "secondary": discord.ButtonStyle.secondary,
                                          "success": discord.ButtonStyle.success,
                                          "danger": discord.ButtonStyle.danger}


@dataclass(frozen=True, slots=True)
class Verb:
    """One kind of button, in a custom id `game:verb:seq[:arg…]`: the fixed part of its action, the fields the id
    carries after the seq in order, and `flag`, a field that is true when the id ends with its name."""

    name: str
    action: dict[str, Any]
    args: tuple[str, ...] = ()
    flag: str | None = None
    any_time: bool = False
    """A confirmation, pressed whenever: never stale."""

    def fits(self, action: dict[str, Any]) -> bool:
        keys = {*self.action, *self.args, *([self.flag] if self.flag else [])}
        return (set(action) == keys and all(action[k] == v for k, v in self.action.items())
                and (self.flag is None or action[self.flag] is True))


class Buttons:
    """A game's button ids: from an action to a custom id and back, so a button works after a restart."""

    def __init__(self, game: str, verbs: Sequence[Verb], numbers: Iterable[str], prefix: str | None = None) -> None:
        self.game, self.verbs, self.numbers = game, tuple(verbs), frozenset(numbers)
        self.prefix = prefix or game
        """What the game's ids start with."""

    def verb(self, action: dict[str, Any]) -> Verb:
        return next(v for v in self.verbs if v.fits(action))

    def custom_id(self, action: dict[str, Any], seq: int) -> str:
        v = self.verb(action)
        args = [str(action[a]) for a in v.args] + ([v.flag] if v.flag else [])
        return ":".join([self.prefix, v.name, str(seq), *args])

    def action(self, name: str, parts: Sequence[str]) -> tuple[Verb, dict[str, Any]]:
        """The action a custom id stands for; RuleError for an id the bot never writes (a forged payload)."""
        for v in self.verbs:
            if v.name != name or len(parts) != len(v.args) + bool(v.flag) or (v.flag and parts[-1] != v.flag):
                continue
            action = dict(v.action)
            for field, text in zip(v.args, parts, strict=False):
                if field in self.numbers and not (text.isascii() and text.isdigit()):
                    break
                action[field] = int(text) if field in self.numbers else text
            else:
                return v, action | ({v.flag: True} if v.flag else {})
        raise RuleError("E_BAD_OPTION_VALUE", option=name)


class ControlButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button for a pending decision; each game's subclass gives its id `template` (verb, seq, args) and its
    `buttons`. Pressed at another moment of the game it does nothing but say so (RISK-DIG-52)."""

    buttons: Buttons

    def __init__(self, custom_id: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(discord.ui.Button(label=label[:BUTTON_LABEL], style=style, custom_id=custom_id))

    @classmethod
    def of(cls, control: Control, seq: int, locale: str = "en") -> ControlButton:
        return cls(cls.buttons.custom_id(control.action, seq), words(control.label, locale), STYLES[control.style])

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> ControlButton:
        return cls(item.custom_id or "", item.label or "", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            match = self.__discord_ui_compiled_template__.fullmatch(self.custom_id)
            assert match is not None
            parts = [p for p in match.groups()[2:] if p is not None]
            verb, action = self.buttons.action(match["verb"], parts)
            state = await game_state(interaction, get(self.buttons.game).state_model)
            if verb.any_time or not await stale(interaction, state, int(match["seq"])):
                await act(interaction, self.buttons.game, action)
        except RuleError as err:
            await refuse(interaction, err)


class ControlMenu(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"(?!)"):
    """A menu for a pending decision, one option a control: its id `game:verb:seq`, each option's value the
    fields its verb carries, joined by `:`. Each game's subclass gives its id `template` and its `buttons`."""

    buttons: Buttons

    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(placeholder=placeholder, options=options, custom_id=custom_id))

    @classmethod
    def of(cls, control: Control, seq: int, locale: str = "en") -> ControlMenu:
        verb = cls.buttons.verb(control.options[0].action)
        options = [discord.SelectOption(label=words(o.label, locale)[:BUTTON_LABEL],
                                        value=":".join(str(o.action[a]) for a in verb.args))
                   for o in control.options[:MAX_CHOICES]]
        return cls(f"{cls.buttons.prefix}:{verb.name}:{seq}", options, words(control.label, locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> ControlMenu:
        return cls(item.custom_id or "", list(item.options))  # discord.py then fills in the values

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            match = self.__discord_ui_compiled_template__.fullmatch(self.custom_id)
            assert match is not None
            state = await game_state(interaction, get(self.buttons.game).state_model)
            if await stale(interaction, state, int(match["seq"])):
                return
            if len(self.item.values) != 1:  # the menu picks one, but a payload may carry anything
                raise RuleError("E_BAD_OPTION_VALUE", option=match["verb"])
            _, action = self.buttons.action(match["verb"], self.item.values[0].split(":"))
            await act(interaction, self.buttons.game, action)
        except RuleError as err:
            await refuse(interaction, err)


def control_view(ruleset: Ruleset, button: type[ControlButton], menu: type[ControlMenu] | None,
                 state: GameState, recent: Sequence[Event], language: str) -> discord.ui.View | None:
    """The buttons (and menus) a post offers for what is pending in `state`: the rules' controls, labelled in
    the game's language."""
    view = discord.ui.View(timeout=None)
    for control in offered(ruleset, state, recent):
        if not control.options:
            view.add_item(button.of(control, state.seq, language))
        elif menu is None:
            raise ValueError(f"{ruleset.name} offers a menu but its cog has none")
        else:
            view.add_item(menu.of(control, state.seq, language))
    return view if view.children else None


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
        if answered_elsewhere(err):  # the other delivery's command runs (or ran) it: this one finds it applied
            log.info("interaction %s was acknowledged by another delivery of it", interaction.id)
        else:
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


@dataclass(frozen=True)
class Glue(Generic[S]):
    """A game's ties to the shared machinery: what its cog's commands, autocomplete and buttons call."""

    ruleset: Ruleset[S, Any]
    state_type: type[S]
    button: type[ControlButton]
    menu: type[ControlMenu] | None = None

    async def state(self, interaction: discord.Interaction) -> S:
        """The channel's game as the user may see it (see `game_state`)."""
        return await game_state(interaction, self.state_type)

    async def play(self, interaction: discord.Interaction, data: dict[str, Any]) -> None:
        await act(interaction, self.ruleset.name, data)

    def field(self, name: str, *context: str) -> Completer:
        """The autocomplete of an action's field (`<action>.<field>`), from the rules."""
        return completer(self.ruleset.name, name, *context)

    def controls(self, state: GameState, events: Sequence[Event], language: str) -> discord.ui.View | None:
        """The buttons a post offers for what is pending in `state`, in the game's language."""
        return control_view(self.ruleset, self.button, self.menu, state, events, language)

    async def install(self, bot: commands.Bot, cog: commands.Cog,
                      *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register the game's persistent buttons and menus, its posts' buttons, and its cog."""
        bot.add_dynamic_items(self.button, *([self.menu] if self.menu else []), *items)
        getattr(bot, "controls", {})[self.ruleset.name] = self.controls
        await bot.add_cog(cog)


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """Any failure becomes a private message; an unexpected one is logged, never shown as a traceback."""
    original = getattr(error, "original", error)
    if isinstance(original, RuleError):
        await refuse(interaction, original)
        return
    if answered_elsewhere(original):
        log.info("interaction %s was answered by another delivery of it", interaction.id)
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
