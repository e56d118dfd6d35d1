"""The /bm commands and the private choices panel: thin glue from Discord to the Battlemist rules (BM-DIG-11).

Almost every Battlemist decision is private or simultaneous (orders, windows with a hand of cards, votes), so a
channel post offers one button, "Your choices", and each player gets his own ephemeral panel of buttons and menus
for his pending decisions (BM-DIG-1, DIG-3, DIG-6). A panel's button names the moment it was offered at and the
action it stands for, so that a click at another moment, or a second click, does nothing but show the panel
anew.
"""

from __future__ import annotations

import contextlib
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    BUTTON_LABEL,
    MAX_CHOICES,
    STYLES,
    ControlButton,
    Glue,
    act,
    check_options,
    game_state,
    links_of,
    locale_of,
    matching,
    private,
    refuse,
    reply,
    service_of,
    words,
)
from cogs.guard import Guarded
from engine.core.controls import Control
from engine.core.errors import RuleError
from engine.core.i18n import translate
from engine.core.models import GameState
from engine.games.battlemist import RULESET, BMState, legal
from engine.games.battlemist import commands as C
from engine.games.battlemist.data import RESOURCES
from engine.games.battlemist.economy import Build, Guild, Merchant, NewHero, Recruit
from engine.games.battlemist.windows import IndividualCast, IndividualPlay
from engine.service.news import MESSAGE_LIMIT

log = logging.getLogger("gamemaster.cogs.battlemist")
ROWS = 5
PER_ROW = 5
"""A Discord message holds at most five rows of components: five buttons to a row, or one menu."""
PAGE_ROWS = ROWS - 1
"""A panel of several pages keeps its last row for the buttons that turn them."""
RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"
"""The rules reference: `battlemist.md` in English, `<language>/battlemist.md` translated."""
UNITS = Literal["infantry", "archers", "cavalry"]


# ---------------------------------------------------------------- the private panel


async def full_state(interaction: discord.Interaction) -> BMState:
    """The channel's Battlemist game as the service holds it, secrets included, after the same checks as
    `game_state`: a panel or a command shows the user only his own part, but is judged on the real position."""
    await game_state(interaction, BMState)
    _, state = await service_of(interaction).current(interaction.channel_id or 0)
    assert isinstance(state, BMState)
    return state


def pages(controls: list[Control]) -> list[list[list[int]]]:
    """The controls' indexes, page by page and row by row: buttons five to a row, then a row for each menu; all
    on one page when they fit, else pages of PAGE_ROWS rows."""
    buttons = [i for i, c in enumerate(controls) if not c.options]
    rows = [buttons[k:k + PER_ROW] for k in range(0, len(buttons), PER_ROW)]
    rows += [[i] for i, c in enumerate(controls) if c.options]
    if len(rows) <= ROWS:
        return [rows]
    return [rows[k:k + PAGE_ROWS] for k in range(0, len(rows), PAGE_ROWS)]


def panel(state: BMState, pid: int, locale: str, note: str | None = None,
          page: int = 0) -> tuple[str, discord.ui.View | None]:
    """What a player sees of his own turn: his pending decisions, drafts and hand, and their buttons and menus
    (a page of them, with buttons to the others when they don't fit in one message)."""
    lines = [note] if note else []
    lines += C.private_lines(state, pid, locale)
    controls = legal.controls(state, pid)
    view = discord.ui.View(timeout=None)
    moment = C.moment(state, pid)
    shown = pages(controls)
    page = min(max(page, 0), len(shown) - 1)
    for row, indexes in enumerate(shown[page]):
        for i in indexes:
            c = controls[i]
            item = PickMenu.of(c, moment, i, locale) if c.options else DoButton.of(c, moment, i, locale)
            item.row = row
            view.add_item(item)
    if len(shown) > 1:
        lines.append(translate("bm.panel.page", locale, page=page + 1, pages=len(shown)))
        for target, key in ((page - 1, "bm.panel.previous"), (page + 1, "bm.panel.next")):
            if 0 <= target < len(shown):
                turn = PageButton.to(target, translate(key, locale))
                turn.row = PAGE_ROWS
                view.add_item(turn)
    if not controls and not C.decisions(state, pid):
        lines.append(translate("bm.panel.nothing", locale))
    return "\n".join(lines), view if view.children else None


