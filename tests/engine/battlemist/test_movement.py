"""The movement step (engine/games/battlemist/movement.py): move orders, their paths, undo and END_MOVE.

Map used (BM-BRD-8): H-DAQ — N20 Kingsfield (plains) — N11 The Peers (plains) — N04 Dead Lands (desert) —
N05 Three Princes (plains); N12 Ironpeak (mountain) touches H-DAQ, N20, N11, N04; N31 Mistwood (forest) touches
H-DAQ and N30 Barley Downs (plains).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Action, Event, copier, from_json, to_json
from engine.core.rng import Rng
from engine.games.battlemist import commands as C
from engine.games.battlemist import movement as M
from engine.games.battlemist.pieces import Effects, HeroToken, Stars, Troops
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.helpers import position, snapshot

copy = copier(BMState)


def start(races: tuple[str, ...] = ("DAQ", "ORC"), **kw: Any) -> BMState:
    """A movement step of player 1 just opened."""
    state = position(races, **kw)
    if state.movement is None:
        M.begin_movement(state, Rng(state.rng))
    return state


def run(state: BMState, action: Action) -> tuple[BMState, list[Event]]:
    """`action` applied to a copy of `state`, as the game's `apply` does; the copy and the events."""
    after = copy(state)
    events = M.HANDLERS[action.type](after, action, Rng(after.rng))
    return after, events


def refused(state: BMState, action: Action) -> RuleError:
    before = snapshot(state)
    with pytest.raises(RuleError) as err:
        run(state, action)
    assert snapshot(state) == before
    return err.value


def mv(n: int, unit: str, origin: str, *path: str, player: int = 1) -> M.Move:
    return M.Move(player=player, n=n, unit=unit, origin=origin, path=path)  # type: ignore[arg-type]


def units(state: BMState, region: str, pid: int = 1) -> dict[str, int]:
    return state.units(region, pid).counts()


# ---------------------------------------------------------------- moving


@pytest.mark.rule("BM-MOV-1")
def test_each_unit_moves_once_along_adjacent_regions_up_to_its_movement() -> None:
    state = start(troops={"N20": {1: {"infantry": 3, "cavalry": 1}}})
    state, events = run(state, mv(2, "infantry", "N20", "N11", "N04"))
    assert units(state, "N04") == {"infantry": 2} and units(state, "N20") == {"infantry": 1, "cavalry": 1}
    assert [(e.type, e.path) for e in events] == [("units_moved", ["N20", "N11", "N04"])]
    assert refused(state, mv(1, "infantry", "N20", "N11", "N04", "N05")).code == "BM_E_MOVE_TOO_FAR"
    state, _ = run(state, mv(1, "cavalry", "N20", "N11", "N04", "N05"))  # Daqan cavalry moves 3
    assert units(state, "N05") == {"cavalry": 1}
    err = refused(state, mv(1, "infantry", "N04", "N05"))
    assert err.code == "BM_E_UNIT_ALREADY_MOVED" and err.message == "Those units already moved this step."
    err = refused(state, mv(2, "infantry", "N20", "N11"))
    assert err.code == "BM_E_UNIT_NOT_FOUND" and err.message == "You have only 1 infantry in N20 Kingsfield."
    state, _ = run(state, mv(1, "infantry", "N20", "N11"))  # the one left has not moved yet
    assert units(state, "N11") == {"infantry": 1} and "N20" not in state.troops


def test_units_that_came_back_to_their_origin_have_moved() -> None:
    state = start(troops={"N20": {1: {"infantry": 3}}})
    state, _ = run(state, mv(2, "infantry", "N20", "N11", "N20"))
    assert units(state, "N20") == {"infantry": 3} and M.unmoved(state, 1, "N20", "infantry") == 1
    assert refused(state, mv(2, "infantry", "N20", "N11")).code == "BM_E_UNIT_ALREADY_MOVED"


@pytest.mark.rule("BM-MOV-2")
def test_forest_and_mountain_stop_a_unit_entering_but_not_one_leaving() -> None:
    state = start(troops={"N20": {1: {"cavalry": 2}}, "N31": {1: {"infantry": 2}}})
    err = refused(state, mv(1, "cavalry", "N20", "N12", "N04"))
    assert err.code == "BM_E_MUST_STOP_TERRAIN"
    assert err.message == "Units must stop on entering N12 Ironpeak (mountain)."
    state, _ = run(state, mv(1, "cavalry", "N20", "N12"))  # ending there is fine
    assert refused(state, mv(1, "cavalry", "N20", "H-DAQ", "N31", "N30")).code == "BM_E_MUST_STOP_TERRAIN"
    state, _ = run(state, mv(2, "infantry", "N31", "N30", "N14"))  # leaving the forest is free
    assert units(state, "N14") == {"infantry": 2}


