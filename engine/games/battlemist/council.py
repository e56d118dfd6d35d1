"""The Wizards' Council phase (BM-RND-3 steps 1.0 – 1.3): the victory check (BM-VIC-1, VIC-2, VIC-4, BM-A-30),
the Star refill (BM-COU-1), the action-card draw (BM-COU-2, COU-8, COU-9, BM-ACT-4 … 7) and each event drawn:
discussion (BM-COU-3, TRD-3), vote order (BM-COU-5, BM-A-9), votes (BM-COU-4, COU-6, BM-A-8), the outcome
(BM-EVT-1, COU-7), its resolution (BM-EVT-2, COU-12, COU-13) and the card's removal (BM-COU-11)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from engine.core import orders as O
from engine.core.errors import RuleError
from engine.core.events import Headline
from engine.core.i18n import msg
from engine.core.models import Action, Decision, Event
from engine.core.orders import Orders
from engine.core.rng import Rng
from engine.games.battlemist import names, windows
from engine.games.battlemist.data import ARMY, EventCard, load
from engine.games.battlemist.dice import Rolled, d10, rank_by_rolls
from engine.games.battlemist.phases import wrong_phase
from engine.games.battlemist.pieces import UNIT_KINDS, CityMark, Troops

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

SEAL = "AR5"
"""Seal of the Council: +1 vote (BM-COU-4, BM-ART-2)."""
Outcome = Literal["a", "b"]
HARSHER: dict[str, int] = {"": 0, "half": 1, "costly": 1, "slow": 1, "none": 2, "no_mountains": 2}
"""A round-long effect set twice in a round keeps the harsher of the two."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Losses:
    """One player's private choice on an event (BM-COU-13): Plague's removals region → kind → n (regions left
    out take the default), or the regions whose lone unit he pays 1 grain for in Peasant Uprising A."""

    removals: dict[str, dict[str, int]] = field(default_factory=dict)
    pay: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True, kw_only=True)
class CouncilState:
    """The event before the Council now (the first of `state.events`): vote order, the declarations so far
    (seat → votes committed, 0: abstained), the threshold T', and once decided the outcome and the private
    choices it asks for (EV2, EV5 A)."""

    card: str
    order: list[int]
    needed: int
    votes: dict[int, int] = field(default_factory=dict)
    outcome: Outcome | None = None
    choices: Orders[Losses] | None = None
    affected: dict[int, list[str]] = field(default_factory=dict)
    """The regions each choosing player must decide on."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Vote(Action):
    """Commit all your votes to the event before the Council, or abstain (BM-COU-6, BM-A-8)."""

    type: Literal["vote"] = "vote"
    commit: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PlagueLosses(Action):
    """Which army units Plague takes (EV2): region → kind → n; regions left out take the default."""

    type: Literal["plague_losses"] = "plague_losses"
    removals: dict[str, dict[str, int]] = field(default_factory=dict)
    lock: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class UprisingPayment(Action):
    """The regions whose lone unit you pay 1 grain for in Peasant Uprising A (EV5); the others are removed."""

    type: Literal["uprising_payment"] = "uprising_payment"
    pay: list[str] = field(default_factory=list)
    lock: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardCard(Action):
    """Discard an unused action card, at any time (BM-ACT-5)."""

    type: Literal["discard"] = "discard"
    card: str


@dataclass(slots=True, kw_only=True)
class GameWon(Headline):
    """The game is over (BM-VIC-1, VIC-2, VIC-3): the winners (several: a shared victory) and everyone's Stars."""

    type: Literal["game_won"] = "game_won"
    winners: list[int]
    stars: dict[int, int]
    reason: Literal["stars", "round_cap"]


@dataclass(slots=True, kw_only=True)
class StarsRefilled(Event):
    type: Literal["stars_refilled"] = "stars_refilled"
    round: int


@dataclass(slots=True, kw_only=True)
class CardDrawn(Event):
    """The action card a player drew (private, BM-ACT-3)."""

    type: Literal["card_drawn"] = "card_drawn"
    player: int
    card: str


@dataclass(slots=True, kw_only=True)
class HandFull(Event):
    """A player holding the hand limit draws nothing (BM-COU-8)."""

    type: Literal["hand_full"] = "hand_full"
    player: int


