"""The economy phase (BM-RND-3 P2): W-ECONSTART plays, the harvest, the secret order sets and their resolution,
merchant and player trades, and the cleanup of cities in uncontrolled regions (3.z).

The phase runs on `engine.core.orders` books kept in one record, `state.economy` (BM-SIM-1 … 5):

* `begin_economy` opens the W-ECONSTART book (phase ECONSTART). Each player commits his plays (AC07, AC16,
  SP10) or passes with `EconStart`; when the last one locks, `harvest` reveals and applies them, pays every
  player his income (BM-ECO-1, ECO-3, ECO-6) and opens the order book (phase ORDERS).
* `EconOrders` drafts, revises and locks an order set. A set is checked as a whole and reports every faulty line
  (BM-VAL-3, BM-A-39); when the last one locks, `resolve_orders` carries all sets out in the fixed order of
  BM-ECO-5 and leaves `state.economy.step == "resolved"`.

Orders are checked by `evaluate`, which also yields the plan that resolution carries out, so a set is resolved
exactly as it was accepted.

Rulings where the spec is silent (docs/rules/battlemist.md §19): the order-set details (37), a card discarded
after it was committed (36), and a trade offer's lifetime (38).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import Field

from engine.core import orders
from engine.core.errors import RuleError
from engine.core.i18n import Msg, msg, translate
from engine.core.models import Action, Decision, Event, copier
from engine.core.orders import Orders
from engine.core.rng import Rng
from engine.games.battlemist import heroes, names, windows
from engine.games.battlemist.data import RESOURCES, ArmyType, Resource, load
from engine.games.battlemist.phases import wrong_phase
from engine.games.battlemist.pieces import CityMark, HeroToken, Stars, Stock

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

Amount = Annotated[int, Field(ge=1)]
T = TypeVar("T")


# ---------------------------------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True, kw_only=True)
class EconPlay:
    """A W-ECONSTART play (BM-ECO-3): AC07 or SP10 on a region the player controls, AC16 on another's city."""

    card: str
    """The action card or spell id."""
    region: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Merchant:
    """Give `amount` of one resource to the merchants for `amount / rate` of another (BM-TRD-1)."""

    kind: Literal["trade"] = "trade"
    give: Resource
    amount: int
    get: Resource


@dataclass(frozen=True, slots=True, kw_only=True)
class Recruit:
    """`n` army units of one type, placed in `region` (BM-REC-1, REC-2)."""

    kind: Literal["recruit"] = "recruit"
    unit: ArmyType
    region: str
    n: Amount = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class NewHero:
    """A new hero in the homeland (BM-HER-1)."""

    kind: Literal["hero"] = "hero"


@dataclass(frozen=True, slots=True, kw_only=True)
class Build:
    """A city, or a large city upgrading a city (BM-CITY-1, CITY-2)."""

    kind: Literal["build"] = "build"
    region: str
    city: Literal["city", "large_city"] = "city"


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayCard:
    """An economy-window action card (W-ECONORDERS): AC06, AC08, AC09, AC12 … AC14."""

    kind: Literal["card"] = "card"
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CastSpell:
    """An economy-window spell (W-ECONORDERS): SP11."""

    kind: Literal["spell"] = "spell"
    spell: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Guild:
    """One Star from the Grey Guild (BM-GLD-1)."""

    kind: Literal["guild"] = "guild"


Line = Annotated[Merchant | Recruit | NewHero | Build | PlayCard | CastSpell | Guild, Field(discriminator="kind")]


