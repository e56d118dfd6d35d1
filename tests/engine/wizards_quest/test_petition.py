"""The petition step, hands, boat areas and every Petition card (WQ-PET-*, WQ-HAND-*, WQ-BOAT-1, WQ-CARD-*)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.core.views import HIDDEN
from engine.games.wizards_quest import RULESET
from engine.games.wizards_quest.state import Phase, Turn, WQState
from tests.engine.wizards_quest.helpers import P1, P2, of_type, play, position, rejects


def petition(**kw: Any) -> WQState:
    owner = {"1.1": P1, "1.2": P1, "C1": P1, "5.4": P2}
    owner.update(kw.pop("owner", {}))
    return position(2, owner=owner, phase=Phase.PETITION, **kw)


def reinforce(s: WQState) -> WQState:
    s, _ = play(s, ("done", P1))
    return s


@pytest.mark.rule("WQ-PET-1")
def test_one_optional_draw() -> None:
    s = petition(deck=["levy-3", "muster-1"])
    s, events = play(s, ("draw", P1))
    assert s.hands[P1] == ["levy-3"] and s.turn.drawn
    assert of_type(events, "card_drawn")[0].hand_size == 1
    assert of_type(events, "card_received")[0].private_to == P1
    rejects(s, ("draw", P1), "WQ_VAL_9")
    s = reinforce(petition())
    assert s.phase is Phase.REINFORCE, "drawing is optional"


@pytest.mark.rule("WQ-PET-2", "WQ-HAND-2")
def test_cards_kept_from_earlier_rounds_play_in_any_order_before_or_after_the_draw() -> None:
    s = petition(hands={P1: ["levy-3", "extra_campaign-3"]}, deck=["muster-1"])
    s, _ = play(s, ("play", P1, {"card": "extra"}))
    s, _ = play(s, ("draw", P1))
    s, events = play(s, ("play", P1, {"card": "Muster of the Realm"}))
    assert of_type(events, "card_played")[0].card == "muster-1"
    assert s.hands[P1] == ["levy-3"] and s.turn.card_men == 6 and s.turn.campaigns == 2
    assert s.discard == ["extra_campaign-3", "muster-1"]


@pytest.mark.rule("WQ-PET-3")
def test_immediate_cards_resolve_when_drawn_and_never_enter_the_hand() -> None:
    s = petition(deck=["wizards_truce-1"])
    s, events = play(s, ("draw", P1))
    played = of_type(events, "card_played")[0]
    assert played.immediate and played.card == "wizards_truce-1" and s.hands[P1] == []
    assert s.turn.truce and s.discard == ["wizards_truce-1"]


@pytest.mark.rule("WQ-HAND-1")
def test_a_third_card_forces_a_play_first() -> None:
    s = petition(hands={P1: ["levy-3", "levy-4"]}, deck=["muster-1"])
    s, _ = play(s, ("draw", P1))
    assert RULESET.pending(s)[0].kind == "hand"
    rejects(s, ("done", P1), "WQ_VAL_12")
    s, _ = play(s, ("play", P1, {"card": "levy-4"}))
    assert s.hands[P1] == ["levy-3", "muster-1"] and not s.todo
    view = RULESET.view(s, P2)
    assert view.hands[P2] == [] and view.hands[P1] == [HIDDEN, HIDDEN]


@pytest.mark.rule("WQ-PET-4")
def test_empty_deck_reshuffles_the_discard() -> None:
    s = petition(deck=[], discard=["levy-3", "levy-4", "muster-1"])
    s, events = play(s, ("draw", P1))
    assert of_type(events, "deck_reshuffled")[0].cards == 3
    assert len(s.deck) == 2 and not s.discard and len(s.hands[P1]) == 1
    s = petition(deck=[], discard=[])
    rejects(s, ("draw", P1), "WQ_VAL_10")


@pytest.mark.rule("WQ-PET-5", "WQ-CARD-1", "WQ-CARD-2", "WQ-CARD-10", "WQ-REI-2")
def test_men_from_cards_join_the_pool() -> None:
    s = petition(hands={P1: ["levy-3", "muster-1"]}, boats={P1: []})
    s, events = play(s, ("play", P1, {"card": "levy"}))
    assert of_type(events, "pool_changed")[0].men == 3
    s, _ = play(s, ("play", P1, {"card": "muster"}))
    s = replace(s, hands={**s.hands, P1: ["fair_winds-1"]})
    s, _ = play(s, ("play", P1, {"card": "fair"}))
    assert s.boats[P1] == ["fair_winds-1"]
    s = reinforce(s)
    assert s.pool == 4 + 3 + 6 + 1


@pytest.mark.rule("WQ-PET-6", "WQ-CARD-3", "WQ-CARD-4")
def test_extra_campaigns_come_after_the_first_and_die_with_the_turn() -> None:
    s = petition(hands={P1: ["extra_campaign-1", "grand_campaign-1"]}, order=[P2, P1])
    s, _ = play(s, ("play", P1, {"card": "extra_campaign-1"}))
    assert s.boats[P1] == ["extra_campaign-1"], "copies 1 and 2 carry a boat"
    s, _ = play(s, ("play", P1, {"card": "grand"}))
    assert s.turn.campaigns == 4
    s = reinforce(s)
    s, _ = play(s, ("place", P1, {"placements": {"1.1": 4}}))
    s, _ = play(s, ("end", P1), dice=[1, 1, 1, 1, 6, 2, 4, 2, 6, 1])
    assert s.turn.campaigns == 1 and s.current == P1 and s.round == 2


@pytest.mark.rule("WQ-PET-7")
def test_a_card_without_legal_target_fizzles_but_one_with_a_target_needs_it() -> None:
    s = petition(hands={P1: ["orcbane-1"]})
    s, events = play(s, ("play", P1, {"card": "orcbane"}))
    assert of_type(events, "card_played")[0].fizzled and s.boats[P1] == ["orcbane-1"], "the boat is still kept"
    s = petition(hands={P1: ["orcbane-2"]}, orcs={"2.2": 2})
    rejects(s, ("play", P1, {"card": "orcbane"}), "WQ_VAL_13_TARGET")


@pytest.mark.rule("WQ-BOAT-1")
def test_boat_cards_go_to_the_public_boat_area_after_their_effect() -> None:
    s = petition(hands={P1: ["levy-1", "levy-5"]})
    s, _ = play(s, ("play", P1, {"card": "levy-1"}))
    s, _ = play(s, ("play", P1, {"card": "levy-5"}))
    assert s.boats[P1] == ["levy-1"] and s.discard == ["levy-5"] and s.turn.card_men == 6
    assert RULESET.view(s, P2).boats[P1] == ["levy-1"]


@pytest.mark.rule("WQ-CARD-5", "WQ-DEF-4")
def test_champions_call_pieces_may_be_free_leaders() -> None:
    s, _ = play(petition(hands={P1: ["champions_call-1"]}), ("play", P1, {"card": "champions"}))
    s = reinforce(s)
    assert s.pool == 6
    s, events = play(s, ("buy", P1, {"leader": "hero", "location": "1.1"}))
    assert of_type(events, "leader_bought")[0].cost == 1 and s.pool == 5
    s, _ = play(s, ("buy", P1, {"leader": "sorcerer", "location": "1.2"}))
    assert s.pool == 4 and s.turn.champions == 0


@pytest.mark.rule("WQ-CARD-6")
def test_orcbane_removes_a_die_of_orcs() -> None:
    s = petition(hands={P1: ["orcbane-2"]}, orcs={"2.2": 4})
    s, events = play(s, ("play", P1, {"card": "orcbane", "location": "2.2"}), dice=[3])
    assert s.orcs["2.2"] == 1 and of_type(events, "orcs_removed")[0].removed == 3
    s = petition(hands={P1: ["orcbane-2"]}, orcs={"2.2": 2})
    s, _ = play(s, ("play", P1, {"card": "orcbane", "location": "2.2"}), dice=[5])
    assert "2.2" not in s.orcs


@pytest.mark.rule("WQ-CARD-7", "WQ-DRG-5")
def test_dragon_lure_moves_the_dragon_which_devours() -> None:
    s = petition(hands={P1: ["dragon_lure-1"]}, owner={"2.2": P2}, men={"2.2": 4}, mage="4.2")
    rejects(s, ("play", P1, {"card": "lure", "location": "4.1"}), "WQ_VAL_13_PROTECTED")
    s, events = play(s, ("play", P1, {"card": "lure", "location": "2.2"}), dice=[3])
    assert s.dragon == "2.2" and s.men["2.2"] == 1
    assert of_type(events, "dragon_landed")[0].reason == "lure"


@pytest.mark.rule("WQ-CARD-8", "WQ-MAGE-3")
def test_wizards_summons_moves_the_mage_who_prospers() -> None:
    s = petition(hands={P1: ["wizards_summons-1"]}, mage="4.2")
    s, events = play(s, ("play", P1, {"card": "summons", "location": "1.2"}))
    assert s.mage == "1.2" and s.men["1.2"] == 6 and of_type(events, "mage_moved")[0].region == 1


@pytest.mark.rule("WQ-CARD-9")
def test_forced_march_through_own_locations() -> None:
    s = petition(hands={P1: ["forced_march-1"]}, owner={"1.3": P1, "1.6": P1}, men={"1.1": 5},
                 hero={P1: "1.1"})
    s, events = play(s, ("play", P1, {"card": "march", "location": "1.1", "to": "1.6", "count": 4,
                                      "leader": "hero"}))
    assert s.men["1.1"] == 1 and s.men["1.6"] == 7 and s.hero[P1] == "1.6"
    assert of_type(events, "marched")[0].men == 4 and s.boats[P1] == ["forced_march-1"]
    s = petition(hands={P1: ["forced_march-2"]}, owner={"1.6": P1})
    rejects(s, ("play", P1, {"card": "march", "location": "1.1", "to": "1.6", "count": 1}),
            "WQ_VAL_13_MARCH_PATH")
    rejects(s, ("play", P1, {"card": "march", "location": "1.1", "to": "1.2", "count": 3}),
            "WQ_VAL_13_MARCH_COUNT")


@pytest.mark.rule("WQ-CARD-11")
def test_blessed_arms_lowers_d_of_the_next_attack_only() -> None:
    s = petition(hands={P1: ["blessed_arms-1"]}, owner={"1.3": P2}, men={"1.2": 9, "1.3": 5})
    s, _ = play(s, ("play", P1, {"card": "blessed"}))
    s = reinforce(s)
    s, _ = play(s, ("place", P1, {"placements": {"1.1": 4}}))
    s, _ = play(s, ("attack", P1, {"source": "1.2", "target": "1.3"}))
    assert s.attack is not None and s.attack.blessed and s.turn.blessed == 0
    s, events = play(s, ("roll", P1), dice=[3])
    assert of_type(events, "battle")[0].d == 2 and of_type(events, "battle")[0].attacker_won


@pytest.mark.rule("WQ-CARD-12")
def test_orc_uprising_adds_an_orc_across_a_rolled_region() -> None:
    s = petition(deck=["orc_uprising-1"], orcs={"1.3": 4, "1.4": 1, "C1": 0}, owner={"C1": P1})
    s, events = play(s, ("draw", P1), dice=[1])
    assert of_type(events, "orc_uprising")[0].changes == {"1.3": 4, "1.4": 2, "1.5": 1, "1.6": 1}
    assert s.orcs["1.3"] == 4 and "1.1" not in s.orcs


@pytest.mark.rule("WQ-CARD-13")
def test_plague_hits_the_biggest_stack_of_men() -> None:
    s = petition(deck=["plague-1"], men={"1.1": 4, "1.2": 4, "C1": 2})
    s, events = play(s, ("draw", P1), dice=[6])
    plague = of_type(events, "plague")[0]
    assert plague.location == "1.1" and plague.removed == 4 and "1.1" not in s.owner


@pytest.mark.rule("WQ-CARD-14")
def test_famine_halves_the_kingdom_and_drops_the_minimum() -> None:
    s = petition(deck=["famine-1"])
    s, _ = play(s, ("draw", P1))
    s = reinforce(s)
    assert s.turn.base == 1 and s.pool == 1


@pytest.mark.rule("WQ-CARD-15")
def test_dragons_hunger_flies_the_dragon_now() -> None:
    s = petition(deck=["dragons_hunger-1"], men={"1.2": 5})
    s, events = play(s, ("draw", P1), dice=[1, 2, 4])
    landed = of_type(events, "dragon_landed")[0]
    assert landed.reason == "hunger" and landed.dice == [1, 2] and s.men["1.2"] == 1 and s.dragon == "1.2"


@pytest.mark.rule("WQ-CARD-16")
def test_wizards_truce_forbids_every_attack() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, turn=Turn(truce=True), dragon="1.1", hero={P1: "1.1"})
    rejects(s, ("attack", P1, {"source": "1.1", "target": "1.2"}), "WQ_VAL_20")
    rejects(s, ("free", P1, {"source": "1.1", "beast": "dragon"}), "WQ_VAL_20")
