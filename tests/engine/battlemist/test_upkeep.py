"""Maintenance: upkeep due, trades first, forced disbands and the timeout default (upkeep.py)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Event, copier
from engine.core.rng import Rng
from engine.games.battlemist import upkeep as U
from engine.games.battlemist.economy import Disband, Merchant
from engine.games.battlemist.pieces import CityMark, HeroToken, Stars, Stock
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.helpers import position, snapshot

copy = copier(BMState)
CITY = CityMark(kind="city", since=0)
LARGE = CityMark(kind="large_city", since=0)


def maintenance(races: tuple[str, ...] = ("DAQ", "ORC"), **fields: Any) -> BMState:
    state = copy(position(races, phase=Phase.COMBAT, **fields))
    U.begin_upkeep(state, Rng(state.rng))
    return state


def submit(state: BMState, pid: int, *disband: Disband, trades: tuple[Merchant, ...] = (),
           lock: bool = True) -> list[Event]:
    return U.submit_upkeep(state, U.SubmitUpkeep(player=pid, trades=trades, disband=disband, lock=lock),
                           Rng(state.rng))


def error(state: BMState, pid: int, *disband: Disband, trades: tuple[Merchant, ...] = (), lock: bool = True) -> str:
    before = snapshot(state)
    with pytest.raises(RuleError) as err:
        submit(copy(state), pid, *disband, trades=trades, lock=lock)
    assert snapshot(state) == before
    return err.value.code


@pytest.mark.rule("BM-UPK-1", "BM-MON-3", "BM-A-19")
def test_upkeep_is_grain_per_unit_grain_and_iron_per_cavalry_and_grain_per_city() -> None:
    state = maintenance(troops={"H-DAQ": {1: {"infantry": 2, "archers": 1, "giant": 1, "dragon": 1}},
                                "N20": {1: {"cavalry": 2}}, "N12": {1: {"infantry": 1}}},
                        cities={"N20": CITY, "N12": LARGE},
                        heroes=[HeroToken(owner=1, number=1, region="H-DAQ", life=5)])
    assert U.due(state, 1) == {"grain": 2 + 1 + 2 + 1 + 1 + 2, "wood": 0, "iron": 2}


@pytest.mark.rule("BM-UPK-1")
def test_orc_hardy_feeds_two_infantry_per_grain_and_dark_lord_infantry_eat_nothing() -> None:
    orcs = maintenance(troops={"H-ORC": {2: {"infantry": 3}}, "N22": {2: {"infantry": 2, "archers": 1}}})
    assert U.due(orcs, 2)["grain"] == 3 + 1  # 5 infantry → 3 grain, 1 archer
    dark = maintenance(("DRK", "ELF"), troops={"H-DRK": {1: {"infantry": 6, "cavalry": 1}}})
    assert U.due(dark, 1) == {"grain": 1, "wood": 0, "iron": 1}


@pytest.mark.rule("BM-UPK-5", "BM-UPK-4", "BM-RES-2")
def test_upkeep_is_paid_together_once_everyone_has_confirmed() -> None:
    state = maintenance(stock={1: {"grain": 5, "iron": 2}, 2: {"grain": 1}},
                        troops={"H-DAQ": {1: {"infantry": 2, "cavalry": 1}}, "H-ORC": {2: {"infantry": 2}}})
    submit(state, 1)
    assert state.stock[1] == Stock(grain=5, iron=2) and not U.upkeep_finished(state)
    events = submit(state, 2)
    assert [(e.player, e.paid) for e in events if isinstance(e, U.UpkeepPaid)] == [
        (1, {"grain": 3, "wood": 0, "iron": 1}), (2, {"grain": 1, "wood": 0, "iron": 0})]
    assert state.stock == {1: Stock(grain=2, iron=1), 2: Stock()} and U.upkeep_finished(state)


@pytest.mark.rule("BM-UPK-2", "BM-TRD-4")
def test_merchant_trades_come_first_and_can_cover_the_upkeep() -> None:
    state = maintenance(stock={1: {"wood": 6}}, troops={"H-DAQ": {1: {"infantry": 2}}})
    assert error(state, 1) == "BM_E_UPKEEP_UNRESOLVED"
    assert [(d.player, d.kind, d.detail) for d in U.pending(state)] == [
        (1, "upkeep", {"due": {"grain": 2, "wood": 0, "iron": 0}, "short": {"grain": 2}}),
        (2, "upkeep", {"due": {"grain": 0, "wood": 0, "iron": 0}, "short": {}})]
    assert error(state, 1, trades=(Merchant(give="wood", amount=5, get="grain"),)) == "BM_E_TRADE_RATE"
    submit(state, 1, trades=(Merchant(give="wood", amount=6, get="grain"),))
    submit(state, 2)
    assert state.stock[1] == Stock() and state.units("H-DAQ", 1).infantry == 2


@pytest.mark.rule("BM-UPK-3", "BM-CITY-6")
def test_a_shortfall_forces_disbanding_units_or_taking_down_cities_of_his_choice() -> None:
    state = maintenance(stock={1: {"grain": 3}}, troops={"H-DAQ": {1: {"infantry": 2}}, "N20": {1: {"archers": 1}}},
                        cities={"N20": LARGE})
    with pytest.raises(RuleError) as err:
        submit(copy(state), 1)
    assert err.value.code == "BM_E_UPKEEP_UNRESOLVED" and err.value.message == (
        "You are short 2 grain; disband units or cities first.")
    assert error(state, 1, Disband(region="N20", what="cavalry")) == "BM_E_UNIT_NOT_FOUND"
    assert error(state, 1, Disband(region="N12", what="city")) == "BM_E_NO_CITY"
    submit(copy(state), 1, Disband(region="H-DAQ", what="infantry", n=2))  # one choice
    events = submit(state, 1, Disband(region="N20", what="city", n=2))  # another: the large city goes
    events += submit(state, 2)
    assert "N20" not in state.cities and state.stock[1] == Stock(grain=0)
    assert any(e.type == "city_destroyed" and e.reason == "upkeep" for e in events)


@pytest.mark.rule("BM-UPK-6")
def test_no_disbanding_while_the_upkeep_is_affordable() -> None:
    state = maintenance(stock={1: {"grain": 1}}, troops={"H-DAQ": {1: {"infantry": 3}}})
    with pytest.raises(RuleError) as err:
        submit(copy(state), 1, Disband(region="H-DAQ", what="infantry", n=3))  # 2 are enough
    assert err.value.code == "BM_E_DISBAND_UNNEEDED"
    rich = maintenance(stock={1: {"grain": 9}}, troops={"H-DAQ": {1: {"infantry": 3}}})
    assert error(rich, 1, Disband(region="H-DAQ", what="infantry"), lock=False) == "BM_E_DISBAND_UNNEEDED"
    submit(state, 1, Disband(region="H-DAQ", what="infantry", n=2))
    submit(state, 2)
    assert state.units("H-DAQ", 1).infantry == 1 and state.stock[1] == Stock()


def test_a_large_city_is_taken_down_a_step_to_a_city() -> None:
    state = maintenance(stock={1: {"grain": 2}}, troops={"N20": {1: {"infantry": 1}}}, cities={"N20": LARGE})
    submit(state, 1, Disband(region="N20", what="city"))
    submit(state, 2)
    assert state.cities["N20"] == CityMark(kind="city", since=1) and state.stock[1] == Stock()


@pytest.mark.rule("BM-SIM-5")
def test_the_timeout_disbands_cavalry_then_archers_then_infantry_then_cities_in_region_order() -> None:
    state = maintenance(stock={1: {"grain": 2, "iron": 0}},
                        troops={"N20": {1: {"infantry": 1, "cavalry": 1}}, "N12": {1: {"cavalry": 1, "archers": 1}},
                                "H-DAQ": {1: {"archers": 1}}},
                        cities={"N20": CITY, "N12": LARGE})
    action = U.timeout_upkeep(state, 1)
    assert action.lock and action.trades == ()
    # due 7 grain 2 iron: cavalry in N12 then N20 (−2 grain −2 iron), archers in H-DAQ then N12 (−2 grain);
    # the large city in N12 lost its last unit with them, so its upkeep went too
    assert action.disband == (Disband(region="N12", what="cavalry"), Disband(region="N20", what="cavalry"),
                              Disband(region="H-DAQ", what="archers"), Disband(region="N12", what="archers"))
    U.submit_upkeep(state, action, Rng(state.rng))
    U.submit_upkeep(state, U.timeout_upkeep(state, 2), Rng(state.rng))
    assert state.stock[1] == Stock() and state.units("N20", 1).counts() == {"infantry": 1}
    assert "N12" not in state.troops and "H-DAQ" not in state.troops  # no empty entries are left behind


def test_the_timeout_takes_cities_down_last_and_keeps_units_that_cost_nothing() -> None:
    state = maintenance(("DRK", "ELF"), stock={1: {"grain": 0}}, troops={"N27": {1: {"infantry": 3}}},
                        cities={"N27": LARGE})
    assert U.timeout_upkeep(state, 1).disband == (Disband(region="N27", what="city", n=2),)


def test_the_timeout_downgrades_every_large_city_before_it_destroys_a_city() -> None:
    """Reference ruling 27 and BM-DIG-19: downgrade, then destroy, each in region-id order."""
    towns = {"N16": CITY, "N27": LARGE, "N28": LARGE}
    state = maintenance(("DRK", "ELF"), stock={1: {"grain": 2}}, troops={r: {1: {"infantry": 1}} for r in towns},
                        cities=towns)
    # 5 grain for the cities (Undying infantry eat nothing), 2 in stock
    assert U.timeout_upkeep(state, 1).disband == (Disband(region="N27", what="city"),
                                                  Disband(region="N28", what="city"),
                                                  Disband(region="N16", what="city"))


@pytest.mark.rule("BM-SIM-5")
def test_a_timeout_confirms_a_draft_that_pays_the_upkeep() -> None:
    """Reference ruling 12: the player's own choice of disbands stands if it still pays."""
    state = maintenance(stock={1: {"grain": 1}}, troops={"H-DAQ": {1: {"infantry": 1, "archers": 1}}})
    submit(state, 1, Disband(region="H-DAQ", what="infantry"), lock=False)
    assert U.timeout_upkeep(state, 1).disband == (Disband(region="H-DAQ", what="infantry"),)
    state.stock = {**state.stock, 1: Stock()}
    assert U.timeout_upkeep(state, 1).disband == (Disband(region="H-DAQ", what="archers"),
                                                   Disband(region="H-DAQ", what="infantry"))


@pytest.mark.rule("BM-STAR-5")
def test_neither_the_economy_nor_maintenance_ever_takes_a_star() -> None:
    state = maintenance(stock={1: {}}, troops={"H-DAQ": {1: {"infantry": 4}}}, stars={1: Stars(owned=3, spent=1),
                                                                                       2: Stars(owned=1)})
    U.submit_upkeep(state, U.timeout_upkeep(state, 1), Rng(state.rng))
    submit(state, 2)
    assert state.stars[1] == Stars(owned=3, spent=1) and state.units("H-DAQ", 1).total() == 0


def test_maintenance_refuses_other_steps_and_a_second_confirmation() -> None:
    state = maintenance()
    submit(state, 1)
    with pytest.raises(RuleError) as err:
        submit(state, 1)
    assert err.value.code == "BM_E_LOCKED" and err.value.message == "You already locked your upkeep."
    assert error(copy(position(phase=Phase.ORDERS)), 1) == "BM_E_WRONG_PHASE"
