"""Maintenance (BM-RND-3 P4, BM-UPK-1 … 6): every player pays his upkeep at once, after merchant and player trades;
whoever cannot pay disbands units or takes down cities of his choice until he can.

`begin_upkeep` opens an `engine.core.orders` book in `state.economy` (phase UPKEEP). Each player submits an
`UpkeepPlan` (merchant trades, then disbands) with `SubmitUpkeep` and locks it (his "confirm"); player trades
[OPT] go through `economy.trade_offer` while both are unlocked. When the last player locks, `pay_upkeep` carries
every plan out and leaves `state.economy.step == "paid"`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import ceil
from typing import TYPE_CHECKING, Literal

from engine.core import orders
from engine.core.errors import RuleError
from engine.core.i18n import msg
from engine.core.models import Action, Decision, Event, copier
from engine.core.orders import Orders
from engine.core.rng import Rng
from engine.games.battlemist import names
from engine.games.battlemist.data import ARMY, RESOURCES, load
from engine.games.battlemist.economy import (
    CityDestroyed,
    Disband,
    Economy,
    Merchant,
    MerchantTraded,
    UpkeepPlan,
    amounts,
    check_seat,
    enter_phase,
    file_draft,
    merchant_rate,
    merchant_trade,
    open_step,
)
from engine.games.battlemist.economy import pending as economy_pending
from engine.games.battlemist.pieces import CityMark, Stock

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState


@dataclass(frozen=True, slots=True, kw_only=True)
class SubmitUpkeep(Action):
    """Draft or revise one's maintenance plan; `lock` confirms it (BM-UPK-5)."""

    type: Literal["upkeep"] = "upkeep"
    trades: tuple[Merchant, ...] = ()
    disband: tuple[Disband, ...] = ()
    lock: bool = False


@dataclass(slots=True, kw_only=True)
class Disbanded(Event):
    type: Literal["disbanded"] = "disbanded"
    player: int
    region: str
    unit: str
    n: int


@dataclass(slots=True, kw_only=True)
class CityReduced(Event):
    """A large city taken down to a city to save its upkeep."""

    type: Literal["city_reduced"] = "city_reduced"
    region: str


@dataclass(slots=True, kw_only=True)
class UpkeepPaid(Event):
    """What a player paid to the supply (public, BM-A-29)."""

    type: Literal["upkeep_paid"] = "upkeep_paid"
    player: int
    paid: dict[str, int]


def due(state: BMState, pid: int) -> dict[str, int]:
    """BM-UPK-1: 1 grain per infantry or archer, 1 grain + 1 iron per cavalry (with the race's infantry rule: ORC
    Hardy feeds 2 infantry per grain, DRK Undying none), 1 grain per city and 2 per large city he controls;
    heroes and monsters nothing (BM-MON-3)."""
    rules = load().rules
    count = dict.fromkeys(ARMY, 0)
    for here in state.troops.values():
        mine = here.get(pid)
        if mine is not None:
            count["infantry"] += mine.infantry
            count["archers"] += mine.archers
            count["cavalry"] += mine.cavalry
    total = {r: 0 for r in RESOURCES}
    for kind in ARMY:
        fed = rules.ability(state.race(pid), "infantry_per_grain") if kind == "infantry" else None
        for r, n in rules.units[kind].upkeep.items():
            units = count[kind]
            if fed is not None:
                units = ceil(units / int(fed)) if fed else 0
            total[r] += n * units
    for region, mark in state.cities.items():
        if state.controller(region) == pid:
            for r, n in rules.cities[mark.kind].upkeep.items():
                total[r] += n
    return total


def shortfall(state: BMState, pid: int, stock: Stock | None = None) -> dict[str, int]:
    """What `pid` lacks to pay his upkeep from `stock` (his own by default); empty when he can pay."""
    have = state.stock.get(pid, Stock()) if stock is None else stock
    return {r: n - have.get(r) for r, n in due(state, pid).items() if n > have.get(r)}


def begin_upkeep(state: BMState, rng: Rng) -> list[Event]:
    """Step 4.1: expects the individual phase and its cleanup done; leaves phase UPKEEP with every seat to submit
    and confirm his plan (BM-UPK-5)."""
    enter_phase(state, "upkeep")
    state.economy = Economy(step="upkeep", upkeep=Orders(seats=state.active_ids()))
    return []


def _check(state: BMState, pid: int, order: Disband) -> None:
    """A disband names units he has there, or a city of his that can go down that many steps."""
    region = order.region
    if order.what == "city":
        mark = state.cities.get(region)
        steps = 2 if mark is not None and mark.kind == "large_city" else 1
        if mark is None or state.controller(region) != pid or order.n > steps:
            raise RuleError("BM_E_NO_CITY", region=names.region_named(region))
        return
    have = state.units(region, pid).get(order.what)
    if have < order.n:
        raise RuleError("BM_E_UNIT_NOT_FOUND", n=have, type=msg(f"bm.movement.unit.{order.what}"),
                        region=names.region_named(region))


def _take_one(state: BMState, pid: int, region: str, what: str) -> Event:
    """One unit disbanded, or one city taken down a step (a large city to a city, a city to nothing)."""
    if what == "city":
        mark = state.cities[region]
        if mark.kind == "large_city":
            state.cities = {**state.cities, region: CityMark(kind="city", since=state.round)}
            return CityReduced(region=region)
        state.cities = {r: c for r, c in state.cities.items() if r != region}
        return CityDestroyed(region=region, city=mark.kind, reason="upkeep")
    left = state.units(region, pid).plus(what, -1)
    here = {p: t for p, t in state.troops.get(region, {}).items() if p != pid}
    if left.total():
        here[pid] = left
    state.troops = {r: here if r == region else t for r, t in state.troops.items() if r != region or here}
    return Disbanded(player=pid, region=region, unit=what, n=1)


