"""Battlemist's one `apply`: the action's own rules (each area's handler), then the round's state machine
(BM-RND-3) carried forward through every automatic step until a player must decide again.

The areas keep their steps; this module only knows their order: the Council (council.py), the economy phase
(economy.py), initiative (initiative.py), each player's quest, movement and combat steps in initiative order
(quest.py, movement.py, combat.py), the cleanup (economy.cleanup), maintenance (upkeep.py), and the round's end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.core.errors import RuleError
from engine.core.events import Headline, PlayerLeft, RoundStarted, TurnStarted
from engine.core.models import Action, Event, copier
from engine.core.orders import complete, withdraw
from engine.core.players import with_status
from engine.core.rng import Rng
from engine.core.turns import Gate, Seating
from engine.games.battlemist import combat, council, economy, initiative, movement, quest, setup, upkeep, windows
from engine.games.battlemist.battle import Combat
from engine.games.battlemist.phases import wrong_phase
from engine.games.battlemist.pieces import Effects, Stars
from engine.games.battlemist.quest_cards import first_quests
from engine.games.battlemist.state import BMState, Phase

Handler = Callable[[BMState, Any, Rng], list[Event]]


@dataclass(slots=True, kw_only=True)
class TurnBegun(TurnStarted):
    """A player's individual phase begins (BM-RND-3, P3)."""

    round: int


@dataclass(slots=True, kw_only=True)
class RoundBegun(RoundStarted):
    """Round n begins with its Council."""

    type: Literal["round_begun"] = "round_begun"


@dataclass(slots=True, kw_only=True)
class RoundEnded(Event):
    type: Literal["round_ended"] = "round_ended"
    round: int


@dataclass(slots=True, kw_only=True)
class GameAbandoned(Headline):
    """Fewer than two players are left: the game ends with the one left, if any, as its winner."""

    type: Literal["game_abandoned"] = "game_abandoned"
    winners: list[int]


def type_of(key: object) -> str:
    """The `type` an action or event class writes (a string is taken as the type itself)."""
    return key if isinstance(key, str) else str(key.__dataclass_fields__["type"].default)  # type: ignore[attr-defined]


HANDLERS: dict[str, Handler] = {
    type_of(key): handler
    for table in (setup.HANDLERS, council.HANDLERS, initiative.HANDLERS, quest.HANDLERS, movement.HANDLERS,
                  combat.HANDLERS, windows.HANDLERS,
                  {economy.EconStart: economy.econ_start, economy.EconOrders: economy.econ_orders,
                   economy.TradeOffer: economy.trade_offer, economy.TradeAnswer: economy.trade_answer,
                   upkeep.SubmitUpkeep: upkeep.submit_upkeep})
    for key, handler in table.items()
}
"""Every action type → its area's handler."""

TRADES = frozenset({type_of(economy.TradeOffer), type_of(economy.TradeAnswer)})
ANY_TIME = frozenset({type_of(council.DiscardCard), type_of(combat.CasualtyOrder), *windows.HANDLERS}) | TRADES
"""Allowed in every phase: discarding (BM-ACT-5), standing casualty orders (BM-DIG-24), W-INDIVIDUAL plays
(outside the player's own turn they are told their window or BM_E_NOT_YOUR_TURN) and player trades, which say
themselves when trading is closed (BM_E_TRADE_PARTNER_LOCKED, BM-TRD-5)."""
MOVES = frozenset(movement.HANDLERS)
ALLOWED: dict[Phase, frozenset[str]] = {
    Phase.DRAFT: frozenset({type_of(setup.PickRace)}),
    Phase.BUILD: frozenset({type_of(setup.B.PlaceTile)}),
    Phase.COUNCIL: frozenset(map(type_of, (council.Vote, council.PlagueLosses, council.UprisingPayment))),
    Phase.ECONSTART: frozenset({type_of(economy.EconStart)}),
    Phase.ORDERS: frozenset({type_of(economy.EconOrders)}),
    Phase.INITIATIVE: frozenset({type_of(initiative.InitiativeMod)}),
    Phase.QUEST: frozenset(quest.HANDLERS) | MOVES,  # another player's move order is told BM_E_NOT_YOUR_TURN
    Phase.MOVEMENT: MOVES,
    Phase.COMBAT: frozenset(combat.HANDLERS) | MOVES,  # a move after END_MOVE is told BM_E_MOVEMENT_DONE
    Phase.UPKEEP: frozenset({type_of(upkeep.SubmitUpkeep)}),
    Phase.GAME_OVER: frozenset(),
}