@dataclass(slots=True, kw_only=True)
class EventRevealed(Event):
    """An event drawn is shown and set aside for the Council (BM-ACT-7)."""

    type: Literal["event_revealed"] = "event_revealed"
    player: int
    card: str


@dataclass(slots=True, kw_only=True)
class DeckRebuilt(Event):
    """The exhausted action deck is the shuffled discard pile again (BM-ACT-6)."""

    type: Literal["deck_rebuilt"] = "deck_rebuilt"
    cards: int


@dataclass(slots=True, kw_only=True)
class CouncilDiscussion(Event):
    """Open a free, non-binding discussion of `card` before its vote (BM-COU-3, BM-TRD-3)."""

    type: Literal["council_discussion"] = "council_discussion"
    card: str


@dataclass(slots=True, kw_only=True)
class VoteOpened(Event):
    """The vote on `card`: who votes in which order, with how many votes, and the threshold T' (BM-EVT-1)."""

    type: Literal["vote_opened"] = "vote_opened"
    card: str
    order: list[int]
    votes: dict[int, int]
    needed: int


@dataclass(slots=True, kw_only=True)
class VoteCast(Event):
    type: Literal["vote_cast"] = "vote_cast"
    player: int
    committed: int
    """0: abstained."""


@dataclass(slots=True, kw_only=True)
class EventDecided(Event):
    """The committed total against T' (BM-COU-7): outcome A (milder) or B."""

    type: Literal["event_decided"] = "event_decided"
    card: str
    committed: int
    needed: int
    outcome: Outcome


@dataclass(slots=True, kw_only=True)
class CitiesStruck(Event):
    """Cataclysmic Tremors (EV1): large cities reduced, cities destroyed."""

    type: Literal["cities_struck"] = "cities_struck"
    reduced: list[str] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class UnitsLost(Event):
    """Army units an event removed from one player's units in one region (EV2, EV5)."""

    type: Literal["units_lost"] = "units_lost"
    player: int
    region: str
    units: dict[str, int]


@dataclass(slots=True, kw_only=True)
class UprisingPaid(Event):
    type: Literal["uprising_paid"] = "uprising_paid"
    player: int
    regions: list[str]


@dataclass(slots=True, kw_only=True)
class EffectSet(Event):
    """A round-long effect of an event (EV3, EV4, EV6): `effect` is the Effects field, `value` its new value."""

    type: Literal["effect_set"] = "effect_set"
    card: str
    effect: Literal["failed_harvest", "mana_storm", "blizzard"]
    value: str


@dataclass(slots=True, kw_only=True)
class EventRemoved(Event):
    """A resolved event card leaves the game (BM-COU-11)."""

    type: Literal["event_removed"] = "event_removed"
    card: str


def discard_card(state: BMState, action: DiscardCard, rng: Rng) -> list[Event]:
    """BM-ACT-5: any unused card of your hand goes to the discard pile, in any phase of play (windows.discard)."""
    from engine.games.battlemist.state import Phase

    if state.phase is Phase.GAME_OVER:
        raise wrong_phase(state.phase, "discard")
    return windows.discard(state, action.player, action.card)


# --- 1.0 victory -------------------------------------------------------------------------------------------------

def regions_held(state: BMState, pid: int) -> int:
    """The regions `pid` controls, his homeland included (BM-CTL-1, CTL-2)."""
    return sum(1 for r in state.regions if state.controller(r) == pid)


def best(state: BMState, candidates: list[int]) -> list[int]:
    """BM-VIC-2: the most Stars, then the most large cities, then the most controlled regions; those still
    tied share the victory."""
    def key(pid: int) -> tuple[int, int, int]:
        return state.stars[pid].owned, state.large_cities(pid), regions_held(state, pid)

    if not candidates:
        return []
    top = max(key(pid) for pid in candidates)
    return [pid for pid in candidates if key(pid) == top]


def qualified(state: BMState) -> list[int]:
    """The players owning at least the victory Stars (BM-VIC-1), in seat order."""
    need = load().rules.victory_stars
    return [pid for pid in state.active_ids() if state.stars[pid].owned >= need]