def carry_out(state: BMState, pid: int, plan: UpkeepPlan, *, final: bool) -> list[Event]:
    """Apply a plan to the working copy `state`, checked in the BM-VAL-0 order: each trade (rate, cost), each
    disband (its units or city, then that it is needed, BM-UPK-6), and when `final` that the rest is
    affordable (BM-UPK-3); then, when final, the upkeep is paid (BM-UPK-4: never below zero)."""
    events: list[Event] = []
    stock = state.stock.get(pid, Stock())
    for trade in plan.trades:
        stock, error = merchant_trade(state, pid, stock, trade)
        if error is not None:
            raise error
        events.append(MerchantTraded(player=pid, give=trade.give, amount=trade.amount, get=trade.get,
                                     received=trade.amount // merchant_rate(state, pid)))
    state.stock = {**state.stock, pid: stock}
    for order in plan.disband:
        _check(state, pid, order)
        for _ in range(order.n):
            if not shortfall(state, pid):
                raise RuleError("BM_E_DISBAND_UNNEEDED")
            events.append(_take_one(state, pid, order.region, order.what))
    if final:
        short = shortfall(state, pid)
        if short:
            raise RuleError("BM_E_UPKEEP_UNRESOLVED", x=amounts(short))
        cost = due(state, pid)
        state.stock = {**state.stock, pid: state.stock[pid].minus(cost)}
        events.append(UpkeepPaid(player=pid, paid=cost))
    return events


def submit_upkeep(state: BMState, action: SubmitUpkeep, rng: Rng) -> list[Event]:
    """Draft or confirm a maintenance plan; a confirmation must leave the upkeep affordable. The last confirmation
    pays everyone's upkeep together (BM-UPK-5)."""
    eco = open_step(state, "upkeep")
    assert eco.upkeep is not None
    pid = action.player
    check_seat(eco.upkeep, pid, "upkeep")
    plan = UpkeepPlan(trades=action.trades, disband=action.disband)
    carry_out(copier(type(state))(state), pid, plan, final=action.lock)
    book, events = file_draft(state, pid, "upkeep", plan, action.lock)
    if orders.complete(book):
        events += pay_upkeep(state, rng)
    return events


def pay_upkeep(state: BMState, rng: Rng) -> list[Event]:
    """Every confirmed plan revealed and carried out, in seat order (automatic). Leaves phase UPKEEP with
    `state.economy.step == "paid"`, for END_ROUND."""
    eco = state.economy
    assert eco is not None and eco.upkeep is not None
    events: list[Event] = []
    for pid, plan in orders.reveal(eco.upkeep):
        events += carry_out(state, pid, plan or UpkeepPlan(), final=True)
    state.economy = Economy(step="paid")
    return events


def pending(state: BMState) -> list[Decision]:
    """The economy's pending decisions, each upkeep decision with what the player owes and lacks (public)."""
    decisions = economy_pending(state)
    for decision in decisions:
        if decision.kind == "upkeep":
            decision.detail = {"due": due(state, decision.player), "short": shortfall(state, decision.player)}
    return decisions


def upkeep_finished(state: BMState) -> bool:
    """Everyone has paid: the round may end (BM-UPK-5)."""
    return state.economy is not None and state.economy.step == "paid"


def forced_disbands(state: BMState, pid: int) -> tuple[Disband, ...]:
    """BM-DIG-19's default (reference ruling 27): disband cavalry, then archers, then infantry, then downgrade large
    cities, then destroy cities, each in region-id order and one at a time while the upkeep is unaffordable;
    units that cost nothing (Undying infantry) are kept."""
    work = copier(type(state))(state)
    chosen: list[Disband] = []
    for kind in ("cavalry", "archers", "infantry"):
        if kind == "infantry" and load().rules.ability(state.race(pid), "infantry_per_grain") == 0:
            continue
        for region in sorted(r for r, here in work.troops.items() if pid in here):
            while work.units(region, pid).get(kind) and shortfall(work, pid):
                chosen.append(Disband(region=region, what=kind))
                _take_one(work, pid, region, kind)
    for step in ("large_city", "city"):
        for region in sorted(r for r, c in work.cities.items() if c.kind == step and work.controller(r) == pid):
            if shortfall(work, pid):
                chosen.append(Disband(region=region, what="city"))
                _take_one(work, pid, region, "city")
    return tuple(_merge(chosen))


def _merge(chosen: list[Disband]) -> list[Disband]:
    """Consecutive disbands of the same kind in one region as one line."""
    merged: list[Disband] = []
    for order in chosen:
        if merged and (merged[-1].region, merged[-1].what) == (order.region, order.what):
            merged[-1] = replace(merged[-1], n=merged[-1].n + order.n)
        else:
            merged.append(order)
    return merged


def timeout_upkeep(state: BMState, pid: int) -> SubmitUpkeep:
    """Maintenance on timeout: his unlocked plan if it pays the upkeep (reference ruling 12), else no trades and
    the forced disbands (BM-DIG-19), confirmed."""
    book = state.economy.upkeep if state.economy is not None else None
    plan = book.drafts.get(pid) if book is not None else None
    if plan is not None and _pays(state, pid, plan):
        return SubmitUpkeep(player=pid, trades=plan.trades, disband=plan.disband, lock=True)
    return SubmitUpkeep(player=pid, disband=forced_disbands(state, pid), lock=True)


def _pays(state: BMState, pid: int, plan: UpkeepPlan) -> bool:
    try:
        carry_out(copier(type(state))(state), pid, plan, final=True)
    except RuleError:
        return False
    return True
