"""Player-to-player trades [OPT] and the cleanup of cities in uncontrolled regions (economy.py)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Event, copier
from engine.core.orders import Orders
from engine.core.rng import Rng
from engine.games.battlemist import economy as E
from engine.games.battlemist import upkeep as U
from engine.games.battlemist.pieces import CityMark, Stars, Stock
from engine.games.battlemist.rules import apply
from engine.games.battlemist.state import BMOptions, BMState, Phase
from tests.engine.battlemist.helpers import position, snapshot

copy = copier(BMState)
TRADES = BMOptions(player_trades=True)


def trading(**fields: Any) -> BMState:
    """Three players in the order step, player trades on, each with 5 of everything."""
    fields.setdefault("options", TRADES)
    five = {"grain": 5, "wood": 5, "iron": 5}
    return copy(position(("DAQ", "ORC", "ELF"), phase=Phase.ORDERS, stock={1: five, 2: five, 3: five},
                         economy=E.Economy(step="orders", orders=Orders(seats=[1, 2, 3])), **fields))


def offer(state: BMState, pid: int, to: int, give: dict[str, int], get: dict[str, int]) -> list[Event]:
    return E.trade_offer(state, E.TradeOffer(player=pid, to=to, give=give, get=get), Rng(state.rng))


def answer(state: BMState, pid: int, offer_id: int, accept: bool = True) -> list[Event]:
    return E.trade_answer(state, E.TradeAnswer(player=pid, offer=offer_id, accept=accept), Rng(state.rng))


def code_of(call: Any, *args: Any) -> str:
    with pytest.raises(RuleError) as err:
        call(*args)
    return err.value.code


@pytest.mark.rule("BM-TRD-2", "BM-TRD-6", "BM-A-29")
def test_two_players_exchange_resources_by_consent_atomically_and_in_public() -> None:
    before = trading()
    original = snapshot(before)
    state = copy(before)
    events = offer(state, 1, 2, {"grain": 3}, {"iron": 2})
    assert events[0].private_to is None and state.stock[1] == Stock(grain=5, wood=5, iron=5)  # nothing moves yet
    assert [(d.player, d.kind) for d in E.pending(state) if d.kind == "trade_offer"] == [(2, "trade_offer")]
    events = answer(state, 2, 1)
    assert [(e.type, e.accepted) for e in events] == [("trade_closed", True)]
    assert state.stock[1] == Stock(grain=2, wood=5, iron=7) and state.stock[2] == Stock(grain=8, wood=5, iron=3)
    assert state.economy is not None and state.economy.offers == ()
    assert snapshot(before) == original


@pytest.mark.rule("BM-TRD-6")
def test_an_exchange_either_side_can_no_longer_pay_changes_nothing() -> None:
    state = trading()
    offer(state, 1, 2, {"grain": 5}, {"iron": 1})
    offer(state, 1, 3, {"grain": 5}, {"iron": 1})
    answer(state, 2, 1)  # player 1 now has no grain for the second offer
    before = snapshot(state)
    assert code_of(answer, state, 3, 2) == "BM_E_TRADE_PARTNER_SHORT"
    offer(state, 3, 2, {"wood": 1}, {"iron": 9})
    assert code_of(answer, state, 2, 3) == "BM_E_INSUFFICIENT_RESOURCES"
    assert snapshot(state)["stock"] == before["stock"]


@pytest.mark.rule("BM-TRD-5")
def test_trading_closes_for_a_player_once_he_locks_his_orders() -> None:
    state = trading()
    offer(state, 1, 2, {"grain": 1}, {"wood": 1})
    E.econ_orders(state, E.EconOrders(player=2, lock=True), Rng(state.rng))
    assert state.economy is not None and state.economy.offers == ()  # the offer to him lapsed
    with pytest.raises(RuleError) as err:
        offer(state, 1, 2, {"grain": 1}, {"wood": 1})
    assert err.value.code == "BM_E_TRADE_PARTNER_LOCKED" and err.value.message == "Trading is closed for P2 right now."


@pytest.mark.rule("BM-TRD-5", "BM-VAL-4")
@pytest.mark.parametrize("phase", [Phase.COUNCIL, Phase.ECONSTART, Phase.INITIATIVE, Phase.MOVEMENT])
def test_a_trade_in_a_step_without_trading_is_refused_as_trading_closed(phase: Phase) -> None:
    """§6: BM_E_TRADE_PARTNER_LOCKED covers a trade "while either side is locked or the phase disallows it"."""
    state = copy(position(phase=phase, options=TRADES, stock={1: {"grain": 3}},
                          economy=E.Economy(step="econstart", start=Orders(seats=[1, 2]))
                          if phase is Phase.ECONSTART else None))
    with pytest.raises(RuleError) as err:
        apply(state, E.TradeOffer(player=1, to=2, give={"grain": 1}, get={"wood": 1}))
    assert err.value.code == "BM_E_TRADE_PARTNER_LOCKED" and err.value.message == "Trading is closed for P1 right now."
    with pytest.raises(RuleError) as err:
        apply(state, E.TradeAnswer(player=2, offer=1, accept=True))
    assert err.value.code == "BM_E_NO_OFFER"


@pytest.mark.rule("BM-TRD-5", "BM-UPK-2")
def test_players_trade_in_maintenance_before_paying() -> None:
    state = copy(position(phase=Phase.UPKEEP, options=TRADES, stock={1: {"grain": 0, "iron": 3}, 2: {"grain": 4}},
                          troops={"H-DAQ": {1: {"infantry": 2}}}))
    U.begin_upkeep(state, Rng(state.rng))
    offer(state, 1, 2, {"iron": 3}, {"grain": 2})
    answer(state, 2, 1)
    U.submit_upkeep(state, U.SubmitUpkeep(player=1, lock=True), Rng(state.rng))
    U.submit_upkeep(state, U.SubmitUpkeep(player=2, lock=True), Rng(state.rng))
    assert state.stock[1] == Stock(grain=0, iron=0) and state.units("H-DAQ", 1).infantry == 2


@pytest.mark.rule("BM-TRD-7", "BM-A-46", "BM-STAR-6")
@pytest.mark.parametrize("item", ["stars", "AC07", "infantry", "N20"])
def test_only_grain_wood_and_iron_can_be_traded(item: str) -> None:
    state = trading(stars={1: Stars(owned=3), 2: Stars(owned=1), 3: Stars(owned=1)})
    with pytest.raises(RuleError) as err:
        offer(state, 1, 2, {item: 1}, {"grain": 1})
    assert err.value.code == "BM_E_TRADE_FORBIDDEN_ITEM" and state.economy is not None and not state.economy.offers
    assert code_of(offer, state, 1, 2, {"grain": 1}, {item: 1}) == "BM_E_TRADE_FORBIDDEN_ITEM"


def test_player_trades_need_the_option_a_partner_and_an_open_offer() -> None:
    assert code_of(offer, trading(options=BMOptions()), 1, 2, {"grain": 1}, {"wood": 1}) == "BM_E_TRADES_OFF"
    state = trading()
    assert code_of(offer, state, 1, 1, {"grain": 1}, {"wood": 1}) == "BM_E_TRADE_SELF"
    assert code_of(offer, state, 1, 2, {"grain": 6}, {"wood": 1}) == "BM_E_INSUFFICIENT_RESOURCES"
    offer(state, 1, 2, {"grain": 1}, {"wood": 1})
    assert code_of(answer, state, 3, 1) == "BM_E_NO_OFFER"  # not his offer
    assert code_of(answer, state, 1, 1) == "BM_E_NO_OFFER"  # the offerer cannot accept his own
    assert [e.accepted for e in answer(state, 1, 1, accept=False)] == [False]  # but may withdraw it
    assert code_of(answer, state, 2, 1) == "BM_E_NO_OFFER"


def test_an_unanswered_offer_is_declined_on_timeout() -> None:
    state = trading()
    offer(state, 1, 2, {"grain": 1}, {"wood": 1})
    E.trade_answer(state, E.timeout_trade(state, 2, 1), Rng(state.rng))
    assert state.economy is not None and state.economy.offers == () and state.stock[1].grain == 5


@pytest.mark.rule("BM-CTL-4", "BM-CITY-6")
def test_cleanup_destroys_cities_in_regions_nobody_controls() -> None:
    state = copy(position(troops={"N20": {1: {"infantry": 1}}, "N12": {2: {"giant": 1}}},
                          cities={"N20": CityMark(kind="city", since=0), "N12": CityMark(kind="large_city", since=0),
                                  "N31": CityMark(kind="city", since=0)}))
    events = E.cleanup(state, Rng(state.rng))
    assert [(e.region, e.city, e.reason) for e in events] == [("N12", "large_city", "uncontrolled"),
                                                              ("N31", "city", "uncontrolled")]
    assert state.cities == {"N20": CityMark(kind="city", since=0)}
