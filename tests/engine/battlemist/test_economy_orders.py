"""Economy order sets: checking a set as a whole and resolving every set in the fixed order (economy.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Event, copier
from engine.core.orders import Orders
from engine.core.rng import Rng
from engine.games.battlemist import economy as E
from engine.games.battlemist.economy import Build, CastSpell, Guild, Merchant, NewHero, PlayCard, Recruit
from engine.games.battlemist.pieces import CityMark, Effects, HeroToken, Stars, Stock
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.helpers import position, snapshot

copy = copier(BMState)
CITY = CityMark(kind="city", since=0)
LARGE = CityMark(kind="large_city", since=0)
RICH = {"grain": 40, "wood": 40, "iron": 40}


def at_orders(**fields: Any) -> BMState:
    """DAQ (1) and ORC (2) in the order step of round 1; player 1 rich unless told otherwise."""
    fields.setdefault("stock", {1: RICH})
    return copy(position(phase=Phase.ORDERS, economy=E.Economy(step="orders", orders=Orders(seats=[1, 2])),
                         **fields))


def submit(state: BMState, pid: int, *lines: E.Line, lock: bool = True) -> list[Event]:
    return E.econ_orders(state, E.EconOrders(player=pid, lines=lines, lock=lock), Rng(state.rng))


def resolve(state: BMState, *lines: E.Line) -> list[Event]:
    """Player 1 orders `lines`, player 2 nothing; both lock; the resolution's events."""
    return submit(state, 1, *lines) + submit(state, 2)


def problems(state: BMState, *lines: E.Line) -> list[tuple[int, str]]:
    """The faulty lines (1-based) of player 1's set and each one's error code."""
    before = snapshot(state)
    try:
        submit(copy(state), 1, *lines)
    except RuleError as err:
        assert err.code == err.params["problems"][0].params["error"].key and snapshot(state) == before
        return [(p.params["line"], p.params["error"].key) for p in err.params["problems"]]
    return []


def one_error(state: BMState, *lines: E.Line) -> RuleError:
    with pytest.raises(RuleError) as err:
        submit(copy(state), 1, *lines)
    (problem,) = err.value.params["problems"]
    return RuleError(problem.params["error"].key, **problem.params["error"].params)


# ---------------------------------------------------------------------------------------------------- recruits


@pytest.mark.rule("BM-REC-1", "BM-RES-2")
def test_recruits_cost_their_price_paid_to_the_supply_and_are_placed_at_once() -> None:
    state = at_orders(stock={1: {"grain": 1, "wood": 5, "iron": 5}, 2: {"wood": 3}})
    events = resolve(state, Recruit(unit="infantry", region="H-DAQ"), Recruit(unit="archers", region="H-DAQ"),
                     Recruit(unit="cavalry", region="H-DAQ"))
    assert state.stock[1] == Stock(grain=1, wood=1, iron=1)  # 1+1, 2+1, 1+2
    assert state.stock[2] == Stock(wood=3)  # the supply is not a player: nobody else gains
    assert state.units("H-DAQ", 1).counts() == {"infantry": 1, "archers": 1, "cavalry": 1}
    assert [(e.unit, e.cost) for e in events if isinstance(e, E.Recruited)] == [
        ("infantry", {"wood": 1, "iron": 1}), ("archers", {"wood": 2, "iron": 1}), ("cavalry", {"wood": 1, "iron": 2})]