@pytest.mark.rule("BM-MOV-3")
def test_other_players_units_stop_a_unit_entering() -> None:
    state = start(troops={"N20": {1: {"cavalry": 2}}, "N11": {2: {"giant": 1}}})
    err = refused(state, mv(1, "cavalry", "N20", "N11", "N04"))
    assert err.code == "BM_E_MUST_STOP_ENEMY"
    assert err.message == "Units must stop on entering N11 The Peers: Zul Orcs units are there."
    state, _ = run(state, mv(2, "cavalry", "N20", "N11"))  # the battle follows in the combat step
    assert state.present("N11") == [1, 2]


@pytest.mark.rule("BM-MOV-4", "BM-A-32")
def test_homelands_plains_and_deserts_never_stop() -> None:
    state = start(("DAQ", "ORC", "KHR"), troops={"N14": {1: {"cavalry": 1}}, "N20": {1: {"cavalry": 1}}})
    state, _ = run(state, mv(1, "cavalry", "N14", "H-KHR", "N30", "N13"))  # through an empty homeland
    assert units(state, "N13") == {"cavalry": 1}
    state, _ = run(state, mv(1, "cavalry", "N20", "N11", "N04", "N05"))  # plains, desert, plains
    assert units(state, "N05") == {"cavalry": 1}


@pytest.mark.rule("BM-MOV-5", "BM-BRD-1", "BM-A-42")
def test_void_hexes_and_the_table_edge_cannot_be_entered() -> None:
    state = start(troops={"N14": {1: {"cavalry": 1}}, "N32": {1: {"cavalry": 1}}})
    err = refused(state, mv(1, "cavalry", "N14", "H-KHR"))  # no K'har player: a void hex
    assert err.code == "BM_E_VOID_HEX" and err.message == "H-KHR is not part of Mennarra in this game."
    assert "H-KHR" not in M.neighbours(state, "N14") and "H-KHR" not in M.next_hops(state, 1, "cavalry", "N14")
    err = refused(state, mv(1, "cavalry", "N32", "N09"))  # beyond the Saltflats only N22 and N23 lie
    assert err.code == "BM_E_NOT_ADJACENT" and err.message == "N32 Saltflats and N09 Redcrag are not adjacent."
    assert M.neighbours(state, "N32") == ["N22", "N23"]


@pytest.mark.rule("BM-MOV-9", "BM-A-42")
def test_own_units_never_block() -> None:
    state = start(troops={"N20": {1: {"cavalry": 1}}, "N11": {1: {"infantry": 4, "dragon": 1}}})
    state, _ = run(state, mv(1, "cavalry", "N20", "N11", "N04", "N05"))
    assert units(state, "N05") == {"cavalry": 1} and units(state, "N11") == {"infantry": 4, "dragon": 1}


@pytest.mark.rule("BM-HER-4", "BM-A-17")
def test_heroes_never_stop_armies() -> None:
    heroes = [HeroToken(owner=2, number=1, region="N11", life=5), HeroToken(owner=1, number=1, region="N04", life=5)]
    state = start(troops={"N20": {1: {"cavalry": 1}}}, heroes=heroes)
    state, _ = run(state, mv(1, "cavalry", "N20", "N11", "N04", "N05"))
    assert units(state, "N05") == {"cavalry": 1}
    assert M.stops_here(state, 1, "cavalry", "N20", "N11") is None


@pytest.mark.rule("BM-MON-4")
def test_monsters_move_like_army_units_and_a_dragon_flies() -> None:
    state = start(troops={"N20": {1: {"giant": 1, "firebreather": 1, "dragon": 1}}, "N03": {2: {"infantry": 1}}})
    assert refused(state, mv(1, "giant", "N20", "N11", "N04")).code == "BM_E_MOVE_TOO_FAR"  # a Giant moves 1
    assert refused(state, mv(1, "firebreather", "N20", "N12", "N04")).code == "BM_E_MUST_STOP_TERRAIN"
    state, _ = run(state, mv(1, "dragon", "N20", "N12", "N04", "N13"))  # mountain, desert, forest
    assert units(state, "N13") == {"dragon": 1}
    back = start(troops={"N20": {1: {"dragon": 1}}, "N11": {2: {"infantry": 1}}})
    assert refused(back, mv(1, "dragon", "N20", "N11", "N04")).code == "BM_E_MUST_STOP_ENEMY"  # still stops


