"""Playing action cards and casting spells in their timing windows (BM-WIN-1, BM-ACT-1 … 5, BM-SPL-1 … 2,
BM-MAG-1 … 3): the checks every window shares, in the BM-VAL-0 order, and the payment.

Each area calls `play` or `cast` with the window it is in and then applies the card's or spell's effect itself.
W-INDIVIDUAL spans the three steps of a player's turn, so its plays are handled here: Spy (AC15) and Far Sight
(SP08) show their player, and only him, another player's hand and current quest card (BM-DIG-1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from engine.core.errors import RuleError
from engine.core.i18n import Msg, msg
from engine.core.models import Action, Event
from engine.core.rng import Rng
from engine.games.battlemist import names
from engine.games.battlemist.data import ActionCard, Spell, Window, load
from engine.games.battlemist.phases import TURN

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState


@dataclass(frozen=True, slots=True, kw_only=True)
class Sighting:
    """What a Spy or a Far Sight showed its player: `target`'s hand and current quest card in round `round`
    (secret to everyone else, BM-DIG-1)."""

    target: int
    source: str
    """The card or spell that showed it (AC15, SP08)."""
    round: int
    hand: tuple[str, ...] = ()
    quest: str | None = None
    """None: he had no current quest."""


@dataclass(frozen=True, slots=True, kw_only=True)
class IndividualPlay(Action):
    """Play a W-INDIVIDUAL card (AC15 Spy) on the player `target`."""

    type: Literal["individual_play"] = "individual_play"
    card: str
    target: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class IndividualCast(Action):
    """Cast a W-INDIVIDUAL spell (SP08 Far Sight) on the player `target`."""

    type: Literal["individual_cast"] = "individual_cast"
    spell: str
    target: int | None = None


@dataclass(slots=True, kw_only=True)
class CardPlayed(Event):
    type: Literal["card_played"] = "card_played"
    player: int
    card: str


@dataclass(slots=True, kw_only=True)
class CardDiscarded(Event):
    """A card went face down onto the discard pile: which one, nobody else learns (BM-DIG-1)."""

    type: Literal["card_discarded"] = "card_discarded"
    player: int


@dataclass(slots=True, kw_only=True)
class PlayerSpied(Event):
    """Everyone sees whom a Spy or a Far Sight looks at (the target shows his cards); not what it saw."""

    type: Literal["player_spied"] = "player_spied"
    player: int
    target: int
    source: str


@dataclass(slots=True, kw_only=True)
class SpyReport(Event):
    """What the Spy or Far Sight showed, told to its player alone (`private_to`, BM-SPL-2)."""

    type: Literal["spy_report"] = "spy_report"
    player: int
    target: int
    source: str
    round: int
    hand: list[str]
    quest: str | None = None


@dataclass(slots=True, kw_only=True)
class SpellCast(Event):
    """A spell and what it cost; public, except that the result of a private spell (Far Sight) is told to its
    caster alone (BM-SPL-2)."""

    type: Literal["spell_cast"] = "spell_cast"
    player: int
    spell: str
    cost: int


def when(window: Window) -> Msg:
    """The window as the messages name it ("at the start of your movement step")."""
    return msg(f"bm.window.{window}")


def opening(window: Window) -> Msg:
    """One opening of the window, the span a spell is cast once in (BM-SPL-1): "battle", "movement step" …"""
    return msg(f"bm.window.once.{window}")


def play(state: BMState, pid: int, card_id: str, window: Window | None) -> tuple[ActionCard, list[Event]]:
    """Play `card_id` from `pid`'s hand in `window` (None: no window is open for him now): checked (held, then
    its window), then discarded."""
    hand = state.hands.get(pid, [])
    if card_id not in hand:
        raise RuleError("BM_E_CARD_NOT_IN_HAND", card=names.card_named(card_id))
    card = load().cards.actions_by_id.get(card_id)
    if card is None or card.window != window:
        shown = when(card.window) if card is not None else when(window) if window is not None else ""
        raise RuleError("BM_E_CARD_WINDOW", card=names.card_named(card_id), window=shown)
    _drop(state, pid, card_id)
    return card, [CardPlayed(player=pid, card=card_id)]


def discard(state: BMState, pid: int, card_id: str) -> list[Event]:
    """Discard an unused card, at any time (BM-ACT-5)."""
    if card_id not in state.hands.get(pid, []):
        raise RuleError("BM_E_CARD_NOT_IN_HAND", card=names.card_named(card_id))
    _drop(state, pid, card_id)
    return [CardDiscarded(player=pid)]


def _drop(state: BMState, pid: int, card_id: str) -> None:
    hand = list(state.hands[pid])
    hand.remove(card_id)
    state.hands = {**state.hands, pid: hand}
    state.discard = [*state.discard, card_id]


def cost(state: BMState, spell: Spell) -> int:
    """A spell's cost this round: EV4's surcharge (+1) per Mana Storm whose milder outcome is in force (BM-MAG-3,
    reference ruling 6)."""
    if state.effects.mana_storm != "costly":
        return spell.cost
    storm = next(e for e in load().cards.events if e.id == "EV4")
    return spell.cost + (storm.surcharge or 0) * max(1, state.effects.surcharge)


def cast(state: BMState, pid: int, spell_id: str, window: Window | None, scope: str) -> tuple[Spell, list[Event]]:
    """Cast `spell_id` in `window` (None: no window is open for him) and pay for it (BM-MAG-2: the spend is final).
    `scope` names this opening of the window (a battle, one player's movement step …): each spell is cast at most
    once per scope (BM-SPL-1). Checked in the BM-VAL-0 order: the spell exists, its window, Mana Storm, once per
    window, star power."""
    spell = load().cards.spell.get(spell_id)
    if spell is None:
        raise RuleError("BM_E_UNKNOWN_SPELL", x=spell_id)
    if spell.window != window:
        raise RuleError("BM_E_SPELL_WINDOW", spell=names.card(spell.id), window=when(spell.window))
    if state.effects.mana_storm == "none":
        raise RuleError("BM_E_SPELLS_FORBIDDEN")
    key = f"{scope}:{spell_id}"
    if key in state.cast.get(pid, []):
        raise RuleError("BM_E_SPELL_ALREADY_CAST", spell=names.card(spell.id), window=opening(spell.window))
    price = cost(state, spell)
    stars = state.stars[pid]
    if price > stars.power:
        raise RuleError("BM_E_NOT_ENOUGH_STAR_POWER", spell=names.card(spell.id), c=price, p=stars.power)
    state.stars = {**state.stars, pid: replace(stars, spent=stars.spent + price)}
    state.cast = {**state.cast, pid: [*state.cast.get(pid, []), key]}
    return spell, [SpellCast(player=pid, spell=spell_id, cost=price)]


# ---------------------------------------------------------------- W-INDIVIDUAL


def individual(state: BMState, pid: int) -> Window | None:
    """W-INDIVIDUAL when it is open for `pid`: at any time in his own turn, its quest, movement and combat steps
    (BM-WIN-1); None outside the individual turns. In another player's turn: BM_E_NOT_YOUR_TURN (BM-VAL-0)."""
    if state.phase not in TURN:
        return None
    if state.active != pid:
        raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(state.active))
    return "individual"