@dataclass(frozen=True, slots=True, kw_only=True)
class Offer:
    """A player-to-player trade offer (BM-TRD-2): `source` gives `give` to `target` for `get`."""

    id: int
    source: int
    target: int
    give: dict[str, int]
    get: dict[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class Disband:
    """An upkeep choice (BM-UPK-3): `n` army units of a type disbanded, or a city taken down `n` steps (a large
    city to a city, a city to nothing)."""

    region: str
    what: Literal["infantry", "archers", "cavalry", "city"]
    n: Amount = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class UpkeepPlan:
    """A player's maintenance submission: merchant trades first (BM-UPK-2), then what he disbands."""

    trades: tuple[Merchant, ...] = ()
    disband: tuple[Disband, ...] = ()


Step = Literal["econstart", "orders", "resolved", "upkeep", "paid"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Economy:
    """The economy phase and the maintenance in progress: their order books and the open player trade offers."""

    step: Step
    start: Orders[tuple[EconPlay, ...]] | None = None
    orders: Orders[tuple[Line, ...]] | None = None
    upkeep: Orders[UpkeepPlan] | None = None
    offers: tuple[Offer, ...] = ()
    next_offer: int = 1


# ---------------------------------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True, kw_only=True)
class EconStart(Action):
    """Commit (or revise) one's W-ECONSTART plays; no plays is a pass. `lock` makes them final."""

    type: Literal["econ_start"] = "econ_start"
    plays: tuple[EconPlay, ...] = ()
    lock: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class EconOrders(Action):
    """Draft (or revise) one's economy order set; `lock` makes it final (BM-ECO-2, BM-SIM-2)."""

    type: Literal["econ_orders"] = "econ_orders"
    lines: tuple[Line, ...] = ()
    lock: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class TradeOffer(Action):
    """Offer another player resources for resources [OPT] (BM-TRD-2)."""

    type: Literal["trade_offer"] = "trade_offer"
    to: int
    give: dict[str, int]
    get: dict[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class TradeAnswer(Action):
    """Accept or decline an offer made to you; the offerer may withdraw it by declining."""

    type: Literal["trade_answer"] = "trade_answer"
    offer: int
    accept: bool


# ---------------------------------------------------------------------------------------------------- events


@dataclass(slots=True, kw_only=True)
class PlaysLocked(Event):
    """A player's W-ECONSTART plays or order set is final (only that it is: BM-DIG-7)."""

    type: Literal["econ_locked"] = "econ_locked"
    player: int
    step: str


@dataclass(slots=True, kw_only=True)
class Drafted(Event):
    """A draft was stored; told to its author alone (BM-SIM-4)."""

    type: Literal["econ_drafted"] = "econ_drafted"
    player: int
    step: str


@dataclass(slots=True, kw_only=True)
class HarvestBoosted(Event):
    """A revealed W-ECONSTART play and its target."""

    type: Literal["harvest_boosted"] = "harvest_boosted"
    player: int
    card: str
    region: str


@dataclass(slots=True, kw_only=True)
class Harvested(Event):
    """A player's income this round (public, BM-A-29)."""

    type: Literal["harvested"] = "harvested"
    player: int
    income: dict[str, int]


@dataclass(slots=True, kw_only=True)
class MerchantTraded(Event):
    type: Literal["merchant_traded"] = "merchant_traded"
    player: int
    give: str
    amount: int
    get: str
    received: int


@dataclass(slots=True, kw_only=True)
class CityBuilt(Event):
    type: Literal["city_built"] = "city_built"
    player: int
    region: str
    city: str
    cost: dict[str, int]


@dataclass(slots=True, kw_only=True)
class Recruited(Event):
    type: Literal["recruited"] = "recruited"
    player: int
    region: str
    unit: str
    n: int
    cost: dict[str, int]


@dataclass(slots=True, kw_only=True)
class HeroRecruited(Event):
    type: Literal["hero_recruited"] = "hero_recruited"
    player: int
    number: int
    life: int


@dataclass(slots=True, kw_only=True)
class StarBought(Event):
    """A Grey Guild Star, arriving spent (BM-STAR-4)."""

    type: Literal["star_bought"] = "star_bought"
    player: int
    price: dict[str, int]


@dataclass(slots=True, kw_only=True)
class GuildRefused(Event):
    """An unserved Grey Guild request: nothing is paid (BM-GLD-4)."""

    type: Literal["guild_refused"] = "guild_refused"
    player: int


@dataclass(slots=True, kw_only=True)
class GuildRollOff(Event):
    """The d10 roll-off among requesters with equally few Stars (BM-A-10), each round of rolls."""

    type: Literal["guild_roll_off"] = "guild_roll_off"
    rolls: list[dict[int, int]]


@dataclass(slots=True, kw_only=True)
class TradeOffered(Event):
    type: Literal["trade_offered"] = "trade_offered"
    offer: int
    source: int
    target: int
    give: dict[str, int]
    get: dict[str, int]


@dataclass(slots=True, kw_only=True)
class TradeClosed(Event):
    """An offer accepted (the exchange is done, atomically), declined or withdrawn."""

    type: Literal["trade_closed"] = "trade_closed"
    offer: int
    accepted: bool


@dataclass(slots=True, kw_only=True)
class CityDestroyed(Event):
    type: Literal["city_destroyed"] = "city_destroyed"
    region: str
    city: str
    reason: Literal["uncontrolled", "upkeep"]


# ---------------------------------------------------------------------------------------------------- helpers


def amounts(cost: dict[str, int]) -> list[Msg]:
    """A cost or stock as the messages name it ("5 wood, 5 iron"), resources in their usual order."""
    shown = [msg(f"bm.res.{r}", n=cost[r]) for r in RESOURCES if cost.get(r)]
    return shown or [msg("bm.res.nothing")]


def _add(a: dict[str, int], b: dict[str, int], times: int = 1) -> dict[str, int]:
    return {r: a.get(r, 0) + times * b.get(r, 0) for r in RESOURCES}


def _wrong_phase(state: BMState) -> RuleError:
    step = state.economy.step if state.economy is not None else state.phase.value
    return wrong_phase(state.phase, step)


def check_seat(book: Orders[object], pid: int, what: str) -> None:
    """BM-VAL-0 step 1 for a simultaneous submission: seated in this step, not locked yet."""
    if pid not in book.seats:
        raise RuleError("BM_E_NOT_IN_GAME")
    if pid in book.locked:
        raise RuleError("BM_E_LOCKED", what=msg(f"bm.what.{what}"))


def _short(stock: Stock, cost: dict[str, int]) -> RuleError | None:
    """BM_E_INSUFFICIENT_RESOURCES if `stock` cannot pay `cost` (resources are never negative, BM-UPK-4)."""
    if stock.covers(cost):
        return None
    return RuleError("BM_E_INSUFFICIENT_RESOURCES", need=amounts(cost),
                     have=[msg(f"bm.res.{r}", n=stock.get(r)) for r in RESOURCES if cost.get(r)])


def merchant_rate(state: BMState, pid: int) -> int:
    """3:1, or 2:1 with a large city or an artifact such as the Merchant's Ledger (BM-TRD-1)."""
    data = load()
    ledger = any(data.cards.artifact[a].merchant for a in state.artifacts.get(pid, []) if a in data.cards.artifact)
    good = ledger or state.large_cities(pid) > 0
    return data.rules.merchant.good_rate if good else data.rules.merchant.rate


def merchant_trade(state: BMState, pid: int, stock: Stock, trade: Merchant) -> tuple[Stock, RuleError | None]:
    """The stock after one merchant trade (BM-TRD-1), or the trade's first error: its rate, then its cost."""
    rate = merchant_rate(state, pid)
    if trade.give == trade.get or trade.amount <= 0 or trade.amount % rate:
        return stock, RuleError("BM_E_TRADE_RATE", rate=rate)
    error = _short(stock, {trade.give: trade.amount})
    if error is not None:
        return stock, error
    return stock.minus({trade.give: trade.amount}).plus({trade.get: trade.amount // rate}), None


def open_step(state: BMState, step: str) -> Economy:
    """The record, if the game is in `step` (econstart, orders, upkeep: each also the phase's name) and its book
    is still open; else BM_E_WRONG_PHASE."""
    if state.phase.value != step or state.economy is None or state.economy.step != step:
        raise _wrong_phase(state)
    return state.economy


# ---------------------------------------------------------------------------------------------------- 2.0 / 2.1


def enter_phase(state: BMState, phase: str) -> None:
    from engine.games.battlemist.state import Phase  # state.py imports this module's records

    state.phase = Phase(phase)


def begin_economy(state: BMState, rng: Rng) -> list[Event]:
    """Step 2.0: expects the Council done (this round's effects set); leaves phase ECONSTART with every seat to
    commit his W-ECONSTART plays or pass (BM-ECO-3)."""
    enter_phase(state, "econstart")
    state.economy = Economy(step="econstart", start=Orders(seats=state.active_ids()))
    return []


def _check_play(state: BMState, pid: int, play: EconPlay) -> None:
    """One W-ECONSTART play, checked on (and paid from) the working copy `state`: the card or spell, then its
    region (reference ruling 2)."""
    if play.card.startswith("SP"):
        windows.cast(state, pid, play.card, "econstart", f"r{state.round}:econstart")
    else:
        windows.play(state, pid, play.card, "econstart")
    if play.region not in state.regions:
        raise RuleError("BM_E_UNKNOWN_REGION", x=play.region)
    if play.card == "AC16":
        holder = state.controller(play.region)
        if play.region not in state.cities or holder is None or holder == pid:
            raise RuleError("BM_E_SABOTAGE_TARGET", region=names.region_named(play.region))
    elif play.region == state.homeland(pid):
        raise RuleError("BM_E_HARVEST_HOMELAND", card=names.card_named(play.card))
    elif state.controller(play.region) != pid:
        raise RuleError("BM_E_NOT_CONTROLLED", region=names.region_named(play.region))


def econ_start(state: BMState, action: EconStart, rng: Rng) -> list[Event]:
    """Commit W-ECONSTART plays (checked now, applied when all are revealed); the last lock runs the harvest."""
    eco = open_step(state, "econstart")
    assert eco.start is not None
    pid = action.player
    check_seat(eco.start, pid, "econstart")
    scratch = copier(type(state))(state)
    for play in action.plays:
        _check_play(scratch, pid, play)
    book, events = file_draft(state, pid, "econstart", action.plays, action.lock)
    if orders.complete(book):
        events += harvest(state, rng)
    return events


BOOKS = {"econstart": "start", "orders": "orders", "upkeep": "upkeep"}
"""The economy record's book of each step."""


def without_offers(offers: tuple[Offer, ...], pid: int) -> tuple[Offer, ...]:
    """The open trade offers but those `pid` made or was made (he locked, or left)."""
    return tuple(o for o in offers if pid not in (o.source, o.target))


def file_draft(state: BMState, pid: int, step: str, draft: object, lock: bool) -> tuple[Orders[Any], list[Event]]:
    """Put `pid`'s draft in the step's book (BM-SIM-2) and, with `lock`, make it final; a lock closes his trade
    offers. The book as it is now, and the events (the draft itself is private)."""
    eco = state.economy
    assert eco is not None
    name = BOOKS[step]
    book = orders.submit(getattr(eco, name), pid, draft)
    events: list[Event] = [Drafted(player=pid, step=step, private_to=pid)]
    offers = eco.offers
    if lock:
        book = orders.lock(book, pid)
        offers = without_offers(offers, pid)
        events.append(PlaysLocked(player=pid, step=step))
    state.economy = replace(eco, offers=offers, **{name: book})
    return book, events


def region_income(state: BMState, region: str) -> dict[str, int]:
    """A region's yield this round: its base yield (deserts 0), doubled by a city or large city, never ×4
    (BM-BRD-2), undoubled when sabotaged (AC16)."""
    base = dict(load().map.by_id[region].yield_)
    city = region in state.cities and region not in state.effects.sabotaged
    return {r: base.get(r, 0) * (2 if city else 1) for r in RESOURCES}


def income(state: BMState, pid: int) -> dict[str, int]:
    """BM-ECO-1: the income of every region `pid` controls, once more per Bountiful Harvest or Bountiful Earth on
    it, plus his homeland yield unless it is occupied (BM-HOM-3; the occupier gets nothing from it, BM-HOM-7);
    then Failed Harvest halves or removes the grain (EV3, BM-ECO-6)."""
    total = {r: 0 for r in RESOURCES}
    for region in state.controlled(pid):
        total = _add(total, region_income(state, region), 1 + state.effects.bountiful.count(region))
    home = state.homeland(pid)
    if home not in state.occupied:
        total = _add(total, load().rules.race[state.race(pid)].homeland_yield)
    if state.effects.failed_harvest == "none":
        total["grain"] = 0
    elif state.effects.failed_harvest == "half":
        for _ in range(max(1, state.effects.halvings)):  # two Failed Harvest A halve twice (reference ruling 6)
            total["grain"] //= 2
    return total


def harvest(state: BMState, rng: Rng) -> list[Event]:
    """Steps 2.0 reveal and 2.1 (automatic): every W-ECONSTART play is carried out together (cards discarded,
    spells paid, BM-ECO-3), but a card its player no longer holds; every player receives his income from the
    supply, and the order book opens."""
    eco = state.economy
    assert eco is not None and eco.start is not None
    events: list[Event] = []
    effects = state.effects
    for pid, plays in orders.reveal(eco.start):
        for play in plays or ():
            if not play.card.startswith("SP") and play.card not in state.hands.get(pid, []):
                continue  # discarded since it was committed (BM-ACT-5): not played (project ruling)
            if play.card.startswith("SP"):
                events += windows.cast(state, pid, play.card, "econstart", f"r{state.round}:econstart")[1]
            else:
                events += windows.play(state, pid, play.card, "econstart")[1]
            if play.card == "AC16":
                effects = replace(effects, sabotaged=[*effects.sabotaged, play.region])
            else:
                effects = replace(effects, bountiful=[*effects.bountiful, play.region])
            events.append(HarvestBoosted(player=pid, card=play.card, region=play.region))
    state.effects = effects
    for pid in state.active_ids():  # one who left the table gets nothing (ruling 32)
        gain = income(state, pid)
        state.stock = {**state.stock, pid: state.stock.get(pid, Stock()).plus(gain)}
        events.append(Harvested(player=pid, income=gain))
    enter_phase(state, "orders")
    state.economy = Economy(step="orders", orders=Orders(seats=state.active_ids()))
    return events


# ---------------------------------------------------------------------------------------------------- 2.2 orders


@dataclass(slots=True)
class Plan:
    """What one order set does, step by step (BM-ECO-5), and the first error of each faulty line (BM-A-39)."""

    errors: dict[int, RuleError] = field(default_factory=dict)
    cards: list[str] = field(default_factory=list)
    spells: list[str] = field(default_factory=list)
    trades: list[Merchant] = field(default_factory=list)
    builds: list[tuple[Build, dict[str, int]]] = field(default_factory=list)
    recruits: list[tuple[str, str, int, dict[str, int]]] = field(default_factory=list)
    """(region, unit or monster, n, cost), in the order given."""
    hero: dict[str, int] | None = None
    guild: dict[str, int] | None = None


@dataclass(slots=True)
class _Bonus:
    """What the set's valid economy cards change (AC06, AC08, AC09)."""

    placement: int = 0
    smith_units: int = 0
    saving: dict[str, int] = field(default_factory=dict)
    builds: list[dict[str, int]] = field(default_factory=list)


def start_kind(mark: CityMark | None, round_: int) -> str | None:
    """What a city was at the start of round `round_` (BM-REC-2, CITY-2): a large city upgraded this round was a
    city; a city built this round was nothing."""
    if mark is None:
        return None
    if mark.since < round_:
        return mark.kind
    return "city" if mark.kind == "large_city" else None


def placement_limit(state: BMState, pid: int, region: str, bonus: int = 0) -> int | None:
    """New units `pid` may place in `region` this round (BM-REC-2): homeland 3 (+ AC06), a large city 3 and a city
    1 if it existed at the start of the round and he controls it now (BM-CITY-3, CITY-4); None elsewhere."""
    rules = load().rules
    if region == state.homeland(pid):
        return rules.homeland.placement + bonus
    kind = start_kind(state.cities.get(region), state.round)
    if kind is None or state.controller(region) != pid:
        return None
    return rules.cities[kind].placement  # type: ignore[index]


def _blocker(state: BMState, pid: int, region: str) -> RuleError | None:
    """BM-REC-3, BM-HOM-3: no placement in an occupied homeland or beside another player's units."""
    others = [p for p in state.present(region) if p != pid]
    if region in state.occupied:
        others = [state.occupied[region], *others]
    if not others:
        return None
    return RuleError("BM_E_HOMELAND_OCCUPIED", region=names.region_named(region),
                     race=names.race(state.race(others[0])))


class _Evaluation:
    """Checks one order set line by line in the resolution order and builds its plan."""

    def __init__(self, state: BMState, pid: int, lines: tuple[Line, ...]) -> None:
        self.s = state
        self.pid = pid
        self.lines = lines
        self.plan = Plan()
        self.bonus = _Bonus()
        self.stock = state.stock.get(pid, Stock())
        self.scratch = copier(type(state))(state)
        """Cards and spells are played on this copy, so that a second copy of a card or a second spell fails."""
        self.placed: Counter[str] = Counter()
        self.army: Counter[str] = Counter()
        self.listed: Counter[str] = Counter()
        """Hero and Guild lines so far, faulty or not: a second one breaks its once-per-round limit anyway."""

    def run(self) -> Plan:
        """Cards and spells first (they change what the other lines may do, wherever they are listed), then
        every line in the listed order, each paying from one running stock (BM-ECO-4, reference ruling 2)."""
        checks = {"trade": self.trade, "build": self.build, "recruit": self.recruit, "card": self.recruit,
                  "spell": self.recruit, "hero": self.hero, "guild": self.guild}
        for passes in ({"card": self.card, "spell": self.card}, checks):
            for i, line in enumerate(self.lines):
                check = passes.get(line.kind)
                if check is not None and i not in self.plan.errors:
                    error = check(line)
                    if error is not None:
                        self.plan.errors[i] = error
        valid = [line for i, line in enumerate(self.lines) if i not in self.plan.errors]
        self.plan.cards = [line.card for line in valid if isinstance(line, PlayCard)]  # a hire that fails is not
        self.plan.spells = [line.spell for line in valid if isinstance(line, CastSpell)]  # played (ruling 36)
        return self.plan

    def pay(self, cost: dict[str, int]) -> RuleError | None:
        error = _short(self.stock, cost)
        if error is None:
            self.stock = self.stock.minus(cost)
        return error

    def card(self, line: Line) -> RuleError | None:
        if isinstance(line, PlayCard):
            try:
                card, _ = windows.play(self.scratch, self.pid, line.card, "econorders")
            except RuleError as error:
                return error
            self.bonus.placement += card.placement or 0
            self.bonus.smith_units += card.units or 0
            self.bonus.saving = dict(card.saving) or self.bonus.saving
            if card.build_cost:
                self.bonus.builds.append(dict(card.build_cost))
        elif isinstance(line, CastSpell):
            try:
                windows.cast(self.scratch, self.pid, line.spell, "econorders", f"r{self.s.round}:econorders")
            except RuleError as error:
                return error
        return None

    def trade(self, line: Line) -> RuleError | None:
        if not isinstance(line, Merchant):
            return None
        self.stock, error = merchant_trade(self.s, self.pid, self.stock, line)
        if error is None:
            self.plan.trades.append(line)
        return error

    def build(self, line: Line) -> RuleError | None:
        if not isinstance(line, Build):
            return None
        s, region = self.s, line.region
        if region not in s.regions:
            return RuleError("BM_E_UNKNOWN_REGION", x=region)
        if s.controller(region) != self.pid:
            return RuleError("BM_E_NOT_CONTROLLED", region=names.region_named(region))
        cost = self.bonus.builds[0] if self.bonus.builds else dict(load().rules.cities[line.city].cost)
        short = _short(self.stock, cost)
        if short is not None:
            return short
        if region.startswith("H-"):
            return RuleError("BM_E_CITY_IN_HOMELAND")
        planned = [b.city for b, _ in self.plan.builds if b.region == region]
        mark = s.cities.get(region)
        if line.city == "city" and (mark is not None or planned):
            return RuleError("BM_E_CITY_EXISTS", region=names.region_named(region))
        if line.city == "large_city":
            if (mark is not None and mark.kind == "large_city") or "large_city" in planned:
                return RuleError("BM_E_CITY_EXISTS", region=names.region_named(region))
            if start_kind(mark, s.round) != "city":
                return RuleError("BM_E_LARGE_CITY_NEEDS_CITY")
        self.stock = self.stock.minus(cost)
        if self.bonus.builds:
            self.bonus.builds.pop(0)
        self.plan.builds.append((line, cost))
        return None

    def recruit(self, line: Line) -> RuleError | None:
        if isinstance(line, Recruit):
            if line.region not in self.s.regions:
                return RuleError("BM_E_UNKNOWN_REGION", x=line.region)
            return self.place(line.region, line.unit, line.n, self.recruit_cost(line))
        monster = None
        if isinstance(line, PlayCard):
            card = load().cards.actions_by_id[line.card]
            monster, cost = card.monster, dict(card.cost)
        elif isinstance(line, CastSpell):
            monster, cost = load().cards.spell[line.spell].monster, {}
        if monster is None:
            return None
        return self.place(self.s.homeland(self.pid), monster, 1, cost)

    def recruit_cost(self, line: Recruit) -> dict[str, int]:
        """The units' cost (BM-REC-1), less Skilled Smiths' saving on up to its number of units (AC08)."""
        unit = dict(load().rules.units[line.unit].cost)
        cheap = min(line.n, self.bonus.smith_units)
        saved = {r: max(0, unit.get(r, 0) - self.bonus.saving.get(r, 0)) for r in RESOURCES}
        total = _add(_add({}, unit, line.n - cheap), saved, cheap)
        return {r: n for r, n in total.items() if n}

    def place(self, region: str, kind: str, n: int, cost: dict[str, int]) -> RuleError | None:
        """Cost, then the placement checks in order: a site, nobody else there, its limit, stacking (BM-A-18)."""
        s, pid = self.s, self.pid
        short = _short(self.stock, cost)
        if short is not None:
            return short
        limit = placement_limit(s, pid, region, self.bonus.placement)
        if limit is None:
            return RuleError("BM_E_NO_PLACEMENT_SITE")
        blocked = _blocker(s, pid, region)
        if blocked is not None:
            return blocked
        if self.placed[region] + n > limit:
            return RuleError("BM_E_PLACEMENT_LIMIT", region=names.region_named(region), limit=limit,
                             n=self.placed[region] + n)
        army = kind in load().rules.units
        stack = s.units(region, pid).army() + self.army[region] + n
        if army and stack > load().rules.stack_limit:  # monsters do not count (BM-MON-7)
            return RuleError("BM_E_STACK_LIMIT", region=names.region_named(region), n=stack)
        self.stock = self.stock.minus(cost)
        self.placed[region] += n
        if army:
            self.army[region] += n
            self.bonus.smith_units = max(0, self.bonus.smith_units - n)
        self.plan.recruits.append((region, kind, n, cost))
        return None

    def hero(self, line: Line) -> RuleError | None:
        if not isinstance(line, NewHero):
            return None
        rules = load().rules.hero
        self.listed["hero"] += 1
        if self.listed["hero"] > rules.per_round or len(self.s.heroes_of(self.pid)) >= rules.max_alive:
            return RuleError("BM_E_HERO_LIMIT")
        cost = dict(rules.cost)
        error = self.pay(cost)
        if error is None:
            self.plan.hero = cost
        return error

    def guild(self, line: Line) -> RuleError | None:
        if not isinstance(line, Guild):
            return None
        self.listed["guild"] += 1
        if self.listed["guild"] > 1:
            return RuleError("BM_E_GUILD_ONE_PER_ROUND")
        if self.s.star_pool <= 0:
            return RuleError("BM_E_STAR_POOL_EMPTY")
        price = guild_price(self.s, self.pid)
        error = self.pay(price)
        if error is None:
            self.plan.guild = price
        return error


def guild_price(state: BMState, pid: int) -> dict[str, int]:
    """BM-GLD-2, BM-A-20: 10 of each resource with 0–1 Stars owned, then 15, 20, 25, and 30 with 5 or more."""
    n = load().rules.guild_price(state.stars.get(pid, Stars()).owned)
    return {r: n for r in RESOURCES}


def evaluate(state: BMState, pid: int, lines: tuple[Line, ...]) -> Plan:
    """Check an order set as a whole against the post-harvest stock, line by line in the listed order (BM-ECO-4):
    each line's first error in the BM-VAL-0 order of reference ruling 2 (BM-VAL-3), and the plan of the valid
    lines, which resolution carries out step by step (BM-ECO-5). A set payable in the listed order is payable in
    the resolution order, since only trades add and they all come first."""
    return _Evaluation(state, pid, lines).run()


class OrdersError(RuleError):
    """A faulty order set (BM-VAL-3, BM-A-39). Its code is its first faulty line's, a §6 code like any other
    command's; its message (`BM_E_ORDERS`) names every faulty line. `problems` lists them for programs (each a
    `bm.orders.line` message with `line`, 1-based, and `error`), `lines` is their text, one after another."""

    def __init__(self, errors: dict[int, RuleError]) -> None:
        problems = [msg("bm.orders.line", line=i + 1, error=Msg(e.code, e.params)) for i, e in sorted(errors.items())]
        text = problems[-1]
        for problem in reversed(problems[:-1]):
            text = msg("bm.orders.then", first=problem, rest=text)
        super().__init__(problems[0].params["error"].key, n=len(problems), problems=problems, lines=text)

    @property
    def message(self) -> str:
        return translate("BM_E_ORDERS", **self.params)

    def localized(self, locale: str) -> str:
        return translate("BM_E_ORDERS", locale=locale, **self.params)


def orders_error(plan: Plan) -> RuleError | None:
    """The set's faults as one error, or None if every line holds."""
    return OrdersError(plan.errors) if plan.errors else None


def econ_orders(state: BMState, action: EconOrders, rng: Rng) -> list[Event]:
    """Draft, revise or lock an order set (BM-ECO-2, BM-SIM-2); refused whole if any line is faulty. The last lock
    resolves every set (BM-SIM-3)."""
    eco = open_step(state, "orders")
    assert eco.orders is not None
    pid = action.player
    check_seat(eco.orders, pid, "orders")
    error = orders_error(evaluate(state, pid, action.lines))
    if error is not None:
        raise error
    book, events = file_draft(state, pid, "orders", action.lines, action.lock)
    if orders.complete(book):
        events += resolve_orders(state, rng)
    return events


# ---------------------------------------------------------------------------------------------------- 2.3


def resolve_orders(state: BMState, rng: Rng) -> list[Event]:
    """Step 2.3 (automatic, BM-ECO-5): every set revealed and carried out step by step for all players (cards and
    spells, trades, builds, recruits with monster placements, heroes, Grey Guild); payments go to the supply
    (BM-RES-2). Leaves phase ORDERS with `state.economy.step == "resolved"`."""
    eco = state.economy
    assert eco is not None and eco.orders is not None
    plans = [(pid, evaluate(state, pid, lines or ())) for pid, lines in orders.reveal(eco.orders)]
    events: list[Event] = []
    for pid, plan in plans:
        for card in plan.cards:
            card_data, played = windows.play(state, pid, card, "econorders")
            events += played
            if card_data.placement:  # shown in the round's effects (AC06); the set itself applied it
                effects = state.effects
                state.effects = replace(effects, reinforcements=[*effects.reinforcements, pid])
        for spell in plan.spells:
            events += windows.cast(state, pid, spell, "econorders", f"r{state.round}:econorders")[1]
    for pid, plan in plans:
        stock = state.stock[pid]
        for trade in plan.trades:
            stock, _ = merchant_trade(state, pid, stock, trade)
            events.append(MerchantTraded(player=pid, give=trade.give, amount=trade.amount, get=trade.get,
                                         received=trade.amount // merchant_rate(state, pid)))
        state.stock = {**state.stock, pid: stock}
    for pid, plan in plans:
        for build, cost in plan.builds:
            _pay(state, pid, cost)
            state.cities = {**state.cities, build.region: CityMark(kind=build.city, since=state.round)}
            events.append(CityBuilt(player=pid, region=build.region, city=build.city, cost=cost))
    for pid, plan in plans:
        for region, kind, n, cost in plan.recruits:
            _pay(state, pid, cost)
            here = state.troops.get(region, {})
            state.troops = {**state.troops, region: {**here, pid: state.units(region, pid).plus(kind, n)}}
            events.append(Recruited(player=pid, region=region, unit=kind, n=n, cost=cost))
    for pid, plan in plans:
        if plan.hero is not None:
            _pay(state, pid, plan.hero)
            events.append(_new_hero(state, pid))
    events += _guild(state, rng, [(pid, plan.guild) for pid, plan in plans if plan.guild is not None])
    state.economy = Economy(step="resolved")
    return events


def _pay(state: BMState, pid: int, cost: dict[str, int]) -> None:
    state.stock = {**state.stock, pid: state.stock[pid].minus(cost)}


def _new_hero(state: BMState, pid: int) -> HeroRecruited:
    """BM-HER-1: the new hero stands in the homeland, numbered with the lowest free number (ruling 16)."""
    taken = {h.number for h in state.heroes_of(pid)}
    number = next(n for n in range(1, len(taken) + 2) if n not in taken)
    life = heroes.max_life(state, pid)  # 6 with the Amulet of Vigor (BM-A-36)
    state.heroes = [*state.heroes, HeroToken(owner=pid, number=number, region=state.homeland(pid), life=life)]
    return HeroRecruited(player=pid, number=number, life=life)


def _rank(rng: Rng, ids: list[int], rolls: list[dict[int, int]]) -> list[int]:
    """`ids` ordered by a d10 roll-off, highest first; tied players roll again among themselves (BM-A-10)."""
    faces = {pid: rng.die(load().rules.die_sides) for pid in ids}
    rolls.append(faces)
    ranked: list[int] = []
    for value in sorted(set(faces.values()), reverse=True):
        group = [p for p in ids if faces[p] == value]
        ranked += _rank(rng, group, rolls) if len(group) > 1 else group
    return ranked


def _guild(state: BMState, rng: Rng, requests: list[tuple[int, dict[str, int]]]) -> list[Event]:
    """BM-GLD-3, GLD-4: each served request pays and gains a spent Star from the pool; when the pool is short, those
    with fewer Stars are served first, ties by roll-off (BM-A-10); the rest pay nothing."""
    events: list[Event] = []
    served = [pid for pid, _ in requests]
    if len(served) > state.star_pool:
        owned = {pid: state.stars[pid].owned for pid in served}
        rolls: list[dict[int, int]] = []
        ranked: list[int] = []
        for value in sorted(set(owned.values())):
            group = [p for p in served if owned[p] == value]
            straddles = len(ranked) < state.star_pool < len(ranked) + len(group)
            ranked += _rank(rng, group, rolls) if straddles and len(group) > 1 else group
        if rolls:
            events.append(GuildRollOff(rolls=rolls))
        served = ranked[:state.star_pool]
    for pid, price in requests:
        if pid not in served:
            events.append(GuildRefused(player=pid))
            continue
        _pay(state, pid, price)
        stars = state.stars[pid]
        state.stars = {**state.stars, pid: Stars(owned=stars.owned + 1, spent=stars.spent + 1)}
        state.star_pool -= 1
        events.append(StarBought(player=pid, price=price))
    return events


def economy_finished(state: BMState) -> bool:
    """Every order set is resolved: the round may go on to initiative (3.0)."""
    return state.economy is not None and state.economy.step == "resolved"


# ---------------------------------------------------------------------------------------------------- trades


def _trading_open(state: BMState, pid: int) -> bool:
    """BM-TRD-5: a player may trade while his economy orders or his upkeep are not locked."""
    eco = state.economy
    if eco is None:
        return False
    book: Orders[object] | None = eco.orders if eco.step == "orders" else eco.upkeep if eco.step == "upkeep" else None
    return book is not None and pid in book.seats and pid not in book.locked


def _closed(state: BMState, *pids: int) -> None:
    for pid in pids:
        if not _trading_open(state, pid):
            raise RuleError("BM_E_TRADE_PARTNER_LOCKED", player=state.name(pid))


def trade_offer(state: BMState, action: TradeOffer, rng: Rng) -> list[Event]:
    """[OPT] Offer a player trade (BM-TRD-2, TRD-5, TRD-7): only resources, only in the order step and maintenance
    while both are unlocked (in any other step trading is closed for him, §6)."""
    if not state.options.player_trades:
        raise RuleError("BM_E_TRADES_OFF")
    pid, other = action.player, action.to
    if not _trading_open(state, pid):
        raise RuleError("BM_E_TRADE_PARTNER_LOCKED", player=state.name(pid))
    if other == pid or other not in [p.id for p in state.players]:
        raise RuleError("BM_E_TRADE_SELF")
    _closed(state, pid, other)
    items = {**action.give, **action.get}
    if any(k not in RESOURCES for k in items) or any(n < 0 for n in items.values()) or not any(items.values()):
        raise RuleError("BM_E_TRADE_FORBIDDEN_ITEM")
    error = _short(state.stock.get(pid, Stock()), action.give)
    if error is not None:
        raise error
    eco = state.economy
    offer = Offer(id=eco.next_offer, source=pid, target=other, give=dict(action.give), get=dict(action.get))
    state.economy = replace(eco, offers=(*eco.offers, offer), next_offer=eco.next_offer + 1)
    return [TradeOffered(offer=offer.id, source=pid, target=other, give=offer.give, get=offer.get)]


def trade_answer(state: BMState, action: TradeAnswer, rng: Rng) -> list[Event]:
    """Accept (the exchange is atomic: both sides must still hold what they give, BM-TRD-6) or decline an offer;
    its offerer may withdraw it."""
    eco = state.economy
    pid = action.player
    offer = next((o for o in eco.offers if o.id == action.offer), None) if eco is not None else None
    if offer is None or eco is None or pid not in ((offer.target,) if action.accept else (offer.source, offer.target)):
        raise RuleError("BM_E_NO_OFFER", offer=action.offer)
    rest = tuple(o for o in eco.offers if o.id != offer.id)
    if action.accept:
        _closed(state, offer.source, offer.target)
        mine, theirs = state.stock[offer.target], state.stock[offer.source]
        if not theirs.covers(offer.give):
            raise RuleError("BM_E_TRADE_PARTNER_SHORT", player=state.name(offer.source), need=amounts(offer.give))
        error = _short(mine, offer.get)
        if error is not None:
            raise error
        state.stock = {**state.stock, offer.source: theirs.minus(offer.give).plus(offer.get),
                       offer.target: mine.minus(offer.get).plus(offer.give)}
    state.economy = replace(eco, offers=rest)
    return [TradeClosed(offer=offer.id, accepted=action.accept)]


# ---------------------------------------------------------------------------------------------------- 3.z, views


def cleanup(state: BMState, rng: Rng) -> list[Event]:
    """Step 3.z (BM-CTL-4, BM-CITY-6): every city or large city in a region nobody controls is destroyed (its
    region card goes back to the neutral pile, which is derived, BM-CTL-5)."""
    gone = [r for r in sorted(state.cities) if state.controller(r) is None]
    if not gone:
        return []
    events: list[Event] = [CityDestroyed(region=r, city=state.cities[r].kind, reason="uncontrolled") for r in gone]
    state.cities = {r: c for r, c in state.cities.items() if r not in gone}
    return events


DECISIONS = {"econstart": "econstart", "orders": "econ_orders", "upkeep": "upkeep"}
"""The decision kind of each step's book."""


def pending(state: BMState) -> list[Decision]:
    """Who must still commit plays, lock orders or answer a trade offer (the drafts themselves stay secret)."""
    eco = state.economy
    if eco is None:
        return []
    book: Orders[object] | None = {"econstart": eco.start, "orders": eco.orders, "upkeep": eco.upkeep}.get(eco.step)
    kind = DECISIONS.get(eco.step, eco.step)
    decisions = [Decision(player=p, kind=kind) for p in orders.missing(book)] if book else []
    decisions += [Decision(player=o.target, kind="trade_offer",
                           detail={"offer": o.id, "source": o.source, "give": o.give, "get": o.get})
                  for o in eco.offers]
    return decisions


def view(state: BMState, viewer: int | None) -> dict[str, object]:
    """What `viewer` may see of the open book: who has locked, who is missing, and his own draft only (BM-SIM-4)."""
    eco = state.economy
    if eco is None:
        return {}
    book: Orders[object] | None = {"econstart": eco.start, "orders": eco.orders, "upkeep": eco.upkeep}.get(eco.step)
    seen: dict[str, object] = {"step": eco.step, "offers": list(eco.offers)}
    if book is not None:
        seen |= orders.redact(book, viewer)
    return seen


def _draft(book: Orders[T] | None, pid: int) -> T | None:
    return None if book is None else book.drafts.get(pid)


def timeout_econstart(state: BMState, pid: int) -> EconStart:
    """W-ECONSTART on timeout: his unlocked draft if it is still legal (reference ruling 12), else a pass
    (BM-DIG-19)."""
    plays = _draft(state.economy.start if state.economy else None, pid) or ()
    try:
        scratch = copier(type(state))(state)
        for play in plays:
            _check_play(scratch, pid, play)
    except RuleError:
        plays = ()
    return EconStart(player=pid, plays=plays, lock=True)


def timeout_economy(state: BMState, pid: int) -> EconOrders:
    """Economy orders on timeout: his unlocked draft if it has no error (reference ruling 12), else no orders
    (BM-DIG-19, BM-SIM-5)."""
    lines = _draft(state.economy.orders if state.economy else None, pid) or ()
    if evaluate(state, pid, lines).errors:
        lines = ()
    return EconOrders(player=pid, lines=lines, lock=True)


def timeout_trade(state: BMState, pid: int, offer: int) -> TradeAnswer:
    """An unanswered trade offer on timeout: declined."""
    return TradeAnswer(player=pid, offer=offer, accept=False)

