"""The /wq commands and buttons: thin glue from Discord to the Wizard's Quest rules (WQ-DIG-3)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    Buttons,
    ControlButton,
    ControlMenu,
    Glue,
    Verb,
    check_options,
    locale_of,
    reply,
    words,
)
from engine.core import i18n
from engine.core.datanames import name_of
from engine.core.errors import RuleError
from engine.core.i18n import translate
from engine.games.wizards_quest import RULESET, WQState, legal
from engine.games.wizards_quest.legal import SAFE_ROLL
from engine.games.wizards_quest.names import parse_placements
from engine.games.wizards_quest.state import Phase

DATA = RULESET.data







# ---------------------------------------------------------------- buttons and menus that survive restarts

VERBS = Buttons("wizards_quest", [
    Verb("draw", {"type": "draw"}), Verb("done", {"type": "done"}), Verb("roll", {"type": "roll"}),
    Verb("roll3", {"type": "roll", "times": 3}), Verb("rollall", {"type": "roll", "times": 0}),
    Verb("rollsafe", {"type": "roll", "times": 0, "until_below": SAFE_ROLL}),
    Verb("stop", {"type": "stop"}), Verb("cancel", {"type": "cancel"}),
    Verb("capture", {"type": "capture"}, ("count",)), Verb("capture", {"type": "capture"}, ("count",), flag="leader"),
    Verb("region", {"type": "region"}, ("region",)), Verb("mage", {"type": "mage"}), Verb("end", {"type": "end"}),
    Verb("aid", {"type": "aid"}, ("source", "count")),
], numbers=("count", "region"), prefix="wq")


class WQButton(ControlButton,
               template=r"wq:(?P<verb>draw|done|roll|roll3|rollall|rollsafe|stop|cancel|capture|region|mage|end):(?P<seq>\d+)"
                        r"(?::(?P<arg>[0-9]+))?(?::(?P<arg2>[a-z]+))?"):
    """A button whose custom id carries the action and the state seq it was offered at (stale clicks do nothing)."""

    buttons = VERBS


class AidSelect(ControlMenu, template=r"wq:(?P<verb>aid):(?P<seq>\d+)"):
    """Aid the attack from one of the user's neighbouring locations, with every man that may go (WQ-AID-1)."""

    buttons = VERBS


# ---------------------------------------------------------------- the commands


