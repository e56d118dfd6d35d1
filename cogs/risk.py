"""The /risk commands and buttons: thin glue from Discord to the Risk rules."""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    MAX_CHOICES,
    Buttons,
    ControlButton,
    Glue,
    Verb,
    check_options,
    locale_of,
    refuse,
    reply,
    stale,
    words,
)
from cogs.guard import Guarded
from engine.core.datanames import name_of
from engine.core.errors import RuleError
from engine.core.i18n import translate
from engine.games.risk import RULESET, RiskState
from engine.games.risk.legal import card_label
from engine.games.risk.names import resolve, territory_name
from engine.games.risk.text import mission_text

BOARD = RULESET.board





# ---------------------------------------------------------------- autocomplete: the rules' legal values




# ---------------------------------------------------------------- buttons that survive restarts


class RiskButton(ControlButton,
                 template=r"risk:(?P<verb>again|blitz|stop|move|defend|endturn|resign|keep):(?P<seq>\d+)"
                          r"(?::(?P<arg>[a-z_0-9]+))?(?::(?P<arg2>[a-z_0-9]+))?"):
    """A button whose custom id carries the action and the sequence number it was offered at."""

    buttons = Buttons("risk", [
        Verb("again", {"type": "attack", "until": "once"}, ("source", "target")),
        Verb("blitz", {"type": "attack", "until": "conquer"}, ("source", "target")),
        Verb("stop", {"type": "end_attack"}),
        Verb("move", {"type": "move"}, ("count",)),
        Verb("defend", {"type": "defend"}, ("dice",)),
        Verb("endturn", {"type": "end_turn"}),
        Verb("resign", {"type": "resign"}, any_time=True),
    ], numbers=("count", "dice"))

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.custom_id.startswith("risk:keep:"):
            await interaction.response.edit_message(content=translate("resign.kept", locale_of(interaction)),
                                                    view=None)
            return
        await super().callback(interaction)


# ---------------------------------------------------------------- the commands


