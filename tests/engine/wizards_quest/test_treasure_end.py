"""Kingdoms and reinforcement (WQ-KING-1, WQ-REI-*, WQ-LDR-3, WQ-DEF-7), treasures (WQ-TRS-*) and the end
of the game (WQ-END-*)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.games.wizards_quest import RULESET
from engine.games.wizards_quest import board as B
from engine.games.wizards_quest.state import Phase, Todo, Treasure, Turn, WQState
from tests.engine.wizards_quest.helpers import DATA, P1, P2, P3, new, of_type, play, position, rejects


@pytest.mark.rule("WQ-KING-1", "WQ-REI-1")
def test_kingdoms_are_connected_groups_with_a_castle() -> None:
    s = position(2, owner={"C1": P1, "1.1": P1, "1.2": P1, "6.5": P1, "5.1": P1, "C3": P1}, homes=False)
    s = replace(s, owner={**s.owner, "6.6": P2}, men={**s.men, "6.6": 3})
    assert B.kingdoms(s, DATA, P1) == [["1.1", "1.2", "6.5", "C1"], ["C3"]]
    assert B.base_reinforcement(s, DATA, P1, famine=False) == 5
    assert B.base_reinforcement(s, DATA, P2, famine=False) == 4, "no castle: the minimum of 4"


@pytest.mark.rule("WQ-REI-3")
def test_the_whole_pool_is_placed_on_own_locations_then_the_attack_step() -> None:
    s = position(2, owner={"C1": P1, "1.1": P1}, phase=Phase.PETITION, mage="1.2")
    s, events = play(s, ("done", P1))
    assert s.pool == 4 and of_type(events, "reinforcements")[0].kingdoms == [["1.1", "C1"]]
    rejects(s, ("end", P1), "WQ_VAL_2")
    rejects(s, ("done", P1), "WQ_VAL_16")
    s, _ = play(s, ("place", P1, {"placements": {"1.1": 1, "C1": 1}}))
    s, _ = play(s, ("place", P1, {"placements": {"1.1": 2}}))
    assert s.phase is Phase.ATTACK and s.men["1.1"] == 6 and s.men["C1"] == 4


@pytest.mark.rule("WQ-REI-3", "WQ-VAL-2")
def test_done_after_the_last_man_is_accepted_and_changes_nothing() -> None:
    s, _ = play(position(2, owner={"1.1": P1, "1.2": P2}, phase=Phase.REINFORCE, pool=2),
                ("place", P1, {"placements": {"1.1": 2}}))
    assert s.phase is Phase.ATTACK, "the attack step begins with the last man (ruling 1)"
    after, events = play(s, ("done", P1))
    assert events == [], "no step is logged twice"
    assert replace(after, seq=s.seq) == s and after.seq == s.seq + 1
    assert RULESET.pending(after) == RULESET.pending(s)
    # Nothing the player could still do is skipped: the campaign is there, and `done` again is as harmless.
    after, _ = play(after, ("done", P1))
    after, _ = play(after, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    assert after.attack is not None and after.turn.campaigns == 0
    # During an attack or a forced decision, `done` finishes nothing: their own commands are asked for.
    rejects(after, ("done", P1), "WQ_VAL_2")
    rejects(replace(s, todo=[Todo(kind="ring")]), ("done", P1), "WQ_VAL_2")


@pytest.mark.rule("WQ-LDR-3", "WQ-DEF-7")
def test_a_dead_leader_can_be_bought_again() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 0, "1.2": 4}, hero={P1: "1.1"}, turn=Turn())
    s = replace(s, men={**s.men, "1.1": 1})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1, {"times": 0}), dice=[1, 1])
    assert P1 not in s.hero
    s = replace(s, phase=Phase.REINFORCE, pool=4)
    home = s.locations_of(P1)[0]
    s, _ = play(s, ("buy", P1, {"leader": "hero", "location": home}))
    assert s.hero[P1] == home


def treasure_position(**kw: Any) -> WQState:
    return position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 5, "1.2": 1}, **kw)


@pytest.mark.rule("WQ-TRS-1", "WQ-TRS-2", "WQ-TRS-4")
def test_crown_gives_a_campaign() -> None:
    s = treasure_position(treasures=[Treasure(owner=P1, kind="crown", hider=P2, location="1.2")])
    assert RULESET.view(s, None).treasures[0].kind == "crown"
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1), dice=[6])
    s, events = play(s, ("capture", P1, {"count": 2}))
    got = of_type(events, "treasure_retrieved")[0]
    assert (got.kind, got.total) == ("crown", 1) and s.retrieved[P1] == ["crown"] and not s.treasures
    assert s.turn.campaigns == 1


@pytest.mark.rule("WQ-TRS-4")
def test_chest_gives_five_men_and_ring_moves_the_mage() -> None:
    s = treasure_position(treasures=[Treasure(owner=P1, kind="chest", hider=P2, location="1.2")])
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1), dice=[6])
    s, _ = play(s, ("capture", P1, {"count": 2}))
    assert s.todo[0].kind == "reward" and s.pool == 5
    s, _ = play(s, ("buy", P1, {"leader": "sorcerer", "location": "1.2"}))
    s, _ = play(s, ("place", P1, {"placements": {"1.1": 3}}))
    assert s.sorcerer[P1] == "1.2" and s.men["1.1"] == 6 and not s.todo
    s = treasure_position(treasures=[Treasure(owner=P1, kind="ring", hider=P2, location="1.2")], mage="4.2")
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1), dice=[6])
    s, _ = play(s, ("capture", P1, {"count": 2}))
    assert RULESET.pending(s)[0].kind == "ring"
    rejects(s, ("mage", P1, {"territory": "C1"}), "WQ_VAL_39")
    s, events = play(s, ("mage", P1, {"territory": "1.1"}))
    assert s.mage == "1.1" and s.men["1.1"] == 6 and of_type(events, "mage_moved")[0].reason == "ring"


@pytest.mark.rule("WQ-TRS-3", "WQ-TRS-6")
def test_other_treasures_never_move_and_placing_never_retrieves() -> None:
    s = treasure_position(treasures=[Treasure(owner=P2, kind="ring", hider=P1, location="1.2")])
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1), dice=[6])
    s, events = play(s, ("capture", P1, {"count": 2}))
    assert s.treasures[0].location == "1.2" and not of_type(events, "treasure_retrieved")
    s = position(2, owner={"1.1": P1}, phase=Phase.REINFORCE, pool=4,
                 treasures=[Treasure(owner=P1, kind="ring", hider=P2, location="1.1")])
    s, events = play(s, ("place", P1, {"placements": {"1.1": 4}}))
    assert s.treasures and not of_type(events, "treasure_retrieved")


@pytest.mark.rule("WQ-END-1", "WQ-TRS-5", "WQ-END-6")
def test_third_treasure_wins_at_once_without_reward() -> None:
    s = treasure_position(treasures=[Treasure(owner=P1, kind="chest", hider=P2, location="1.2")],
                          retrieved={P1: ["crown", "ring"]})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1), dice=[6])
    s, events = play(s, ("capture", P1, {"count": 2}))
    assert s.phase is Phase.GAME_OVER and s.winners == [P1] and RULESET.winners(s) == [P1]
    assert of_type(events, "game_over")[0].reason == "treasures" and s.pool == 0 and not s.todo
    assert RULESET.pending(s) == []
    rejects(s, ("end", P1), "WQ_VAL_40")


@pytest.mark.rule("WQ-END-2", "WQ-END-5")
def test_elimination_discards_cards_removes_treasures_last_player_wins() -> None:
    s = position(3, owner={"1.1": P1, "1.2": P2, "6.6": P3}, men={"1.1": 5, "1.2": 1}, homes=False,
                 hands={P2: ["levy-3"]}, boats={P2: ["levy-1"]},
                 treasures=[Treasure(owner=P2, kind="crown", hider=P1, location="2.2")])
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, events = play(s, ("roll", P1), dice=[6])
    assert of_type(events, "eliminated")[0].player == P2
    assert s.hands[P2] == [] and s.boats[P2] == [] and {"levy-3", "levy-1"} <= set(s.discard)
    assert not s.treasures and s.phase is not Phase.GAME_OVER and s.todo[0].kind == "capture"
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 5, "1.2": 1}, homes=False)
    s, events = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, events = play(s, ("roll", P1), dice=[6])
    assert s.phase is Phase.GAME_OVER and s.winners == [P1]
    assert of_type(events, "game_over")[0].reason == "last_standing"


@pytest.mark.rule("WQ-END-3")
def test_no_winner_when_the_last_players_fall() -> None:
    s = position(2, owner={"1.2": P1, "2.2": P2}, men={"1.2": 1, "2.2": 1}, orcs={"1.3": 4, "2.1": 4},
                 current=P2, order=[P1, P2], homes=False)
    s, events = play(s, ("end", P2), dice=[5, 4, 5, 4, 6])
    assert s.winners == [P2], "P2 is alone after the first frenzy and wins at once"
    s = position(3, owner={"3.2": P1}, current=P3, order=[P1, P2, P3], homes=False)
    s = replace(s, owner={}, men={})
    s, events = play(s, ("end", P3), dice=[5, 4, 5, 4])
    assert [e.player for e in of_type(events, "eliminated")] == [P1, P2, P3]
    assert s.winners == [] and of_type(events, "game_over")[0].reason == "no_one_left"


@pytest.mark.rule("WQ-END-4")
def test_round_limit_ranks_treasures_then_locations_then_men() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P1, "2.2": P2}, retrieved={P2: ["crown"]}, current=P2,
                 order=[P1, P2], round=3, round_limit=3)
    s, events = play(s, ("end", P2))
    assert s.winners == [P2] and of_type(events, "game_over")[0].reason == "round_limit"
    s = position(2, owner={"1.1": P1, "2.2": P2}, current=P2, order=[P1, P2], round=3, round_limit=3)
    s, _ = play(s, ("end", P2))
    assert s.winners == [P1, P2], "a full tie is shared"


@pytest.mark.rule("WQ-TRS-9")
def test_decoy_markers_are_hidden_from_everyone_but_the_hider() -> None:
    s = position(3, owner={"1.1": P1, "1.2": P2}, men={"1.1": 5, "1.2": 1}, decoy=True,
                 treasures=[Treasure(owner=P1, kind="decoy", hider=P3, location="1.2"),
                            Treasure(owner=P1, kind="ring", hider=P3, location="2.2")])
    assert [t.kind for t in RULESET.view(s, P1).treasures] == [None, None]
    assert [t.kind for t in RULESET.view(s, P3).treasures] == ["decoy", "ring"]
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1), dice=[6])
    s, events = play(s, ("capture", P1, {"count": 2}))
    got = of_type(events, "treasure_retrieved")[0]
    assert got.kind == "decoy" and got.total == 0 and not s.todo and s.turn.campaigns == 0
    assert len(new(2, decoy=True).treasures) == 8