@pytest.mark.rule("BM-REC-2", "BM-CITY-4")
def test_placement_limits_homeland_3_large_city_3_city_1_counting_sites_of_the_round_start() -> None:
    troops = {r: {1: {"infantry": 1}} for r in ("N20", "N12", "N31", "N11", "N13")}
    state = at_orders(troops=troops, round=2,
                      cities={"N20": CITY, "N12": LARGE, "N31": CityMark(kind="city", since=2),
                              "N11": CityMark(kind="large_city", since=2)})
    assert problems(state, Recruit(unit="infantry", region="H-DAQ", n=3), Recruit(unit="infantry", region="N12", n=3),
                    Recruit(unit="infantry", region="N20"), Recruit(unit="infantry", region="N11")) == []
    assert problems(state, Recruit(unit="infantry", region="H-DAQ", n=2), Recruit(unit="archers", region="H-DAQ", n=2),
                    Recruit(unit="infantry", region="N20", n=2), Recruit(unit="infantry", region="N12", n=4),
                    Recruit(unit="infantry", region="N11", n=2),  # upgraded this round: still a city's 1
                    Recruit(unit="infantry", region="N31"),  # built this round: no placement yet
                    Recruit(unit="infantry", region="N13")) == [  # no city at all
        (2, "BM_E_PLACEMENT_LIMIT"), (3, "BM_E_PLACEMENT_LIMIT"), (4, "BM_E_PLACEMENT_LIMIT"),
        (5, "BM_E_PLACEMENT_LIMIT"), (6, "BM_E_NO_PLACEMENT_SITE"), (7, "BM_E_NO_PLACEMENT_SITE")]
    error = one_error(state, Recruit(unit="infantry", region="H-DAQ", n=4))
    assert error.message == "Homeland: Knights of Daqan (H-DAQ) can take 3 new unit(s) this round; you placed 4."


@pytest.mark.rule("BM-CITY-4")
def test_a_city_built_now_gives_no_placement_this_round() -> None:
    state = at_orders(troops={"N20": {1: {"infantry": 1}}})
    assert problems(state, Build(region="N20"), Recruit(unit="infantry", region="N20")) == [
        (2, "BM_E_NO_PLACEMENT_SITE")]


@pytest.mark.rule("BM-REC-3", "BM-A-18")
def test_placement_respects_stacking_and_never_joins_another_players_units() -> None:
    state = at_orders(troops={"H-DAQ": {1: {"infantry": 8, "giant": 1}}, "N20": {1: {"infantry": 1}, 2: {"giant": 1}}},
                      cities={"N20": CITY})
    error = one_error(state, Recruit(unit="cavalry", region="H-DAQ", n=3))
    assert error.code == "BM_E_STACK_LIMIT" and "would hold 11" in error.message  # the Giant does not count
    assert problems(state, Recruit(unit="cavalry", region="H-DAQ", n=2)) == []
    error = one_error(state, Recruit(unit="infantry", region="N20"))
    assert error.code == "BM_E_HOMELAND_OCCUPIED" and "Zul Orcs units" in error.message


@pytest.mark.rule("BM-REC-3", "BM-HOM-3")
def test_no_placement_in_an_occupied_homeland_or_beside_monsters_that_do_not_occupy_it() -> None:
    occupied = at_orders(troops={"H-DAQ": {2: {"infantry": 1}}}, occupied={"H-DAQ": 2})
    assert one_error(occupied, Recruit(unit="infantry", region="H-DAQ")).code == "BM_E_HOMELAND_OCCUPIED"
    assert one_error(occupied, PlayCard(card="AC12")).code == "BM_E_CARD_NOT_IN_HAND"  # an earlier check
    monsters = at_orders(troops={"H-DAQ": {2: {"dragon": 1}}}, hands={1: ["AC12"]})
    assert problems(monsters, PlayCard(card="AC12"), Recruit(unit="infantry", region="H-DAQ")) == [
        (1, "BM_E_HOMELAND_OCCUPIED"), (2, "BM_E_HOMELAND_OCCUPIED")]


# ---------------------------------------------------------------------------------------------------- heroes


@pytest.mark.rule("BM-HER-1", "BM-HER-10")
def test_a_hero_costs_5_wood_5_iron_enters_the_homeland_and_leaves_the_placement_limit_alone() -> None:
    state = at_orders(stock={1: {"wood": 8, "iron": 8}}, heroes=[HeroToken(owner=1, number=1, region="N05", life=3)])
    events = resolve(state, NewHero(), Recruit(unit="infantry", region="H-DAQ", n=3))
    assert state.stock[1] == Stock(wood=0, iron=0)
    assert state.heroes[-1] == HeroToken(owner=1, number=2, region="H-DAQ", life=5)
    assert [(e.number, e.life) for e in events if isinstance(e, E.HeroRecruited)] == [(2, 5)]