wq = Glue(RULESET, WQState, WQButton, AidSelect)
"""What the commands below call: the rules' autocomplete, the channel's game, one action."""


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
    @app_commands.autocomplete(castle=wq.field("castle.castle"))
    async def castle(self, interaction: discord.Interaction, castle: str) -> None:
        await wq.play(interaction, {"type": "castle", "castle": castle})

    @app_commands.command(name="claim", description="Setup: claim an empty territory with one man")
    @app_commands.describe(territory="An empty territory (r.t, like 3.6)")
    @app_commands.autocomplete(territory=wq.field("claim.territory"))
    async def claim(self, interaction: discord.Interaction, territory: str) -> None:
        await wq.play(interaction, {"type": "claim", "territory": territory})

    @app_commands.command(name="hide", description="Setup: hide an opponent's treasure on a territory")
    @app_commands.describe(treasure="One of the treasures you hide", territory="Where (not its owner's territory)")
    @app_commands.autocomplete(treasure=wq.field("hide.treasure"), territory=wq.field("hide.territory", "treasure"))
    async def hide(self, interaction: discord.Interaction, treasure: str, territory: str) -> None:
        s = await wq.state(interaction)
        chosen = legal.treasure(treasure) or self.named_treasure(s, interaction, treasure)
        await wq.play(interaction, {"type": "hide", "owner": chosen[0], "treasure": chosen[1], "territory": territory})

    @staticmethod
    def named_treasure(s: WQState, interaction: discord.Interaction, text: str) -> tuple[int, str]:
        """A treasure typed by name ("Ada crown", in any language the bot speaks), if exactly one of the user's
        still-hidden ones fits."""
        me = s.player(interaction.user.id)
        if me is None or me.status != "active":  # who may act is said before what they typed (check order)
            raise RuleError("WQ_VAL_1_SEAT" if me is None else "WQ_VAL_1_OUT")
        mine = legal.hiding(s, interaction.user.id)
        fits = [str(c.value) for c in mine if any(fits_name(text, words(c.label, language))
                                                  for language in i18n.LANGUAGES)]
        found = legal.treasure(fits[0]) if len(fits) == 1 else None
        if found is None:
            raise RuleError("E_TREASURE_CHOICE", treasures=[c.label for c in mine] or "—")
        return found

    @app_commands.command(name="place", description="Place men from your pool (setup, reinforcement or a reward)")
    @app_commands.describe(location="One of your locations", count="How many men (default: all you have left)",
                           more="More placements at once, like 3.2:4 C7:3")
    @app_commands.autocomplete(location=wq.field("place.location"))
    async def place(self, interaction: discord.Interaction, location: str,
                    count: app_commands.Range[int, 1, 1000] | None = None, more: str | None = None) -> None:
        placements = parse_placements(more) if more else {}
        if count is None and not more:
            count = (await wq.state(interaction)).pool
        if count:
            placements[location] = placements.get(location, 0) + count
        await wq.play(interaction, {"type": "place", "placements": placements or {location: 0}})

    @app_commands.command(name="buy", description="Place your Hero or Sorcerer instead of 2 men")
    @app_commands.describe(leader="Which leader", location="One of your locations without a leader")
    @app_commands.autocomplete(location=wq.field("buy.location"))
    async def buy(self, interaction: discord.Interaction, leader: Literal["hero", "sorcerer"], location: str) -> None:
        await wq.play(interaction, {"type": "buy", "leader": leader, "location": location})

    @app_commands.command(name="draw", description="Petition the Great Mage: draw one card (at most once a turn)")
    async def draw(self, interaction: discord.Interaction) -> None:
        await wq.play(interaction, {"type": "draw"})

    @app_commands.command(name="play", description="Play a Petition card from your hand")
    @app_commands.describe(card="A card in your hand", location="The card's target, if it needs one",
                           to="Forced March: where the men go", count="Forced March: how many men",
                           leader="Forced March: a leader that goes too")
    @app_commands.autocomplete(card=wq.field("play.card"), location=wq.field("play.location", "card"),
                               to=wq.field("play.to", "location"))
    async def play_card(self, interaction: discord.Interaction, card: str, location: str | None = None,
                        to: str | None = None, count: app_commands.Range[int, 0, 1000] | None = None,
                        leader: Literal["hero", "sorcerer"] | None = None) -> None:
        await wq.play(interaction, {"type": "play", "card": card, "location": location, "to": to, "count": count,
                                 "leader": leader})

    @app_commands.command(name="done", description="Finish your Petition step and go on to reinforce")
    async def done(self, interaction: discord.Interaction) -> None:
        await wq.play(interaction, {"type": "done"})

    @app_commands.command(name="attack", description="Declare an attack campaign from one of your locations")
    @app_commands.describe(source="Attack from", target="Attack into", leader="Bring this leader into the source first",
                           boat="Spend a Boat Privilege to cross water")
    @app_commands.autocomplete(source=wq.field("attack.source", "boat", "leader"),
                               target=wq.field("attack.target", "source", "boat", "leader"))
    async def attack(self, interaction: discord.Interaction, source: str, target: str,
                     leader: Literal["hero", "sorcerer"] | None = None, boat: bool = False) -> None:
        await wq.play(interaction, {"type": "attack", "source": source, "target": target, "leader": leader,
                                    "boat": boat})

    @app_commands.command(name="free", description="A free attack on the Dragon or the Great Mage")
    @app_commands.describe(source="Your location it is in, or next to", beast="Which one",
                           boat="Spend a Boat Privilege to cross water")
    @app_commands.autocomplete(source=wq.field("free.source", "beast", "boat"))
    async def free(self, interaction: discord.Interaction, beast: Literal["dragon", "mage"], source: str,
                   boat: bool = False) -> None:
        await wq.play(interaction, {"type": "free", "source": source, "beast": beast, "boat": boat})

    @app_commands.command(name="aid", description="Move men into your attacking location before the next battle")
    @app_commands.describe(source="Your neighbouring location", count="How many men (one piece stays behind)")
    @app_commands.autocomplete(source=wq.field("aid.source"))
    async def aid(self, interaction: discord.Interaction, source: str, count: app_commands.Range[int, 1, 1000]) -> None:
        await wq.play(interaction, {"type": "aid", "source": source, "count": count})

    @app_commands.command(name="roll", description="Fight battles of your attack")
    @app_commands.describe(times="How many battles (0: until the attack ends; default 1)",
                           until_below="Stop before a battle once your force has fewer pieces than this")
    async def roll(self, interaction: discord.Interaction, times: app_commands.Range[int, 0, 100] = 1,
                   until_below: app_commands.Range[int, 1, 1000] | None = None) -> None:
        await wq.play(interaction, {"type": "roll", "times": times, "until_below": until_below})

    @app_commands.command(name="stop", description="Stop your attack (free before any roll, aid or leader move)")
    async def stop(self, interaction: discord.Interaction) -> None:
        await wq.play(interaction, {"type": "stop"})

    @app_commands.command(name="cancel", description="Call your attack off (free before any roll, aid or leader move)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await wq.play(interaction, {"type": "cancel"})

    @app_commands.command(name="capture", description="Move pieces into the location you emptied")
    @app_commands.describe(count="Pieces that move in, your leader included", leader="Your leader goes too")
    async def capture(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 1000],
                      leader: bool = False) -> None:
        await wq.play(interaction, {"type": "capture", "count": count, "leader": leader})

    @app_commands.command(name="region", description="Send the beaten Dragon or Great Mage to a region")
    @app_commands.describe(region="Region 1–6; a die picks the territory")
    async def region(self, interaction: discord.Interaction, region: app_commands.Range[int, 1, 6]) -> None:
        await wq.play(interaction, {"type": "region", "region": region})

    @app_commands.command(name="mage", description="The Ring: send the Great Mage to a territory, or leave him")
    @app_commands.describe(territory="Where he goes (leave out to leave him where he is)")
    @app_commands.autocomplete(territory=wq.field("mage.territory"))
    async def mage(self, interaction: discord.Interaction, territory: str | None = None) -> None:
        await wq.play(interaction, {"type": "mage", "territory": territory})

    @app_commands.command(name="end", description="End your attack step and your turn")
    async def end(self, interaction: discord.Interaction) -> None:
        await wq.play(interaction, {"type": "end"})

    @app_commands.command(name="hand", description="Your Petition cards and Boat Privileges (only you see this)")
    async def hand(self, interaction: discord.Interaction) -> None:
        s = await wq.state(interaction)
        me = s.player(interaction.user.id)
        if me is None:
            raise RuleError("WQ_VAL_1_SEAT")
        locale = locale_of(interaction)
        none = translate("wq.hand.none", locale)
        lines = [translate("wq.hand.cards", locale, n=len(s.hands.get(me.id, []))),
                 *(f"• {words(legal.card_label(DATA, c), locale)}" for c in s.hands.get(me.id, [])),
                 translate("wq.hand.boats", locale, cards=[name_of("wq", "card", DATA.deck.card(c).code)
                                                           for c in s.boats.get(me.id, [])] or none)]
        if s.phase is Phase.SETUP_HIDE:
            lines.append(translate("wq.hand.hiding", locale, treasures=", ".join(
                words(c.label, locale) for c in legal.hiding(s, me.id)) or none))
        await reply(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="help", description="How to play Wizard's Quest here: the commands in turn order")
    async def help(self, interaction: discord.Interaction) -> None:
        await reply(interaction, translate("wq.help", locale_of(interaction)), ephemeral=True)


def fits_name(typed: str, name: str) -> bool:
    """Whether each word typed starts a word of `name` (any case): "ada cr" fits "Ada's Crown"."""
    shown = name.lower().replace("'", " ").split()
    return all(any(w.startswith(k) for w in shown) for k in typed.lower().split())


async def setup(bot: commands.Bot) -> None:
    await wq.install(bot, WizardsQuestCog(bot))