@pytest.mark.rule("BM-REC-4")
def test_units_recruited_this_round_may_move() -> None:
    """The economy placed 3 infantry in the homeland this round, beside the 2 starting ones: all five move."""
    state = start(troops={"H-DAQ": {1: {"infantry": 5}}})
    assert M.unmoved(state, 1, "H-DAQ", "infantry") == 5
    state, _ = run(state, mv(5, "infantry", "H-DAQ", "N20", "N11"))
    assert units(state, "N11") == {"infantry": 5} and "H-DAQ" not in state.troops


@pytest.mark.rule("BM-RACE-3")
def test_race_terrain_abilities_apply_to_army_units_only() -> None:
    """BM-RACE-3: Elves pass forests, Dwarves mountains; their monsters do not."""
    elves = start(("ELF", "DAQ"), troops={"N25": {1: {"infantry": 2, "firebreather": 1}}})
    assert refused(elves, mv(1, "infantry", "N25", "N19", "N02")).code == "BM_E_MUST_STOP_TERRAIN"  # a mountain
    assert refused(elves, mv(1, "firebreather", "N25", "N18", "N17")).code == "BM_E_MUST_STOP_TERRAIN"
    elves, _ = run(elves, mv(1, "infantry", "N25", "N18", "N17"))  # Silverleaf Forest, then Meadowmere
    assert units(elves, "N17") == {"infantry": 1}
    dwarves = start(("DWA", "DAQ"), troops={"N08": {1: {"cavalry": 1, "firebreather": 1}}})
    dwarves, _ = run(dwarves, mv(1, "cavalry", "N08", "N09", "N03"))  # through Redcrag (mountain)
    assert units(dwarves, "N03") == {"cavalry": 1}
    assert refused(dwarves, mv(1, "firebreather", "N08", "N09", "N03")).code == "BM_E_MUST_STOP_TERRAIN"
    assert refused(start(("DWA", "DAQ"), troops={"N19": {1: {"cavalry": 1}}}),
                   mv(1, "cavalry", "N19", "N18", "N17")).code == "BM_E_MUST_STOP_TERRAIN"  # a forest


# ---------------------------------------------------------------- the path check order


@pytest.mark.rule("BM-VAL-2")
def test_a_path_reports_its_first_violation_in_the_check_order() -> None:
    state = start(troops={"N20": {1: {"infantry": 2}}, "H-DAQ": {1: {"infantry": 1}}, "N31": {2: {"archers": 1}}})
    # adjacency before the stop at the previous region: N12 must stop, but N12–N05 are not adjacent
    assert refused(state, mv(1, "infantry", "N20", "N12", "N05")).code == "BM_E_NOT_ADJACENT"
    # a void hex is told as such, not as non-adjacent
    assert refused(state, mv(1, "infantry", "N20", "N11", "H-KHR")).code == "BM_E_VOID_HEX"
    # the stop at the previous region before the allowance: infantry moves 2, the path is 3 long
    assert refused(state, mv(1, "infantry", "N20", "N12", "N04", "N05")).code == "BM_E_MUST_STOP_TERRAIN"
    # enemy before terrain: Mistwood is a forest holding Orc archers
    assert refused(state, mv(1, "infantry", "H-DAQ", "N31", "N30")).code == "BM_E_MUST_STOP_ENEMY"
    # the allowance last
    assert refused(state, mv(1, "infantry", "N20", "N11", "N04", "N05")).code == "BM_E_MOVE_TOO_FAR"


@pytest.mark.rule("BM-VAL-0")
def test_a_move_is_checked_in_the_validation_order() -> None:
    """BM-VAL-0: phase and turn, then existence (regions, units), then once per step, then geometry."""
    state = start(troops={"N20": {1: {"infantry": 1}}, "N04": {1: {"infantry": 1}}},
                  movement=M.MoveStep(player=1, orders=(M.MoveOrder(n=1, unit="infantry", path=("N11", "N04")),),
                                      opening=False))
    assert refused(state, mv(1, "infantry", "N20", "Atlantis", player=2)).code == "BM_E_NOT_YOUR_TURN"
    err = refused(state, mv(5, "infantry", "N20", "Atlantis", "N01"))
    assert err.code == "BM_E_UNKNOWN_REGION" and err.message == 'Unknown region "Atlantis".'
    assert refused(state, mv(5, "infantry", "N20", "N32")).code == "BM_E_UNIT_NOT_FOUND"
    assert refused(state, mv(1, "infantry", "N04", "N32")).code == "BM_E_UNIT_ALREADY_MOVED"
    assert refused(state, mv(1, "infantry", "N20", "N32")).code == "BM_E_NOT_ADJACENT"