def _wrong_phase(phase: Phase, kind: str, allowed: object = ()) -> RuleError:
    return wrong_phase(phase)


GATE: Gate[Phase] = Gate({phase: kinds | ANY_TIME for phase, kinds in ALLOWED.items()}, _wrong_phase)
TURN_STEPS = (Phase.QUEST, Phase.MOVEMENT, Phase.COMBAT)
TURN = ALLOWED[Phase.QUEST] | ALLOWED[Phase.MOVEMENT] | ALLOWED[Phase.COMBAT]
"""The commands of a player's own individual turn (BM-A-28)."""


def _gate(state: BMState, action: Action) -> None:
    """The phase gate (BM-VAL-0 group 1). A command of another step of the individual turn is the wrong phase for
    the active player, but from anyone else it is not his turn (BM-RND-4, the reference's ruling 3)."""
    if (state.phase in TURN_STEPS and action.player != state.active and action.type in TURN
            and action.type not in ALLOWED[state.phase]):
        raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(state.active))
    GATE.check(state.phase, action.type)


def _game_over(state: BMState) -> RuleError | None:
    """Once the game is over every command is in the wrong phase (BM-VAL-4: the spec has no code of its own)."""
    return wrong_phase(state.phase) if state.phase is Phase.GAME_OVER else None


SEATING: Seating[BMState] = Seating(_game_over, not_seated="BM_E_NOT_IN_GAME", out="BM_E_NOT_IN_GAME")
copy = copier(BMState)


def apply(state: BMState, action: Action) -> tuple[BMState, list[Event]]:
    """The new state and its events, or RuleError; `state` is never changed (BM-VAL-1, BM-DIG-20)."""
    s = copy(state)
    rng = Rng(s.rng)
    events: list[Event] = []
    if not SEATING.admit(s, action, lambda pid, by: events.extend(leave(s, pid, by, rng))):
        _gate(s, action)
        events += HANDLERS[action.type](s, action, rng)
    events += advance(s, rng)
    s.rng = rng.export()
    s.seq = state.seq + 1
    return s, events


# ---------------------------------------------------------------------------------------------------- the round


def begin_round(state: BMState, rng: Rng) -> list[Event]:
    """Round n begins with its Council (BM-RND-3, P1); before round 1, each player draws his first quest
    (BM-SET-8)."""
    events = first_quests(state, rng) if state.round == 0 else []
    state.round += 1
    return [*events, RoundBegun(round=state.round), *council.begin_council(state, rng)]


def _begin_turn(state: BMState, rng: Rng, player: int) -> list[Event]:
    """One player's individual phase (BM-A-28): quest, then movement, then combat."""
    state.active = player
    state.phase = Phase.QUEST
    return [TurnBegun(player=player, round=state.round), *quest.begin_quest_step(state, rng)]


def _after_turn(state: BMState, rng: Rng) -> list[Event]:
    """The next player in initiative order, or after the last one the cleanup (3.z) and maintenance (P4)."""
    order = [p for p in state.order if p in state.active_ids()]
    later = order[order.index(state.active) + 1:] if state.active in order else []
    if later:
        return _begin_turn(state, rng, later[0])
    state.active = None
    return [*economy.cleanup(state, rng), *upkeep.begin_upkeep(state, rng)]


def _end_round(state: BMState, rng: Rng) -> list[Event]:
    """4.2: the round cap (BM-VIC-3), else the round's effects end and the next round begins."""
    if council.round_cap_reached(state):
        return council.end_at_round_cap(state)
    ended = RoundEnded(round=state.round)
    state.effects = Effects()
    state.cast = {}
    state.economy = None
    state.movement = None
    state.order = []
    return [ended, *begin_round(state, rng)]