def end_game(state: BMState, winners: list[int], reason: Literal["stars", "round_cap"]) -> list[Event]:
    from engine.games.battlemist.state import Phase

    state.winners = winners
    state.phase = Phase.GAME_OVER
    state.active = None
    state.council = None
    return [GameWon(winners=winners, stars={pid: s.owned for pid, s in state.stars.items()}, reason=reason)]


def victory_check(state: BMState) -> list[Event]:
    """Step 1.0 (BM-VIC-1, VIC-4): a qualifying player ends the game at once; ties by BM-VIC-2 (BM-A-30)."""
    found = qualified(state)
    return end_game(state, best(state, found), "stars") if found else []


def round_cap_reached(state: BMState) -> bool:
    """BM-VIC-3 [OPT]: with a round cap R, the game ends after maintenance of round R (checked by the caller
    after maintenance)."""
    cap = state.options.round_cap
    return cap > 0 and state.round >= cap


def end_at_round_cap(state: BMState) -> list[Event]:
    """The round cap's end (BM-VIC-3): BM-VIC-2's order among all players still in the game decides."""
    return end_game(state, best(state, state.active_ids()), "round_cap")


# --- 1.1 refill, 1.2 draw ----------------------------------------------------------------------------------------

def refill_stars(state: BMState) -> list[Event]:
    """Step 1.1 (BM-COU-1): every Star becomes unspent."""
    state.stars = {pid: replace(s, spent=0) for pid, s in state.stars.items()}
    return [StarsRefilled(round=state.round)]


def _rebuild(state: BMState, rng: Rng) -> list[Event]:
    """BM-ACT-6: the discards, shuffled, are the new deck."""
    deck = list(state.discard)
    rng.shuffle(deck)
    state.deck = deck
    state.discard = []
    return [DeckRebuilt(cards=len(deck))]


def draw_action_card(state: BMState, pid: int, rng: Rng) -> list[Event]:
    """One draw of BM-COU-2: events drawn are revealed and set aside, and he draws again until a normal card
    (BM-ACT-7, COU-9); an empty deck is rebuilt from the discards (BM-ACT-6), and with both empty nothing is
    drawn. BM_E_HAND_LIMIT (internal) at the hand limit (BM-ACT-4)."""
    data = load()
    if len(state.hands.get(pid, [])) >= data.rules.hand_limit:
        raise RuleError("BM_E_HAND_LIMIT")
    events: list[Event] = []
    while True:
        if not state.deck:
            if not state.discard:
                return events
            events += _rebuild(state, rng)
        card, state.deck = state.deck[0], state.deck[1:]
        if isinstance(data.cards.card[card], EventCard):
            state.events = [*state.events, card]
            events.append(EventRevealed(player=pid, card=card))
            continue
        state.hands = {**state.hands, pid: [*state.hands.get(pid, []), card]}
        events.append(CardDrawn(player=pid, card=card, private_to=pid))
        return events


def draw_cards(state: BMState, rng: Rng) -> list[Event]:
    """Step 1.2 (BM-COU-2, COU-8): in seat order each player below the hand limit draws one card."""
    limit = load().rules.hand_limit
    events: list[Event] = []
    for pid in state.active_ids():
        if len(state.hands.get(pid, [])) >= limit:
            events.append(HandFull(player=pid))
        else:
            events += draw_action_card(state, pid, rng)
    return events


def begin_council(state: BMState, rng: Rng) -> list[Event]:
    """Round `state.round`'s Council (the caller has set the round number): phase COUNCIL, steps 1.0 – 1.2, then
    the first event's vote. Leaves GAME_OVER after a win, else phase COUNCIL with `state.council` set (an event
    to vote on) or None (no event: the Council is over, `council_over`)."""
    from engine.games.battlemist.state import Phase

    state.phase = Phase.COUNCIL
    events = victory_check(state)
    if events:
        return events
    events = refill_stars(state)
    events += draw_cards(state, rng)
    return events + open_vote(state, rng)


def council_over(state: BMState) -> bool:
    """The Council has nothing left: no event waits and none is being decided."""
    from engine.games.battlemist.state import Phase

    return state.phase is Phase.COUNCIL and state.council is None and not state.events


# --- 1.3 votes ---------------------------------------------------------------------------------------------------