def test_movement_commands_outside_the_step_are_refused() -> None:
    other = position(phase=Phase.QUEST, troops={"N20": {1: {"infantry": 1}}})
    err = refused(other, mv(1, "infantry", "N20", "N11"))
    assert err.code == "BM_E_WRONG_PHASE"
    assert err.message == "That is not possible now: the game is in individual/quest."
    combat = position(phase=Phase.COMBAT, troops={"N20": {1: {"infantry": 1}}})
    assert refused(combat, M.Undo(player=1)).code == "BM_E_MOVEMENT_DONE"
    assert refused(other, mv(1, "infantry", "N20", "N11", player=2)).code == "BM_E_NOT_YOUR_TURN"
    assert refused(combat, M.EndMove(player=2)).code == "BM_E_NOT_YOUR_TURN"
    council = position(phase=Phase.COUNCIL)
    assert refused(council, M.EndMove(player=2)).code == "BM_E_WRONG_PHASE"


# ---------------------------------------------------------------- W-MOVESTART: cards and spells


@pytest.mark.rule("BM-MOV-8")
def test_the_window_comes_first_then_move_orders_then_end_move() -> None:
    state = start(troops={"N20": {1: {"infantry": 2}}}, hands={1: ["AC02", "AC02"]})
    assert M.pending_movement(state)[0].detail["window"] == "movestart"
    state, events = run(state, M.MovePlay(player=1, card="AC02", region="N20"))
    assert [e.type for e in events] == ["card_played", "move_boost"]
    state, _ = run(state, mv(1, "infantry", "N20", "N11"))
    assert M.pending_movement(state)[0].detail["window"] is None
    err = refused(state, M.MovePlay(player=1, card="AC02", region="N20"))
    assert err.code == "BM_E_CARD_WINDOW" and "W-MOVESTART" in err.message
    state, _ = run(state, M.Undo(player=1))
    assert refused(state, M.MovePlay(player=1, card="AC02", region="N20")).code == "BM_E_CARD_WINDOW"
    state, events = run(state, M.EndMove(player=1))
    assert [e.type for e in events] == ["movement_ended"] and state.movement is not None and state.movement.done
    assert M.pending_movement(state) == []
    assert refused(state, mv(1, "infantry", "N20", "N11")).code == "BM_E_MOVEMENT_DONE"


@pytest.mark.rule("BM-ACT-8")
def test_ac02_forced_march_gives_units_starting_in_the_region_one_more_move() -> None:
    before = start(troops={"N20": {1: {"infantry": 2}}, "H-DAQ": {1: {"infantry": 1}}}, hands={1: ["AC02"]})
    original = snapshot(before)
    state, _ = run(before, M.MovePlay(player=1, card="AC02", region="Kingsfield"))
    assert snapshot(before) == original and state.hands[1] == [] and state.discard == ["AC02"]
    assert M.allowance(state, 1, "infantry", "N20") == 3 and M.allowance(state, 1, "infantry", "H-DAQ") == 2
    state, _ = run(state, mv(2, "infantry", "N20", "N11", "N04", "N05"))
    assert units(state, "N05") == {"infantry": 2}
    assert refused(state, mv(1, "infantry", "H-DAQ", "N20", "N11", "N04")).code == "BM_E_MOVE_TOO_FAR"
    assert refused(before, M.MovePlay(player=1, card="AC02", region="Nowhere")).code == "BM_E_UNKNOWN_REGION"
    assert refused(before, M.MovePlay(player=1, card="AC02")).code == "BM_E_UNKNOWN_REGION"


@pytest.mark.rule("BM-ACT-8", "BM-ACT-2")
def test_ac03_pathfinders_beats_the_terrain_stop_rule_but_not_the_enemy_one() -> None:
    state = start(troops={"N20": {1: {"cavalry": 2}}, "N03": {2: {"infantry": 1}}}, hands={1: ["AC03"]})
    assert refused(state, mv(1, "cavalry", "N20", "N12", "N04")).code == "BM_E_MUST_STOP_TERRAIN"  # the rule
    state, events = run(state, M.MovePlay(player=1, card="AC03"))
    assert events[-1].free_terrain and events[-1].region is None  # type: ignore[attr-defined]
    state, _ = run(state, mv(1, "cavalry", "N20", "N12", "N04", "N13"))  # mountain, desert, forest: card text
    assert units(state, "N13") == {"cavalry": 1}
    assert refused(state, mv(1, "cavalry", "N20", "N11", "N03", "N09")).code == "BM_E_MUST_STOP_ENEMY"


