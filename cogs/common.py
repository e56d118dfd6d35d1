"""What every cog shares: seats from users, error replies, narration of outcomes, turn pings."""

from __future__ import annotations

import io
import logging
import math
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands

from engine.core.errors import RuleError
from engine.core.i18n import mention, translate
from engine.core.models import Decision, Event, GameState, Seat
from engine.core.ruleset import Ruleset
from engine.games import get
from engine.service import TURN_EVENT, GameService, Outcome

if TYPE_CHECKING:
    from bot import GameMasterBot

log = logging.getLogger("gamemaster.cogs")
S = TypeVar("S", bound=GameState)

MESSAGE_LIMIT = 2000
MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices or select options."""
AI_ID_LIMIT = 1000
"""Seat ids below this are AI seats (Discord user ids are far larger)."""


def service_of(interaction: discord.Interaction) -> GameService:
    return service_of_bot(interaction.client)


def service_of_bot(bot: discord.Client) -> GameService:
    gm: GameMasterBot = bot  # type: ignore[assignment]
    return gm.service


def seat_for(user: discord.abc.User, colour: str | None = None) -> Seat:
    return Seat(id=user.id, name=(user.display_name or user.name)[:100], colour=colour)


def who(pid: int, state: GameState | None) -> str:
    """A mention for a human seat, the name for an AI seat."""
    return mention(pid) if pid >= AI_ID_LIMIT else state_name(pid, state)


def state_name(pid: int, state: GameState | None) -> str:
    """A seat's name as the game knows it, shown as typed."""
    name = getattr(state, "name", None)
    return name(pid) if callable(name) else f"AI {pid}"


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
    if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
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