def _next(state: BMState) -> Callable[[BMState, Rng], list[Event]] | None:
    """The automatic step due now, or None while a player must decide."""
    phase = state.phase
    if phase is Phase.COUNCIL and state.round == 0:
        return begin_round
    if phase is Phase.COUNCIL and council.council_over(state):
        return economy.begin_economy
    if phase in (Phase.ECONSTART, Phase.ORDERS) and economy.economy_finished(state):
        return initiative.begin_initiative
    if phase is Phase.INITIATIVE and initiative.initiative_done(state):
        return lambda s, rng: _begin_turn(s, rng, s.order[0])
    if phase is Phase.QUEST and state.quest_step is None:
        return movement.begin_movement
    if phase is Phase.MOVEMENT and state.movement is not None and state.movement.done:
        return combat.begin_combat
    if phase is Phase.COMBAT and combat.finished(state):
        return _after_turn
    if phase is Phase.UPKEEP and upkeep.upkeep_finished(state):
        return _end_round
    return None


def advance(state: BMState, rng: Rng) -> list[Event]:
    """Run the automatic steps in order until a decision is pending or the game is over; after each, the
    occupations whose occupier has lost his army there end (BM-HOM-4)."""
    events = combat.lapsed_occupations(state)
    while state.phase is not Phase.GAME_OVER and (step := _next(state)) is not None:
        events += step(state, rng)
        events += combat.lapsed_occupations(state)
    return events


# ---------------------------------------------------------------------------------------------------- leaving


def leave(state: BMState, pid: int, removed_by: int | None, rng: Rng) -> list[Event]:
    """`pid` leaves for good (project ruling: the spec has none, docs/rules/battlemist.md): his units, heroes,
    cards, quest and Stars leave the table (the Stars back to the pool), his open submissions are withdrawn, and
    a step that waited only for him goes on."""
    state.players = with_status(state.players, pid, "resigned")
    state.troops = {r: here for r, h in state.troops.items()
                    if (here := {p: t for p, t in h.items() if p != pid})}
    state.heroes = [h for h in state.heroes if h.owner != pid]
    state.occupied = {h: p for h, p in state.occupied.items() if p != pid and h != state.homeland(pid)}
    state.discard = [*state.discard, *state.hands.get(pid, [])]
    state.hands = {p: cards for p, cards in state.hands.items() if p != pid}
    if pid in state.quests:
        state.quest_discard = [*state.quest_discard, state.quests[pid]]
        state.quests = {p: q for p, q in state.quests.items() if p != pid}
    stars = state.stars.get(pid, Stars())
    state.star_pool += stars.owned
    state.stars = {**state.stars, pid: Stars()}
    events: list[Event] = [PlayerLeft(player=pid, removed_by=removed_by)]
    events += council.leave_council(state, pid, rng) + initiative.leave_initiative(state, pid, rng)
    events += quest.leave_quest(state, pid)
    events += _withdraw_economy(state, pid, rng)
    if state.active == pid:
        events += _skip_turn(state, rng)
    elif state.combat.battle is not None and pid in state.combat.battle.players():
        state.combat = replace(state.combat, battle=None)  # his battle ends with him; the other side stays
        events += combat.drive(state, rng)
    if len(state.active_ids()) < 2 and state.phase is not Phase.GAME_OVER:
        state.winners = state.active_ids()
        state.phase = Phase.GAME_OVER
        events.append(GameAbandoned(winners=list(state.winners)))
    return events


RESOLVES: dict[str, Callable[[BMState, Rng], list[Event]]] = {
    "econstart": economy.harvest, "orders": economy.resolve_orders, "upkeep": upkeep.pay_upkeep}
"""What the completion of each economy step's book runs."""


def _withdraw_economy(state: BMState, pid: int, rng: Rng) -> list[Event]:
    """The leaver's submission and trade offers are dropped; if he was the last to lock, the step resolves."""
    eco = state.economy
    name = economy.BOOKS.get(eco.step) if eco is not None else None
    if eco is None or name is None or getattr(eco, name) is None:
        return []
    book = withdraw(getattr(eco, name), pid)
    state.economy = replace(eco, offers=economy.without_offers(eco.offers, pid), **{name: book})
    return RESOLVES[eco.step](state, rng) if complete(book) else []


def _skip_turn(state: BMState, rng: Rng) -> list[Event]:
    """The active player left mid-turn: his steps end where they are, and the next player's turn begins."""
    state.quest_step = None
    state.movement = None
    state.phase = Phase.COMBAT
    state.combat = Combat(standing=state.combat.standing, done=True)
    return []
