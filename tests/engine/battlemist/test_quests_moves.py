"""The quest step's frame, healing, the new quest and hero moves (engine/games/battlemist/quest.py)."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.core.models import Action
from engine.games.battlemist.movement import Move, MoveStep
from engine.games.battlemist.pieces import Effects, Stars
from engine.games.battlemist.quest import (
    Blink,
    EndHeroes,
    GreatHaste,
    HealingHerbs,
    HealingLight,
    HeroMove,
    QuestNew,
    QuestPass,
    pending_quest,
)
from engine.games.battlemist.quest_state import QuestStep
from engine.games.battlemist.rules import apply
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.helpers import position, snapshot
from tests.engine.battlemist.quest_helpers import hero, run, step, types


def error(state: BMState, *actions: Action) -> str:
    with pytest.raises(RuleError) as err:
        run(state, *actions)
    assert err.value.message != err.value.code  # the catalogue has the message
    return err.value.code


def moved(state: BMState, *path: str, number: int = 1) -> BMState:
    after, _ = run(state, HeroMove(player=1, hero=number, path=list(path)))
    return after


@pytest.mark.rule("BM-QST-13", "BM-HER-11")
def test_the_step_opens_with_the_prequest_window_then_heals_then_draws() -> None:
    before = step(heroes=[hero(1, 1, "H-DAQ", life=3)], hands={1: ["AC01"]}, quest_deck=["QA10"])
    original = snapshot(before)
    assert [d.kind for d in pending_quest(before)] == ["bm_prequest"]
    after, events = run(before, GreatHaste(player=1, hero=1), QuestPass(player=1))
    assert types(events) == ["card_played", "hero_hasted", "quest_window_passed", "hero_healed", "quest_drawn",
                             "quest_started"]
    assert after.heroes[0].life == 4 and after.quests == {1: "QA10"} and after.quest_step.stage == "heroes"
    assert [d.kind for d in pending_quest(after)] == ["bm_hero_moves"]
    assert snapshot(before) == original  # the given position is untouched


@pytest.mark.rule("BM-HER-11", "BM-A-36")
def test_home_healing_is_one_life_up_to_the_current_maximum() -> None:
    heroes = [hero(1, 1, "H-DAQ", life=5), hero(1, 2, "H-DAQ", life=2), hero(1, 3, "N20", life=2)]
    after, _ = run(step(heroes=heroes, quests={1: "QA10"}), QuestPass(player=1))
    assert [h.life for h in after.heroes] == [5, 3, 2]  # at the maximum: no more; away from home: nothing
    amulet, _ = run(step(heroes=heroes, quests={1: "QA10"}, artifacts={1: ["AR2"]}), QuestPass(player=1))
    assert [h.life for h in amulet.heroes] == [6, 3, 2]


@pytest.mark.rule("BM-HOM-6", "BM-A-45")
def test_an_occupied_homeland_still_heals_and_starts_quests() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ", life=4)], occupied={"H-DAQ": 2},
                 troops={"H-DAQ": {2: {"infantry": 3}}}, quest_deck=["QA10"])
    after, _ = run(state, QuestPass(player=1))
    assert after.heroes[0].life == 5 and after.quests == {1: "QA10"}


@pytest.mark.rule("BM-QST-1", "BM-QST-14", "BM-A-14", "BM-QST-2", "BM-ART-1")
def test_the_new_quest_is_drawn_until_an_adventure_and_the_artifacts_go_back() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ"), hero(1, 2, "H-DAQ")], quest_deck=["AR1", "STAR", "QA10", "QA11"])
    after, events = run(state, EndHeroes(player=1))  # no explicit draw: it is mandatory
    drawn = events[0]
    assert drawn.type == "quest_drawn" and drawn.adventure == "QA10" and drawn.returned == ["AR1", "STAR"]
    assert after.quests == {1: "QA10"} and sorted(after.quest_deck) == ["AR1", "QA11", "STAR"]
    assert after.artifacts == {}  # an artifact drawn while starting a quest is not gained
    assert len([e for e in events if e.type == "quest_drawn"]) == 1  # one quest, however many heroes


@pytest.mark.rule("BM-QST-1")
def test_no_new_quest_with_one_current_or_without_a_hero_at_home() -> None:
    kept, _ = run(step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA11"}, quest_deck=["QA10"]), QuestPass(player=1))
    assert kept.quests == {1: "QA11"} and kept.quest_deck == ["QA10"]
    away, _ = run(step(heroes=[hero(1, 1, "N20")], quest_deck=["QA10"]), QuestPass(player=1))
    assert away.quests == {} and away.quest_deck == ["QA10"]


@pytest.mark.rule("BM-QST-3", "BM-A-24")
def test_the_drawn_adventure_is_told_to_the_drawer_alone() -> None:
    _, events = run(step(heroes=[hero(1, 1, "H-DAQ")], quest_deck=["QA10"]), QuestPass(player=1))
    drawn = next(e for e in events if e.type == "quest_drawn")
    started = next(e for e in events if e.type == "quest_started")
    assert drawn.private_to == 1 and started.private_to is None and not hasattr(started, "adventure")


@pytest.mark.rule("BM-QST-1", "BM-QST-13")
def test_a_hand_written_prequest_step_still_draws_for_a_hero_at_home() -> None:
    """A position written at W-PREQUEST need not say that a hero stands at home: the engine sees him there."""
    state = step(heroes=[hero(1, 1, "H-DAQ", life=3)], quest_deck=["QA10"])
    state.quest_step = QuestStep()
    after, events = run(state, QuestPass(player=1))
    assert after.quests == {1: "QA10"} and after.heroes[0].life == 4 and "quest_drawn" in types(events)
    explicit, _ = run(state, QuestNew(player=1))
    assert explicit.quests == {1: "QA10"}


@pytest.mark.rule("BM-QST-1")
def test_quest_new_draws_explicitly_and_its_errors_come_in_order() -> None:
    """The reference's check order for a new quest: BM_E_QUEST_ACTIVE, then BM_E_NO_HERO_AT_HOME."""
    state = step(heroes=[hero(1, 1, "H-DAQ")], quest_deck=["QA10"])
    after, events = run(state, QuestNew(player=1))
    assert after.quests == {1: "QA10"} and "quest_drawn" in types(events)
    assert error(after, QuestNew(player=1)) == "BM_E_QUEST_ACTIVE"
    away = step(heroes=[hero(1, 1, "N20")], quests={1: "QA11"})
    assert error(away, QuestNew(player=1)) == "BM_E_QUEST_ACTIVE"  # checked before the hero at home
    assert error(step(heroes=[hero(1, 1, "N20")]), QuestNew(player=1)) == "BM_E_NO_HERO_AT_HOME"
    moving = moved(step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA19"}, quest_deck=["STAR"]), "N20")
    assert moving.quests == {} and error(moving, QuestNew(player=1)) == "BM_E_QUEST_DRAW_PASSED"


@pytest.mark.rule("BM-HER-3", "BM-QST-5")
def test_a_hero_moves_up_to_three_regions_once_and_only_in_the_quest_step() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA01"})
    after = moved(state, "N20", "N11", "N04")
    assert after.heroes[0].region == "N04" and after.quest_step.moved == (1,)
    assert error(state, HeroMove(player=1, hero=1, path=["N20", "N11", "N04", "N05"])) == "BM_E_HERO_MOVE_TOO_FAR"
    assert error(after, HeroMove(player=1, hero=1, path=["N05"])) == "BM_E_HERO_ALREADY_MOVED"
    outside = position(phase=Phase.MOVEMENT, heroes=[hero(1, 1, "H-DAQ")])
    assert error(outside, HeroMove(player=1, hero=1, path=["N20"])) == "BM_E_WRONG_PHASE"
    assert error(state, HeroMove(player=2, hero=1, path=["N20"])) == "BM_E_NOT_YOUR_TURN"
    assert error(state, HeroMove(player=1, hero=2, path=["N20"])) == "BM_E_UNKNOWN_HERO"


@pytest.mark.rule("BM-ART-2", "BM-QST-5")
def test_boots_of_striding_and_great_haste_lengthen_the_move() -> None:
    path = ["N20", "N11", "N04", "N05"]
    boots = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA01"}, artifacts={1: ["AR3"]})
    assert moved(boots, *path).heroes[0].region == "N05"
    assert error(boots, HeroMove(player=1, hero=1, path=[*path, "N14"])) == "BM_E_HERO_MOVE_TOO_FAR"
    both = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA01"}, artifacts={1: ["AR3"]}, hands={1: ["AC01"]})
    hasted, _ = run(both, GreatHaste(player=1, hero=1))
    assert moved(hasted, *path, "N14").heroes[0].region == "N14"


def test_great_haste_speeds_one_hero_and_keeps_terrain_stops() -> None:
    """AC01: +1 region for the chosen hero this step, in W-PREQUEST only; forests and mountains still stop."""
    state = step(heroes=[hero(1, 1, "H-DAQ"), hero(1, 2, "H-DAQ")], quests={1: "QA01"}, hands={1: ["AC01", "AC01"]})
    hasted, _ = run(state, GreatHaste(player=1, hero=2))
    assert moved(hasted, "N20", "N11", "N04", "N05", number=2).hero(1, 2).region == "N05"
    assert error(hasted, HeroMove(player=1, hero=1, path=["N20", "N11", "N04", "N05"])) == "BM_E_HERO_MOVE_TOO_FAR"
    assert error(hasted, HeroMove(player=1, hero=2, path=["N12", "N11"])) == "BM_E_HERO_MUST_STOP"
    late = moved(hasted, "N20", number=1)
    assert error(late, GreatHaste(player=1, hero=1)) == "BM_E_CARD_WINDOW"


@pytest.mark.rule("BM-QST-15", "BM-A-26")
def test_forests_and_mountains_stop_heroes_but_elves_and_dwarves_pass_their_own() -> None:
    knights = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA01"})
    assert moved(knights, "N12").heroes[0].region == "N12"  # stopping there is fine
    with pytest.raises(RuleError) as err:
        run(knights, HeroMove(player=1, hero=1, path=["N12", "N11"]))
    assert err.value.code == "BM_E_HERO_MUST_STOP" and "N12 (mountain)" in err.value.message
    assert error(knights, HeroMove(player=1, hero=1, path=["N31", "N30"])) == "BM_E_HERO_MUST_STOP"
    dwarves = step(("DWA", "ORC"), heroes=[hero(1, 1, "H-DWA")], quests={1: "QA01"})
    assert moved(dwarves, "N23", "N22", "N32").heroes[0].region == "N32"
    assert error(dwarves, HeroMove(player=1, hero=1, path=["N24", "N19"])) == "BM_E_HERO_MUST_STOP"
    elves = step(("ELF", "ORC"), heroes=[hero(1, 1, "H-ELF")], quests={1: "QA01"})
    assert moved(elves, "N18", "N07", "N02").heroes[0].region == "N02"
    assert error(elves, HeroMove(player=1, hero=1, path=["N18", "N19", "N02"])) == "BM_E_HERO_MUST_STOP"


@pytest.mark.rule("BM-QST-16", "BM-HER-4", "BM-A-17")
def test_enemy_armies_neither_stop_nor_notice_heroes() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA01"}, troops={"N20": {2: {"infantry": 5}}})
    after = moved(state, "N20", "N11", "N04")
    assert after.heroes[0].region == "N04" and after.troops == state.troops
    stay = moved(state, "N20")
    assert stay.controller("N20") == 2 and stay.present("N20") == [2]  # the hero shares the region, controls nothing
    assert stay.controller("N04") is None


@pytest.mark.rule("BM-QST-17")
def test_a_hero_without_a_quest_may_move_home() -> None:
    state = step(heroes=[hero(1, 1, "N11")])
    after, events = run(state, HeroMove(player=1, hero=1, path=["N20", "H-DAQ"]))
    assert after.heroes[0].region == "H-DAQ" and after.quests == {} and "hero_moved" in types(events)


def test_path_errors_come_in_the_validation_order() -> None:
    """BM-VAL-0 and BM-VAL-2: unknown regions first, then a second move, then the walk: void hex or adjacency,
    then the stop the hero should have made, then his allowance."""
    state = step(heroes=[hero(1, 1, "H-DAQ"), hero(1, 2, "N30")], quests={1: "QA01"})
    done = moved(state, "N20")
    assert error(done, HeroMove(player=1, hero=1, path=["N11", "N99"])) == "BM_E_UNKNOWN_REGION"
    assert error(done, HeroMove(player=1, hero=1, path=["N04"])) == "BM_E_HERO_ALREADY_MOVED"
    assert error(state, HeroMove(player=1, hero=2, path=["H-KHR", "N14"])) == "BM_E_VOID_HEX"
    assert error(state, HeroMove(player=1, hero=1, path=["N11"])) == "BM_E_NOT_ADJACENT"
    assert error(state, HeroMove(player=1, hero=1, path=["N12", "N30", "N14", "N15"])) == "BM_E_NOT_ADJACENT"
    assert error(state, HeroMove(player=1, hero=1, path=["N12", "N11", "N04", "N05"])) == "BM_E_HERO_MUST_STOP"
    assert error(state, HeroMove(player=1, hero=1, path=[])) == "BM_E_HERO_PATH_EMPTY"


def test_the_blizzard_closes_the_mountains_to_heroes() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA01"}, effects=Effects(blizzard="no_mountains"))
    assert error(state, HeroMove(player=1, hero=1, path=["N12"])) == "BM_E_HERO_BLIZZARD"
    assert moved(state, "N20").heroes[0].region == "N20"


def test_healing_herbs_and_healing_light_heal_two_up_to_the_maximum() -> None:
    """AC11 and SP01 (W-QUEST): 2 life, capped at 5, or 6 with AR2 (BM-A-36); SP01 costs a Star."""
    state = step(heroes=[hero(1, 1, "N20", life=2)], quests={1: "QA01"}, hands={1: ["AC11", "AC11"]},
                 stars={1: Stars(owned=2), 2: Stars(owned=1)})
    herbs, events = run(state, HealingHerbs(player=1, hero=1))
    assert herbs.heroes[0].life == 4 and types(events)[-2:] == ["card_played", "hero_healed"]
    assert herbs.quest_step.stage == "heroes"  # played in W-PREQUEST, it closed that window first
    twice, _ = run(herbs, HealingHerbs(player=1, hero=1))
    assert twice.heroes[0].life == 5 and twice.hands[1] == []
    light, events = run(herbs, HealingLight(player=1, hero=1))
    assert light.heroes[0].life == 5 and light.stars[1].spent == 1 and events[0].type == "spell_cast"
    assert error(light, HealingLight(player=1, hero=1)) == "BM_E_SPELL_ALREADY_CAST"
    amulet = step(heroes=[hero(1, 1, "N20", life=5)], quests={1: "QA01"}, hands={1: ["AC11"]},
                  artifacts={1: ["AR2"]})
    assert run(amulet, HealingHerbs(player=1, hero=1))[0].heroes[0].life == 6
    assert error(state, HealingHerbs(player=1, hero=3)) == "BM_E_UNKNOWN_HERO"


def test_blink_places_a_hero_anywhere_instead_of_his_move() -> None:
    """SP09 (W-QUEST, 2 Stars): any region of the game, and that is his movement this step."""
    state = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA01"}, stars={1: Stars(owned=3), 2: Stars(owned=1)})
    after, events = run(state, Blink(player=1, hero=1, region="N33"))
    assert after.heroes[0].region == "N33" and after.stars[1].spent == 2
    assert events[-1].type == "hero_moved" and events[-1].blink
    assert error(after, HeroMove(player=1, hero=1, path=["N28"])) == "BM_E_HERO_ALREADY_MOVED"
    assert error(state, Blink(player=1, hero=1, region="H-KHR")) == "BM_E_VOID_HEX"
    assert error(state, Blink(player=1, hero=1, region="N77")) == "BM_E_UNKNOWN_REGION"
    walked = moved(state, "N20")
    assert error(walked, Blink(player=1, hero=1, region="N33")) == "BM_E_HERO_ALREADY_MOVED"
    poor = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA01"})
    assert error(poor, Blink(player=1, hero=1, region="N33")) == "BM_E_NOT_ENOUGH_STAR_POWER"
    into, events = run(step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA06"}, quest_deck=["AR5"],
                            stars={1: Stars(owned=2), 2: Stars(owned=1)}), Blink(player=1, hero=1, region="N07"))
    assert "quest_completed" in types(events) and into.artifacts == {1: ["AR5"]}