risk = Glue(RULESET, RiskState, RiskButton)
"""What the commands below call: the rules' autocomplete, the channel's game, one action."""


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
    @app_commands.autocomplete(territory=risk.field("place.territory"))
    async def place(self, interaction: discord.Interaction, territory: str,
                    count: app_commands.Range[int, 1, 10_000] = 1) -> None:
        await risk.play(interaction, {"type": "place", "territory": territory, "count": count})

    @app_commands.command(name="claim", description="Claim an unclaimed territory during setup")
    @app_commands.describe(territory="An unclaimed territory")
    @app_commands.autocomplete(territory=risk.field("claim.territory"))
    async def claim(self, interaction: discord.Interaction, territory: str) -> None:
        await risk.play(interaction, {"type": "claim", "territory": territory})

    @app_commands.command(name="neutral", description="Two-player setup: place this turn's Neutral army")
    @app_commands.describe(territory="A Neutral territory")
    @app_commands.autocomplete(territory=risk.field("place_neutral.territory"))
    async def neutral(self, interaction: discord.Interaction, territory: str) -> None:
        await risk.play(interaction, {"type": "place_neutral", "territory": territory})

    @app_commands.command(name="trade", description="Trade a set of three cards for armies")
    @app_commands.describe(bonus="The territory that gets the +2 bonus, if several of your cards qualify")
    @app_commands.autocomplete(bonus=risk.field("trade.bonus"))
    async def trade(self, interaction: discord.Interaction, bonus: str | None = None) -> None:
        state = await risk.state(interaction)
        cards = RULESET.choices(state, interaction.user.id, "trade.cards")
        if not cards:  # no trade is legal now: the rules say why, for the cards the player holds
            await risk.play(interaction, {"type": "trade", "cards": state.hands.get(interaction.user.id, [])[:3]})
            return
        bonus_id = (bonus if bonus in BOARD.territory else resolve(bonus, BOARD)) if bonus else None
        locale = locale_of(interaction)
        view = discord.ui.View(timeout=None)
        options = [discord.SelectOption(label=words(c.label, locale), value=str(c.value)) for c in cards[:MAX_CHOICES]]
        view.add_item(TradeSelect(state.seq, bonus_id, options, locale))
        await reply(interaction, translate("trade.pick", locale), ephemeral=True, view=view)

    @app_commands.command(name="attack", description="Attack a neighbouring territory")
    @app_commands.describe(source="Attack from", target="Attack into", dice="Attacker dice (default: the most)",
                           until="Roll once, or keep rolling until it falls or you run low",
                           keep="With until: stop when this many armies are left in the source",
                           move="If it falls: move in the minimum or the maximum at once")
    @app_commands.autocomplete(source=risk.field("attack.source"), target=risk.field("attack.target", "source"))
    async def attack(self, interaction: discord.Interaction, source: str, target: str,
                     dice: app_commands.Range[int, 1, 3] | None = None,
                     until: Literal["once", "conquer"] = "once", keep: app_commands.Range[int, 1, 10_000] = 1,
                     move: Literal["min", "max"] | None = None) -> None:
        await risk.play(interaction, {"type": "attack", "source": source, "target": target, "dice": dice,
                                 "until": until, "keep": keep, "move": move})

    @app_commands.command(name="defend", description="Choose your defence dice when attacked")
    @app_commands.describe(dice="1 or 2 dice", always="Use this number for every attack-until against you")
    async def defend(self, interaction: discord.Interaction, dice: app_commands.Range[int, 1, 2],
                     always: bool = False) -> None:
        await risk.play(interaction, {"type": "defend", "dice": dice, "always": always})

    @app_commands.command(name="move", description="Move armies into the territory you just conquered")
    @app_commands.describe(count="How many armies to move in")
    async def move(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 10_000]) -> None:
        await risk.play(interaction, {"type": "move", "count": count})

    @app_commands.command(name="endattack", description="Stop attacking and go on to fortify")
    async def endattack(self, interaction: discord.Interaction) -> None:
        await risk.play(interaction, {"type": "end_attack"})

    @app_commands.command(name="fortify", description="Move armies once between your territories; ends your turn")
    @app_commands.describe(source="From", target="To", count="How many armies (at least 1 stays behind)")
    @app_commands.autocomplete(source=risk.field("fortify.source"), target=risk.field("fortify.target", "source"))
    async def fortify(self, interaction: discord.Interaction, source: str, target: str,
                      count: app_commands.Range[int, 1, 10_000]) -> None:
        await risk.play(interaction, {"type": "fortify", "source": source, "target": target, "count": count})

    @app_commands.command(name="endturn", description="End your turn without fortifying")
    async def endturn(self, interaction: discord.Interaction) -> None:
        await risk.play(interaction, {"type": "end_turn"})

    @app_commands.command(name="hand", description="Your cards and your secret mission (only you see this)")
    async def hand(self, interaction: discord.Interaction) -> None:
        state = await risk.state(interaction)
        me = state.player(interaction.user.id)
        if me is None:
            raise RuleError("E_NOT_PLAYER")
        locale = locale_of(interaction)
        cards = state.hands.get(me.id, [])
        lines = [translate("hand.cards", locale, n=len(cards),
                           cards=[card_label(BOARD, c) for c in cards] or translate("hand.none", locale)),
                 translate("hand.next_set", locale, value=BOARD.trade_value(state.sets_traded + 1))]
        if state.options.mode == "secret_mission":
            try:
                lines.append(mission_text(state, me.id, locale))
            except RuleError as err:
                lines.append(err.localized(locale))
        await reply(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="mission", description="Your secret mission (only you see this)")
    async def mission(self, interaction: discord.Interaction) -> None:
        state = await risk.state(interaction)
        if state.player(interaction.user.id) is None:
            raise RuleError("E_NOT_PLAYER")
        await reply(interaction, mission_text(state, interaction.user.id, locale_of(interaction)),
                    ephemeral=True)

    @app_commands.command(name="territory", description="Who holds a territory, its armies and its neighbours")
    @app_commands.describe(name="Any territory")
    @app_commands.autocomplete(name=risk.field("territory"))
    async def territory(self, interaction: discord.Interaction, name: str) -> None:
        state = await risk.state(interaction)
        tid = name if name in BOARD.territory else resolve(name, BOARD)
        locale = locale_of(interaction)
        owner = state.owner.get(tid)
        neighbours = ", ".join(f"{words(territory_name(n), locale)} ({words(state.who(state.owner.get(n)), locale)} "
                               f"{state.armies.get(n, 0)})" for n in BOARD.neighbours[tid])
        text = translate("territory.info", locale, territory=territory_name(tid),
                         continent=name_of("risk", "continent", BOARD.territory[tid].continent),
                         owner=state.who(owner) if owner is not None else "—", armies=state.armies.get(tid, 0),
                         neighbours=neighbours)
        await reply(interaction, text, ephemeral=True)

    @app_commands.command(name="help", description="How to play Risk here: the commands in turn order")
    async def help(self, interaction: discord.Interaction) -> None:
        await reply(interaction, translate("risk.help", locale_of(interaction)), ephemeral=True)

    @app_commands.command(name="resign", description="Leave the game; your territories become Neutral")
    async def resign(self, interaction: discord.Interaction) -> None:
        state = await risk.state(interaction)
        me = state.player(interaction.user.id)
        if me is None:
            raise RuleError("E_NOT_PLAYER")
        if me.status != "active":
            raise RuleError("E_ELIMINATED")
        await reply(interaction, translate("resign.confirm", locale_of(interaction)), ephemeral=True,
                    view=confirm_resign(state.seq, locale_of(interaction)))



class TradeSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"risk:trade:(?P<seq>\d+)(?::(?P<bonus>[a-z_]+))?"):
    """A private menu of the player's cards; it still works, or says it is stale, after a restart."""

    def __init__(self, seq: int, bonus: str | None, options: list[discord.SelectOption], locale: str = "en") -> None:
        custom_id = f"risk:trade:{seq}" + (f":{bonus}" if bonus else "")
        super().__init__(discord.ui.Select(placeholder=translate("risk.trade.placeholder", locale), min_values=3,
                                           max_values=3, options=options, custom_id=custom_id))
        self.seq, self.bonus = seq, bonus

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> TradeSelect:
        return cls(int(match["seq"]), match["bonus"], list(item.options))  # discord.py then fills in the values

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            state = await risk.state(interaction)
            if await stale(interaction, state, self.seq):
                return
            await risk.play(interaction, {"type": "trade", "cards": list(self.item.values), "bonus": self.bonus})
        except RuleError as err:
            await refuse(interaction, err)


def confirm_resign(seq: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RiskButton(f"risk:resign:{seq}", translate("risk.button.resign", locale), discord.ButtonStyle.danger))
    view.add_item(RiskButton(f"risk:keep:{seq}", translate("risk.button.keep", locale), discord.ButtonStyle.secondary))
    return view


async def setup(bot: commands.Bot) -> None:
    await risk.install(bot, RiskCog(bot), TradeSelect)