@pytest.mark.rule("BM-SPL-3")
def test_sp02_swift_winds_gives_one_region_one_more_move_once_per_step() -> None:
    state = start(troops={"N20": {1: {"infantry": 1}}, "H-DAQ": {1: {"infantry": 1}}},
                  stars={1: Stars(owned=3), 2: Stars(owned=1)})
    state, events = run(state, M.MoveCast(player=1, spell="SP02", region="n20"))
    assert [e.type for e in events] == ["spell_cast", "move_boost"] and state.stars[1].power == 2
    assert M.allowance(state, 1, "infantry", "N20") == 3 and M.allowance(state, 1, "infantry", "H-DAQ") == 2
    err = refused(state, M.MoveCast(player=1, spell="SP02", region="H-DAQ"))
    assert err.code == "BM_E_SPELL_ALREADY_CAST"
    state, _ = run(state, mv(1, "infantry", "N20", "N11", "N04", "N05"))
    assert refused(state, M.MoveCast(player=1, spell="SP03", region="H-DAQ")).code == "BM_E_SPELL_WINDOW"


@pytest.mark.rule("BM-SPL-3")
def test_sp03_pathfinding_frees_the_units_of_one_region_from_terrain_stops() -> None:
    state = start(troops={"N20": {1: {"cavalry": 1}}, "H-DAQ": {1: {"cavalry": 1}}},
                  stars={1: Stars(owned=1), 2: Stars(owned=1)})
    state, _ = run(state, M.MoveCast(player=1, spell="SP03", region="N20"))
    assert state.stars[1].power == 0
    state, _ = run(state, mv(1, "cavalry", "N20", "N12", "N04", "N13"))
    assert units(state, "N13") == {"cavalry": 1}
    assert refused(state, mv(1, "cavalry", "H-DAQ", "N12", "N04")).code == "BM_E_MUST_STOP_TERRAIN"


@pytest.mark.rule("BM-EVT-2")
def test_ev6_blizzard_sets_movement_to_one_and_its_worse_outcome_closes_the_mountains() -> None:
    slow = start(troops={"N20": {1: {"cavalry": 1, "dragon": 1}}}, effects=Effects(blizzard="slow"),
                 hands={1: ["AC02"]})
    assert refused(slow, mv(1, "cavalry", "N20", "N11", "N04")).code == "BM_E_MOVE_TOO_FAR"
    moved, _ = run(slow, mv(1, "cavalry", "N20", "N12"))
    assert units(moved, "N12") == {"cavalry": 1}
    marched, _ = run(slow, M.MovePlay(player=1, card="AC02", region="N20"))
    assert M.allowance(marched, 1, "cavalry", "N20") == 2  # the card adds to the Blizzard's value
    closed = start(troops={"N20": {1: {"cavalry": 1, "dragon": 1}}}, effects=Effects(blizzard="no_mountains"))
    err = refused(closed, mv(1, "dragon", "N20", "N12"))
    assert err.code == "BM_E_BLIZZARD_MOUNTAIN" and "N12 Ironpeak" in err.message
    assert M.next_hops(closed, 1, "cavalry", "N20") == ["H-DAQ", "N11"]
    assert "N12" not in M.reachable(closed, 1, "dragon", "N20")


# ---------------------------------------------------------------- undo


@pytest.mark.rule("BM-DIG-25", "BM-MOV-7")
def test_undo_withdraws_the_newest_unconfirmed_order() -> None:
    before = start(troops={"N20": {1: {"infantry": 3}}})
    state, _ = run(before, mv(2, "infantry", "N20", "N11"))
    state, _ = run(state, mv(1, "infantry", "N20", "N12"))
    original = snapshot(state)
    undone, events = run(state, M.Undo(player=1))
    assert snapshot(state) == original
    assert [(e.type, e.path) for e in events] == [("move_undone", ["N20", "N12"])]
    assert units(undone, "N20") == {"infantry": 1} and "N12" not in undone.troops
    undone, _ = run(undone, mv(1, "infantry", "N20", "N11", "N04"))  # changed: the unit goes elsewhere
    undone, _ = run(undone, M.Undo(player=1))
    undone, _ = run(undone, M.Undo(player=1))
    assert units(undone, "N20") == {"infantry": 3} and undone.movement is not None and undone.movement.orders == ()
    assert refused(undone, M.Undo(player=1)).code == "BM_E_NOTHING_TO_UNDO"
    assert refused(undone, M.Undo(player=2)).code == "BM_E_NOT_YOUR_TURN"
    done, _ = run(state, M.EndMove(player=1))
    assert refused(done, M.Undo(player=1)).code == "BM_E_MOVEMENT_DONE"


# ---------------------------------------------------------------- END_MOVE and the stacking limit