def test_a_hero_recruited_with_the_amulet_of_vigor_enters_with_6_life() -> None:
    state = at_orders(artifacts={1: ["AR2"]})
    resolve(state, NewHero())
    assert state.heroes == [HeroToken(owner=1, number=1, region="H-DAQ", life=6)]


@pytest.mark.rule("BM-HER-8", "BM-HER-9")
def test_one_new_hero_per_round_and_three_alive_at_most() -> None:
    assert problems(at_orders(), NewHero(), NewHero()) == [(2, "BM_E_HERO_LIMIT")]
    assert problems(at_orders(stock={1: {"wood": 4}}), NewHero(), NewHero()) == [
        (1, "BM_E_INSUFFICIENT_RESOURCES"), (2, "BM_E_HERO_LIMIT")]  # the second line is wrong either way
    three = at_orders(heroes=[HeroToken(owner=1, number=n, region="H-DAQ", life=5) for n in (1, 2, 3)])
    assert problems(three, NewHero()) == [(1, "BM_E_HERO_LIMIT")]


# ---------------------------------------------------------------------------------------------------- cities


@pytest.mark.rule("BM-CITY-1", "BM-CITY-5")
def test_a_city_costs_5_wood_5_iron_in_a_region_you_control() -> None:
    state = at_orders(stock={1: {"wood": 5, "iron": 6}}, troops={"N20": {1: {"infantry": 1}}})
    events = resolve(state, Build(region="N20"))
    assert state.cities == {"N20": CityMark(kind="city", since=1)} and state.stock[1] == Stock(iron=1)
    assert [(e.region, e.city) for e in events if isinstance(e, E.CityBuilt)] == [("N20", "city")]


def test_build_lines_check_control_then_cost_then_the_homeland() -> None:
    """Reference ruling 2: a homeland is controlled by its owner, so only his own gets BM_E_CITY_IN_HOMELAND."""
    poor = at_orders(stock={1: {"wood": 4, "iron": 9}})
    assert problems(poor, Build(region="H-DAQ"), Build(region="H-ORC")) == [
        (1, "BM_E_INSUFFICIENT_RESOURCES"), (2, "BM_E_NOT_CONTROLLED")]


@pytest.mark.rule("BM-CITY-7", "BM-CITY-8")
def test_no_city_in_a_homeland_or_an_uncontrolled_region_and_one_per_region() -> None:
    state = at_orders(troops={"N20": {1: {"infantry": 1}}, "N12": {1: {"infantry": 1}}, "N22": {2: {"infantry": 1}}},
                      cities={"N12": CITY})
    assert problems(state, Build(region="H-DAQ"), Build(region="N22"), Build(region="N21"), Build(region="N12"),
                    Build(region="N20"), Build(region="N20"), Build(region="N77")) == [
        (1, "BM_E_CITY_IN_HOMELAND"), (2, "BM_E_NOT_CONTROLLED"), (3, "BM_E_NOT_CONTROLLED"), (4, "BM_E_CITY_EXISTS"),
        (6, "BM_E_CITY_EXISTS"), (7, "BM_E_UNKNOWN_REGION")]


@pytest.mark.rule("BM-CITY-2")
def test_a_large_city_needs_a_city_that_existed_at_the_start_of_the_round() -> None:
    state = at_orders(round=3, troops={r: {1: {"infantry": 1}} for r in ("N20", "N12", "N31", "N11")},
                      cities={"N12": CityMark(kind="city", since=2), "N31": CityMark(kind="city", since=3),
                              "N11": LARGE})
    assert problems(state, Build(region="N20", city="large_city"), Build(region="N31", city="large_city"),
                    Build(region="N11", city="large_city"), Build(region="N12", city="large_city"),
                    Build(region="N12", city="large_city")) == [
        (1, "BM_E_LARGE_CITY_NEEDS_CITY"), (2, "BM_E_LARGE_CITY_NEEDS_CITY"), (3, "BM_E_CITY_EXISTS"),
        (5, "BM_E_CITY_EXISTS")]
    assert problems(state, Build(region="N20"), Build(region="N20", city="large_city")) == [
        (2, "BM_E_LARGE_CITY_NEEDS_CITY")]
    resolve(state, Build(region="N12", city="large_city"))
    assert state.cities["N12"] == CityMark(kind="large_city", since=3) and state.stock[1] == Stock(grain=40, wood=35,
                                                                                                   iron=35)