@pytest.mark.rule("BM-HER-3")
def test_a_quest_command_from_another_player_in_the_individual_phase_is_not_his_turn() -> None:
    """BM-VAL-4 through the one `apply`: a hero move by anyone but the active player during the Individual phase
    is BM_E_NOT_YOUR_TURN, whichever step the active player is in (as a move order, reference ruling 3); the
    active player's own hero move outside his quest step stays BM_E_WRONG_PHASE."""
    quest = step(heroes=[hero(1, 1, "H-DAQ"), hero(2, 1, "H-ORC")], troops={"H-ORC": {2: {"infantry": 2}}})
    moving = position(phase=Phase.MOVEMENT, heroes=[hero(1, 1, "H-DAQ"), hero(2, 1, "H-ORC")],
                      movement=MoveStep(player=1))
    for state in (quest, moving):
        with pytest.raises(RuleError) as err:
            apply(state, HeroMove(player=2, hero=1, path=["N30"]))
        assert err.value.code == "BM_E_NOT_YOUR_TURN"
    with pytest.raises(RuleError) as err:
        apply(quest, Move(player=2, n=1, unit="infantry", origin="H-ORC", path=("N30",)))
    assert err.value.code == "BM_E_NOT_YOUR_TURN"
    with pytest.raises(RuleError) as err:
        apply(moving, HeroMove(player=1, hero=1, path=["N20"]))
    assert err.value.code == "BM_E_WRONG_PHASE"