def votes_of(state: BMState, pid: int) -> int:
    """BM-COU-4: 1, plus the votes of his large cities, plus 1 for the Seal of the Council."""
    cities = load().rules.cities
    own = sum(cities[c.kind].votes for r, c in state.cities.items() if state.controller(r) == pid)
    return 1 + own + (1 if SEAL in state.artifacts.get(pid, []) else 0)


def vote_order(state: BMState, rng: Rng) -> tuple[list[int], list[Event]]:
    """BM-COU-5: fewest large cities first; players tied on large cities roll off, highest first (BM-A-9)."""
    ids = state.active_ids()
    order: list[int] = []
    events: list[Event] = []
    for count in sorted({state.large_cities(pid) for pid in ids}):
        group = [pid for pid in ids if state.large_cities(pid) == count]
        if len(group) == 1:
            order += group
            continue
        ranked, rolls = rank_by_rolls(rng, group, "vote_order")
        order += ranked
        events += rolls
    return order, events


def open_vote(state: BMState, rng: Rng) -> list[Event]:
    """Put the next event drawn (in draw order, BM-COU-10, BM-A-13) before the Council, or close it."""
    if not state.events:
        state.council = None
        return []
    card = state.events[0]
    event = load().cards.card[card]
    assert isinstance(event, EventCard)
    order, events = vote_order(state, rng)
    needed = event.needed(len(state.active_ids()))
    state.council = CouncilState(card=card, order=order, needed=needed)
    return [CouncilDiscussion(card=card), *events,
            VoteOpened(card=card, order=order, votes={pid: votes_of(state, pid) for pid in order}, needed=needed)]


def next_voter(council: CouncilState) -> int | None:
    return next((pid for pid in council.order if pid not in council.votes), None)


def vote(state: BMState, action: Vote, rng: Rng) -> list[Event]:
    """BM-COU-6: in vote order, commit all your votes or abstain (BM_E_VOTE_ORDER out of turn or twice); the
    last declaration decides and resolves the event."""
    from engine.games.battlemist.state import Phase

    council = state.council
    if state.phase is not Phase.COUNCIL or council is None or council.outcome is not None:
        raise wrong_phase(state.phase, "vote")
    voter = next_voter(council)
    if action.player != voter:
        raise RuleError("BM_E_VOTE_ORDER", player=state.name(voter))
    committed = votes_of(state, voter) if action.commit else 0
    council = replace(council, votes={**council.votes, voter: committed})
    state.council = council
    events: list[Event] = [VoteCast(player=voter, committed=committed)]
    if next_voter(council) is None:
        events += decide(state, rng)
    return events


def decide(state: BMState, rng: Rng) -> list[Event]:
    """BM-COU-7, BM-EVT-1: votes committed ≥ T' give outcome A, else B; then the resolution."""
    council = state.council
    assert council is not None
    total = sum(council.votes.values())
    outcome: Outcome = "a" if total >= council.needed else "b"
    state.council = replace(council, outcome=outcome)
    events: list[Event] = [EventDecided(card=council.card, committed=total, needed=council.needed,
                                        outcome=outcome)]
    return events + RESOLVE[council.card](state, rng, outcome)


def finish_event(state: BMState, rng: Rng) -> list[Event]:
    """BM-COU-11: the resolved card leaves the game (not the discards); the next event comes up."""
    council = state.council
    assert council is not None
    state.events = state.events[1:]
    state.council = None
    return [EventRemoved(card=council.card), *open_vote(state, rng)]


# --- resolutions (BM-EVT-2; every event strikes all players alike, BM-COU-12) -------------------------------------

def _card(card: str) -> EventCard:
    event = load().cards.card[card]
    assert isinstance(event, EventCard)
    return event


def tremors(state: BMState, rng: Rng, outcome: Outcome) -> list[Event]:
    """EV1: A reduces every large city to a city; B rolls a d10 per city (region-id order), ≥ the card's value
    destroys it."""
    events: list[Event] = []
    if outcome == "a":
        reduced = sorted(r for r, c in state.cities.items() if c.kind == "large_city")
        state.cities = {r: CityMark(kind="city", since=c.since) if r in reduced else c
                        for r, c in state.cities.items()}
        events.append(CitiesStruck(reduced=reduced))
    else:
        on = _card("EV1").destroy_on or 0
        destroyed = []
        for region in sorted(state.cities):
            die = d10(rng)
            events.append(Rolled(purpose="tremors", dice=[die], region=region))
            if die >= on:
                destroyed.append(region)
        state.cities = {r: c for r, c in state.cities.items() if r not in destroyed}
        events.append(CitiesStruck(destroyed=destroyed))
    return events + finish_event(state, rng)