# ---------------------------------------------------------------------------------------------------- Grey Guild


@pytest.mark.rule("BM-GLD-2", "BM-A-20")
@pytest.mark.parametrize(("owned", "price"), [(0, 10), (1, 10), (2, 15), (3, 20), (4, 25), (5, 30), (7, 30)])
def test_the_guild_price_in_each_resource_depends_on_the_stars_owned(owned: int, price: int) -> None:
    state = at_orders(stock={1: {"grain": 30, "wood": 30, "iron": 30}}, stars={1: Stars(owned=owned), 2: Stars()})
    events = resolve(state, Guild())
    assert [e.price for e in events if isinstance(e, E.StarBought)] == [{r: price for r in ("grain", "wood", "iron")}]
    assert state.stock[1] == Stock(grain=30 - price, wood=30 - price, iron=30 - price)


@pytest.mark.rule("BM-GLD-1", "BM-GLD-3", "BM-STAR-4", "BM-STAR-2")
def test_one_star_per_round_from_the_guild_arriving_spent() -> None:
    state = at_orders(stars={1: Stars(owned=1), 2: Stars(owned=1)}, star_pool=23)
    assert problems(state, Guild(), Guild()) == [(2, "BM_E_GUILD_ONE_PER_ROUND")]
    resolve(state, Guild())
    assert state.stars[1] == Stars(owned=2, spent=1) and state.stars[1].power == 1 and state.star_pool == 22


@pytest.mark.rule("BM-A-31", "BM-GLD-3")
def test_an_empty_star_pool_refuses_a_guild_request() -> None:
    state = at_orders(star_pool=0)
    error = one_error(state, Guild())
    assert error.code == "BM_E_STAR_POOL_EMPTY" and error.message == "The Grey Guild has no Stars left."
    assert problems(state, Guild(), Guild()) == [(1, "BM_E_STAR_POOL_EMPTY"), (2, "BM_E_GUILD_ONE_PER_ROUND")]


@pytest.mark.rule("BM-GLD-4", "BM-A-10")
def test_a_short_pool_serves_fewer_stars_first_and_refunds_the_rest() -> None:
    state = at_orders(stock={1: RICH, 2: RICH}, stars={1: Stars(owned=2), 2: Stars(owned=1)}, star_pool=1)
    events = submit(state, 1, Guild()) + submit(state, 2, Guild())
    assert [e.type for e in events if e.type in ("star_bought", "guild_refused", "guild_roll_off")] == [
        "guild_refused", "star_bought"]
    assert state.stars[2] == Stars(owned=2, spent=1) and state.stars[1] == Stars(owned=2)
    assert state.stock[1] == Stock(**RICH) and state.star_pool == 0


@pytest.mark.rule("BM-GLD-4", "BM-A-10")
def test_equal_stars_at_the_cut_roll_off_with_a_d10_rerolling_ties() -> None:
    state = at_orders(stock={1: RICH, 2: RICH}, stars={1: Stars(owned=1), 2: Stars(owned=1)}, star_pool=1,
                      dice=[4, 4, 3, 9])
    rng = Rng(state.rng)
    events = E.econ_orders(state, E.EconOrders(player=1, lines=(Guild(),), lock=True), rng)
    events += E.econ_orders(state, E.EconOrders(player=2, lines=(Guild(),), lock=True), rng)
    (roll,) = [e for e in events if isinstance(e, E.GuildRollOff)]
    assert roll.rolls == [{1: 4, 2: 4}, {1: 3, 2: 9}]
    assert state.stars[2].owned == 2 and state.stars[1].owned == 1 and state.stock[1] == Stock(**RICH)


