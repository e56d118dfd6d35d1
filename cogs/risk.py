"""The /risk commands and buttons: thin glue from Discord to the Risk rules."""

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
from engine.games.risk import RiskState
from engine.games.risk import events as E
from engine.games.risk.mapdata import classic
from engine.games.risk.names import matches, normalise, resolve
from engine.games.risk.rules import connected
from engine.games.risk.state import NEUTRAL, Phase
from engine.games.risk.text import mission_text

BOARD = classic()


async def risk_state(interaction: discord.Interaction) -> RiskState:
    return await game_state(interaction, RiskState)


async def play(interaction: discord.Interaction, data: dict[str, Any]) -> None:
    await act(interaction, "risk", data)


def controls(state: GameState, events: Sequence[Event]) -> discord.ui.View | None:
    """The buttons a post offers for what is pending in `state`; the last attack among `events` is the front."""
    assert isinstance(state, RiskState)
    battles = [e for e in events if isinstance(e, E.Battle) and e.player == state.current]
    return next_step_view(state, (battles[-1].source, battles[-1].target) if battles else None)


# ---------------------------------------------------------------- autocomplete


def _matches(current: str, ids: list[str]) -> list[app_commands.Choice[str]]:
    """Forgiving matching: case-insensitive, by any word's prefix, the id or an alias (RISK-DIG-1)."""
    key = normalise(current)
    found = []
    for tid in ids:
        t = BOARD.territory[tid]
        spellings = [normalise(s) for s in (t.name, t.id, *t.aliases)]
        if not key or any(s.startswith(key) or any(w.startswith(key) for w in s.split()) for s in spellings):
            found.append(app_commands.Choice(name=t.name, value=tid))
    return found[:MAX_CHOICES]


async def _state_or_none(interaction: discord.Interaction) -> RiskState | None:
    try:
        return await risk_state(interaction)
    except RuleError:
        return None