def chunks(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Join lines into messages under Discord's length limit."""
    messages: list[str] = []
    current = ""
    for line in lines:
        line = line if len(line) < limit else line[: limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            messages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        messages.append(current)
    return messages


def narrate(outcome: Outcome, events: Sequence[Event] | None = None) -> list[str]:
    """Public lines for the outcome's events; consecutive battles on one front share a line."""
    ruleset, state = outcome.ruleset, outcome.state
    if state is None:
        return []
    lines: list[str] = []
    front: tuple[str, str] | None = None
    for event in outcome.events if events is None else events:
        text = ruleset.narrate(event, state)
        if text is None:
            continue
        source, target = getattr(event, "source", None), getattr(event, "target", None)
        if event.type == "battle" and front == (source, target) and lines:
            rolls = text.split(": ", 1)[-1]
            lines[-1] = lines[-1] + " · " + rolls
            continue
        front = (source, target) if event.type == "battle" else None
        lines.append(text)
    return lines


def timestamp(when: float, style: str = "R") -> str:
    """A Discord timestamp: each reader sees it in their own time zone, and it never goes stale."""
    return f"<t:{int(when)}:{style}>"


def ping(ruleset: Ruleset, state: GameState, decision: Decision, locale: str = "en",
         due: float | None = None, mention: bool = True) -> str:
    """The line that tells a seat what to decide next, with its deadline when it has one; without `mention`,
    the seat is named instead of mentioned."""
    what = ruleset.prompt(decision, state, locale)
    player = who(decision.player, state) if mention else state_name(decision.player, state)
    if due is not None:
        return translate("decision.deadline", locale, player=player, what=what, due=timestamp(due))
    return translate("decision.ping", locale, player=player, what=what)


ROUND_EVENT = "round_started"
"""Opens a game's automated round phases; they and their dice make one message, up to the next turn."""
KEPT = frozenset({"eliminated", "player_left", "game_won", "game_over"})
"""Events told in full even within the turns AI seats play."""
SHORT = 2
"""An AI seat's turn that narrates in at most this many lines is told in full; a longer one in one summary line."""


def humans_in(outcome: Outcome) -> list[int]:
    """The human seats still playing after the outcome."""
    state = outcome.state
    return [p for p in outcome.ruleset.alive(state) if p >= AI_ID_LIMIT] if state is not None else []


class Story:
    """The outcome's public lines as message blocks, built step by step: the humans' own moves in full, each
    turn an AI seat or a stand-in played in one line, and a round's automated phases in a message of their own."""

    def __init__(self, outcome: Outcome, locale: str) -> None:
        self.outcome, self.locale = outcome, locale
        self.blocks: list[list[str]] = [[]]
        self.told: list[Event] = []
        """Events of the humans' own moves (and of automated phases), narrated together so that battles on one
        front share a line."""
        self.ai: list[Event] = []
        self.ai_player = 0
        self.in_round = False
        self.turn: Event | None = None
        """A turn's opening event, held until the turn's first move says who plays it: a human or an AI."""

    def add(self, step_actor: int, ai: bool, event: Event) -> None:
        if event.type == ROUND_EVENT or (event.type == TURN_EVENT and self.in_round):
            self.flush()
            self.blocks.append([])
            self.in_round = event.type == ROUND_EVENT
        elif event.type == TURN_EVENT:
            self.flush()
        if event.type == TURN_EVENT:
            self.turn = event
            return
        if ai and not self.in_round:
            player = getattr(self.turn, "player", step_actor)
            if self.ai_player != player:
                self.flush(keep_turn=True)
            self.ai += [self.turn, event] if self.turn is not None else [event]
            self.ai_player, self.turn = player, None
        else:
            self.flush_ai()
            self.told += [self.turn, event] if self.turn is not None else [event]
            self.turn = None

    def flush(self, keep_turn: bool = False) -> None:
        """Narrate what is buffered; `keep_turn` holds a turn's opening for the moves that follow it."""
        self.flush_ai()
        if self.turn is not None and not keep_turn:
            self.told.append(self.turn)
            self.turn = None
        self.blocks[-1].extend(narrate(self.outcome, self.told))
        self.told = []

    def flush_ai(self) -> None:
        if not self.ai:
            return
        self.blocks[-1].extend(narrate(self.outcome, self.told))
        self.told = []
        lines = narrate(self.outcome, self.ai)
        if len(lines) > SHORT and self.outcome.state is not None:
            lines = [self.outcome.ruleset.summary(self.ai_player, self.ai, self.outcome.state, self.locale),
                     *narrate(self.outcome, [e for e in self.ai if e.type in KEPT])]
        self.blocks[-1].extend(lines)
        self.ai = []


def story(outcome: Outcome, locale: str = "en") -> list[list[str]]:
    """The outcome's public lines, in message blocks (see Story). When no human is left to play, everything the
    AI seats played after the last human's move is one summary, with the eliminations and the result."""
    steps = outcome.steps
    last_human = max((k for k, step in enumerate(steps) if not step.ai), default=-1)
    rest = steps[last_human + 1:]
    turns = sum(e.type == TURN_EVENT for step in rest for e in step.events)
    alone = not humans_in(outcome) and turns > 1
    built = Story(outcome, locale)
    for step in steps[:last_human + 1] if alone else steps:
        for event in step.events:
            built.add(step.actor, step.ai, event)
    built.flush()
    blocks = [block for block in built.blocks if block]
    if alone:
        kept = [e for step in rest for e in step.events if e.type in KEPT]
        blocks.append([translate("summary.rest", locale, turns=turns), *narrate(outcome, kept)])
    return blocks


def to_ping(outcome: Outcome, actor: int | None = None) -> set[int]:
    """The seats a post about the outcome pings: humans whose decision is new, never the one who just acted."""
    if outcome.state is None or outcome.winners is not None:
        return set()
    return {d.player for d in outcome.pending
            if d.player >= AI_ID_LIMIT and d.player != actor and d.player not in (outcome.waiting_before or ())}


def outcome_messages(outcome: Outcome, lead: str | None = None, locale: str = "en",
                     actor: int | None = None) -> list[str]:
    """What happened, then who must decide next (a mention only for those `to_ping`); every message within
    Discord's length limit."""
    blocks = story(outcome, locale) or [[]]
    blocks[0][:0] = [lead] if lead else []
    if outcome.new_host is not None:
        blocks[-1].append(translate("table.new_host", locale, player=who(outcome.new_host, outcome.state)))
    if outcome.state is not None and outcome.winners is None:
        pinged = to_ping(outcome, actor)
        seen: set[int] = set()
        for decision in outcome.pending:
            if decision.player not in seen:
                seen.add(decision.player)
                blocks[-1].append(ping(outcome.ruleset, outcome.state, decision, locale,
                                       outcome.deadlines.get(decision.player), decision.player in pinged))
    return [message for block in blocks for message in chunks(block)]


def mentions(users: set[int]) -> discord.AllowedMentions:
    """Let a post ping exactly these users, and nobody else (no @everyone, no roles)."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in sorted(users)])


BOARD_EVENTS = frozenset({TURN_EVENT, "conquered", "game_won", "game_over", "setup_finished"})
"""After these the board is posted again (RISK-DIG-39: after every turn and every conquest)."""


async def board_post(service: GameService, outcome: Outcome, always: bool = False,
                     locale: str = "en") -> tuple[list[discord.File], list[str]]:
    """The board when the outcome changed it enough to show it: the picture as an attachment, or, for a game
    without a picture, the text board as messages."""
    if outcome.state is None or not (always or any(e.type in BOARD_EVENTS for e in outcome.events)):
        return [], []
    png = await service.board(outcome.game, outcome.state)
    if png:
        return [discord.File(io.BytesIO(png), filename="board.png")], []
    return [], chunks(outcome.ruleset.text_board(outcome.state, locale).splitlines())


async def announce(channel: discord.abc.Messageable, outcome: Outcome, service: GameService,
                   lead: str | None = None, always_board: bool = False, actor: int | None = None,
                   also_ping: Iterable[int] = ()) -> None:
    """Post what happened, then ping whoever must decide next (RISK-ERR-3: successes are public); `actor` is
    who caused it (never pinged about it), `also_ping` whom the lead addresses."""
    files, text = await board_post(service, outcome, always_board)
    messages = outcome_messages(outcome, lead, actor=actor) + text
    allowed = mentions(to_ping(outcome, actor) | set(also_ping))
    try:
        for index, message in enumerate(messages):
            last = index == len(messages) - 1
            await channel.send(message, files=files if last else [], allowed_mentions=allowed)
    except discord.HTTPException as err:  # the game is saved already; /board and /history show it
        log.warning("could not post to channel %s (game %s): %s", getattr(channel, "id", "?"), outcome.game.id, err)


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


async def respond(interaction: discord.Interaction, outcome: Outcome, lead: str | None = None,
                  view: discord.ui.View | None = None) -> None:
    """Answer a command publicly with what happened and who decides next (one or more messages)."""
    locale = locale_of(interaction)
    files, text = await board_post(service_of(interaction), outcome, locale=locale)
    actor = interaction.user.id
    messages = (outcome_messages(outcome, lead, locale, actor) or [translate("done", locale)]) + text
    allowed = mentions(to_ping(outcome, actor))
    for index, message in enumerate(messages):
        last = index == len(messages) - 1
        await reply(interaction, message, view=view if last else None, files=files if last else (),
                    allowed_mentions=allowed)