# ---------------------------------------------------------------------------------------------------- merchants


@pytest.mark.rule("BM-TRD-1", "BM-TRD-4")
def test_merchants_trade_3_to_1_or_2_to_1_with_a_large_city_or_the_merchants_ledger() -> None:
    state = at_orders(stock={1: {"grain": 9}})
    resolve(state, Merchant(give="grain", amount=9, get="iron"))
    assert state.stock[1] == Stock(iron=3)
    assert problems(at_orders(stock={1: {"grain": 9}}), Merchant(give="grain", amount=4, get="iron"),
                    Merchant(give="grain", amount=3, get="grain")) == [(1, "BM_E_TRADE_RATE"), (2, "BM_E_TRADE_RATE")]
    large = at_orders(stock={1: {"grain": 8}}, troops={"N20": {1: {"infantry": 1}}}, cities={"N20": LARGE})
    resolve(large, Merchant(give="grain", amount=8, get="wood"))
    assert large.stock[1] == Stock(wood=4)
    ledger = at_orders(stock={1: {"grain": 3}}, artifacts={1: ["AR6"]})
    assert one_error(ledger, Merchant(give="grain", amount=3, get="wood")).message == (
        "Merchants trade 2:1 between different resources.")


@pytest.mark.rule("BM-ECO-4")
def test_a_set_is_paid_line_by_line_in_the_listed_order_its_trades_included() -> None:
    state = at_orders(stock={1: {"grain": 6, "wood": 1}})
    recruit, to_iron = Recruit(unit="infantry", region="H-DAQ"), Merchant(give="grain", amount=3, get="iron")
    assert problems(state, to_iron, recruit) == []  # a trade pays for what is listed after it ...
    assert problems(state, recruit, to_iron) == [(1, "BM_E_INSUFFICIENT_RESOURCES")]  # ... not before it
    # 3 grain bought 1 iron, not the 3 that the second trade gives away
    assert problems(state, to_iron, Merchant(give="iron", amount=3, get="wood")) == [
        (2, "BM_E_INSUFFICIENT_RESOURCES")]
    error = one_error(state, Recruit(unit="cavalry", region="H-DAQ"))
    assert error.message == "You need 1 wood, 2 iron but have 1 wood, 0 iron."


@pytest.mark.rule("BM-ECO-5")
def test_resolution_runs_trades_builds_recruits_heroes_then_the_guild_whatever_the_listed_order() -> None:
    state = at_orders(troops={"N20": {1: {"infantry": 1}}}, hands={1: ["AC12"]})
    events = resolve(state, Guild(), NewHero(), PlayCard(card="AC12"), Recruit(unit="infantry", region="H-DAQ"),
                     Build(region="N20"), Merchant(give="grain", amount=3, get="wood"))
    kinds = [e.type for e in events if e.type not in ("econ_drafted", "econ_locked")]
    assert kinds == ["card_played", "merchant_traded", "city_built", "recruited", "recruited", "hero_recruited",
                     "star_bought"]
    assert [(e.unit, e.region) for e in events if isinstance(e, E.Recruited)] == [("giant", "H-DAQ"),
                                                                                 ("infantry", "H-DAQ")]


# ---------------------------------------------------------------------------------------------------- the set