@pytest.mark.rule("BM-MOV-6", "BM-MON-7")
def test_end_move_is_refused_while_a_region_holds_more_than_ten_army_units() -> None:
    state = start(troops={"N20": {1: {"infantry": 6}}, "N11": {1: {"infantry": 4, "dragon": 1, "giant": 1}},
                          "N12": {1: {"infantry": 1}}})
    state, _ = run(state, mv(6, "infantry", "N20", "N11"))
    _, events = run(state, M.EndMove(player=1))  # 10 army units and 2 monsters: within the limit
    assert [e.type for e in events] == ["movement_ended"]
    state, _ = run(state, mv(1, "infantry", "N12", "N11"))
    err = refused(state, M.EndMove(player=1))
    assert err.code == "BM_E_STACK_LIMIT"
    assert err.message == "N11 The Peers would hold 11 of your army units; the limit is 10."
    assert M.pending_movement(state)[0].detail["over_limit"] == {"N11": 1}


@pytest.mark.rule("BM-MOV-10", "BM-A-42")
def test_a_present_player_meets_the_limit_by_changing_orders_and_the_stand_in_disbands() -> None:
    """The step began within the limit, so taking orders back always meets it: END_MOVE is refused even when
    no further move could clear the excess; the stand-in keeps the orders and disbands (ruling 26)."""
    state = start(troops={"N20": {1: {"infantry": 4, "archers": 2}}, "N12": {1: {"infantry": 1, "cavalry": 5}}})
    state, _ = run(state, mv(4, "infantry", "N20", "N11"))
    state, _ = run(state, mv(2, "archers", "N20", "N11"))
    state, _ = run(state, mv(1, "infantry", "N12", "N11"))
    state, _ = run(state, mv(5, "cavalry", "N12", "N11"))
    assert M.movable(state, 1, "N11") == 0 and M.started_within_limit(state, 1)  # every unit there has moved
    assert refused(state, M.EndMove(player=1)).code == "BM_E_STACK_LIMIT"
    before = snapshot(state)
    done, events = run(state, M.timeout_movement(state, 1))
    assert snapshot(state) == before
    assert [(e.type, getattr(e, "units", None)) for e in events] == [("units_disbanded", {"infantry": 2}),
                                                                      ("movement_ended", None)]
    assert units(done, "N11") == {"infantry": 3, "archers": 2, "cavalry": 5}
    assert done.movement is not None and done.movement.done and len(done.movement.orders) == 4
    lighter, _ = run(state, M.Undo(player=1))  # or the player takes the cavalry back
    assert units(lighter, "N11") == {"infantry": 5, "archers": 2}
    assert [e.type for e in run(lighter, M.EndMove(player=1))[1]] == ["movement_ended"]


@pytest.mark.rule("BM-MOV-10")
def test_an_excess_that_began_the_step_is_disbanded_as_far_as_no_move_can_clear_it() -> None:
    """Outside play a step may begin over the limit: then only the moves left could meet it, and END_MOVE is
    refused while one of them could still take an excess unit away ("no legal moves left"). Under Blizzard the
    units of Kingsfield reach only its four neighbours, which have 2 places (1 with the mountains closed)."""
    crowded = {"H-DAQ": {1: {"infantry": 10}}, "N12": {1: {"infantry": 10}}, "N21": {1: {"infantry": 9}},
               "N11": {1: {"infantry": 9}}}
    state = start(troops={**crowded, "N20": {1: {"infantry": 10, "cavalry": 2}}}, effects=Effects(blizzard="slow"))
    assert not M.started_within_limit(state, 1) and M.movable(state, 1, "N20") == 2
    assert refused(state, M.EndMove(player=1)).code == "BM_E_STACK_LIMIT"
    state = start(troops={**crowded, "N20": {1: {"infantry": 11, "cavalry": 2}}},
                  effects=Effects(blizzard="no_mountains"))  # Frostcrown and Ironpeak closed
    assert M.movable(state, 1, "N20") == 1
    assert refused(state, M.EndMove(player=1)).code == "BM_E_STACK_LIMIT"  # one of the three can still leave
    state, _ = run(state, mv(1, "cavalry", "N20", "N11"))
    assert M.movable(state, 1, "N20") == 0
    done, events = run(state, M.EndMove(player=1))
    assert units(done, "N20") == {"infantry": 9, "cavalry": 1}
    assert [(e.type, getattr(e, "units", None)) for e in events] == [("units_disbanded", {"infantry": 2}),
                                                                      ("movement_ended", None)]


# ---------------------------------------------------------------- names, autocomplete, decisions, timeout