def _effect(state: BMState, card: str, name: Literal["failed_harvest", "mana_storm", "blizzard"],
            value: str, counter: Literal["halvings", "surcharge"] | None = None) -> list[Event]:
    """Set a round-long effect: the harsher outcome stays in force, and each A of an event that counts (EV3,
    EV4) adds up, so that two copies drawn in one round both apply (the reference's ruling 6)."""
    kept = max(getattr(state.effects, name), value, key=HARSHER.__getitem__)
    state.effects = replace(state.effects, **{name: kept})
    if counter is not None:
        state.effects = replace(state.effects, **{counter: getattr(state.effects, counter) + 1})
    return [EffectSet(card=card, effect=name, value=kept)]


def failed_harvest(state: BMState, rng: Rng, outcome: Outcome) -> list[Event]:
    """EV3: grain income halved (A; twice for two copies) or none (B) this round."""
    events = _effect(state, "EV3", "failed_harvest", "half", "halvings") if outcome == "a" else _effect(
        state, "EV3", "failed_harvest", "none")
    return events + finish_event(state, rng)


def mana_storm(state: BMState, rng: Rng, outcome: Outcome) -> list[Event]:
    """EV4: every spell +1 star (A; +2 for two copies) or no spells (B) this round."""
    events = _effect(state, "EV4", "mana_storm", "costly", "surcharge") if outcome == "a" else _effect(
        state, "EV4", "mana_storm", "none")
    return events + finish_event(state, rng)


def blizzard(state: BMState, rng: Rng, outcome: Outcome) -> list[Event]:
    """EV6: movement 1 (A), and no entering mountains (B), this round; a second copy adds nothing new."""
    return _effect(state, "EV6", "blizzard", "slow" if outcome == "a" else "no_mountains") + finish_event(state, rng)


def plague_targets(state: BMState, at: int) -> dict[int, list[str]]:
    """EV2: each player's regions (region-id order) where he has at least `at` army units."""
    found: dict[int, list[str]] = {}
    playing = set(state.active_ids())
    for region in sorted(state.troops):
        for pid, units in state.troops[region].items():
            if pid in playing and units.army() >= at:
                found.setdefault(pid, []).append(region)
    return found


def lone_units(state: BMState) -> dict[int, list[str]]:
    """EV5: each player's non-homeland regions he controls with exactly 1 army unit (region-id order)."""
    found: dict[int, list[str]] = {}
    playing = set(state.active_ids())
    for region in sorted(state.troops):
        if region.startswith("H-"):
            continue
        for pid, units in state.troops[region].items():
            if pid in playing and units.army() == 1 and state.controller(region) == pid:
                found.setdefault(pid, []).append(region)
    return found


def _ask(state: BMState, rng: Rng, affected: dict[int, list[str]], choosing: list[int]) -> list[Event]:
    """Open the private, simultaneous choices of BM-COU-13 (BM-SIM-1 … 5) for the `choosing` players (those
    with a real choice); the others take the defaults at once when the book is complete."""
    council = state.council
    assert council is not None
    seats = [pid for pid in state.seat_order() if pid in choosing]
    state.council = replace(council, choices=Orders(seats=seats), affected=affected)
    return resolve_choices(state, rng) if not seats else []


def plague(state: BMState, rng: Rng, outcome: Outcome) -> list[Event]:
    """EV2: in each region where a player has 7+ (A) or 4+ (B) army units he removes 2, his own choice (asked
    only of players with two kinds of army unit in such a region)."""
    card = _card("EV2")
    at = (card.a_at if outcome == "a" else card.b_at) or 0
    affected = plague_targets(state, at)
    choosing = [pid for pid, regions in affected.items()
                if any(len(set(state.units(r, pid).counts()) & set(ARMY)) > 1 for r in regions)]
    return _ask(state, rng, affected, choosing)