async def show_panel(interaction: discord.Interaction, note: str | None = None, page: int = 0) -> None:
    """Answer with the user's panel (a new ephemeral message, or the panel he clicked on, updated)."""
    state = await full_state(interaction)
    locale = locale_of(interaction)
    content, view = panel(state, interaction.user.id, locale, note, page)
    content = links_of(interaction.client)(content, locale)[:MESSAGE_LIMIT]  # commands quoted as the reader's
    kwargs: dict[str, Any] = {"content": content, "view": view}
    if interaction.type is discord.InteractionType.component and interaction.message is not None \
            and interaction.message.flags.ephemeral:
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
        return
    await reply(interaction, content, ephemeral=True, view=view)


async def choose(interaction: discord.Interaction, moment: str, index: int, option: int | None, digest: str) -> None:
    """Play the control a panel offered, if the user's moment is still the one it was offered at and it is still
    the same action; otherwise show the fresh panel and apply nothing."""
    try:
        await interaction.response.defer()  # within Discord's 3 seconds, whatever follows (BM-DIG-9)
        state = await full_state(interaction)
        pid = interaction.user.id
        action = C.offered(state, pid, legal.controls(state, pid), moment, index, option, digest)
        if action is None:
            await show_panel(interaction, translate("bm.panel.moved_on", locale_of(interaction)))
            return
        await service_of(interaction).act(interaction.channel_id or 0, pid, action, str(interaction.id),
                                          game_name=RULESET.name)
        await show_panel(interaction, translate("bm.panel.done", locale_of(interaction)))
    except RuleError as err:
        await refuse(interaction, err)


class DoButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
               template=r"bm:do:(?P<moment>[0-9a-f]{8}):(?P<index>\d{1,3}):(?P<digest>[0-9a-f]{8})"):
    """One action of a player's panel."""

    def __init__(self, custom_id: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(discord.ui.Button(label=label[:BUTTON_LABEL], style=style, custom_id=custom_id))

    @classmethod
    def of(cls, control: Control, moment: str, index: int, locale: str) -> DoButton:
        return cls(f"bm:do:{moment}:{index}:{C.digest(control.action)}", words(control.label, locale),
                   STYLES[control.style])

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> DoButton:
        return cls(item.custom_id or "", item.label or "", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.__discord_ui_compiled_template__.fullmatch(self.item.custom_id or "")
        assert match is not None
        await choose(interaction, match["moment"], int(match["index"]), None, match["digest"])


class PickMenu(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]],
               template=r"bm:pick:(?P<moment>[0-9a-f]{8}):(?P<index>\d{1,3})"):
    """A choice among several actions of a player's panel: each option's value is its number and digest."""

    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(placeholder=placeholder[:150], options=options, custom_id=custom_id))

    @classmethod
    def of(cls, control: Control, moment: str, index: int, locale: str) -> PickMenu:
        options = [discord.SelectOption(label=words(o.label, locale)[:100], value=f"{j}:{C.digest(o.action)}")
                   for j, o in enumerate(control.options[:MAX_CHOICES])]
        return cls(f"bm:pick:{moment}:{index}", options, words(control.label, locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> PickMenu:
        return cls(item.custom_id or "", list(item.options))

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.__discord_ui_compiled_template__.fullmatch(self.item.custom_id or "")
        assert match is not None
        values = self.item.values
        picked = re.fullmatch(r"(\d{1,2}):([0-9a-f]{8})", values[0]) if len(values) == 1 else None
        if picked is None:  # the menu picks one, but a payload may carry anything
            await refuse(interaction, RuleError("E_BAD_OPTION_VALUE", option="menu"))
            return
        await choose(interaction, match["moment"], int(match["index"]), int(picked[1]), picked[2])


class PageButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bm:page:(?P<page>\d{1,2})"):
    """Turns a panel to another page of its choices (it applies nothing)."""

    def __init__(self, custom_id: str, label: str) -> None:
        super().__init__(discord.ui.Button(label=label[:BUTTON_LABEL], style=discord.ButtonStyle.secondary,
                                           custom_id=custom_id))

    @classmethod
    def to(cls, page: int, label: str) -> PageButton:
        return cls(f"bm:page:{page}", label)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> PageButton:
        return cls(item.custom_id or "", item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.__discord_ui_compiled_template__.fullmatch(self.item.custom_id or "")
        assert match is not None
        try:
            await show_panel(interaction, page=int(match["page"]))
        except RuleError as err:
            await refuse(interaction, err)


class ChoicesButton(ControlButton, template=r"bm:(?P<verb>choices)"):
    """The channel post's one button: opens the presser's own panel (any time; it applies nothing)."""

    @classmethod
    def for_post(cls, locale: str = "en") -> ChoicesButton:
        return cls("bm:choices", translate("bm.panel.open", locale), discord.ButtonStyle.primary)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await show_panel(interaction)
        except RuleError as err:
            await refuse(interaction, err)


@dataclass(frozen=True)
class PanelGlue(Glue[BMState]):
    """Battlemist's ties to the shared machinery; a post's buttons are the one that opens each player's panel."""

    def controls(self, state: GameState, events: Any, language: str) -> discord.ui.View | None:
        if not isinstance(state, BMState) or not RULESET.pending(state):
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(ChoicesButton.for_post(language))
        return view


bm = PanelGlue(RULESET, BMState, ChoicesButton)


async def play(interaction: discord.Interaction, build: Any) -> None:
    """Apply the action `build(state, user)` makes of the command (commands.py), against the whole position; what
    a Spy or a Far Sight showed is the private reply (BM-DIG-3)."""
    state = await full_state(interaction)
    action = build(state, interaction.user.id)
    await act(interaction, RULESET.name, C.data(action))
    if isinstance(action, IndividualPlay | IndividualCast):
        after = await full_state(interaction)
        seen = C.spy_reply(after, interaction.user.id, action, locale_of(interaction))
        if seen is not None:
            await private(interaction, seen)
            await mirror(interaction, after, seen)


async def mirror(interaction: discord.Interaction, state: BMState, content: str) -> None:
    """With the table's DM option (BM-DIG-4), send a private view to the user's DMs too: never relied on."""
    if state.options.dm_mirror:
        with contextlib.suppress(discord.HTTPException):
            await interaction.user.send(content, allowed_mentions=discord.AllowedMentions.none())


# ---------------------------------------------------------------- autocomplete that needs more than one field


async def path_completer(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The next hop of a path typed so far (BM-DIG-13): each choice is the whole path with one legal hop added."""
    try:
        state = await game_state(interaction, BMState)
    except RuleError:
        return []
    command = interaction.command.name if interaction.command is not None else ""
    words_typed = current.split()
    done_typing = not current or current.endswith(" ")
    prefix, partial = (words_typed, "") if done_typing else (words_typed[:-1], words_typed[-1])
    space = getattr(interaction, "namespace", None)
    if command == "move":
        field, context = "move.path", {"unit": getattr(space, "unit", None), "origin": getattr(space, "origin", None)}
    else:
        field, context = "hero_move.path", {"hero": getattr(space, "hero", None)}
    hops = RULESET.choices(state, interaction.user.id, field, **context, path=" ".join(prefix))
    found = matching(partial, hops, locale_of(interaction))
    head = " ".join(prefix)
    return [app_commands.Choice(name=f"{head} {c.name}".strip()[:100], value=f"{head} {c.value}".strip())
            for c in found]


def window_completer(spells: bool) -> Any:
    """The cards in the user's hand (or the spells he can pay for) whose window is open for him now."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            state = await full_state(interaction)
        except RuleError:
            return []
        return matching(current, C.playable(state, interaction.user.id, spells), locale_of(interaction))
    return complete


async def duel_completer(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        state = await game_state(interaction, BMState)
    except RuleError:
        return []
    return matching(current, C.duel_choices(state, interaction.user.id), locale_of(interaction))


# ---------------------------------------------------------------- the commands


@app_commands.guild_only()
class BattlemistCog(commands.GroupCog, group_name="bm", group_description="Play Battlemist"):
    """One command per Battlemist action of the spec's §7.3; private views and drafts are shown only to their
    owner."""

    orders = app_commands.Group(name="orders", description="Your secret economy orders")
    quest = app_commands.Group(name="quest", description="Your quest and your heroes")
    battle = app_commands.Group(name="battle", description="Battles: order, casualties, rallies, plunder")
    trade = app_commands.Group(name="trade", description="Resource trades between players")
    upkeep = app_commands.Group(name="upkeep", description="Pay your upkeep: disband or trade")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return check_options(interaction)

    # -- views

    @app_commands.command(name="choices", description="Your pending decisions as buttons")
    async def choices(self, interaction: discord.Interaction) -> None:
        await show_panel(interaction)

    @app_commands.command(name="hand", description="Your cards, quest and Star power")
    async def hand(self, interaction: discord.Interaction) -> None:
        state = await full_state(interaction)
        content = "\n".join(C.hand_lines(state, interaction.user.id, locale_of(interaction)))
        await reply(interaction, content, ephemeral=True)
        await mirror(interaction, state, content)

    @quest.command(name="show", description="Your current quest card (only you see this)")
    async def quest_show(self, interaction: discord.Interaction) -> None:
        state = await full_state(interaction)
        content = C.quest_line(state, interaction.user.id, locale_of(interaction))
        await reply(interaction, content, ephemeral=True)
        await mirror(interaction, state, content)

    @app_commands.command(name="region", description="A region: holder, city and yield")
    @app_commands.describe(region="A region id or name, like N06 or Greywood")
    async def region(self, interaction: discord.Interaction, region: str) -> None:
        state = await game_state(interaction, BMState)
        await reply(interaction, C.region_text(state, region, locale_of(interaction)), ephemeral=True)

    @app_commands.command(name="rules", description="The text of a rule ID, like BM-CMB-3")
    @app_commands.describe(rule="A rule ID of the Battlemist rules reference, like BM-MOV-1")
    async def rules(self, interaction: discord.Interaction, rule: str) -> None:
        await reply(interaction, rule_text(rule, locale_of(interaction)), ephemeral=True)

    @app_commands.command(name="help", description="How to play Battlemist here")
    async def help(self, interaction: discord.Interaction) -> None:
        await reply(interaction, translate("bm.help", locale_of(interaction)), ephemeral=True)

    # -- setup

    @app_commands.command(name="race", description="Race draft: take a race")
    @app_commands.describe(race="A race still open to your seat")
    @app_commands.autocomplete(race=bm.field("pick_race.race"))
    async def race(self, interaction: discord.Interaction, race: str) -> None:
        await bm.play(interaction, {"type": "pick_race", "race": C.race_id(race)})

    @app_commands.command(name="tile", description="Build mode: place one of your tiles")
    @app_commands.describe(tile="One of your tiles", q="Hex column (q)", r="Hex row (r)")
    async def tile(self, interaction: discord.Interaction, tile: str, q: app_commands.Range[int, -20, 20],
                   r: app_commands.Range[int, -20, 20]) -> None:
        await bm.play(interaction, {"type": "place_tile", "tile": tile.strip().upper(), "q": q, "r": r})

    # -- windows and the council

    @app_commands.command(name="play", description="Play an action card")
    @app_commands.describe(card="A card in your hand", region="The region it targets, if any",
                           hero="The hero it is for, if any", unit="The unit type it targets, if any",
                           player="The player it looks at (Spy)")
    @app_commands.autocomplete(card=window_completer(spells=False))
    async def play_card(self, interaction: discord.Interaction, card: str, region: str | None = None,
                        hero: app_commands.Range[int, 1, 3] | None = None, unit: UNITS | None = None,
                        player: discord.User | None = None) -> None:
        target = player.id if player is not None else None
        await play(interaction, lambda s, p: C.play(s, p, card, region=region, hero=hero, unit=unit, target=target))

    @app_commands.command(name="cast", description="Cast a spell with your Star power")
    @app_commands.describe(spell="A spell (SP01–SP12 or its id)", region="The region it targets, if any",
                           hero="The hero it is for, if any", unit="The unit type it targets, if any",
                           player="The player it looks at (Far Sight)")
    @app_commands.autocomplete(spell=window_completer(spells=True))
    async def cast(self, interaction: discord.Interaction, spell: str, region: str | None = None,
                   hero: app_commands.Range[int, 1, 3] | None = None, unit: UNITS | None = None,
                   player: discord.User | None = None) -> None:
        target = player.id if player is not None else None
        await play(interaction, lambda s, p: C.play(s, p, spell, region=region, hero=hero, unit=unit, target=target))

    @app_commands.command(name="discard", description="Discard an action card")
    @app_commands.describe(card="A card in your hand")
    @app_commands.autocomplete(card=bm.field("discard.card"))
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await bm.play(interaction, {"type": "discard", "card": card.strip().upper()})

    @app_commands.command(name="pass", description="Let the window you are in go by")
    async def pass_window(self, interaction: discord.Interaction) -> None:
        await play(interaction, C.pass_)

    @app_commands.command(name="vote", description="Council: commit your votes or abstain")
    async def vote(self, interaction: discord.Interaction, choice: Literal["commit", "abstain"]) -> None:
        await bm.play(interaction, {"type": "vote", "commit": choice == "commit"})

    @app_commands.command(name="lock", description="Make your secret plays, orders or upkeep plan final")
    async def lock(self, interaction: discord.Interaction) -> None:
        await play(interaction, C.lock)

    @app_commands.command(name="initiative", description="Change your initiative roll by your large cities")
    async def initiative(self, interaction: discord.Interaction, change: Literal["add", "sub", "keep"]) -> None:
        await play(interaction, lambda s, p: C.initiative(s, p, change))

    # -- the economy

    @orders.command(name="recruit", description="Order army units recruited")
    @app_commands.describe(unit="The unit type", n="How many", region="Your homeland or a city region")
    @app_commands.autocomplete(region=bm.field("econ_orders.recruit", "unit", "n"))
    async def recruit(self, interaction: discord.Interaction, unit: UNITS, n: app_commands.Range[int, 1, 10],
                      region: str) -> None:
        await play(interaction, lambda s, p: C.order_line(s, p, Recruit(unit=unit, region=C.region_id(region),
                                                                            n=n)))

    @orders.command(name="build", description="Order a city or a large city built")
    @app_commands.describe(region="A region you control", city="A city, or a large city on a city")
    @app_commands.autocomplete(region=bm.field("econ_orders.build", "city"))
    async def build(self, interaction: discord.Interaction, region: str,
                    city: Literal["city", "large_city"] = "city") -> None:
        await play(interaction, lambda s, p: C.order_line(s, p, Build(region=C.region_id(region), city=city)))

    @orders.command(name="hero", description="Order a new hero in your homeland")
    async def hero(self, interaction: discord.Interaction) -> None:
        await play(interaction, lambda s, p: C.order_line(s, p, NewHero()))

    @orders.command(name="guild", description="Order a Star from the Grey Guild")
    async def guild(self, interaction: discord.Interaction) -> None:
        await play(interaction, lambda s, p: C.order_line(s, p, Guild()))

    @orders.command(name="merchant", description="Order a trade with the merchants")
    @app_commands.describe(give="The resource you give", amount="How much of it", get="The resource you get")
    @app_commands.choices(give=[app_commands.Choice(name=r, value=r) for r in RESOURCES],
                          get=[app_commands.Choice(name=r, value=r) for r in RESOURCES])
    async def merchant(self, interaction: discord.Interaction, give: str, amount: app_commands.Range[int, 1, 99],
                       get: str) -> None:
        await play(interaction, lambda s, p: C.order_line(s, p, Merchant(give=C.resource(give), amount=amount,
                                                                             get=C.resource(get))))

    @orders.command(name="remove", description="Take a line out of your orders")
    @app_commands.describe(line="The line's number, as /bm choices lists them")
    async def remove(self, interaction: discord.Interaction,
                     line: app_commands.Range[int, 1, 99] | None = None) -> None:
        await play(interaction, lambda s, p: C.drop_line(s, p, line))

    @trade.command(name="offer", description="Offer another player a trade of resources")
    @app_commands.describe(player="Whom you offer it", give="What you give, like 2 grain 1 wood",
                           get="What you ask for, like 3 iron")
    async def trade_offer(self, interaction: discord.Interaction, player: discord.User, give: str, get: str) -> None:
        await play(interaction, lambda s, p: C.trade_offer(s, p, player.id, give, get))

    @trade.command(name="accept", description="Accept a trade offered to you")
    @app_commands.describe(offer="The offer's number")
    @app_commands.autocomplete(offer=bm.field("trade_answer.offer"))
    async def trade_accept(self, interaction: discord.Interaction, offer: app_commands.Range[int, 0, 10_000]) -> None:
        await bm.play(interaction, {"type": "trade_answer", "offer": offer, "accept": True})

    @trade.command(name="decline", description="Decline a trade offered to you")
    @app_commands.describe(offer="The offer's number")
    @app_commands.autocomplete(offer=bm.field("trade_answer.offer"))
    async def trade_decline(self, interaction: discord.Interaction, offer: app_commands.Range[int, 0, 10_000]) -> None:
        await bm.play(interaction, {"type": "trade_answer", "offer": offer, "accept": False})

    @upkeep.command(name="disband", description="Upkeep plan: disband units or reduce a city")
    @app_commands.describe(region="Where", what="A unit type, or city", n="How many (steps, for a city)")
    async def disband(self, interaction: discord.Interaction, region: str,
                      what: Literal["infantry", "archers", "cavalry", "city"],
                      n: app_commands.Range[int, 1, 10] = 1) -> None:
        await play(interaction, lambda s, p: C.disband(s, p, region, what, n))

    @upkeep.command(name="trade", description="Upkeep plan: a trade with the merchants")
    @app_commands.describe(give="The resource you give", amount="How much of it", get="The resource you get")
    @app_commands.choices(give=[app_commands.Choice(name=r, value=r) for r in RESOURCES],
                          get=[app_commands.Choice(name=r, value=r) for r in RESOURCES])
    async def upkeep_trade(self, interaction: discord.Interaction, give: str, amount: app_commands.Range[int, 1, 99],
                           get: str) -> None:
        await play(interaction, lambda s, p: C.upkeep_trade(s, p, give, amount, get))

    @upkeep.command(name="confirm", description="Pay your upkeep with the plan as it stands")
    async def upkeep_confirm(self, interaction: discord.Interaction) -> None:
        await play(interaction, C.lock)

    # -- the quest step

    @quest.command(name="new", description="Draw a new quest (a hero in your homeland)")
    async def quest_new(self, interaction: discord.Interaction) -> None:
        await bm.play(interaction, {"type": "quest_new"})

    @quest.command(name="move", description="Move one of your heroes along a path")
    @app_commands.describe(hero="The hero's number", path="Regions hop by hop, like N20 N11")
    @app_commands.autocomplete(path=path_completer)
    async def heromove(self, interaction: discord.Interaction, hero: app_commands.Range[int, 1, 3], path: str) -> None:
        await play(interaction, lambda s, p: C.hero_move(s, p, hero, path))

    @quest.command(name="duel", description="Declare a duel with another player's hero")
    @app_commands.describe(duel="Your hero and the hero he challenges")
    @app_commands.autocomplete(duel=duel_completer)
    async def duel(self, interaction: discord.Interaction, duel: str) -> None:
        await play(interaction, lambda s, p: C.duel(s, p, duel))

    @quest.command(name="target", description="Encounter: the monster your hero strikes")
    @app_commands.describe(monster="The monster's number in the encounter")
    async def target(self, interaction: discord.Interaction, monster: app_commands.Range[int, 1, 20]) -> None:
        await play(interaction, lambda s, p: C.quest_target(s, p, monster))

    @quest.command(name="done", description="End your heroes' movement, or your duels")
    async def quest_done(self, interaction: discord.Interaction) -> None:
        await play(interaction, C.quest_done)

    # -- movement

    @app_commands.command(name="move", description="Move units along a path")
    @app_commands.describe(n="How many units", unit="The unit type", origin="Where they start",
                           path="Region ids or names, hop by hop")
    @app_commands.autocomplete(origin=bm.field("move.origin"), unit=bm.field("move.unit", "origin"),
                               path=path_completer)
    async def move(self, interaction: discord.Interaction, n: app_commands.Range[int, 1, 100], unit: str,
                   origin: str, path: str) -> None:
        await play(interaction, lambda s, p: C.move(s, p, n, unit, origin, path))

    @app_commands.command(name="undo", description="Take back your last move of this step")
    async def undo(self, interaction: discord.Interaction) -> None:
        await bm.play(interaction, {"type": "undo"})

    @app_commands.command(name="endmove", description="End your movement step")
    async def endmove(self, interaction: discord.Interaction) -> None:
        await bm.play(interaction, {"type": "end_move", "stand_in": False})

    # -- battles

    @battle.command(name="choose", description="Pick the next of your battles to fight")
    @app_commands.describe(region="A region with a battle of yours")
    @app_commands.autocomplete(region=bm.field("battle.region"))
    async def battle_choose(self, interaction: discord.Interaction, region: str) -> None:
        await play(interaction, lambda s, p: C.battle(s, p, region))

    @battle.command(name="casualties", description="Assign the hits your units took")
    @app_commands.describe(kills="Killed, like 2 inf 1 arch", routs="Routed, like 1 cav")
    async def casualties(self, interaction: discord.Interaction, kills: str = "", routs: str = "") -> None:
        await play(interaction, lambda s, p: C.casualties(s, p, kills, routs))

    @battle.command(name="rally", description="Pick the routed units that rally")
    @app_commands.describe(units="Like 2 inf 1 arch")
    async def rally(self, interaction: discord.Interaction, units: str) -> None:
        await play(interaction, lambda s, p: C.rally(s, p, units))

    @battle.command(name="reroll", description="Your hero's re-roll of one die")
    @app_commands.describe(die="The die's number (leave out to keep the dice)")
    async def reroll(self, interaction: discord.Interaction, die: app_commands.Range[int, 1, 30] | None = None) -> None:
        await bm.play(interaction, {"type": "reroll", "die": die - 1 if die is not None else None})

    @battle.command(name="plunder", description="Plunder the city you took, or keep it")
    async def plunder(self, interaction: discord.Interaction, choice: Literal["yes", "no"]) -> None:
        await bm.play(interaction, {"type": "plunder", "yes": choice == "yes"})

    @battle.command(name="standing", description="Which unit types take hits first")
    @app_commands.describe(order="Unit types, first hit first, like inf arch cav")
    async def standing(self, interaction: discord.Interaction, order: str) -> None:
        await play(interaction, lambda s, p: C.casualty_order(s, p, order))


def rule_text(rule: str, locale: str) -> str:
    """The paragraph of the rules reference that defines `rule` (BM-DIG-11 `/bm rules`), in the reader's language
    where the reference is translated, else in English."""
    wanted = rule.strip().upper()
    if not re.fullmatch(r"BM-[A-Z]+-\d+", wanted):
        return "⚠️ " + translate("bm.rules.bad", locale, rule=rule[:40])
    for reference in (RULES / locale / "battlemist.md", RULES / "battlemist.md"):
        if not reference.is_file():
            continue
        found = reference.read_text(encoding="utf-8").split("\n\n")
        items = [item for p in found for item in re.split(r"\n(?=- )", p)]  # a list's items one by one
        defining = [item for item in items if f"**{wanted}**" in item]  # the rule's own, not one that cites it
        citing = [p for p in found if re.search(rf"(?<![\w-]){re.escape(wanted)}(?![\w-])", p)]
        if defining or citing:
            return (defining or citing)[0].strip()[:1900]
    return "⚠️ " + translate("bm.rules.none", locale, rule=wanted)


async def setup(bot: commands.Bot) -> None:
    await bm.install(bot, BattlemistCog(bot), DoButton, PickMenu, PageButton)