async def place_targets(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    s = await _state_or_none(interaction)
    if s is None:
        return []
    me = interaction.user.id
    if s.phase is Phase.SETUP_CLAIM:
        ids = [t for t in BOARD.ids if t not in s.owner]
    else:
        ids = [t for t in BOARD.ids if s.owner.get(t) == me]
    return _matches(current, ids)


async def any_territory(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return _matches(current, list(BOARD.ids))


async def neutral_targets(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    s = await _state_or_none(interaction)
    return [] if s is None else _matches(current, [t for t in BOARD.ids if s.owner.get(t) == NEUTRAL])


async def attack_sources(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    s = await _state_or_none(interaction)
    if s is None:
        return []
    me = interaction.user.id
    ids = [t for t in BOARD.ids if s.owner.get(t) == me and s.armies[t] >= 2
           and any(s.owner.get(n) != me for n in BOARD.neighbours[t])]
    return _matches(current, ids)


async def attack_targets(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    s = await _state_or_none(interaction)
    source = _chosen(interaction, "source")
    if s is None or source is None:
        return []
    me = interaction.user.id
    return _matches(current, [n for n in BOARD.neighbours[source] if s.owner.get(n) != me])


async def fortify_sources(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    s = await _state_or_none(interaction)
    if s is None:
        return []
    me = interaction.user.id
    return _matches(current, [t for t in BOARD.ids if s.owner.get(t) == me and s.armies[t] >= 2])


async def fortify_targets(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    s = await _state_or_none(interaction)
    source = _chosen(interaction, "source")
    if s is None or source is None:
        return []
    me = interaction.user.id
    if s.options.fortify_mode == "adjacent":
        ids = [n for n in BOARD.neighbours[source] if s.owner.get(n) == me]
    else:
        ids = [t for t in BOARD.ids if t != source and s.owner.get(t) == me and connected(s, BOARD, me, source, t)]
    return _matches(current, ids)


def _chosen(interaction: discord.Interaction, option: str) -> str | None:
    """The territory already typed in another option, resolved forgivingly."""
    text = getattr(interaction.namespace, option, None)
    if not text:
        return None
    if text in BOARD.territory:
        return str(text)
    found = matches(str(text))
    return found[0] if len(found) == 1 else None


# ---------------------------------------------------------------- buttons that survive restarts


class RiskButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"risk:(?P<verb>again|blitz|stop|move|defend|endturn|resign|keep):(?P<seq>\d+)"
                          r"(?::(?P<arg>[a-z_0-9]+))?(?::(?P<arg2>[a-z_0-9]+))?"):
    """A button whose custom id carries the action and the sequence number it was offered at."""

    def __init__(self, verb: str, seq: int, label: str, style: discord.ButtonStyle,
                 arg: str | None = None, arg2: str | None = None) -> None:
        parts = ["risk", verb, str(seq)] + [p for p in (arg, arg2) if p is not None]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=":".join(parts)))
        self.verb, self.seq, self.arg, self.arg2 = verb, seq, arg, arg2

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> RiskButton:
        return cls(match["verb"], int(match["seq"]), item.label or "", item.style, match["arg"], match["arg2"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.verb == "keep":
                await interaction.response.edit_message(content=translate("resign.kept", locale_of(interaction)),
                                                        view=None)
                return
            state = await risk_state(interaction)
            if self.verb != "resign" and await stale(interaction, state, self.seq):
                return
            await play(interaction, self.action(state))
        except RuleError as err:
            await refuse(interaction, err)

    def action(self, state: RiskState) -> dict[str, Any]:
        if self.verb in ("again", "blitz"):
            return {"type": "attack", "source": self.arg, "target": self.arg2,
                    "until": "conquer" if self.verb == "blitz" else "once"}
        if self.verb == "stop":
            return {"type": "end_attack"}
        if self.verb == "move":
            return {"type": "move", "count": self.number()}
        if self.verb == "defend":
            return {"type": "defend", "dice": self.number()}
        if self.verb == "endturn":
            return {"type": "end_turn"}
        if self.verb == "resign":
            return {"type": "resign"}
        raise RuleError("E_NOTHING_PENDING")

    def number(self) -> int:
        """The count the id carries: the bot writes only digits there, but a payload may carry anything."""
        if self.arg is not None and not self.arg.isdigit():
            raise RuleError("E_BAD_OPTION_VALUE", option=self.verb)
        return int(self.arg or 0)


def next_step_view(s: RiskState, front: tuple[str, str] | None) -> discord.ui.View | None:
    """The buttons for whatever is pending now (RISK-DIG-10, DIG-11); `front` is the last attack."""
    view = discord.ui.View(timeout=None)
    i = s.interrupt
    if s.phase is Phase.GAME_OVER:
        return None
    if i is not None and i.kind == "occupy":
        view.add_item(RiskButton("move", s.seq, f"Move {i.min}", discord.ButtonStyle.secondary, str(i.min)))
        if i.max != i.min:
            view.add_item(RiskButton("move", s.seq, f"Move {i.max}", discord.ButtonStyle.primary, str(i.max)))
        return view
    if i is not None and i.kind == "defend":
        most = min(2, s.armies[i.target or ""])
        for n in range(1, most + 1):
            view.add_item(RiskButton("defend", s.seq, f"Defend with {n}", discord.ButtonStyle.primary, str(n)))
        return view
    if i is None and s.phase is Phase.ATTACK and front is not None:
        source, target = front
        if s.owner.get(source) == s.current and s.owner.get(target) != s.current and s.armies[source] >= 2:
            view.add_item(RiskButton("again", s.seq, "Roll again", discord.ButtonStyle.primary, source, target))
            view.add_item(RiskButton("blitz", s.seq, "Attack until done", discord.ButtonStyle.danger, source, target))
        view.add_item(RiskButton("stop", s.seq, "Stop attacking", discord.ButtonStyle.secondary))
        return view
    return None


# ---------------------------------------------------------------- the commands


@app_commands.guild_only()
class RiskCog(commands.GroupCog, group_name="risk", group_description="Play classic Risk"):
    """One command per Risk action; every answer about hidden information is private."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return check_options(interaction)

    @app_commands.command(name="place", description="Place armies on one of your territories (or claim one)")
    @app_commands.describe(territory="Where", count="How many armies (default 1)")
    @app_commands.autocomplete(territory=place_targets)
    async def place(self, interaction: discord.Interaction, territory: str,
                    count: app_commands.Range[int, 1, 10_000] = 1) -> None:
        await play(interaction, {"type": "place", "territory": territory, "count": count})

    @app_commands.command(name="claim", description="Claim an unclaimed territory during setup")
    @app_commands.describe(territory="An unclaimed territory")
    @app_commands.autocomplete(territory=place_targets)
    async def claim(self, interaction: discord.Interaction, territory: str) -> None:
        await play(interaction, {"type": "claim", "territory": territory})

    @app_commands.command(name="neutral", description="Two-player setup: place this turn's Neutral army")
    @app_commands.describe(territory="A Neutral territory")
    @app_commands.autocomplete(territory=neutral_targets)
    async def neutral(self, interaction: discord.Interaction, territory: str) -> None:
        await play(interaction, {"type": "place_neutral", "territory": territory})

    @app_commands.command(name="trade", description="Trade a set of three cards for armies")
    @app_commands.describe(bonus="The territory that gets the +2 bonus, if several of your cards qualify")
    @app_commands.autocomplete(bonus=place_targets)
    async def trade(self, interaction: discord.Interaction, bonus: str | None = None) -> None:
        state = await risk_state(interaction)
        me = state.player(interaction.user.id)
        if me is None:
            raise RuleError("E_NOT_PLAYER")
        if me.status != "active":
            raise RuleError("E_ELIMINATED")
        if me.id != state.current:  # the menu is offered only to whoever may trade (the rules check again)
            raise RuleError("E_NOT_YOUR_TURN", player=state.name(state.current), phase=msg(f"risk.phase.{state.phase}"))
        hand = state.hands.get(me.id, [])
        if len(hand) < 3:
            raise RuleError("E_SET_SIZE")
        bonus_id = (bonus if bonus in BOARD.territory else resolve(bonus, BOARD)) if bonus else None
        view = discord.ui.View(timeout=None)
        view.add_item(TradeSelect(state.seq, bonus_id, [discord.SelectOption(label=_card(c), value=c)
                                                        for c in hand[:MAX_CHOICES]]))
        await reply(interaction, translate("trade.pick", locale_of(interaction)), ephemeral=True, view=view)

    @app_commands.command(name="attack", description="Attack a neighbouring territory")
    @app_commands.describe(source="Attack from", target="Attack into", dice="Attacker dice (default: the most)",
                           until="Roll once, or keep rolling until it falls or you run low",
                           keep="With until: stop when this many armies are left in the source",
                           move="If it falls: move in the minimum or the maximum at once")
    @app_commands.autocomplete(source=attack_sources, target=attack_targets)
    async def attack(self, interaction: discord.Interaction, source: str, target: str,
                     dice: app_commands.Range[int, 1, 3] | None = None,
                     until: Literal["once", "conquer"] = "once", keep: app_commands.Range[int, 1, 10_000] = 1,
                     move: Literal["min", "max"] | None = None) -> None:
        await play(interaction, {"type": "attack", "source": source, "target": target, "dice": dice,
                                 "until": until, "keep": keep, "move": move})

    @app_commands.command(name="defend", description="Choose your defence dice when attacked")
    @app_commands.describe(dice="1 or 2 dice", always="Use this number for every attack-until against you")
    async def defend(self, interaction: discord.Interaction, dice: app_commands.Range[int, 1, 2],
                     always: bool = False) -> None:
        await play(interaction, {"type": "defend", "dice": dice, "always": always})

    @app_commands.command(name="move", description="Move armies into the territory you just conquered")
    @app_commands.describe(count="How many armies to move in")
    async def move(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 10_000]) -> None:
        await play(interaction, {"type": "move", "count": count})

    @app_commands.command(name="endattack", description="Stop attacking and go on to fortify")
    async def endattack(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "end_attack"})

    @app_commands.command(name="fortify", description="Move armies once between your territories; ends your turn")
    @app_commands.describe(source="From", target="To", count="How many armies (at least 1 stays behind)")
    @app_commands.autocomplete(source=fortify_sources, target=fortify_targets)
    async def fortify(self, interaction: discord.Interaction, source: str, target: str,
                      count: app_commands.Range[int, 1, 10_000]) -> None:
        await play(interaction, {"type": "fortify", "source": source, "target": target, "count": count})

    @app_commands.command(name="endturn", description="End your turn without fortifying")
    async def endturn(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "end_turn"})

    @app_commands.command(name="hand", description="Your cards and your secret mission (only you see this)")
    async def hand(self, interaction: discord.Interaction) -> None:
        state = await risk_state(interaction)
        me = state.player(interaction.user.id)
        if me is None:
            raise RuleError("E_NOT_PLAYER")
        locale = locale_of(interaction)
        cards = state.hands.get(me.id, [])
        lines = [translate("hand.cards", locale, n=len(cards),
                           cards=", ".join(_card(c) for c in cards) or translate("hand.none", locale)),
                 translate("hand.next_set", locale, value=BOARD.trade_value(state.sets_traded + 1))]
        if state.options.mode == "secret_mission":
            try:
                lines.append(mission_text(state, me.id, BOARD, locale))
            except RuleError as err:
                lines.append(err.localized(locale))
        await reply(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="mission", description="Your secret mission (only you see this)")
    async def mission(self, interaction: discord.Interaction) -> None:
        state = await risk_state(interaction)
        if state.player(interaction.user.id) is None:
            raise RuleError("E_NOT_PLAYER")
        await reply(interaction, mission_text(state, interaction.user.id, BOARD, locale_of(interaction)),
                    ephemeral=True)

    @app_commands.command(name="territory", description="Who holds a territory, its armies and its neighbours")
    @app_commands.describe(name="Any territory")
    @app_commands.autocomplete(name=any_territory)
    async def territory(self, interaction: discord.Interaction, name: str) -> None:
        state = await risk_state(interaction)
        tid = name if name in BOARD.territory else resolve(name, BOARD)
        t = BOARD.territory[tid]
        locale = locale_of(interaction)
        owner = state.owner.get(tid)
        neighbours = ", ".join(f"{BOARD.territory[n].name} ({state.name(state.owner.get(n))} "
                               f"{state.armies.get(n, 0)})" for n in BOARD.neighbours[tid])
        text = translate("territory.info", locale, territory=t.name, continent=BOARD.continent[t.continent].name,
                         owner=state.name(owner) if owner is not None else "—", armies=state.armies.get(tid, 0),
                         neighbours=neighbours)
        await reply(interaction, text, ephemeral=True)

    @app_commands.command(name="help", description="How to play Risk here: the commands in turn order")
    async def help(self, interaction: discord.Interaction) -> None:
        await reply(interaction, translate("risk.help", locale_of(interaction)), ephemeral=True)

    @app_commands.command(name="resign", description="Leave the game; your territories become Neutral")
    async def resign(self, interaction: discord.Interaction) -> None:
        state = await risk_state(interaction)
        me = state.player(interaction.user.id)
        if me is None:
            raise RuleError("E_NOT_PLAYER")
        if me.status != "active":
            raise RuleError("E_ELIMINATED")
        await reply(interaction, translate("resign.confirm", locale_of(interaction)), ephemeral=True,
                    view=confirm_resign(state.seq))



def _card(card: str) -> str:
    if card in BOARD.wild_cards:
        return "🃏 Wild"
    return f"{BOARD.territory[card].name} ({BOARD.symbols[card]})"


class TradeSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"risk:trade:(?P<seq>\d+)(?::(?P<bonus>[a-z_]+))?"):
    """A private menu of the player's cards; it still works, or says it is stale, after a restart."""

    def __init__(self, seq: int, bonus: str | None, options: list[discord.SelectOption]) -> None:
        custom_id = f"risk:trade:{seq}" + (f":{bonus}" if bonus else "")
        super().__init__(discord.ui.Select(placeholder="Pick 3 cards", min_values=3, max_values=3, options=options,
                                           custom_id=custom_id))
        self.seq, self.bonus = seq, bonus

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> TradeSelect:
        return cls(int(match["seq"]), match["bonus"], list(item.options))  # discord.py then fills in the values

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            state = await risk_state(interaction)
            if await stale(interaction, state, self.seq):
                return
            await play(interaction, {"type": "trade", "cards": list(self.item.values), "bonus": self.bonus})
        except RuleError as err:
            await refuse(interaction, err)


def confirm_resign(seq: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RiskButton("resign", seq, "Resign", discord.ButtonStyle.danger))
    view.add_item(RiskButton("keep", seq, "Keep playing", discord.ButtonStyle.secondary))
    return view


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(RiskButton, TradeSelect)
    getattr(bot, "controls", {})["risk"] = controls
    await bot.add_cog(RiskCog(bot))