def uprising(state: BMState, rng: Rng, outcome: Outcome) -> list[Event]:
    """EV5: each lone unit costs 1 grain or is removed (A, his choice, asked only of players with grain), or is
    removed (B)."""
    lone = lone_units(state)
    choosing = [pid for pid in lone if state.stock[pid].grain] if outcome == "a" else []
    return _ask(state, rng, lone, choosing)


RESOLVE = {"EV1": tremors, "EV2": plague, "EV3": failed_harvest, "EV4": mana_storm, "EV5": uprising,
           "EV6": blizzard}


def _take(state: BMState, pid: int, region: str, units: dict[str, int]) -> Event:
    here = state.troops[region][pid]
    for kind, n in units.items():
        here = here.plus(kind, -n)
    rest = {p: t for p, t in state.troops[region].items() if p != pid}
    if here.total():
        rest[pid] = here
    state.troops = {**state.troops, region: rest} if rest else {
        r: t for r, t in state.troops.items() if r != region}
    return UnitsLost(player=pid, region=region, units={k: n for k, n in units.items() if n})


def _remove_lone(state: BMState, pid: int, regions: list[str]) -> list[Event]:
    events: list[Event] = []
    for region in regions:
        kind = next(k for k in ARMY if state.units(region, pid).get(k))
        events.append(_take(state, pid, region, {kind: 1}))
    return events


def default_removal(units: Troops, n: int) -> dict[str, int]:
    """BM-COU-13's default for Plague: infantry first, then archers, then cavalry."""
    taken: dict[str, int] = {}
    for kind in ARMY:
        k = min(n - sum(taken.values()), units.get(kind))
        if k:
            taken[kind] = k
    return taken


# --- the private choices -----------------------------------------------------------------------------------------

def _book(state: BMState, card: str, action: Action) -> tuple[CouncilState, Orders[Losses]]:
    """The open choice on `card` for `action.player`: phase, then lock, then a seat that must choose."""
    from engine.games.battlemist.state import Phase

    council = state.council
    if state.phase is not Phase.COUNCIL or council is None or council.choices is None or council.card != card:
        raise wrong_phase(state.phase, action.type)
    book = council.choices
    if action.player in book.locked:
        raise RuleError("BM_E_LOCKED", what=names.card(card))
    if action.player not in book.seats:
        raise RuleError("BM_E_EVENT_NO_CHOICE", card=names.card(card))
    return council, book


def _check_plague(state: BMState, action: PlagueLosses, regions: list[str]) -> None:
    n = _card("EV2").remove or 0
    for region, units in action.removals.items():
        if region not in regions:
            raise RuleError("BM_E_PLAGUE_REGION", region=region)
        here = state.units(region, action.player)
        for kind, k in units.items():
            if kind not in ARMY or k < 0 or here.get(kind) < k:
                raise RuleError("BM_E_UNIT_NOT_FOUND", n=here.get(kind) if kind in ARMY else 0,
                                type=msg(f"bm.movement.unit.{kind}") if kind in UNIT_KINDS else kind, region=region)
        if sum(units.values()) != min(n, here.army()):
            raise RuleError("BM_E_PLAGUE_COUNT", n=min(n, here.army()), region=region)


def _check_uprising(state: BMState, action: UprisingPayment, regions: list[str]) -> None:
    for region in action.pay:
        if region not in regions or action.pay.count(region) > 1:
            raise RuleError("BM_E_UPRISING_REGION", region=region)
    have = state.stock[action.player].grain
    if len(action.pay) > have:
        raise RuleError("BM_E_INSUFFICIENT_RESOURCES", need=msg("bm.res.grain", n=len(action.pay)),
                        have=msg("bm.res.grain", n=have))


def choose_plague(state: BMState, action: PlagueLosses, rng: Rng) -> list[Event]:
    """A player's private Plague removals (BM-COU-13); editable until locked (BM-SIM-2)."""
    council, book = _book(state, "EV2", action)
    _check_plague(state, action, council.affected[action.player])
    return _record(state, council, book, action, Losses(removals=dict(action.removals)), action.lock, rng)


def pay_uprising(state: BMState, action: UprisingPayment, rng: Rng) -> list[Event]:
    """A player's private Peasant Uprising A choice (BM-COU-13); editable until locked (BM-SIM-2)."""
    council, book = _book(state, "EV5", action)
    _check_uprising(state, action, council.affected[action.player])
    return _record(state, council, book, action, Losses(pay=list(action.pay)), action.lock, rng)


