"""The economy phase's start: W-ECONSTART plays (AC07, AC16, SP10) and the harvest (economy.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Event, copier
from engine.core.rng import Rng
from engine.games.battlemist import economy as E
from engine.games.battlemist.pieces import CityMark, Effects, Stars, Stock
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.helpers import position, snapshot

copy = copier(BMState)
CITY = CityMark(kind="city", since=0)
LARGE = CityMark(kind="large_city", since=0)


def council(**fields: Any) -> BMState:
    """DAQ (1) and ORC (2) after the Council, the economy begun."""
    state = copy(position(phase=Phase.COUNCIL, **fields))
    E.begin_economy(state, Rng(state.rng))
    return state


def commit(state: BMState, pid: int, *plays: E.EconPlay, lock: bool = True) -> list[Event]:
    return E.econ_start(state, E.EconStart(player=pid, plays=plays, lock=lock), Rng(state.rng))


def harvested(state: BMState) -> dict[int, dict[str, int]]:
    """Both pass; each player's income."""
    events = commit(state, 1) + commit(state, 2)
    return {e.player: e.income for e in events if isinstance(e, E.Harvested)}


def play(card: str, region: str) -> E.EconPlay:
    return E.EconPlay(card=card, region=region)


@pytest.mark.rule("BM-ECO-1", "BM-BRD-2", "BM-CTL-2", "BM-CITY-5")
def test_income_is_the_controlled_regions_doubled_by_cities_but_never_by_four_plus_the_homeland() -> None:
    state = council(troops={"N20": {1: {"infantry": 1}}, "N12": {1: {"archers": 1}}, "N31": {1: {"cavalry": 1}},
                            "N04": {1: {"infantry": 3}}, "N10": {2: {"infantry": 1}}},
                    cities={"N20": CITY, "N12": LARGE})
    income = harvested(state)
    # N20 plains 2 grain ×2, N12 mountain 2 iron ×2 (a large city is not ×4), N31 2 wood, N04 desert 0,
    # and the homeland by the race card (3/2/2) without any unit there
    assert income[1] == {"grain": 3 + 4, "wood": 2 + 2, "iron": 2 + 4}
    assert income[2] == {"grain": 3, "wood": 2 + 2, "iron": 2}
    assert state.stock[1] == Stock(grain=7, wood=4, iron=6) and state.phase is Phase.ORDERS


@pytest.mark.rule("BM-A-29")
def test_every_players_income_is_announced_publicly() -> None:
    state = council(troops={"N20": {1: {"infantry": 1}}})
    events = [e for e in commit(state, 1) + commit(state, 2) if isinstance(e, E.Harvested)]
    assert [(e.player, e.private_to) for e in events] == [(1, None), (2, None)]


def test_a_player_who_has_left_the_table_harvests_nothing() -> None:
    """Ruling 32: his homeland stays as an empty region; only the seats still playing are paid."""
    state = copy(position(("DAQ", "ORC", "ELF"), phase=Phase.COUNCIL))
    state.players = [replace(p, status="resigned") if p.id == 3 else p for p in state.players]
    E.begin_economy(state, Rng(state.rng))
    events = commit(state, 1) + commit(state, 2)
    assert [e.player for e in events if isinstance(e, E.Harvested)] == [1, 2] and state.stock[3] == Stock()


@pytest.mark.rule("BM-HOM-3", "BM-HOM-7")
def test_an_occupied_homeland_yields_nothing_to_its_owner_or_its_occupier() -> None:
    state = council(troops={"H-DAQ": {2: {"infantry": 2}}}, occupied={"H-DAQ": 2})
    income = harvested(state)
    assert income[1] == {"grain": 0, "wood": 0, "iron": 0}
    assert income[2] == {"grain": 3, "wood": 2, "iron": 2}  # his own homeland only


@pytest.mark.rule("BM-CTL-4", "BM-A-19", "BM-A-22", "BM-CTL-5")
def test_income_follows_derived_control_monsters_and_emptied_regions_yield_nothing() -> None:
    state = council(troops={"N20": {1: {"giant": 1}}, "N22": {1: {"infantry": 1}}, "N10": {2: {"dragon": 1}}},
                    cities={"N20": CITY})
    income = harvested(state)
    # N20 (with a city) holds only a Giant: nobody controls it; N22 is Orc-adjacent but Daqan hold it
    assert income[1] == {"grain": 3 + 2, "wood": 2, "iron": 2}
    assert income[2] == {"grain": 3, "wood": 2, "iron": 2}