@pytest.mark.rule("BM-DIG-12")
def test_a_typed_region_is_its_id_in_any_case_or_its_name() -> None:
    assert M.resolve_region("n05") == "N05" and M.resolve_region(" N05 ") == "N05"
    assert M.resolve_region("three princes") == "N05" and M.resolve_region("Plains of K'har") == "N14"
    assert M.resolve_region("plains-of-k'har") == "N14" and M.resolve_region("h-daq") == "H-DAQ"
    assert M.resolve_region("Homeland: Zul Orcs") == "H-ORC"
    with pytest.raises(RuleError) as err:
        M.resolve_region("Three Kings")
    assert err.value.code == "BM_E_UNKNOWN_REGION"
    state = start(troops={"N20": {1: {"infantry": 2}}})
    state, _ = run(state, mv(2, "infantry", "Kingsfield", "the peers", "dead lands"))
    assert units(state, "N04") == {"infantry": 2}


def test_a_typed_unit_type_is_its_name_or_short_form() -> None:
    assert [M.resolve_unit(t) for t in ("cav", "Cavalry", "inf", "archer", "Dragons", "knight")] == [
        "cavalry", "cavalry", "infantry", "archers", "dragon", None]


def test_a_typed_unit_type_may_take_the_form_its_count_gives_it() -> None:
    """`2 лучника`, `5 всадников`: Russian inflects a unit's name by its count, and each form is understood."""
    assert [M.resolve_unit(t) for t in ("лучник", "лучника", "лучников", "всадников", "огнедышащих")] == [
        "archers", "archers", "archers", "cavalry", "firebreather"]
    state = start(troops={"N20": {1: {"archers": 2}}})
    assert C.move(state, 1, 2, "лучника", "N20", "N11") == mv(2, "archers", "N20", "N11")
    picked = C.casualties(state, 1, "2 лучника", "5 пехотинцев")
    assert (picked.kills, picked.routs) == ({"archers": 2}, {"infantry": 5})


def test_card_and_spell_targets_are_checked_after_their_windows() -> None:
    """BM-VAL-0 as the reference orders it: the card held and its window (or the spell known, its window, once
    per window, its cost), then the region it is aimed at; unaimed ones need none."""
    state = start(troops={"N20": {1: {"infantry": 1}}}, hands={1: ["AC02", "AC02", "AC05"]})
    assert refused(state, M.MoveCast(player=1, spell="SP03")).code == "BM_E_UNKNOWN_REGION"
    assert refused(state, M.MoveCast(player=1, spell="SP03", region="H-KHR")).code == "BM_E_VOID_HEX"
    assert refused(state, M.MoveCast(player=1, spell="SP99")).code == "BM_E_UNKNOWN_SPELL"
    assert refused(state, M.MovePlay(player=1, card="AC05")).code == "BM_E_CARD_WINDOW"
    assert refused(state, M.MovePlay(player=1, card="AC03")).code == "BM_E_CARD_NOT_IN_HAND"
    assert refused(state, M.MovePlay(player=1, card="AC02", region="Nowhere")).code == "BM_E_UNKNOWN_REGION"
    cast, _ = run(state, M.MoveCast(player=1, spell="SP02", region="N20"))
    assert refused(cast, M.MoveCast(player=1, spell="SP02", region="Nowhere")).code == "BM_E_SPELL_ALREADY_CAST"
    moved, _ = run(state, mv(1, "infantry", "N20", "N11"))
    assert refused(moved, M.MovePlay(player=1, card="AC02", region="Nowhere")).code == "BM_E_CARD_WINDOW"


@pytest.mark.rule("BM-DIG-13")
def test_autocomplete_offers_only_legal_adjacent_next_regions() -> None:
    state = start(troops={"N20": {1: {"infantry": 2}}, "N04": {2: {"infantry": 1}}})
    assert M.next_hops(state, 1, "infantry", "N20") == ["N21", "H-DAQ", "N12", "N11"]
    assert M.next_hops(state, 1, "infantry", "N20", ["N11"]) == ["N10", "N21", "N20", "N12", "N04", "N03"]
    assert M.next_hops(state, 1, "infantry", "N20", ["N12"]) == []  # it had to stop on the mountain
    assert M.next_hops(state, 1, "infantry", "N20", ["N11", "N04"]) == []  # allowance spent
    assert M.next_hops(state, 1, "infantry", "N20", ["N05"]) == []  # an illegal partial path
    assert M.reachable(state, 1, "infantry", "N20") >= {"N04", "N03", "N10", "N31"}
    moved, _ = run(start(troops={"N20": {1: {"infantry": 2, "dragon": 1}}, "N05": {1: {"archers": 1}},
                                 "N04": {2: {"infantry": 1}}}), mv(2, "infantry", "N20", "N11"))
    assert M.origins(moved, 1) == ["N05", "N20"] and M.origins(moved, 1, "infantry") == []
    assert M.origins(moved, 1, "archers") == ["N05"]


