"""The /wq commands and buttons: thin glue from Discord to the Wizard's Quest rules (WQ-DIG-3)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    MAX_CHOICES,
    act,
    check_options,
    choices,
    game_state,
    locale_of,
    refuse,
    reply,
    stale,
)
from cogs.guard import Guarded
from engine.core.errors import RuleError
from engine.core.i18n import msg, translate
from engine.core.models import Event, GameState
from engine.games.wizards_quest import RULESET, WQState
from engine.games.wizards_quest.legal import Field
from engine.games.wizards_quest.names import label, matches, parse_placements
from engine.games.wizards_quest.state import Phase

DATA = RULESET.data
Choices = list[app_commands.Choice[str]]
SAFE_ROLL = 3
"""The "roll until done" button that keeps a reserve stops once the attacking force drops below this many."""


async def wq_state(interaction: discord.Interaction) -> WQState:
    return await game_state(interaction, WQState)


async def play(interaction: discord.Interaction, data: dict[str, Any]) -> None:
    await act(interaction, "wizards_quest", data)


def controls(state: GameState, _events: Sequence[Event]) -> discord.ui.View | None:
    """The buttons a post offers for what is pending in `state`."""
    assert isinstance(state, WQState)
    return next_step_view(state, "en")


# ---------------------------------------------------------------- autocomplete of legal names


def _located(interaction: discord.Interaction, option: str) -> str | None:
    """The location already typed in another option, if it names exactly one."""
    text = getattr(interaction.namespace, option, None)
    if not text:
        return None
    found = matches(str(text), DATA)
    return found[0] if len(found) == 1 else None


async def _legal(interaction: discord.Interaction, current: str, field: Field, **context: Any) -> Choices:
    try:
        s = await wq_state(interaction)
    except RuleError:
        return []
    ids = RULESET.legal_targets(s, interaction.user.id, field, **context)
    return choices(current, [(label(x, DATA), x) for x in ids])


async def castles(interaction: discord.Interaction, current: str) -> Choices:
    return await _legal(interaction, current, "castle")


async def empty_territories(interaction: discord.Interaction, current: str) -> Choices:
    return await _legal(interaction, current, "claim")


async def own_locations(interaction: discord.Interaction, current: str) -> Choices:
    return await _legal(interaction, current, "place")


async def leader_spots(interaction: discord.Interaction, current: str) -> Choices:
    return await _legal(interaction, current, "buy")


async def hiding_places(interaction: discord.Interaction, current: str) -> Choices:
    owner = _treasure(str(getattr(interaction.namespace, "treasure", "") or ""))
    return await _legal(interaction, current, "hide", owner=owner[0] if owner else None)


async def attack_sources(interaction: discord.Interaction, current: str) -> Choices:
    return await _legal(interaction, current, "attack_source", boat=bool(getattr(interaction.namespace, "boat", False)),
                        leader=getattr(interaction.namespace, "leader", None))


async def attack_targets(interaction: discord.Interaction, current: str) -> Choices:
    source = _located(interaction, "source")
    if source is None:
        return []
    return await _legal(interaction, current, "attack_target", source=source,
                        boat=bool(getattr(interaction.namespace, "boat", False)),
                        leader=getattr(interaction.namespace, "leader", None))


async def free_sources(interaction: discord.Interaction, current: str) -> Choices:
    return await _legal(interaction, current, "free_source", beast=getattr(interaction.namespace, "beast", None),
                        boat=bool(getattr(interaction.namespace, "boat", False)))


async def aid_sources(interaction: discord.Interaction, current: str) -> Choices:
    return await _legal(interaction, current, "aid_source")


async def card_targets(interaction: discord.Interaction, current: str) -> Choices:
    card = await _card_in_hand(interaction)
    return await _legal(interaction, current, "card_target", card=card) if card else []


async def march_targets(interaction: discord.Interaction, current: str) -> Choices:
    source = _located(interaction, "location")
    return await _legal(interaction, current, "march_target", source=source) if source else []


async def territories(interaction: discord.Interaction, current: str) -> Choices:
    return choices(current, [(t, t) for t in DATA.map.territories])


async def hand_cards(interaction: discord.Interaction, current: str) -> Choices:
    try:
        s = await wq_state(interaction)
    except RuleError:
        return []
    locale = locale_of(interaction)
    return choices(current, [(card_text(c, locale), c) for c in s.hands.get(interaction.user.id, [])])


async def my_treasures(interaction: discord.Interaction, current: str) -> Choices:
    try:
        s = await wq_state(interaction)
    except RuleError:
        return []
    return choices(current, _hiding(s, interaction.user.id, locale_of(interaction)))


async def _card_in_hand(interaction: discord.Interaction) -> str | None:
    """The card chosen in the `card` option, if it is in the user's hand."""
    text = getattr(interaction.namespace, "card", None)
    try:
        s = await wq_state(interaction)
    except RuleError:
        return None
    hand = s.hands.get(interaction.user.id, [])
    return text if text in hand else None