@pytest.mark.rule("BM-CITY-3")
def test_a_captured_city_doubles_for_its_new_controller() -> None:
    state = council(troops={"N20": {2: {"infantry": 1}}}, cities={"N20": CITY})
    assert harvested(state)[2]["grain"] == 3 + 4


@pytest.mark.rule("BM-ECO-6")
@pytest.mark.parametrize(("outcome", "grain"), [("half", (3 + 2 + 1) // 2), ("none", 0)])
def test_failed_harvest_halves_or_removes_the_grain_income(outcome: str, grain: int) -> None:
    state = council(troops={"N20": {1: {"infantry": 1}}, "N11": {1: {"infantry": 1}}},
                    effects=Effects(failed_harvest=outcome))  # type: ignore[arg-type]
    income = harvested(state)
    assert income[1] == {"grain": grain, "wood": 2, "iron": 2}


@pytest.mark.rule("BM-ECO-3", "BM-SIM-1", "BM-SIM-3")
def test_econstart_plays_are_committed_privately_and_applied_together_to_the_harvest() -> None:
    state = council(troops={"N20": {1: {"infantry": 1}}, "N22": {2: {"infantry": 1}}}, cities={"N22": CITY},
                    hands={1: ["AC07", "AC16"], 2: ["AC07"]}, stars={1: Stars(owned=1), 2: Stars(owned=2)})
    events = commit(state, 1, play("AC07", "N20"), play("AC16", "N22"))
    assert state.hands[1] == ["AC07", "AC16"] and state.stock[1] == Stock()  # nothing applied yet
    assert [e.type for e in events] == ["econ_drafted", "econ_locked"] and events[0].private_to == 1
    events = commit(state, 2, play("SP10", "N22"))
    assert state.hands[1] == [] and state.discard == ["AC07", "AC16"] and state.stars[2] == Stars(owned=2, spent=2)
    income = {e.player: e.income for e in events if isinstance(e, E.Harvested)}
    assert income[1]["grain"] == 3 + 2 * 2  # AC07 Bountiful Harvest: N20 yields a second time
    assert income[2]["grain"] == 3 + 2 * 2  # AC16 Sabotage: N22's city yields undoubled, SP10 a second time
    assert state.effects.bountiful == ["N20", "N22"] and state.effects.sabotaged == ["N22"]


def test_bountiful_harvest_repeats_a_city_regions_doubled_income() -> None:
    """Ruling: AC07's second yield is the region's income as harvested, its city's doubling included."""
    state = council(troops={"N20": {1: {"infantry": 1}}}, cities={"N20": CITY}, hands={1: ["AC07"]})
    commit(state, 1, play("AC07", "N20"))
    income = {e.player: e.income for e in commit(state, 2) if isinstance(e, E.Harvested)}
    assert income[1]["grain"] == 3 + 4 + 4


@pytest.mark.parametrize(("plays", "fields", "expected"), [
    ((play("AC07", "N99"),), {}, "BM_E_UNKNOWN_REGION"),
    ((play("AC07", "N20"),), {"hands": {1: []}}, "BM_E_CARD_NOT_IN_HAND"),
    ((play("AC06", "N20"),), {"hands": {1: ["AC06"]}}, "BM_E_CARD_WINDOW"),
    ((play("AC07", "N21"),), {}, "BM_E_NOT_CONTROLLED"),
    ((play("AC07", "H-DAQ"),), {}, "BM_E_HARVEST_HOMELAND"),
    ((play("AC16", "N20"),), {"cities": {"N20": CITY}}, "BM_E_SABOTAGE_TARGET"),  # his own city
    ((play("AC16", "N22"),), {}, "BM_E_SABOTAGE_TARGET"),  # no city there
    ((play("AC07", "N20"), play("AC07", "N20")), {}, "BM_E_CARD_NOT_IN_HAND"),  # one copy held
    ((play("SP10", "N20"),), {}, "BM_E_NOT_ENOUGH_STAR_POWER"),
    ((play("SP10", "N20"), play("SP10", "N20")), {"stars": {1: Stars(owned=4)}}, "BM_E_SPELL_ALREADY_CAST"),
    ((play("SP10", "N20"),), {"effects": Effects(mana_storm="none")}, "BM_E_SPELLS_FORBIDDEN"),
])
def test_econstart_plays_are_checked_when_committed(plays: tuple[E.EconPlay, ...], fields: dict[str, Any],
                                                    expected: str) -> None:
    base: dict[str, Any] = {"troops": {"N20": {1: {"infantry": 1}}, "N22": {2: {"infantry": 1}}},
                            "hands": {1: ["AC07", "AC16"]}}
    before = council(**(base | fields))
    original = snapshot(before)
    with pytest.raises(RuleError) as err:
        commit(copy(before), 1, *plays)
    assert err.value.code == expected
    assert snapshot(before) == original


@pytest.mark.rule("BM-SIM-2", "BM-SIM-5")
def test_plays_may_be_revised_until_locked_and_a_timeout_passes() -> None:
    state = council(troops={"N20": {1: {"infantry": 1}}}, hands={1: ["AC07"]})
    commit(state, 1, play("AC07", "N20"), lock=False)
    commit(state, 1, lock=True)  # revised to a pass
    with pytest.raises(RuleError) as err:
        commit(state, 1, play("AC07", "N20"))
    assert err.value.code == "BM_E_LOCKED" and "W-ECONSTART plays" in err.value.message
    action = E.timeout_econstart(state, 2)
    assert action.plays == () and action.lock  # nothing drafted: a pass
    E.econ_start(state, action, Rng(state.rng))
    assert state.hands[1] == ["AC07"] and state.phase is Phase.ORDERS


def test_a_timeout_locks_the_legal_draft_of_econstart_plays() -> None:
    """Reference ruling 12; a draft whose card has left the hand since is dropped for a pass."""
    state = council(troops={"N20": {1: {"infantry": 1}}, "N22": {2: {"infantry": 1}}},
                    hands={1: ["AC07"], 2: ["AC07"]})
    commit(state, 1, play("AC07", "N20"), lock=False)
    commit(state, 2, play("AC07", "N22"), lock=False)
    state.hands = {**state.hands, 2: []}
    assert E.timeout_econstart(state, 1).plays == (play("AC07", "N20"),)
    assert E.timeout_econstart(state, 2).plays == ()


@pytest.mark.rule("BM-ECO-3", "BM-ACT-5")
def test_a_committed_card_discarded_before_the_reveal_is_not_played_and_the_harvest_goes_on() -> None:
    """Project ruling: a player may still discard a card he committed; it is then not played, and the last lock
    still reveals the others' plays and runs the harvest."""
    state = council(troops={"N20": {1: {"infantry": 1}}, "N22": {2: {"infantry": 1}}},
                    hands={1: ["AC07", "AC07"], 2: ["AC07"]})
    commit(state, 1, play("AC07", "N20"), play("AC07", "N20"))
    commit(state, 2, play("AC07", "N22"), lock=False)
    state.hands = {**state.hands, 1: ["AC07"]}  # one copy discarded (BM-ACT-5)
    events = commit(state, 2, play("AC07", "N22"))
    income = {e.player: e.income for e in events if isinstance(e, E.Harvested)}
    assert income[1]["grain"] == 3 + 2 * 2 and income[2]["grain"] == 3 + 2 * 2
    assert state.effects.bountiful == ["N20", "N22"] and state.hands == {1: [], 2: []}
    assert [e.player for e in events if isinstance(e, E.HarvestBoosted)] == [1, 2]


@pytest.mark.rule("BM-SIM-4")
def test_nobody_sees_another_players_draft() -> None:
    state = council(troops={"N20": {1: {"infantry": 1}}}, hands={1: ["AC07"]})
    commit(state, 1, play("AC07", "N20"), lock=False)
    assert "orders" not in E.view(state, 2) and "orders" not in E.view(state, None)
    assert E.view(state, 1)["orders"] == (play("AC07", "N20"),)
    assert E.view(state, 2)["missing"] == [1, 2]
    assert [(d.player, d.kind, d.detail) for d in E.pending(state)] == [(1, "econstart", {}), (2, "econstart", {})]


def test_the_economy_refuses_commands_of_another_step() -> None:
    state = copy(position(phase=Phase.MOVEMENT))
    with pytest.raises(RuleError) as err:
        commit(state, 1)
    assert err.value.code == "BM_E_WRONG_PHASE"
    state = council()
    with pytest.raises(RuleError) as err:
        E.econ_start(state, E.EconStart(player=9), Rng(state.rng))
    assert err.value.code == "BM_E_NOT_IN_GAME"


def test_the_harvest_leaves_the_given_position_untouched() -> None:
    before = council(troops={"N20": {1: {"infantry": 1}}}, hands={1: ["AC07"]})
    commit(before, 1, play("AC07", "N20"))
    original = snapshot(before)
    state = copy(before)
    commit(state, 2)
    assert snapshot(before) == original and state.stock[1].grain == 7