@pytest.mark.rule("BM-VAL-3", "BM-A-39")
def test_a_set_reports_every_faulty_line_each_with_its_first_error_in_the_check_order() -> None:
    state = at_orders(stock={1: {"wood": 7, "iron": 7}}, hands={1: ["AC05"]})
    lines = (Recruit(unit="cavalry", region="N13", n=9),  # cost (5) before the placement site (6)
             PlayCard(card="AC08"),  # not held (2)
             PlayCard(card="AC05"),  # held, but not an economy card: its window (3)
             Recruit(unit="infantry", region="H-DAQ", n=2),
             NewHero(), NewHero())  # the limit (4) before the cost (5)
    assert problems(state, *lines) == [(1, "BM_E_INSUFFICIENT_RESOURCES"), (2, "BM_E_CARD_NOT_IN_HAND"),
                                       (3, "BM_E_CARD_WINDOW"), (6, "BM_E_HERO_LIMIT")]
    with pytest.raises(RuleError) as err:
        submit(copy(state), 1, *lines)
    assert err.value.message == (
        "Your orders have 4 errors: (line 1) You need 9 wood, 18 iron but have 7 wood, 7 iron. (line 2) You do not "
        "hold Skilled Smiths (AC08). (line 3) Rally the Troops (AC05) can only be played before a rally roll "
        "(W-RALLY). (line 6) You may recruit 1 hero per round and have at most 3.")


@pytest.mark.rule("BM-VAL-3", "BM-VAL-4", "BM-A-39")
def test_a_faulty_set_is_refused_with_the_catalogue_code_of_its_first_faulty_line() -> None:
    """The set's code is a §6 code, so a program reads the fault as it would for any other command; the message
    still names every faulty line."""
    state = at_orders(stock={1: {"wood": 9, "iron": 9}})
    with pytest.raises(RuleError) as err:
        submit(copy(state), 1, Recruit(unit="infantry", region="H-DAQ", n=4))
    assert err.value.code == "BM_E_PLACEMENT_LIMIT"
    assert str(err.value) == ("BM_E_PLACEMENT_LIMIT: Your orders have 1 error: (line 1) Homeland: Knights of Daqan "
                              "(H-DAQ) can take 3 new unit(s) this round; you placed 4.")
    with pytest.raises(RuleError) as err:
        submit(copy(state), 1, Recruit(unit="cavalry", region="H-DAQ", n=3), NewHero(), NewHero())
    assert err.value.code == "BM_E_INSUFFICIENT_RESOURCES" and err.value.params["n"] == 2


@pytest.mark.rule("BM-ECO-2", "BM-SIM-2", "BM-SIM-1", "BM-SIM-3")
def test_a_set_is_drafted_revised_and_locked_and_resolved_when_everyone_has_locked() -> None:
    state = at_orders()
    events = submit(state, 1, Recruit(unit="infantry", region="H-DAQ"), lock=False)
    assert [(e.type, e.private_to) for e in events] == [("econ_drafted", 1)]
    submit(state, 1, Recruit(unit="archers", region="H-DAQ", n=2), lock=True)
    with pytest.raises(RuleError) as err:
        submit(state, 1)
    assert err.value.code == "BM_E_LOCKED" and err.value.message == "You already locked your economy orders."
    assert state.units("H-DAQ", 1).army() == 0 and not E.economy_finished(state)
    assert [(d.player, d.kind) for d in E.pending(state)] == [(2, "econ_orders")]
    submit(state, 2)
    assert state.units("H-DAQ", 1).counts() == {"archers": 2} and E.economy_finished(state)
    assert E.pending(state) == []
    with pytest.raises(RuleError) as err:
        submit(state, 2)
    assert err.value.code == "BM_E_WRONG_PHASE"


@pytest.mark.rule("BM-SIM-4")
def test_an_order_draft_is_seen_by_its_author_alone() -> None:
    state = at_orders()
    submit(state, 1, NewHero(), lock=False)
    assert E.view(state, 1)["orders"] == (NewHero(),)
    assert "orders" not in E.view(state, 2) and E.view(state, 2)["missing"] == [1, 2]


@pytest.mark.rule("BM-SIM-5")
def test_a_timeout_locks_a_legal_draft_and_otherwise_orders_nothing() -> None:
    """Reference ruling 12: an unlocked draft without errors is kept; one that no longer holds is dropped."""
    state = at_orders()
    submit(state, 1, NewHero(), lock=False)
    state.stock = {**state.stock, 2: Stock(wood=4)}
    state.economy = replace(state.economy, orders=replace(state.economy.orders, drafts={
        **state.economy.orders.drafts, 2: (NewHero(),)}))  # affordable once, before a trade, say
    actions = [E.timeout_economy(state, pid) for pid in (1, 2)]
    assert [(a.lines, a.lock) for a in actions] == [((NewHero(),), True), ((), True)]
    for action in actions:
        E.econ_orders(state, action, Rng(state.rng))
    assert [h.owner for h in state.heroes] == [1] and E.economy_finished(state)