def _record(state: BMState, council: CouncilState, book: Orders[Losses], action: Action, losses: Losses,
            final: bool, rng: Rng) -> list[Event]:
    book = O.submit(book, action.player, losses)
    if final:
        book = O.lock(book, action.player)
    state.council = replace(council, choices=book)
    return resolve_choices(state, rng) if O.complete(book) else []


def resolve_choices(state: BMState, rng: Rng) -> list[Event]:
    """Every choice locked (BM-SIM-3): reveal them and apply every affected player's, in seat order, with the
    defaults for what a player left out or was not asked (BM-SIM-5, BM-COU-13)."""
    council = state.council
    assert council is not None and council.choices is not None
    chosen = dict(O.reveal(council.choices))
    events: list[Event] = []
    n = _card("EV2").remove or 0
    for pid in state.seat_order():
        regions = council.affected.get(pid)
        if regions is None:
            continue
        losses = chosen.get(pid) or Losses()
        if council.card == "EV2":
            for region in regions:
                units = losses.removals.get(region) or default_removal(state.units(region, pid), n)
                events.append(_take(state, pid, region, units))
            continue
        if losses.pay:
            stock = state.stock[pid]
            state.stock = {**state.stock, pid: stock.minus({"grain": len(losses.pay)})}
            events.append(UprisingPaid(player=pid, regions=list(losses.pay)))
        events += _remove_lone(state, pid, [r for r in regions if r not in losses.pay])
    return events + finish_event(state, rng)


def leave_council(state: BMState, pid: int, rng: Rng) -> list[Event]:
    """`pid` left the game (the caller has marked him): he no longer votes or chooses, his declaration if made
    stands, and a vote or a book that he alone held open completes now."""
    council = state.council
    if council is None:
        return []
    if council.choices is not None:
        book = O.withdraw(council.choices, pid)
        state.council = replace(council, choices=book,
                                affected={p: r for p, r in council.affected.items() if p != pid})
        return resolve_choices(state, rng) if O.complete(book) else []
    if pid in council.votes:
        return []
    state.council = replace(council, order=[p for p in council.order if p != pid])
    return decide(state, rng) if next_voter(state.council) is None else []


def seen_by(council: CouncilState | None, viewer: int | None) -> CouncilState | None:
    """The Council as `viewer` (None: a spectator) may see it: the others' unlocked choices are hidden
    (BM-SIM-4)."""
    if council is None or council.choices is None:
        return council
    drafts = {p: d for p, d in council.choices.drafts.items() if p == viewer}
    return replace(council, choices=replace(council.choices, drafts=drafts))


HANDLERS = {Vote: vote, PlagueLosses: choose_plague, UprisingPayment: pay_uprising, DiscardCard: discard_card}
"""This module's actions and their handlers, for the game's dispatcher."""


# --- waiting and timeouts ----------------------------------------------------------------------------------------

def council_decisions(state: BMState) -> list[Decision]:
    """Who the Council waits for: the next voter, or every player whose private choice is missing."""
    council = state.council
    if council is None:
        return []
    if council.choices is None:
        voter = next_voter(council)
        if voter is None:
            return []
        return [Decision(player=voter, kind="vote",
                         detail={"card": council.card, "votes": votes_of(state, voter), "needed": council.needed,
                                 "committed": sum(council.votes.values())})]
    kind = "plague_losses" if council.card == "EV2" else "uprising_payment"
    return [Decision(player=pid, kind=kind, detail={"card": council.card, "regions": list(council.affected[pid])})
            for pid in O.missing(council.choices)]


def timeout_council(state: BMState, pid: int) -> Action:
    """The stand-in (BM-DIG-19): abstain; in a private choice his unlocked draft, checked when he made it (reference
    ruling 12), else the BM-COU-13 defaults (nothing chosen), locked."""
    council = state.council
    if council is not None and council.choices is not None:
        draft = council.choices.drafts.get(pid) or Losses()
        if council.card == "EV2":
            return PlagueLosses(player=pid, removals=draft.removals)
        return UprisingPayment(player=pid, pay=draft.pay)
    return Vote(player=pid, commit=False)