def card_text(card: str, locale: str) -> str:
    """A card as players read it: name, effect, and whether it carries a Boat Privilege."""
    kind = DATA.deck.card(card)
    boat = translate("wq.card.boat", locale) if DATA.deck.has_boat(card) else ""
    return translate("wq.card.line", locale, name=kind.name, effect=msg(f"wq.card.{kind.code}"), boat=boat)


def _hiding(s: WQState, pid: int, locale: str) -> list[tuple[str, str]]:
    """(name, value) of each treasure `pid` still has to hide; the value is `owner:kind`."""
    return [(translate("wq.text.treasure", locale, owner=s.name(t.owner), kind=msg(f"wq.treasure.{t.kind}")),
             f"{t.owner}:{t.kind}") for t in s.treasures if t.hider == pid and t.location is None]


def _treasure(value: str) -> tuple[int, str] | None:
    match = re.fullmatch(r"(\d+):(crown|chest|ring|decoy)", value.strip())
    return (int(match[1]), match[2]) if match else None


# ---------------------------------------------------------------- buttons and menus that survive restarts


class WQButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
               template=r"wq:(?P<verb>draw|done|roll|roll3|rollall|rollsafe|stop|cancel|capture|region|mage|end):(?P<seq>\d+)"
                        r"(?::(?P<arg>[0-9]+))?(?::(?P<arg2>[a-z]+))?"):
    """A button whose custom id carries the action and the state seq it was offered at (stale clicks do nothing)."""

    def __init__(self, verb: str, seq: int, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 arg: str | None = None, arg2: str | None = None) -> None:
        parts = ["wq", verb, str(seq)] + [p for p in (arg, arg2) if p is not None]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=":".join(parts)))
        self.verb, self.seq, self.arg, self.arg2 = verb, seq, arg, arg2

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> WQButton:
        return cls(match["verb"], int(match["seq"]), item.label or "", item.style, match["arg"], match["arg2"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if not await stale(interaction, await wq_state(interaction), self.seq):
                await play(interaction, self.action())
        except RuleError as err:
            await refuse(interaction, err)

    def action(self) -> dict[str, Any]:
        rolls = {"roll": {}, "roll3": {"times": 3}, "rollall": {"times": 0},
                 "rollsafe": {"times": 0, "until_below": SAFE_ROLL}}
        if self.verb in rolls:
            return {"type": "roll", **rolls[self.verb]}
        if self.verb == "capture":
            return {"type": "capture", "count": int(self.arg or 1), "leader": self.arg2 == "leader"}
        if self.verb == "region":
            return {"type": "region", "region": int(self.arg or 0)}
        return {"type": self.verb}


AID_VALUE = re.compile(r"(?P<source>[^:]+):(?P<count>[0-9]{1,4})")
"""An aid menu value: the location and the men that go."""


class AidSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"wq:aid:(?P<seq>\d+)"):
    """Aid the attack from one of the user's neighbouring locations, with every man that may go (WQ-AID-1)."""

    def __init__(self, seq: int, options: list[discord.SelectOption], placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(placeholder=placeholder, options=options, custom_id=f"wq:aid:{seq}"))
        self.seq = seq

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> AidSelect:
        return cls(int(match["seq"]), list(item.options))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if not await stale(interaction, await wq_state(interaction), self.seq):
                chosen = AID_VALUE.fullmatch(self.item.values[0]) if len(self.item.values) == 1 else None
                if chosen is None:  # the menu offers only `location:men`, but a payload may carry anything
                    raise RuleError("E_BAD_OPTION_VALUE", option="aid")
                await play(interaction, {"type": "aid", "source": chosen["source"], "count": int(chosen["count"])})
        except RuleError as err:
            await refuse(interaction, err)


def next_step_view(s: WQState, locale: str) -> discord.ui.View | None:
    """The buttons for the decision pending now: the petition step, mid-attack choices, capture, outcomes, end of
    turn."""
    decisions = RULESET.pending(s)
    if not decisions:
        return None
    view = discord.ui.View(timeout=None)
    kind, seq = decisions[0].kind, s.seq

    def button(verb: str, key: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
               arg: str | None = None, arg2: str | None = None, **params: Any) -> None:
        view.add_item(WQButton(verb, seq, translate(f"wq.button.{key}", locale, **params), style, arg, arg2))

    a = s.attack
    if kind == "petition":
        if not s.turn.drawn and (s.deck or s.discard):
            button("draw", "draw", discord.ButtonStyle.primary)
        button("done", "done")
    elif kind == "battle" and a is not None:
        button("roll", "roll", discord.ButtonStyle.primary)
        button("roll3", "roll3")
        button("rollall", "rollall", discord.ButtonStyle.danger)
        if a.kind == "campaign":
            button("rollsafe", "rollsafe", n=SAFE_ROLL - 1)
        if a.battles == 0:
            button("cancel", "cancel")
        else:
            button("stop", "stop")
    elif kind == "capture" and a is not None:
        most = s.pieces(a.source) - 1
        if most >= 1:
            button("capture", "capture", discord.ButtonStyle.primary, "1", n=1)
        if most > 1:
            button("capture", "capture", discord.ButtonStyle.primary, str(most), n=most)
        if most >= 1 and s.leader_at(a.source) is not None:
            button("capture", "capture_leader", arg=str(most), arg2="leader", n=most)
        if a.empty_start:
            button("cancel", "cancel")
    elif kind == "region":
        for r in DATA.map.regions:
            button("region", "region", arg=str(r.id), r=r.id, name=r.name)
    elif kind == "ring":
        button("mage", "ring_decline")
    elif kind == "attack":
        button("end", "end")
    if a is not None and a.kind == "campaign" and kind in ("battle", "capture") and (a.empty_start or kind == "battle"):
        spots = RULESET.legal_targets(s, s.current, "aid_source")
        options = [discord.SelectOption(label=translate("wq.aid.option", locale, loc=label(x, DATA), n=spare),
                                        value=f"{x}:{spare}")
                   for x in spots if (spare := min(s.men.get(x, 0), s.pieces(x) - 1)) > 0]
        if options:
            view.add_item(AidSelect(seq, options[:MAX_CHOICES], translate("wq.aid.placeholder", locale)))
    return view if view.children else None


# ---------------------------------------------------------------- the commands


@app_commands.guild_only()
class WizardsQuestCog(commands.GroupCog, group_name="wq", group_description="Play Wizard's Quest"):
    """One command per Wizard's Quest action; hands are shown only to their owner."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return check_options(interaction)

    @app_commands.command(name="castle", description="Setup: choose your starting castle")
    @app_commands.describe(castle="A free castle (C1–C8 or its name)")
    @app_commands.autocomplete(castle=castles)
    async def castle(self, interaction: discord.Interaction, castle: str) -> None:
        await play(interaction, {"type": "castle", "castle": castle})

    @app_commands.command(name="claim", description="Setup: claim an empty territory with one man")
    @app_commands.describe(territory="An empty territory (r.t, like 3.6)")
    @app_commands.autocomplete(territory=empty_territories)
    async def claim(self, interaction: discord.Interaction, territory: str) -> None:
        await play(interaction, {"type": "claim", "territory": territory})

    @app_commands.command(name="hide", description="Setup: hide an opponent's treasure on a territory")
    @app_commands.describe(treasure="One of the treasures you hide", territory="Where (not its owner's territory)")
    @app_commands.autocomplete(treasure=my_treasures, territory=hiding_places)
    async def hide(self, interaction: discord.Interaction, treasure: str, territory: str) -> None:
        s = await wq_state(interaction)
        chosen = _treasure(treasure) or self.named_treasure(s, interaction, treasure)
        await play(interaction, {"type": "hide", "owner": chosen[0], "treasure": chosen[1], "territory": territory})

    @staticmethod
    def named_treasure(s: WQState, interaction: discord.Interaction, text: str) -> tuple[int, str]:
        """A treasure typed by name ("Ada crown"), if exactly one of the user's still-hidden ones fits."""
        me = s.player(interaction.user.id)
        if me is None or me.status != "active":  # who may act is said before what they typed (check order)
            raise RuleError("WQ_VAL_1_SEAT" if me is None else "WQ_VAL_1_OUT")
        locale = locale_of(interaction)
        mine = _hiding(s, interaction.user.id, locale)
        fits = [value for name, value in mine if all(any(w.startswith(k) for w in name.lower().replace("'", " ")
                                                          .split()) for k in text.lower().split())]
        found = _treasure(fits[0]) if len(fits) == 1 else None
        if found is None:
            raise RuleError("E_TREASURE_CHOICE", treasures=", ".join(name for name, _ in mine) or "—")
        return found

    @app_commands.command(name="place", description="Place men from your pool (setup, reinforcement or a reward)")
    @app_commands.describe(location="One of your locations", count="How many men (default: all you have left)",
                           more="More placements at once, like 3.2:4 C7:3")
    @app_commands.autocomplete(location=own_locations)
    async def place(self, interaction: discord.Interaction, location: str,
                    count: app_commands.Range[int, 1, 1000] | None = None, more: str | None = None) -> None:
        placements = parse_placements(more) if more else {}
        if count is None and not more:
            count = (await wq_state(interaction)).pool
        if count:
            placements[location] = placements.get(location, 0) + count
        await play(interaction, {"type": "place", "placements": placements or {location: 0}})

    @app_commands.command(name="buy", description="Place your Hero or Sorcerer instead of 2 men")
    @app_commands.describe(leader="Which leader", location="One of your locations without a leader")
    @app_commands.autocomplete(location=leader_spots)
    async def buy(self, interaction: discord.Interaction, leader: Literal["hero", "sorcerer"], location: str) -> None:
        await play(interaction, {"type": "buy", "leader": leader, "location": location})

    @app_commands.command(name="draw", description="Petition the Great Mage: draw one card (at most once a turn)")
    async def draw(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "draw"})

    @app_commands.command(name="play", description="Play a Petition card from your hand")
    @app_commands.describe(card="A card in your hand", location="The card's target, if it needs one",
                           to="Forced March: where the men go", count="Forced March: how many men",
                           leader="Forced March: a leader that goes too")
    @app_commands.autocomplete(card=hand_cards, location=card_targets, to=march_targets)
    async def play_card(self, interaction: discord.Interaction, card: str, location: str | None = None,
                        to: str | None = None, count: app_commands.Range[int, 0, 1000] | None = None,
                        leader: Literal["hero", "sorcerer"] | None = None) -> None:
        await play(interaction, {"type": "play", "card": card, "location": location, "to": to, "count": count,
                                 "leader": leader})

    @app_commands.command(name="done", description="Finish your Petition step and go on to reinforce")
    async def done(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "done"})

    @app_commands.command(name="attack", description="Declare an attack campaign from one of your locations")
    @app_commands.describe(source="Attack from", target="Attack into", leader="Bring this leader into the source first",
                           boat="Spend a Boat Privilege to cross water")
    @app_commands.autocomplete(source=attack_sources, target=attack_targets)
    async def attack(self, interaction: discord.Interaction, source: str, target: str,
                     leader: Literal["hero", "sorcerer"] | None = None, boat: bool = False) -> None:
        await play(interaction, {"type": "attack", "source": source, "target": target, "leader": leader, "boat": boat})

    @app_commands.command(name="free", description="A free attack on the Dragon or the Great Mage")
    @app_commands.describe(source="Your location it is in, or next to", beast="Which one",
                           boat="Spend a Boat Privilege to cross water")
    @app_commands.autocomplete(source=free_sources)
    async def free(self, interaction: discord.Interaction, beast: Literal["dragon", "mage"], source: str,
                   boat: bool = False) -> None:
        await play(interaction, {"type": "free", "source": source, "beast": beast, "boat": boat})

    @app_commands.command(name="aid", description="Move men into your attacking location before the next battle")
    @app_commands.describe(source="Your neighbouring location", count="How many men (one piece stays behind)")
    @app_commands.autocomplete(source=aid_sources)
    async def aid(self, interaction: discord.Interaction, source: str, count: app_commands.Range[int, 1, 1000]) -> None:
        await play(interaction, {"type": "aid", "source": source, "count": count})

    @app_commands.command(name="roll", description="Fight battles of your attack")
    @app_commands.describe(times="How many battles (0: until the attack ends; default 1)",
                           until_below="Stop before a battle once your force has fewer pieces than this")
    async def roll(self, interaction: discord.Interaction, times: app_commands.Range[int, 0, 100] = 1,
                   until_below: app_commands.Range[int, 1, 1000] | None = None) -> None:
        await play(interaction, {"type": "roll", "times": times, "until_below": until_below})

    @app_commands.command(name="stop", description="Stop your attack (free before any roll, aid or leader move)")
    async def stop(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "stop"})

    @app_commands.command(name="cancel", description="Call your attack off (free before any roll, aid or leader move)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "cancel"})

    @app_commands.command(name="capture", description="Move pieces into the location you emptied")
    @app_commands.describe(count="Pieces that move in, your leader included", leader="Your leader goes too")
    async def capture(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 1000],
                      leader: bool = False) -> None:
        await play(interaction, {"type": "capture", "count": count, "leader": leader})

    @app_commands.command(name="region", description="Send the beaten Dragon or Great Mage to a region")
    @app_commands.describe(region="Region 1–6; a die picks the territory")
    async def region(self, interaction: discord.Interaction, region: app_commands.Range[int, 1, 6]) -> None:
        await play(interaction, {"type": "region", "region": region})

    @app_commands.command(name="mage", description="The Ring: send the Great Mage to a territory, or leave him")
    @app_commands.describe(territory="Where he goes (leave out to leave him where he is)")
    @app_commands.autocomplete(territory=territories)
    async def mage(self, interaction: discord.Interaction, territory: str | None = None) -> None:
        await play(interaction, {"type": "mage", "territory": territory})

    @app_commands.command(name="end", description="End your attack step and your turn")
    async def end(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "end"})

    @app_commands.command(name="hand", description="Your Petition cards and Boat Privileges (only you see this)")
    async def hand(self, interaction: discord.Interaction) -> None:
        s = await wq_state(interaction)
        me = s.player(interaction.user.id)
        if me is None:
            raise RuleError("WQ_VAL_1_SEAT")
        locale = locale_of(interaction)
        none = translate("wq.hand.none", locale)
        lines = [translate("wq.hand.cards", locale, n=len(s.hands.get(me.id, []))),
                 *(f"• {card_text(c, locale)}" for c in s.hands.get(me.id, [])),
                 translate("wq.hand.boats", locale, cards=", ".join(DATA.deck.card(c).name
                                                                     for c in s.boats.get(me.id, [])) or none)]
        if s.phase is Phase.SETUP_HIDE:
            lines.append(translate("wq.hand.hiding", locale, treasures=", ".join(
                name for name, _ in _hiding(s, me.id, locale)) or none))
        await reply(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="help", description="How to play Wizard's Quest here: the commands in turn order")
    async def help(self, interaction: discord.Interaction) -> None:
        await reply(interaction, translate("wq.help", locale_of(interaction)), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(WQButton, AidSelect)
    getattr(bot, "controls", {})["wizards_quest"] = controls
    await bot.add_cog(WizardsQuestCog(bot))
