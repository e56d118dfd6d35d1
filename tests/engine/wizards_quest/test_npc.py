"""The automated phases: Orc (WQ-ORC-*), Dragon (WQ-DRG-*), Great Mage and protection (WQ-MAGE-*, WQ-PROT-*),
round structure and turn order (WQ-RND-1, WQ-ORD-1 … ORD-3)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games.wizards_quest.state import Phase, WQState
from tests.engine.wizards_quest.helpers import P1, P2, P3, of_type, play, position, rejects

QUIET_GROWTH = [1, 1, 1, 1]
"""Both growth rolls hit 1.1, which the scenarios leave to P2 (nothing grows)."""
QUIET_DRAGON = [6, 2]
"""The Dragon lands on the empty 6.2."""
QUIET_MAGE = [4, 2]
"""The Mage goes to the empty 4.2: region 4 is protected."""
ORDER_2P = [6, 1]


def base(**kw: Any) -> WQState:
    owner = {"1.1": P2}
    owner.update(kw.pop("owner", {}))
    return position(2, owner=owner, current=P2, order=[P1, P2], **kw)


def end_round(s: WQState, dice: list[int]) -> tuple[WQState, list]:
    return play(s, ("end", s.current), dice=dice)


@pytest.mark.rule("WQ-RND-1", "WQ-DICE-1")
def test_round_runs_orcs_dragon_mage_then_order() -> None:
    s, events = end_round(base(), QUIET_GROWTH + QUIET_DRAGON + QUIET_MAGE + ORDER_2P)
    types = [e.type for e in events]
    assert types == ["turn_ended", "round_started", "orc_growth", "orc_growth", "dragon_landed", "mage_moved",
                     "order_rolled", "turn_started"]
    assert s.round == 2 and s.phase is Phase.PETITION and s.current == P1


@pytest.mark.rule("WQ-ORC-1", "WQ-ORC-2")
def test_growth_adds_two_up_to_the_cap_and_starts_bands_on_empty_territories() -> None:
    s = base(orcs={"3.3": 3}, dragon="2.2")
    s, events = end_round(s, [3, 3, 2, 2, *QUIET_DRAGON, *QUIET_MAGE, *ORDER_2P])
    grow = of_type(events, "orc_growth")
    assert (grow[0].before, grow[0].after) == (3, 4) and s.orcs["3.3"] == 4, "capped at 4"
    assert (grow[1].territory, grow[1].after) == ("2.2", 2), "the Dragon does not stop a new band"
    s2 = base()
    _, events = end_round(s2, [1, 1, 5, 4, *QUIET_DRAGON, *QUIET_MAGE, *ORDER_2P])
    held = of_type(events, "orc_growth")
    assert held[0].holder == P2 and held[1].holder == P2


@pytest.mark.rule("WQ-ORC-3", "WQ-ORC-5", "WQ-ORC-6")
def test_frenzies_in_location_order_fight_until_empty_then_move_in() -> None:
    s = base(owner={"1.2": P1, "2.4": P1, "C1": P1}, men={"1.2": 1, "2.4": 2}, orcs={"1.3": 4, "2.1": 4})
    dice = [*QUIET_GROWTH, 6, 1, 1, 6, 6, *QUIET_DRAGON, *QUIET_MAGE, *ORDER_2P]
    s, events = end_round(s, dice)
    first, second = of_type(events, "frenzy")
    assert (first.source, first.target, first.rolls, first.captured, first.moved) == ("1.3", "1.2", [6], True, 3)
    assert s.orcs["1.2"] == 3 and s.orcs["1.3"] == 1
    assert (second.source, second.target) == ("2.1", "2.4")
    assert second.d == 3 and second.rolls == [1, 1, 6, 6] and second.orc_losses == 2 and second.captured
    assert s.orcs["2.1"] == 1 and s.orcs["2.4"] == 1 and "2.4" not in s.owner


@pytest.mark.rule("WQ-ORC-5")
def test_a_stack_spent_to_one_orc_stops() -> None:
    s = base(owner={"1.2": P1, "C1": P1}, men={"1.2": 5}, orcs={"1.3": 4})
    s, events = end_round(s, [*QUIET_GROWTH, 1, 2, 3, *QUIET_DRAGON, *QUIET_MAGE, *ORDER_2P])
    (frenzy,) = of_type(events, "frenzy")
    assert frenzy.orc_losses == 3 and not frenzy.captured and s.orcs["1.3"] == 1 and s.men["1.2"] == 5


@pytest.mark.rule("WQ-ORC-4")
def test_frenzy_target_skips_protected_hero_and_dragon_locations() -> None:
    s = base(owner={"3.2": P1, "3.6": P1, "C7": P1, "1.6": P1}, hero={P1: "1.6"}, orcs={"3.3": 4},
             mage="3.5", dragon="3.2")
    s, events = end_round(s, QUIET_GROWTH + QUIET_DRAGON + QUIET_MAGE + ORDER_2P)
    assert of_type(events, "frenzy") == [], "1.6 has a Hero, 3.2 the Dragon, 3.6 and C7 are protected"
    s = base(owner={"3.2": P1, "3.6": P1, "1.6": P1}, hero={P1: "1.6"}, orcs={"3.3": 4}, dragon="3.2")
    s, events = end_round(s, [*QUIET_GROWTH, 6, 5, 5, *QUIET_MAGE, *ORDER_2P])
    assert of_type(events, "frenzy")[0].target == "3.6"


@pytest.mark.rule("WQ-ORC-7")
def test_elimination_and_victory_are_checked_after_each_frenzy() -> None:
    s = position(3, owner={"1.2": P1, "2.2": P2, "5.4": P3}, men={"1.2": 1, "2.2": 1},
                 orcs={"1.3": 4, "2.1": 4}, current=P3, order=[P1, P2, P3], homes=False)
    s, events = play(s, ("end", P3), dice=[5, 4, 5, 4, 6, 6])
    assert [e.player for e in of_type(events, "eliminated")] == [P1, P2]
    assert s.phase is Phase.GAME_OVER and s.winners == [P3]
    assert of_type(events, "dragon_landed") == [], "the game stops at once"


@pytest.mark.rule("WQ-DRG-1", "WQ-DRG-2", "WQ-DRG-4")
def test_dragon_devours_men_never_leaders() -> None:
    s = base(owner={"3.2": P1, "C1": P1}, men={"3.2": 2}, hero={P1: "3.2"})
    s, events = end_round(s, [*QUIET_GROWTH, 3, 2, 6, *QUIET_MAGE, *ORDER_2P])
    landed = of_type(events, "dragon_landed")[0]
    assert (landed.territory, landed.devour, landed.eaten, landed.victim) == ("3.2", 6, 2, P1)
    assert s.men.get("3.2", 0) == 0 and s.owner["3.2"] == P1 and s.hero[P1] == "3.2"
    assert s.dragon == "3.2", "the Dragon stays where it landed"


@pytest.mark.rule("WQ-DRG-2", "WQ-DRG-6")
def test_dragon_eats_orcs_and_can_eliminate() -> None:
    s = base(orcs={"3.2": 4})
    s, events = end_round(s, [*QUIET_GROWTH, 3, 2, 2, *QUIET_MAGE, *ORDER_2P])
    assert s.orcs["3.2"] == 2 and of_type(events, "dragon_landed")[0].victim == 0
    s = position(3, owner={"1.1": P2, "3.2": P1, "5.4": P3}, men={"3.2": 2}, current=P3, order=[P1, P2, P3],
                 homes=False)
    s, events = play(s, ("end", P3), dice=[*QUIET_GROWTH, 3, 2, 4, *QUIET_MAGE, 6, 1])
    assert of_type(events, "eliminated")[0].player == P1 and s.player(P1).status == "eliminated"
    assert s.order == [P2, P3]


@pytest.mark.rule("WQ-DRG-3", "WQ-PROT-4")
def test_dragon_in_the_protected_region_eats_nothing_and_rolls_no_die() -> None:
    s = base(owner={"3.2": P1, "C1": P1}, men={"3.2": 2}, mage="3.5")
    s, events = end_round(s, [*QUIET_GROWTH, 3, 2, *QUIET_MAGE, *ORDER_2P])
    landed = of_type(events, "dragon_landed")[0]
    assert landed.protected and landed.devour is None and s.men["3.2"] == 2
    assert s.mage == "4.2", "the old protection lasted until the Mage moved after the Dragon"


@pytest.mark.rule("WQ-DRG-2")
def test_dragon_on_an_empty_territory_rolls_nothing() -> None:
    _, events = end_round(base(), QUIET_GROWTH + QUIET_DRAGON + QUIET_MAGE + ORDER_2P)
    landed = of_type(events, "dragon_landed")[0]
    assert landed.territory == "6.2" and landed.devour is None and landed.eaten == 0


@pytest.mark.rule("WQ-MAGE-1", "WQ-MAGE-2", "WQ-PROT-1")
def test_mage_prospers_players_and_orcs() -> None:
    s = base(owner={"4.2": P1, "C1": P1}, men={"4.2": 2})
    s, events = end_round(s, QUIET_GROWTH + QUIET_DRAGON + QUIET_MAGE + ORDER_2P)
    moved = of_type(events, "mage_moved")[0]
    assert moved.holder == P1 and moved.added == 3 and s.men["4.2"] == 5 and moved.region == 4
    s = base(orcs={"4.2": 3})
    s, events = end_round(s, QUIET_GROWTH + QUIET_DRAGON + QUIET_MAGE + ORDER_2P)
    assert s.orcs["4.2"] == 4 and of_type(events, "mage_moved")[0].added == 1
    s, events = end_round(base(), QUIET_GROWTH + QUIET_DRAGON + QUIET_MAGE + ORDER_2P)
    assert of_type(events, "mage_moved")[0].added == 0


@pytest.mark.rule("WQ-PROT-1", "WQ-PROT-2")
def test_no_attack_into_the_protected_region_but_out_of_it() -> None:
    s = position(2, owner={"3.3": P1, "1.6": P2, "3.2": P2}, men={"3.3": 5}, mage="3.5")
    rejects(s, ("attack", P1, {"source": "3.3", "target": "3.2"}), "WQ_VAL_25")
    s, _events = play(s, ("attack", P1, {"source": "3.3", "target": "1.6"}))
    assert s.attack is not None and s.attack.target == "1.6"


@pytest.mark.rule("WQ-PROT-3")
def test_beating_the_mage_frees_his_old_region_at_once() -> None:
    s = position(2, owner={"3.3": P1, "3.2": P2, "3.6": P2}, men={"3.3": 6}, sorcerer={P1: "3.3"}, mage="3.6")
    s, _ = play(s, ("free", P1, {"source": "3.3", "beast": "mage"}))
    s, events = play(s, ("roll", P1, {"times": 0}), dice=[6, 6])
    assert of_type(events, "beast_beaten")[0].beast == "mage" and s.todo[0].kind == "region"
    s, events = play(s, ("region", P1, {"region": 6}), dice=[3])
    assert s.mage == "6.3"
    s, _ = play(s, ("attack", P1, {"source": "3.3", "target": "3.2"}))
    assert s.attack is not None


@pytest.mark.rule("WQ-PROT-5")
def test_placement_and_orcbane_work_in_the_protected_region() -> None:
    s = position(2, owner={"3.3": P1, "C1": P1}, orcs={"3.2": 3}, mage="3.5", phase=Phase.PETITION,
                 hands={P1: ["orcbane-2"]})
    s, _events = play(s, ("play", P1, {"card": "orcbane", "location": "3.2"}), dice=[2])
    assert s.orcs["3.2"] == 1
    s, _ = play(s, ("done", P1))
    s, _ = play(s, ("place", P1, {"placements": {"3.3": 4}}))
    assert s.men["3.3"] == 7


@pytest.mark.rule("WQ-ORD-1", "WQ-ORD-2")
def test_turn_order_die_off_each_round_then_to_the_left() -> None:
    s = position(3, owner={"1.1": P1, "5.4": P2, "6.6": P3}, current=P3, order=[P1, P2, P3])
    s, events = play(s, ("end", P3), dice=QUIET_GROWTH + QUIET_DRAGON + QUIET_MAGE + [2, 5, 5, 1, 3])
    rolled = of_type(events, "order_rolled")[0]
    assert rolled.rounds == [{P1: 2, P2: 5, P3: 5}, {P2: 1, P3: 3}]
    assert s.order == [P3, P1, P2] and s.current == P3
    s, _ = play(s, ("done", P3))
    s, _ = play(s, ("place", P3, {"placements": {"6.6": 4}}))
    s, _ = play(s, ("end", P3))
    assert s.current == P1


@pytest.mark.rule("WQ-ORD-3")
def test_eliminated_players_are_skipped_and_lose_the_rest_of_their_turn() -> None:
    s = position(3, owner={"1.1": P1, "5.4": P2, "6.6": P3}, current=P1, order=[P1, P2, P3],
                 eliminated=(P2,))
    s, _ = play(s, ("end", P1))
    assert s.current == P3
    s = position(3, owner={"1.2": P1, "1.3": P2, "6.6": P3}, men={"1.2": 2, "1.3": 5},
                 current=P1, order=[P1, P2, P3], homes=False)
    s, _ = play(s, ("attack", P1, {"source": "1.2", "target": "1.3"}))
    s, events = play(s, ("roll", P1, {"times": 0}), dice=[1, 1])
    assert of_type(events, "eliminated")[0].player == P1
    assert s.current == P2 and s.phase is Phase.PETITION and s.attack is None