def test_resolving_leaves_the_given_position_untouched() -> None:
    before = at_orders(troops={"N20": {1: {"infantry": 1}}})
    submit(before, 2)
    original = snapshot(before)
    state = copy(before)
    submit(state, 1, Build(region="N20"), Recruit(unit="infantry", region="H-DAQ"), Guild())
    assert snapshot(before) == original and state.cities and state.troops != before.troops


# ---------------------------------------------------------------------------------------------------- cards


def test_reinforcements_ac06_raise_the_homeland_limit_by_2() -> None:
    state = at_orders(hands={1: ["AC06"]})
    assert problems(state, PlayCard(card="AC06"), Recruit(unit="infantry", region="H-DAQ", n=5)) == []
    assert problems(state, PlayCard(card="AC06"), Recruit(unit="infantry", region="H-DAQ", n=6)) == [
        (2, "BM_E_PLACEMENT_LIMIT")]
    resolve(state, PlayCard(card="AC06"), Recruit(unit="infantry", region="H-DAQ", n=5))
    assert state.units("H-DAQ", 1).infantry == 5 and state.discard == ["AC06"] and state.hands[1] == []
    assert state.effects.reinforcements == [1]


@pytest.mark.rule("BM-ECO-5", "BM-ACT-5")
def test_a_locked_sets_card_discarded_before_the_reveal_is_not_played_nor_what_needed_it() -> None:
    """Project ruling: the lines that needed the discarded card are left out like faulty lines; the rest stands."""
    state = at_orders(hands={1: ["AC06", "AC12"]})
    submit(state, 1, PlayCard(card="AC06"), Recruit(unit="infantry", region="H-DAQ", n=4), PlayCard(card="AC12"),
           NewHero())
    state.hands = {**state.hands, 1: ["AC12"]}  # AC06 discarded (BM-ACT-5)
    submit(state, 2)
    assert state.units("H-DAQ", 1).counts() == {"giant": 1} and E.economy_finished(state)
    assert [h.owner for h in state.heroes] == [1]
    assert state.discard == ["AC12"] and state.effects.reinforcements == []
    state = at_orders(stock={1: {"grain": 3, "wood": 3, "iron": 6}}, hands={1: ["AC06", "AC12"]})
    submit(state, 1, PlayCard(card="AC06"), Recruit(unit="infantry", region="H-DAQ", n=3), PlayCard(card="AC12"))
    state.hands = {**state.hands, 1: ["AC12"]}
    submit(state, 2)  # the Giant would be a 4th new unit: AC12 is left out, neither played nor paid
    assert state.units("H-DAQ", 1).counts() == {"infantry": 3} and state.hands[1] == ["AC12"]
    assert state.stock[1] == Stock(grain=3, iron=3) and state.discard == []


def test_skilled_smiths_ac08_save_1_iron_on_3_recruited_units() -> None:
    state = at_orders(stock={1: {"wood": 5, "iron": 6}}, hands={1: ["AC08"]}, troops={"N20": {1: {"infantry": 1}}},
                      cities={"N20": LARGE})
    resolve(state, Recruit(unit="infantry", region="H-DAQ", n=2), PlayCard(card="AC08"),
            Recruit(unit="cavalry", region="N20", n=2))
    # 2 infantry at 1 wood + 0 iron, then 1 cavalry at 1 wood + 1 iron and 1 at 1 wood + 2 iron
    assert state.stock[1] == Stock(wood=1, iron=3)