def test_the_pending_decision_and_the_step_opening() -> None:
    state = position(troops={"H-DAQ": {1: {"infantry": 2}}}, phase=Phase.QUEST)
    events = M.begin_movement(state, Rng(state.rng))
    assert state.phase is Phase.MOVEMENT and [e.type for e in events] == ["movement_started"]
    [decision] = M.pending_movement(state)
    assert (decision.player, decision.kind, decision.detail) == (1, "move", {"window": "movestart", "orders": 0,
                                                                               "over_limit": {}})


@pytest.mark.rule("BM-DIG-19")
def test_the_timeout_makes_no_moves_and_ends_with_the_stacking_fix() -> None:
    state = start(troops={"N20": {1: {"infantry": 5}}, "N12": {1: {"infantry": 5}}, "N11": {1: {"infantry": 2}}})
    assert M.timeout_movement(state, 1) == M.EndMove(player=1, stand_in=True)
    done, events = run(state, M.timeout_movement(state, 1))
    assert [e.type for e in events] == ["movement_ended"] and done.troops == state.troops
    state, _ = run(state, mv(5, "infantry", "N20", "N11"))
    state, _ = run(state, mv(5, "infantry", "N12", "N11"))
    assert M.movable(state, 1, "N11") == 2  # a move could clear it, but the stand-in makes none
    done, _ = run(state, M.timeout_movement(state, 1))
    assert units(done, "N11") == {"infantry": 10} and done.movement is not None and done.movement.done


def test_rules_leave_the_given_position_unchanged() -> None:
    before = start(troops={"N20": {1: {"infantry": 2}}, "N11": {2: {"infantry": 1}}}, hands={1: ["AC03"]})
    original = snapshot(before)
    state, _ = run(before, M.MovePlay(player=1, card="AC03"))
    state, _ = run(state, mv(1, "infantry", "N20", "N11"))
    state, _ = run(state, M.Undo(player=1))
    run(state, M.EndMove(player=1))
    assert snapshot(before) == original
    assert before.troops["N20"][1] == Troops(infantry=2)


def test_the_step_survives_the_position_format() -> None:
    state = start(troops={"N20": {1: {"infantry": 2}}}, hands={1: ["AC02"]})
    state, _ = run(state, M.MovePlay(player=1, card="AC02", region="N20"))
    state, _ = run(state, mv(2, "infantry", "N20", "N11", "N04", "N05"))
    loaded = from_json(BMState, to_json(state))
    assert loaded.movement == state.movement and loaded.movement is not None
    assert loaded.movement.orders[0].path == ("N20", "N11", "N04", "N05") and loaded.movement.bonus == {"N20": 1}


def _ends(state: BMState, unit: str, origin: str, path: list[str]) -> set[str]:
    """Every region some legal path extending `path` ends in, walked with `next_hops`."""
    found: set[str] = set()
    for hop in M.next_hops(state, 1, unit, origin, path):
        found |= {hop} | _ends(state, unit, origin, [*path, hop])
    return found


@pytest.mark.parametrize("races", [("DAQ", "ORC"), ("ELF", "DWA", "KHR"), ("DWA", "DRK")])
@pytest.mark.parametrize("unit", ["infantry", "cavalry", "dragon", "giant"])
def test_reachable_agrees_with_the_path_check(races: tuple[str, ...], unit: str) -> None:
    enemies = {r: {2: {"infantry": 1}} for r in ("N11", "N06", "N19", "N29")}
    for effects in (Effects(), Effects(blizzard="no_mountains")):
        state = start(races, troops=enemies, effects=effects)
        for origin in ("N01", "N05", "N20", "N08", "N26"):
            assert M.reachable(state, 1, unit, origin) == _ends(state, unit, origin, []) - {origin}, origin


def test_another_players_move_in_the_quest_step_is_not_his_turn() -> None:
    """The reference's ruling 3, through the game's `apply`: during the individual phase a move order from anyone
    but the active player is BM_E_NOT_YOUR_TURN, whichever step the active player is in."""
    from engine.games.battlemist import rules
    from tests.engine.battlemist.quest_helpers import step

    quest = step(troops={"N20": {1: {"infantry": 1}}, "N05": {2: {"infantry": 1}}})
    for action, code in ((mv(1, "infantry", "N05", "N04", player=2), "BM_E_NOT_YOUR_TURN"),
                         (M.EndMove(player=2), "BM_E_NOT_YOUR_TURN"),
                         (mv(1, "infantry", "N20", "N11"), "BM_E_WRONG_PHASE")):
        with pytest.raises(RuleError) as err:
            rules.apply(quest, action)
        assert err.value.code == code, action