def turn_scope(state: BMState, pid: int) -> str:
    """W-INDIVIDUAL's opening: the player's turn this round (BM-SPL-1)."""
    return f"r{state.round}:turn:{pid}"


def individual_play(state: BMState, action: IndividualPlay, rng: Rng) -> list[Event]:
    """AC15 Spy: checked as every card (held, its window), then the player it looks at."""
    card, events = play(state, action.player, action.card, individual(state, action.player))
    return events + (_reveal(state, action.player, card.id, action.target) if card.reveals else [])


def individual_cast(state: BMState, action: IndividualCast, rng: Rng) -> list[Event]:
    """SP08 Far Sight: checked as every spell (its window, Mana Storm, once per turn, its cost), then the player."""
    window = individual(state, action.player)
    spell, events = cast(state, action.player, action.spell, window, turn_scope(state, action.player))
    return events + (_reveal(state, action.player, spell.id, action.target) if spell.reveals else [])


def _reveal(state: BMState, pid: int, source: str, target: int | None) -> list[Event]:
    """`target` (another player still in the game) shows `pid` his hand and current quest card; `pid` keeps what
    he saw, the newest look at each player replacing the older one."""
    if target is None or target == pid or target not in state.active_ids():
        raise RuleError("BM_E_SPY_TARGET")
    hand = tuple(state.hands.get(target, ()))
    quest = state.quests.get(target)
    seen = Sighting(target=target, source=source, round=state.round, hand=hand, quest=quest)
    kept = [s for s in state.sightings.get(pid, []) if s.target != target]
    state.sightings = {**state.sightings, pid: [*kept, seen]}
    return [PlayerSpied(player=pid, target=target, source=source),
            SpyReport(player=pid, target=target, source=source, round=state.round, hand=list(hand), quest=quest,
                      private_to=pid)]


HANDLERS = {"individual_play": individual_play, "individual_cast": individual_cast}
"""W-INDIVIDUAL's actions by type, for the game's one `apply` (allowed in every phase: outside a player's own turn
they are told their window)."""