def test_master_builders_ac09_make_one_city_cost_3_wood_3_iron() -> None:
    state = at_orders(stock={1: {"wood": 8, "iron": 8}}, hands={1: ["AC09"]},
                      troops={"N20": {1: {"infantry": 1}}, "N12": {1: {"infantry": 1}}})
    resolve(state, Build(region="N20"), Build(region="N12"), PlayCard(card="AC09"))
    assert state.stock[1] == Stock(wood=0, iron=0) and set(state.cities) == {"N20", "N12"}


@pytest.mark.parametrize(("card", "monster", "left"), [("AC12", "giant", Stock(grain=2, wood=5, iron=2)),
                                                        ("AC13", "firebreather", Stock(grain=5, wood=2, iron=1)),
                                                        ("AC14", "dragon", Stock(grain=0, wood=5, iron=0))])
def test_monsters_for_hire_ac12_to_ac14_are_paid_and_placed_in_the_homeland_within_its_limit(
        card: str, monster: str, left: Stock) -> None:
    lines = (PlayCard(card=card), Recruit(unit="infantry", region="H-DAQ", n=3))
    assert problems(at_orders(hands={1: [card]}), *lines) == [(2, "BM_E_PLACEMENT_LIMIT")]
    state = at_orders(stock={1: {"grain": 5, "wood": 5, "iron": 5}}, hands={1: [card, card]})
    assert problems(state, PlayCard(card=card), PlayCard(card=card))[0][1] == "BM_E_INSUFFICIENT_RESOURCES"
    resolve(state, PlayCard(card=card))
    assert state.units("H-DAQ", 1).counts() == {monster: 1} and state.stock[1] == left


def test_summon_giant_sp11_costs_3_star_power_and_counts_toward_the_homeland_limit() -> None:
    state = at_orders(stars={1: Stars(owned=4), 2: Stars()})
    assert problems(state, CastSpell(spell="SP11"), Recruit(unit="infantry", region="H-DAQ", n=3)) == [
        (2, "BM_E_PLACEMENT_LIMIT")]
    assert problems(state, CastSpell(spell="SP11"), CastSpell(spell="SP11")) == [(2, "BM_E_SPELL_ALREADY_CAST")]
    resolve(state, CastSpell(spell="SP11"), Recruit(unit="infantry", region="H-DAQ", n=2))
    assert state.units("H-DAQ", 1).counts() == {"infantry": 2, "giant": 1} and state.stars[1] == Stars(owned=4,
                                                                                                       spent=3)
    poor = at_orders()
    assert problems(poor, CastSpell(spell="SP11")) == [(1, "BM_E_NOT_ENOUGH_STAR_POWER")]
    storm = at_orders(stars={1: Stars(owned=4), 2: Stars()}, effects=Effects(mana_storm="none"))
    assert problems(storm, CastSpell(spell="SP11")) == [(1, "BM_E_SPELLS_FORBIDDEN")]
    occupied = at_orders(stars={1: Stars(owned=4), 2: Stars()}, troops={"H-DAQ": {2: {"infantry": 1}}},
                         occupied={"H-DAQ": 2})
    assert problems(occupied, CastSpell(spell="SP11")) == [(1, "BM_E_HOMELAND_OCCUPIED")]


@pytest.mark.rule("BM-HOM-3")
def test_an_occupied_homeland_still_takes_a_new_hero() -> None:
    """BM-A-45: occupation stops new units, not heroes."""
    state = at_orders(troops={"H-DAQ": {2: {"infantry": 1}}}, occupied={"H-DAQ": 2})
    resolve(state, NewHero())
    assert state.heroes == [HeroToken(owner=1, number=1, region="H-DAQ", life=5)]


def test_a_hired_monster_joins_a_full_stack_since_monsters_do_not_count() -> None:
    state = at_orders(troops={"H-DAQ": {1: {"infantry": 10}}}, hands={1: ["AC12"]})
    assert problems(state, Recruit(unit="infantry", region="H-DAQ")) == [(1, "BM_E_STACK_LIMIT")]
    resolve(state, PlayCard(card="AC12"))
    assert state.units("H-DAQ", 1).counts() == {"infantry": 10, "giant": 1}
