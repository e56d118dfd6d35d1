"""Attacks: campaigns, aid, battles, capture, boats, free attacks, the Dragon and the Mage
(WQ-ATK-*, WQ-AID-*, WQ-CMB-*, WQ-CAP-*, WQ-BOAT-2 … BOAT-4, WQ-FREE-*, WQ-BEAST-*, WQ-DEF-*)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.games.wizards_quest import RULESET
from engine.games.wizards_quest.legal import campaigns, free_attacks
from engine.games.wizards_quest.state import Phase, Turn
from tests.engine.wizards_quest.helpers import DATA, P1, P2, P3, of_type, play, position, rejects


@pytest.mark.rule("WQ-ATK-1", "WQ-ATK-12")
def test_one_campaign_a_turn_plus_extras_one_after_another() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2, "1.4": P2}, men={"1.1": 9, "1.2": 1, "1.4": 1},
                 turn=Turn(campaigns=2))
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    rejects(s, ("attack", P1, {"source": "1.1", "target": "1.4"}), "WQ_VAL_18")
    s, _ = play(s, ("roll", P1), dice=[1])
    s, _ = play(s, ("stop", P1))
    assert s.turn.campaigns == 1 and s.turn.first_done
    rejects(s, ("roll", P1), "WQ_VAL_35")
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.4"}))
    s, _ = play(s, ("roll", P1), dice=[1])
    s, _ = play(s, ("stop", P1))
    rejects(s, ("attack", P1, {"source": "1.1", "target": "1.2"}), "WQ_VAL_19")
    s, events = play(s, ("end", P1))
    assert s.current == P2 and of_type(events, "turn_ended")


@pytest.mark.rule("WQ-ATK-2", "WQ-DEF-5", "WQ-DEF-8")
def test_campaign_targets_adjacent_locations_not_held_by_the_attacker() -> None:
    s = position(2, owner={"1.2": P1, "1.3": P1, "6.5": P2}, men={"1.2": 5})
    rejects(s, ("attack", P1, {"source": "1.2", "target": "1.3"}), "WQ_VAL_22")
    rejects(s, ("attack", P1, {"source": "1.2", "target": "2.5"}), "WQ_VAL_23")
    s, events = play(s, ("attack", P1, {"source": "1.2", "target": "6.5"}))
    assert of_type(events, "attack_declared")[0].defender == P2 and s.attack.link == "tunnel"
    s = position(2, owner={"1.2": P1}, men={"1.2": 5}, orcs={"1.1": 2})
    s, events = play(s, ("attack", P1, {"source": "1.2", "target": "1.1"}))
    assert of_type(events, "attack_declared")[0].defender == 0


@pytest.mark.rule("WQ-ATK-3")
def test_no_campaign_into_the_protected_region() -> None:
    s = position(2, owner={"1.6": P1, "2.4": P2}, men={"1.6": 5}, mage="2.2")
    rejects(s, ("attack", P1, {"source": "1.6", "target": "2.4"}), "WQ_VAL_25")


@pytest.mark.rule("WQ-ATK-4", "WQ-FREE-5", "WQ-FREE-6", "WQ-DEF-1")
def test_dragon_shields_an_occupied_location_and_a_lone_dragon_needs_a_campaign() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 5}, hero={P1: "1.1"}, dragon="1.2")
    rejects(s, ("attack", P1, {"source": "1.1", "target": "1.2"}), "WQ_VAL_27")
    s = position(2, owner={"1.1": P1}, men={"1.1": 5}, hero={P1: "1.1"}, dragon="1.2")
    rejects(s, ("free", P1, {"source": "1.1", "beast": "dragon"}), "WQ_VAL_30_ALONE")
    s, events = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    assert s.attack.beast == "dragon" and s.attack.wounds == 3 and not s.attack.empty_start
    assert of_type(events, "attack_declared")[0].beast == "dragon"


@pytest.mark.rule("WQ-ATK-5", "WQ-LDR-2")
def test_leader_move_at_declaration_swaps_with_the_other_leader() -> None:
    s = position(2, owner={"1.1": P1, "C1": P1, "1.2": P2}, men={"1.1": 3, "C1": 2},
                 hero={P1: "C1"}, sorcerer={P1: "1.1"})
    s, events = play(s, ("attack", P1, {"source": "1.1", "target": "1.2", "leader": "hero"}))
    assert s.hero[P1] == "1.1" and s.sorcerer[P1] == "C1" and of_type(events, "leader_moved")[0].swapped
    assert s.attack.acted
    s = position(2, owner={"1.1": P1, "C1": P1, "1.2": P2}, men={"1.1": 3, "C1": 0}, hero={P1: "C1"})
    rejects(s, ("attack", P1, {"source": "1.1", "target": "1.2", "leader": "hero"}), "WQ_VAL_32_EMPTY")
    s = position(2, owner={"1.1": P1, "C1": P1, "1.2": P2}, men={"1.1": 3, "C1": 0}, hero={P1: "C1"},
                 sorcerer={P1: "1.1"})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2", "leader": "hero"}))
    assert s.sorcerer[P1] == "C1", "the swap fills the leader's old location"


@pytest.mark.rule("WQ-ATK-6", "WQ-ATK-8", "WQ-CMB-1", "WQ-CMB-5", "WQ-DEF-2", "WQ-DEF-6")
def test_battle_loop_every_piece_fights_men_die_before_leaders() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 1, "1.2": 1}, hero={P1: "1.1"}, sorcerer={P2: "1.2"})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, events = play(s, ("roll", P1), dice=[2])
    battle = of_type(events, "battle")[0]
    assert battle.d == 3 and not battle.attacker_won and s.men.get("1.1", 0) == 0 and s.hero[P1] == "1.1"
    s, events = play(s, ("roll", P1), dice=[6])
    assert of_type(events, "battle")[0].attacker_won and s.men.get("1.2", 0) == 0 and s.sorcerer[P2] == "1.2"
    assert RULESET.pending(s)[0].kind == "battle"


@pytest.mark.rule("WQ-ATK-7")
def test_first_roll_needs_two_pieces_aid_can_supply_them() -> None:
    s = position(2, owner={"1.1": P1, "1.4": P1, "1.2": P2}, men={"1.1": 1, "1.4": 3})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    rejects(s, ("roll", P1), "WQ_VAL_34")
    s, _ = play(s, ("aid", P1, {"source": "1.4", "count": 2}))
    s, events = play(s, ("roll", P1), dice=[6])
    assert of_type(events, "battle")


@pytest.mark.rule("WQ-ATK-9")
def test_attack_ends_when_the_source_is_wiped_out() -> None:
    s = position(2, owner={"1.1": P1, "1.4": P1, "1.2": P2}, men={"1.1": 2, "1.2": 3})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, events = play(s, ("roll", P1, {"times": 0}), dice=[1, 1])
    assert of_type(events, "attack_ended")[0].reason == "source_empty" and "1.1" not in s.owner
    assert s.attack is None and s.turn.first_done


@pytest.mark.rule("WQ-ATK-9", "WQ-ATK-11")
def test_hero_rule_at_declaration_and_before_every_battle() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 5}, hero={P2: "1.2"})
    rejects(s, ("attack", P1, {"source": "1.1", "target": "1.2"}), "WQ_VAL_26")
    s = position(2, owner={"1.1": P1, "C1": P1, "1.2": P2}, men={"1.1": 2, "C1": 2, "1.2": 3},
                 hero={P1: "C1", P2: "1.2"})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2", "leader": "hero"}))
    s, events = play(s, ("roll", P1, {"times": 2}), dice=[1, 1])
    assert s.men.get("1.1", 0) == 0 and s.hero[P1] == "1.1" and s.attack is not None, "men die first"
    s, events = play(s, ("roll", P1), dice=[1])
    assert P1 not in s.hero and of_type(events, "attack_ended")[0].reason == "source_empty"
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 2, "1.2": 1}, hero={P1: "1.1", P2: "1.2"})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, events = play(s, ("roll", P1, {"times": 2}), dice=[6, 6])
    assert P2 not in s.hero and s.todo[0].kind == "capture", "the Hero dies when no man is left"


@pytest.mark.rule("WQ-ATK-10")
def test_cancel_before_anything_is_free_otherwise_the_campaign_is_spent() -> None:
    s = position(2, owner={"1.1": P1, "1.4": P1, "1.2": P2}, men={"1.1": 4}, boats={P1: ["levy-1"]},
                 turn=Turn(blessed=1))
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2", "boat": True}))
    assert s.boats[P1] == [] and s.turn.blessed == 0
    s, events = play(s, ("cancel", P1))
    assert s.turn.campaigns == 1 and s.boats[P1] == ["levy-1"] and s.turn.blessed == 1
    assert not of_type(events, "attack_ended")[0].campaign_used
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("aid", P1, {"source": "1.4", "count": 1}))
    s, events = play(s, ("cancel", P1))
    assert s.turn.campaigns == 0 and of_type(events, "attack_ended")[0].campaign_used


@pytest.mark.rule("WQ-AID-1")
def test_aid_moves_men_permanently_from_adjacent_own_locations() -> None:
    s = position(2, owner={"1.1": P1, "1.4": P1, "C1": P1, "1.2": P2}, men={"1.1": 2, "1.4": 4, "C1": 3})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("aid", P1, {"source": "1.4", "count": 3}))
    s, _ = play(s, ("roll", P1), dice=[1])
    s, _events = play(s, ("aid", P1, {"source": "C1", "count": 2}))
    assert s.men["1.1"] == 6 and s.men["1.4"] == 1 and s.men["C1"] == 1
    rejects(s, ("aid", P1, {"source": "1.4", "count": 1}), "WQ_VAL_33_STAY")


@pytest.mark.rule("WQ-AID-2", "WQ-BOAT-3")
def test_boat_lets_aid_and_attacks_cross_water() -> None:
    s = position(2, owner={"1.1": P1, "2.1": P1, "2.3": P2}, men={"1.1": 3, "2.1": 4}, boats={P1: ["levy-1"]})
    rejects(s, ("attack", P1, {"source": "1.1", "target": "2.3"}), "WQ_VAL_23_BOAT")
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "2.3", "boat": True}))
    assert s.attack.link == "water" and s.attack.boat == "levy-1"
    s, _ = play(s, ("aid", P1, {"source": "2.1", "count": 3}))
    assert s.men["1.1"] == 6


@pytest.mark.rule("WQ-BOAT-2", "WQ-BOAT-4")
def test_boat_card_spent_when_the_attack_ends() -> None:
    s = position(2, owner={"1.6": P1, "2.4": P2}, men={"1.6": 4, "2.4": 1}, boats={P1: ["levy-1", "fair_winds-1"]})
    s, _ = play(s, ("attack", P1, {"source": "1.6", "target": "2.4", "boat": True}))
    assert s.attack.boat == "levy-1", "the oldest boat card is spent"
    s, events = play(s, ("roll", P1), dice=[4])
    assert of_type(events, "battle")[0].d == 3, "crossing by water cancels the bridge bonus"
    s, _ = play(s, ("capture", P1, {"count": 2}))
    assert s.boats[P1] == ["fair_winds-1"] and "levy-1" in s.discard


@pytest.mark.rule("WQ-VAL-24", "WQ-BOAT-3", "WQ-FREE-4")
def test_a_boat_must_cross_water_even_to_an_adjacent_target() -> None:
    # 1.4 and 1.5 are joined by land and share no water: a boat named there is refused, not spent on land.
    s = position(2, owner={"1.4": P1, "1.5": P2}, men={"1.4": 4}, hero={P1: "1.4"}, boats={P1: ["levy-1"]})
    err = rejects(s, ("attack", P1, {"source": "1.4", "target": "1.5", "boat": True}), "WQ_VAL_24_WATER")
    assert err.message == "1.4 and 1.5 don't border the same water."
    on_land, _ = play(s, ("attack", P1, {"source": "1.4", "target": "1.5"}))
    assert on_land.attack.link == "land" and on_land.attack.boat is None and on_land.boats[P1] == ["levy-1"]
    # A free attack on the Dragon in the neighbour's location, the same.
    lair = replace(s, dragon="1.5")
    rejects(lair, ("free", P1, {"source": "1.4", "beast": "dragon", "boat": True}), "WQ_VAL_24_WATER")
    assert play(lair, ("free", P1, {"source": "1.4", "beast": "dragon"}))[0].boats[P1] == ["levy-1"]
    # On the Dragon in the attacker's own location there is no crossing at all, boat card or not.
    home = replace(s, dragon="1.4")
    rejects(home, ("free", P1, {"source": "1.4", "beast": "dragon", "boat": True}), "WQ_VAL_24_HERE")
    bare = replace(home, boats={P1: [], P2: []})
    rejects(bare, ("free", P1, {"source": "1.4", "beast": "dragon", "boat": True}), "WQ_VAL_24_NONE")


@pytest.mark.rule("WQ-VAL-24", "WQ-BOAT-3")
def test_legal_lists_offer_a_boat_only_across_water() -> None:
    s = position(2, owner={"1.4": P1, "1.5": P2}, men={"1.4": 4}, hero={P1: "1.4"}, boats={P1: ["levy-1"]})
    assert "1.5" in [c.value for c in RULESET.choices(s, P1, "attack.target", source="1.4")]
    by_boat = [c.value for c in RULESET.choices(s, P1, "attack.target", source="1.4", boat=True)]
    assert by_boat and "1.5" not in by_boat and all(DATA.map.shared_water("1.4", t) for t in by_boat)
    for lair in ("1.4", "1.5"):  # the Dragon at home, then next door by land
        dragon = replace(s, dragon=lair)
        assert "1.4" in [c.value for c in RULESET.choices(dragon, P1, "free.source", beast="dragon")]
        assert "1.4" not in [c.value for c in RULESET.choices(dragon, P1, "free.source", beast="dragon", boat=True)]
        assert all(a.link == "water" for a in campaigns(dragon, DATA, P1, True) + free_attacks(dragon, DATA, P1, True))


@pytest.mark.rule("WQ-CMB-2", "WQ-CMB-3", "WQ-CMB-4", "WQ-CMB-6")
def test_defender_range_modifiers_and_clamp() -> None:
    s = position(2, owner={"1.6": P1, "2.4": P2}, men={"1.6": 5, "2.4": 2}, sorcerer={P2: "2.4"},
                 turn=Turn(blessed=1, campaigns=2))
    s, _ = play(s, ("attack", P1, {"source": "1.6", "target": "2.4"}))
    s, events = play(s, ("roll", P1), dice=[6])
    assert of_type(events, "battle")[0].d == 4, "3 + bridge + defending leader − Blessed Arms"
    s, _ = play(s, ("stop", P1))
    s, _ = play(s, ("attack", P1, {"source": "1.6", "target": "2.4"}))
    s, events = play(s, ("roll", P1), dice=[1])
    assert of_type(events, "battle")[0].d == 5, "recomputed: the card applied only to its own attack"
    s = position(2, owner={"C7": P1, "3.3": P2}, men={"C7": 5}, hero={P1: "C7"}, turn=Turn(blessed=1))
    s, _ = play(s, ("attack", P1, {"source": "C7", "target": "3.3"}))
    s, events = play(s, ("roll", P1), dice=[2])
    assert of_type(events, "battle")[0].d == 1, "3 − leader − Blessed Arms"
    s = position(2, owner={"3.3": P1, "C7": P2}, men={"3.3": 5}, hero={P2: "C7"}, orcs={})
    s = replace(s, hero={P1: "3.3", P2: "C7"})
    s, _ = play(s, ("attack", P1, {"source": "3.3", "target": "C7"}))
    s, events = play(s, ("roll", P1), dice=[6])
    assert of_type(events, "battle")[0].d == 4, "3 + castle + defending Hero − attacking Hero"


@pytest.mark.rule("WQ-CAP-1", "WQ-CAP-2")
def test_capture_moves_pieces_in_and_may_take_the_leader() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 4, "1.2": 1}, sorcerer={P1: "1.1"}, dragon="3.3")
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1), dice=[5])
    assert RULESET.pending(s)[0].kind == "capture"
    rejects(s, ("capture", P1, {"count": 5}), "WQ_VAL_36")
    s, _events = play(s, ("capture", P1, {"count": 3, "leader": True}))
    assert s.owner["1.2"] == P1 and s.men["1.2"] == 2 and s.sorcerer[P1] == "1.2" and s.men["1.1"] == 2
    assert s.dragon == "3.3" and s.attack is None


@pytest.mark.rule("WQ-CAP-1")
def test_no_capture_with_one_piece_left_and_empty_start_targets() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 2, "1.2": 1})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, events = play(s, ("roll", P1, {"times": 0}), dice=[1, 6])
    assert of_type(events, "attack_ended")[0].reason == "no_capture" and "1.2" not in s.owner
    s = position(2, owner={"1.1": P1, "1.4": P1}, men={"1.1": 1, "1.4": 3})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    assert s.attack.empty_start and s.todo[0].kind == "capture"
    rejects(s, ("capture", P1, {"count": 1}), "WQ_VAL_34")
    s, _ = play(s, ("aid", P1, {"source": "1.4", "count": 1}))
    s, events = play(s, ("capture", P1, {"count": 1}))
    assert s.owner["1.2"] == P1 and not of_type(events, "battle")


@pytest.mark.rule("WQ-FREE-1", "WQ-FREE-3", "WQ-BEAST-3", "WQ-BEAST-6")
def test_free_attack_on_the_dragon_in_your_own_location_earns_six_men() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P1}, men={"1.1": 3}, hero={P1: "1.1"}, dragon="1.1",
                 turn=Turn(campaigns=0))
    s, events = play(s, ("free", P1, {"source": "1.1", "beast": "dragon"}))
    assert s.attack.kind == "free" and s.attack.link == "none"
    s, events = play(s, ("roll", P1, {"times": 0}), dice=[6, 6, 6])
    assert [b.d for b in of_type(events, "battle")] == [3, 3, 3], "4 − Hero"
    beaten = of_type(events, "beast_beaten")[0]
    assert beaten.reward == 6 and s.dragon is None and s.todo[0].kind == "reward" and s.pool == 6
    s, _ = play(s, ("place", P1, {"placements": {"1.2": 6}}))
    assert s.men["1.2"] == 9 and not s.todo and RULESET.pending(s)[0].kind == "attack"


@pytest.mark.rule("WQ-FREE-2", "WQ-FREE-4", "WQ-AID-3", "WQ-BEAST-4", "WQ-DRG-5")
def test_free_attack_from_next_door_then_the_dragon_flies_where_the_sorcerer_sends_it() -> None:
    s = position(3, owner={"1.1": P1, "1.4": P1, "1.2": P2, "5.5": P3}, men={"1.1": 4, "5.5": 5},
                 sorcerer={P1: "1.1"}, dragon="1.2")
    s, _ = play(s, ("free", P1, {"source": "1.1", "beast": "dragon"}))
    rejects(s, ("aid", P1, {"source": "1.4", "count": 1}), "WQ_VAL_31")
    s, events = play(s, ("roll", P1, {"times": 0}), dice=[6, 6, 6])
    assert [b.d for b in of_type(events, "battle")] == [3, 3, 3] and s.todo[0].kind == "region"
    s, events = play(s, ("region", P1, {"region": 5}), dice=[5, 4])
    landed = of_type(events, "dragon_landed")[0]
    assert landed.reason == "sorcerer" and landed.territory == "5.5" and s.men["5.5"] == 1
    assert s.owner["1.2"] == P2, "a free attack never captures"


@pytest.mark.rule("WQ-FREE-7", "WQ-BEAST-1")
def test_who_may_attack_the_dragon_and_the_mage() -> None:
    s = position(2, owner={"3.3": P1, "3.2": P2}, men={"3.3": 4}, hero={P1: "3.3"}, dragon="3.2", mage="3.5")
    rejects(s, ("free", P1, {"source": "3.3", "beast": "dragon"}), "WQ_VAL_25")
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 4}, dragon="1.2")
    rejects(s, ("free", P1, {"source": "1.1", "beast": "dragon"}), "WQ_VAL_28")
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 4}, hero={P1: "1.1"}, mage="1.2")
    rejects(s, ("free", P1, {"source": "1.1", "beast": "mage"}), "WQ_VAL_29")


@pytest.mark.rule("WQ-BEAST-2", "WQ-BEAST-5")
def test_the_mage_has_two_wounds_restored_after_each_attack() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 6}, sorcerer={P1: "1.1"}, mage="1.2")
    s, _ = play(s, ("free", P1, {"source": "1.1", "beast": "mage"}))
    s, _ = play(s, ("roll", P1), dice=[6])
    assert s.attack.wounds == 1
    s, _ = play(s, ("stop", P1))
    s, _ = play(s, ("free", P1, {"source": "1.1", "beast": "mage"}))
    assert s.attack.wounds == 2
    s, events = play(s, ("roll", P1, {"times": 0}), dice=[6, 6])
    assert of_type(events, "beast_beaten")[0].beast == "mage" and s.mage is None
    s, events = play(s, ("region", P1, {"region": 1}), dice=[1])
    assert s.mage == "1.1" and s.men["1.1"] == 9, "he prospers where he lands"


@pytest.mark.rule("WQ-BEAST-6")
def test_lone_dragon_campaign_captures_before_the_relocation() -> None:
    s = position(2, owner={"1.1": P1}, men={"1.1": 4}, sorcerer={P1: "1.1"}, dragon="1.2")
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1, {"times": 0}), dice=[6, 6, 6])
    assert [t.kind for t in s.todo] == ["capture", "region"]
    s, _ = play(s, ("capture", P1, {"count": 3}))
    assert s.owner["1.2"] == P1 and s.todo[0].kind == "region"
    s, _events = play(s, ("region", P1, {"region": 1}), dice=[2, 2])
    assert s.dragon == "1.2" and s.men["1.2"] == 1, "it lands back and eats the newcomers"


@pytest.mark.rule("WQ-DEF-3", "WQ-LDR-1", "WQ-LDR-3")
def test_leaders_bought_for_two_men_apart_and_again_after_dying() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P1, "1.4": P2}, men={"1.1": 0, "1.2": 3}, phase=Phase.REINFORCE,
                 pool=5, sorcerer={P1: "1.1"})
    rejects(s, ("buy", P1, {"leader": "hero", "location": "1.1"}), "WQ_VAL_17_SHARE")
    s, _ = play(s, ("buy", P1, {"leader": "hero", "location": "1.2"}))
    assert s.pool == 3 and s.hero[P1] == "1.2"
    s = replace(s, phase=Phase.ATTACK, pool=0)
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.4"}))
    rejects(s, ("roll", P1), "WQ_VAL_34")
