"""Quest completion, encounters, the next quest card, hero death and duels (engine/games/battlemist/quest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Action, from_json, to_json
from engine.core.rng import Rng
from engine.core.turns import Resign
from engine.games.battlemist import commands
from engine.games.battlemist.data import load
from engine.games.battlemist.pieces import Stars
from engine.games.battlemist.position import check_position
from engine.games.battlemist.quest import (
    Blink,
    DuelHero,
    EncounterHero,
    EncounterTarget,
    EndHeroes,
    EndQuest,
    GreatHaste,
    HealingHerbs,
    HealingLight,
    HeroMove,
    InspiredHero,
    QuestPass,
    pending_quest,
    timeout_quest,
)
from engine.games.battlemist.quest_cards import STAR, first_quests, new_quest_deck
from engine.games.battlemist.quest_state import Duel
from engine.games.battlemist.rules import apply
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.helpers import position, snapshot
from tests.engine.battlemist.quest_helpers import hero, run, step, types


def error(state: BMState, *actions: Action) -> str:
    with pytest.raises(RuleError) as err:
        run(state, *actions)
    assert err.value.message != err.value.code
    return err.value.code


def go(*path: str, number: int = 1) -> HeroMove:
    return HeroMove(player=1, hero=number, path=list(path))


@pytest.mark.rule("BM-QST-6", "BM-QST-8", "BM-A-40", "BM-QST-4")
def test_a_move_ending_in_the_target_completes_at_once_and_the_next_card_follows() -> None:
    before = step(heroes=[hero(1, 1, "H-DAQ"), hero(1, 2, "H-DAQ")], quests={1: "QA10"}, quest_deck=["STAR", "QA11"])
    original = snapshot(before)
    after, events = run(before, go("N20", "N11", number=2))
    assert types(events)[-3:] == ["hero_moved", "quest_completed", "star_found"]
    done = events[-2]
    assert done.private_to is None and (done.adventure, done.target) == ("QA10", "N11")  # revealed (BM-QST-3)
    assert after.quests == {} and after.stars[1] == Stars(owned=2, spent=1) and after.star_pool == before.star_pool - 1
    assert after.quest_discard == ["QA10", STAR] and after.quest_deck == ["QA11"]
    assert snapshot(before) == original
    later, _ = run(after, go("N20", number=1))  # heroes that have not moved may move afterwards
    assert later.hero(1, 1).region == "N20"


@pytest.mark.rule("BM-A-15")
def test_passing_through_the_target_does_not_complete_but_stopping_early_does() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA19"}, quest_deck=["STAR"])
    through, events = run(state, go("N20", "N11"))
    assert through.quests == {1: "QA19"} and "quest_completed" not in types(events)
    early, events = run(state, go("N20"))
    assert early.quests == {} and "quest_completed" in types(events)


@pytest.mark.rule("BM-QST-6", "BM-QST-4")
def test_a_hero_standing_in_the_target_completes_when_hero_movement_ends() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ"), hero(1, 2, "N20")], quests={1: "QA19"}, quest_deck=["AR6"])
    moving, events = run(state, go("N31"))
    assert moving.quests == {1: "QA19"} and "quest_completed" not in types(events)
    after, events = run(moving, EndHeroes(player=1))
    assert types(events)[:2] == ["quest_completed", "artifact_found"] and after.artifacts == {1: ["AR6"]}
    assert after.quest_step is None and events[-1].type == "quest_step_ended"  # no duel possible: the step ends


@pytest.mark.rule("BM-QST-8", "BM-A-40")
def test_an_adventure_drawn_after_completion_waits_for_the_next_round() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ"), hero(1, 2, "N20")], quests={1: "QA10"}, quest_deck=["QA19"])
    after, events = run(state, go("N20", "N11"))
    assert after.quests == {1: "QA19"} and events[-2].type == "quest_drawn" and events[-2].private_to == 1
    ended, events = run(after, EndHeroes(player=1))  # hero 2 stands in the new target: no second completion
    assert ended.quests == {1: "QA19"} and "quest_completed" not in types(events)


@pytest.mark.rule("BM-A-21")
def test_a_star_card_with_an_empty_pool_gives_nothing_but_ends_the_quest() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA19"}, quest_deck=["STAR"], star_pool=0)
    after, events = run(state, go("N20"))
    assert events[-1].type == "star_found" and not events[-1].gained
    assert after.stars[1] == Stars(owned=1) and after.star_pool == 0 and after.quests == {}


@pytest.mark.rule("BM-ART-1", "BM-QST-8")
def test_an_artifact_is_kept_face_up_and_never_returns() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA19"}, quest_deck=["AR1"])
    after, events = run(state, go("N20"))
    assert after.artifacts == {1: ["AR1"]} and events[-1].private_to is None
    assert after.quest_deck == [] and after.quest_discard == ["QA19"] and after.quests == {}


@pytest.mark.rule("BM-QST-9")
def test_an_empty_quest_deck_is_rebuilt_from_the_discards() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA19"}, quest_deck=[], quest_discard=["STAR"])
    after, events = run(state, go("N20"))
    rebuilt = next(e for e in events if e.type == "quest_deck_rebuilt")
    assert rebuilt.cards == 2  # the used Star and the adventure just completed
    assert sorted([*after.quest_deck, *after.quest_discard, *after.quests.values()]) == ["QA19", "STAR"]


def test_without_any_adventure_left_no_quest_starts() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ")], quest_deck=["AR1", "STAR"])
    after, events = run(state, QuestPass(player=1))
    assert after.quests == {} and sorted(after.quest_deck) == ["AR1", "STAR"] and "quest_drawn" not in types(events)


def ghoul(**fields: Any) -> BMState:
    """Player 1's hero 1 at home (unless `heroes` says otherwise), quest QA30 (Mistwood N31: a Ghoul 2L 1A 6H 1D)."""
    return step(**{"heroes": [hero(1, 1, "H-DAQ")], "quests": {1: "QA30"}, "quest_deck": ["AR4"], **fields})


@pytest.mark.rule("BM-QST-7", "BM-DIE-2", "BM-HER-2")
def test_an_encounter_monsters_strike_first_then_the_hero_until_one_side_is_dead() -> None:
    state, events = run(ghoul(dice=[6, 4, 2, 5, 1, 9]), go("N31"))
    assert types(events)[-2:] == ["quest_completed", "encounter_started"]
    assert [d.kind for d in pending_quest(state)] == ["bm_encounter_window"]
    after, events = run(state, QuestPass(player=1))
    strikes = [(e.type, getattr(e, "rolls", None)) for e in events if e.type in ("foes_strike", "hero_strikes")]
    assert strikes == [("foes_strike", [[6]]), ("hero_strikes", [4]), ("foes_strike", [[2]]),
                       ("hero_strikes", [5]), ("foes_strike", [[1]]), ("hero_strikes", [9])]
    assert [e.need for e in events if e.type == "hero_strikes"] == [5, 5, 5]  # base profile: 5+ hits, 4 misses
    assert after.hero(1, 1).life == 4 and after.artifacts == {1: ["AR4"]} and after.quests == {}
    assert types(events)[-2:] == ["encounter_won", "artifact_found"] and after.quest_step.stage == "heroes"


def test_inspired_hero_and_the_blade_make_the_hero_hit_on_four_without_stacking() -> None:
    """AC10 (W-ENCOUNTER) and AR1: 4+; together still 4+ (BM-HER-14)."""
    state, _ = run(ghoul(dice=[1, 4, 1, 4], hands={1: ["AC10"]}), go("N31"))
    after, events = run(state, InspiredHero(player=1))
    assert types(events)[:2] == ["card_played", "foes_strike"] and after.quests == {}
    assert [e.need for e in events if e.type == "hero_strikes"] == [4, 4]
    both, _ = run(ghoul(dice=[1, 3, 1, 4, 1, 4], hands={1: ["AC10"]}, artifacts={1: ["AR1"]}), go("N31"))
    after, events = run(both, InspiredHero(player=1))
    assert [e.foe_life for e in events if e.type == "hero_strikes"] == [2, 1, 0]
    assert error(step(heroes=[hero(1, 1, "H-DAQ")], hands={1: ["AC10"]}), InspiredHero(player=1)) == \
        "BM_E_CARD_WINDOW"


@pytest.mark.rule("BM-WIN-1", "BM-QST-7")
def test_quest_cards_and_spells_wait_while_an_encounter_or_a_duel_is_fought() -> None:
    """An encounter is resolved at once (BM-QST-6): only W-ENCOUNTER opens in it, so W-QUEST and W-PREQUEST plays
    are outside their window there (BM_E_CARD_WINDOW, BM_E_SPELL_WINDOW), before and after the blows begin."""
    rich = {"hands": {1: ["AC01", "AC11"]}, "stars": {1: Stars(owned=3), 2: Stars(owned=1)}}
    heroes = [hero(1, 1, "N12", life=3), hero(1, 2, "N12", life=3)]
    bandits = step(heroes=heroes, quests={1: "QA12"}, quest_deck=["STAR"], dice=[3, 4, 9, 2, 9], **rich)
    window, _ = run(bandits, go("N13"))
    striking, _ = run(window, QuestPass(player=1))
    duel = step(heroes=[hero(1, 1, "N11", life=3), hero(2, 1, "N11")], quests={1: "QA01"}, **rich)
    duel, _ = run(duel, EndHeroes(player=1), DuelHero(player=1, hero=1, defender=2, target=1))
    for state in (window, striking, duel):
        assert error(state, HealingHerbs(player=1, hero=1)) == "BM_E_CARD_WINDOW"
        assert error(state, HealingLight(player=1, hero=1)) == "BM_E_SPELL_WINDOW"
        assert error(state, GreatHaste(player=1, hero=2)) == "BM_E_CARD_WINDOW"
    assert error(striking, Blink(player=1, hero=2, region="N20")) == "BM_E_SPELL_WINDOW"
    healed, _ = run(striking, EncounterTarget(player=1, foe=0), HealingHerbs(player=1, hero=1))
    assert healed.quest_step.stage == "heroes" and healed.hero(1, 1).life == 5  # back in W-QUEST


@pytest.mark.rule("BM-QST-7")
def test_with_several_monsters_the_player_picks_each_blow_and_the_timeout_takes_the_first() -> None:
    """QA12, Briar Wood N13: 2 Bandits 1L 1A 5H 1D."""
    state = step(heroes=[hero(1, 1, "N12")], quests={1: "QA12"}, quest_deck=["STAR"], dice=[3, 4, 7, 1, 2, 1, 8])
    state, _ = run(state, go("N13"), QuestPass(player=1))
    decision = pending_quest(state)[0]
    assert decision.kind == "bm_encounter_target" and [f["foe"] for f in decision.detail["foes"]] == [0, 1]
    assert error(state, EncounterTarget(player=1, foe=2)) == "BM_E_ENCOUNTER_TARGET"
    after, events = run(state, EncounterTarget(player=1, foe=1))
    assert [e.foe for e in events if e.type == "hero_strikes"] == [1, 0, 0]  # the last one is struck unasked
    assert after.quests == {} and after.stars[1].owned == 2
    assert timeout_quest(state, 1) == EncounterTarget(player=1, foe=0)


@pytest.mark.rule("BM-QST-7")
def test_the_monster_refused_is_named_with_the_number_the_player_typed() -> None:
    """`/bm quest target` counts the monsters from 1, as the panels list them; so does its error."""
    state = step(heroes=[hero(1, 1, "N12")], quests={1: "QA12"}, quest_deck=["STAR"], dice=[3, 4])
    state, _ = run(state, go("N13"), QuestPass(player=1))
    assert commands.quest_target(state, 1, 2) == EncounterTarget(player=1, foe=1)
    with pytest.raises(RuleError) as err:
        run(state, commands.quest_target(state, 1, 3))
    assert err.value.code == "BM_E_ENCOUNTER_TARGET" and "monster 3 " in err.value.message


@pytest.mark.rule("BM-QST-7")
def test_the_stand_in_sends_the_lowest_numbered_hero_in_the_target() -> None:
    """Reference ruling 29 (BM-DIG-19): the arriving hero or the board's listing order does not matter."""
    arriving, _ = run(ghoul(heroes=[hero(1, 2, "H-DAQ"), hero(1, 1, "N31")]), go("N31", number=2))
    assert pending_quest(arriving)[0].detail["heroes"] == [1, 2]
    assert timeout_quest(arriving, 1) == EncounterHero(player=1, hero=1)
    standing, _ = run(ghoul(heroes=[hero(1, 3, "N31"), hero(1, 1, "N31")]), EndHeroes(player=1))
    assert timeout_quest(standing, 1) == EncounterHero(player=1, hero=1)


@pytest.mark.rule("BM-QST-7", "BM-QST-18")
def test_with_several_heroes_in_the_target_the_player_picks_who_fights_and_he_moves_no_more() -> None:
    state = ghoul(heroes=[hero(1, 1, "H-DAQ"), hero(1, 2, "N31")], dice=[1, 9, 1, 9])
    state, _ = run(state, go("N31"))
    assert pending_quest(state)[0].kind == "bm_encounter_hero" and pending_quest(state)[0].detail["heroes"] == [1, 2]
    assert timeout_quest(state, 1) == EncounterHero(player=1, hero=1)  # the lowest-numbered (ruling 29)
    assert error(state, EncounterHero(player=1, hero=3)) == "BM_E_UNKNOWN_HERO"
    after, _ = run(state, EncounterHero(player=1, hero=2), QuestPass(player=1))
    assert after.quests == {} and after.quest_step.moved == (1, 2)
    with pytest.raises(RuleError) as err:
        run(after, go("N13", number=2))
    assert err.value.code == "BM_E_HERO_ALREADY_MOVED"


@pytest.mark.rule("BM-HER-15", "BM-HER-16", "BM-A-25")
def test_a_hero_killed_in_an_encounter_is_removed_and_the_quest_discarded() -> None:
    """QA20, Frostcrown N21: a Basilisk 2L 1A 8H 3D."""
    state = step(heroes=[hero(1, 1, "N20", life=3), hero(1, 2, "H-DAQ")], quests={1: "QA20"}, dice=[8])
    after, events = run(state, go("N21"), QuestPass(player=1))
    assert types(events)[-3:] == ["foes_strike", "hero_died", "quest_lost"]
    assert [h.number for h in after.heroes] == [2] and after.quests == {} and after.quest_discard == ["QA20"]
    assert not hasattr(events[-1], "adventure")  # the lost quest stays secret
    assert after.quest_step.stage == "heroes"  # the others may still move
    assert after.quest_step.moved == ()  # the step names living heroes only, so the position stays valid
    check_position(after)


def duellists(life: int = 5, **fields: Any) -> BMState:
    """Player 1 (DAQ) with hero 1 in N11, player 2 (ORC) with heroes 1 and 2 there, at the end of hero movement."""
    heroes = [hero(1, 1, "N11", life), hero(2, 1, "N11", life), hero(2, 2, "N11", life)]
    state = step(heroes=heroes, quests={1: "QA01", 2: "QA05"}, **fields)
    after, _ = run(state, EndHeroes(player=1))
    return after


@pytest.mark.rule("BM-HER-12", "BM-HER-13", "BM-A-16", "BM-HER-15")
def test_a_duel_gives_both_the_window_attacker_first_and_the_defender_strikes_first() -> None:
    state = duellists(life=2, dice=[5, 6, 2, 7])
    assert state.quest_step.stage == "duels" and pending_quest(state)[0].detail["duels"] == [
        {"hero": 1, "defender": 2, "target": 1}, {"hero": 1, "defender": 2, "target": 2}]
    declared, _ = run(state, DuelHero(player=1, hero=1, defender=2, target=2))
    assert [(d.player, d.kind) for d in pending_quest(declared)] == [(1, "bm_duel_window")]
    assert error(declared, QuestPass(player=2)) == "BM_E_NOT_YOUR_TURN"
    half, _ = run(declared, QuestPass(player=1))
    assert [(d.player, d.kind) for d in pending_quest(half)] == [(2, "bm_duel_window")]
    after, events = run(half, QuestPass(player=2))
    blows = [(e.player, e.rolls, e.life) for e in events if e.type == "duel_strike"]
    assert blows == [(2, [5], 1), (1, [6], 1), (2, [2], 1), (1, [7], 0)]  # the defender strikes first
    assert after.hero(2, 2) is None and after.quests == {1: "QA01"} and after.quest_discard == ["QA05"]
    assert after.hero(1, 1).life == 1 and after.hero(2, 1) is not None
    assert after.quest_step is None  # hero 1 duelled already: no duel is left, the step ends


@pytest.mark.rule("BM-HER-14", "BM-A-37", "BM-HER-15", "BM-HER-16")
def test_duellists_use_the_base_profile_with_their_owners_modifiers_to_the_death() -> None:
    heroes = [hero(1, 1, "N11", life=1), hero(2, 1, "N11", life=1)]
    base = step(heroes=heroes, quests={1: "QA01", 2: "QA05"}, dice=[4, 5])
    state, _ = run(base, EndHeroes(player=1), DuelHero(player=1, hero=1, defender=2, target=1),
                   QuestPass(player=1), QuestPass(player=2))
    assert state.hero(2, 1) is None and state.hero(1, 1) is not None  # 4s miss; the attacker's 5 kills
    assert state.quests == {1: "QA01"} and state.quest_discard == ["QA05"]  # the loser's quest is discarded
    assert state.quest_step is None  # no other duel is possible: the step is over
    inspired = step(heroes=heroes, quests={1: "QA01", 2: "QA05"}, dice=[4], hands={2: ["AC10"]})
    state, events = run(inspired, EndHeroes(player=1), DuelHero(player=1, hero=1, defender=2, target=1),
                        QuestPass(player=1), InspiredHero(player=2))
    assert state.hero(1, 1) is None and state.quests == {2: "QA05"} and "card_played" in types(events)
    blade = step(heroes=heroes, quests={1: "QA01"}, dice=[1, 4], artifacts={1: ["AR1"]})
    state, _ = run(blade, EndHeroes(player=1), DuelHero(player=1, hero=1, defender=2, target=1),
                   QuestPass(player=1), QuestPass(player=2))
    assert state.hero(2, 1) is None


@pytest.mark.rule("BM-HER-15", "BM-HER-16")
def test_a_challenger_who_dies_leaves_the_step_naming_living_heroes_only() -> None:
    heroes = [hero(1, 1, "N20", life=1), hero(1, 2, "N11"), hero(2, 1, "N11"), hero(2, 2, "N11")]
    state = step(heroes=heroes, quests={1: "QA01"}, dice=[9])
    after, _ = run(state, go("N11"), EndHeroes(player=1), DuelHero(player=1, hero=1, defender=2, target=1),
                   QuestPass(player=1), QuestPass(player=2))
    assert after.hero(1, 1) is None and after.quest_step.stage == "duels" and after.quest_step.moved == ()
    assert pending_quest(after)[0].detail["duels"] == [{"hero": 2, "defender": 2, "target": 2}]
    check_position(after)


@pytest.mark.rule("BM-HER-12", "BM-QST-13", "BM-QST-6")
def test_a_duel_or_the_steps_end_given_during_hero_movement_ends_it_first() -> None:
    """As `/bm quest done` then the duel: a hero standing in the target completes the quest on the way."""
    heroes = [hero(1, 1, "N20"), hero(1, 2, "N20"), hero(2, 1, "N11")]
    state = step(heroes=heroes, quests={1: "QA19"}, quest_deck=["AR5"])
    after, events = run(state, go("N11"), DuelHero(player=1, hero=1, defender=2, target=1))
    assert types(events)[-3:] == ["quest_completed", "artifact_found", "duel_declared"]  # hero 2 stands in N20
    assert after.quest_step.fight == Duel(attacker=(1, 1), defender=(2, 1), waiting=(1, 2))
    ended, events = run(state, EndQuest(player=1))
    assert ended.quest_step is None and types(events)[-1] == "quest_step_ended"
    encounter = ghoul(heroes=[hero(1, 1, "N31"), hero(2, 1, "N31")])
    assert error(encounter, DuelHero(player=1, hero=1, defender=2, target=1)) == "BM_E_WRONG_PHASE"
    fighting, events = run(encounter, EndQuest(player=1))
    assert types(events)[-1] == "encounter_started" and fighting.quest_step.stage == "fight"


@pytest.mark.rule("BM-HER-12", "BM-A-41")
def test_each_hero_fights_one_duel_per_step_and_only_another_race_in_his_region() -> None:
    state = duellists(dice=[1, 9, 1, 9, 1, 9, 1, 9, 1, 9])
    after, _ = run(state, DuelHero(player=1, hero=1, defender=2, target=1), QuestPass(player=1), QuestPass(player=2))
    assert after.hero(2, 1) is None and after.quest_step is None  # hero 1 duelled: nothing left to declare
    assert error(state, DuelHero(player=1, hero=1, defender=2, target=3)) == "BM_E_DUEL_INVALID"
    apart = step(heroes=[hero(1, 1, "N11"), hero(2, 1, "N20"), hero(2, 2, "N11")], quests={1: "QA01"})
    apart, _ = run(apart, EndHeroes(player=1))
    with pytest.raises(RuleError) as err:
        run(apart, DuelHero(player=1, hero=1, defender=2, target=1))
    assert err.value.code == "BM_E_DUEL_INVALID" and "P2's hero 1" in err.value.message
    own = step(heroes=[hero(1, 1, "N11"), hero(1, 2, "N11"), hero(2, 1, "N11")], quests={1: "QA01"})
    own, _ = run(own, EndHeroes(player=1))
    assert error(own, DuelHero(player=1, hero=1, defender=1, target=2)) == "BM_E_DUEL_INVALID"
    assert error(own, DuelHero(player=1, hero=5, defender=2, target=1)) == "BM_E_UNKNOWN_HERO"
    early = step(heroes=[hero(1, 1, "N11"), hero(2, 1, "N11")], quests={1: "QA01"})
    assert run(early, DuelHero(player=1, hero=1, defender=2, target=1))[0].quest_step.stage == "fight"
    ended, events = run(own, EndQuest(player=1))
    assert ended.quest_step is None and events[-1].type == "quest_step_ended"


def test_the_timeout_moves_no_hero_and_declares_no_duel() -> None:
    """BM-DIG-19 for the quest step: windows pass, hero movement ends, no duels."""
    fresh = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA01"})
    assert timeout_quest(fresh, 1) == EndHeroes(player=1)
    state = duellists()
    assert timeout_quest(state, 1) == EndQuest(player=1)
    declared, _ = run(state, DuelHero(player=1, hero=1, defender=2, target=1))
    assert timeout_quest(declared, 1) == QuestPass(player=1)
    encounter, _ = run(ghoul(), go("N31"))
    assert timeout_quest(encounter, 1) == QuestPass(player=1)


@pytest.mark.rule("BM-SET-8", "BM-QST-2")
def test_first_quests_each_player_draws_until_an_adventure() -> None:
    state = position(("DAQ", "ORC", "ELF"), quest_deck=["AR2", "QA03", "STAR", "AR1", "QA07", "QA09", "QA10"])
    events = first_quests(state, Rng(state.rng))
    assert state.quests == {1: "QA03", 2: "QA07", 3: "QA09"}
    assert sorted(state.quest_deck) == ["AR1", "AR2", "QA10", "STAR"] and state.artifacts == {}
    assert [e.private_to for e in events if e.type == "quest_drawn"] == [1, 2, 3]


@pytest.mark.rule("BM-QST-10", "BM-QST-11", "BM-QST-12")
def test_the_quest_deck_holds_30_adventures_12_stars_and_6_artifacts() -> None:
    deck = new_quest_deck(Rng(position().rng))
    data = load().quests
    assert len(deck) == 48 and deck.count(STAR) == 12 and sorted(c for c in deck if c.startswith("AR")) == [
        f"AR{k}" for k in range(1, 7)]
    targets = {a.id: a.target for a in data.adventures}
    assert len(targets) == 30 and set(load().map.neutral) - set(targets.values()) == {"N04", "N32", "N33"}
    assert all(targets[f"QA{k:02}"] == (f"N{k:02}" if k <= 3 else f"N{k + 1:02}") for k in range(1, 31))
    fights = {a.target for a in data.adventures if a.encounter}
    assert fights == {"N23", "N13", "N14", "N06", "N28", "N09", "N19", "N31", "N21", "N16", "N26", "N01"}
    dragon = data.adventure["QA01"].encounter
    assert [(f.name, f.count, f.life, f.attacks, f.hit, f.damage) for f in dragon] == [("Young Dragon", 1, 4, 2, 6, 2)]


@pytest.mark.rule("BM-ART-2")
def test_the_unique_artifacts_and_their_hero_effects() -> None:
    artifacts = load().cards.artifact
    assert [a.name for a in artifacts.values()] == ["Blade of Dawn", "Amulet of Vigor", "Boots of Striding",
                                                    "War Horn", "Seal of the Council", "Merchant's Ledger"]
    assert (artifacts["AR1"].hero_hit, artifacts["AR2"].hero_life, artifacts["AR3"].hero_move) == (4, 6, 4)


def test_a_quest_step_in_progress_survives_the_json_position_format() -> None:
    duel, _ = run(duellists(), DuelHero(player=1, hero=1, defender=2, target=1))
    encounter, _ = run(step(heroes=[hero(1, 1, "N12")], quests={1: "QA12"}), go("N13"))
    for state in (duel, encounter):
        assert from_json(BMState, to_json(state)) == state
    assert pending_quest(position()) == []


@pytest.mark.rule("BM-HER-12", "BM-A-41")
def test_a_duel_against_a_player_who_leaves_is_called_off_and_the_step_goes_on() -> None:
    """Reference ruling 32: his heroes leave the table, so the duel declared against one of them is not fought;
    the attacker has fought none and may still duel another hero, or the step ends when none is left."""
    heroes = [hero(1, 1, "N11"), hero(2, 1, "N11"), hero(3, 1, "N11")]
    state = step(("DAQ", "ORC", "ELF"), heroes=heroes, quests={1: "QA01", 2: "QA05"})
    declared, _ = run(state, EndHeroes(player=1), DuelHero(player=1, hero=1, defender=2, target=1))
    half, _ = run(declared, QuestPass(player=1))
    for waiting in (declared, half):
        after, _ = apply(waiting, Resign(player=2))
        assert after.quest_step.stage == "duels" and after.quest_step.fight is None and after.hero(1, 1).life == 5
        assert pending_quest(after)[0].detail["duels"] == [{"hero": 1, "defender": 3, "target": 1}]
        check_position(after)
    alone = step(("DAQ", "ORC", "ELF"), heroes=heroes[:2], quests={1: "QA01"})
    alone, _ = run(alone, EndHeroes(player=1), DuelHero(player=1, hero=1, defender=2, target=1))
    after, events = apply(alone, Resign(player=2))
    assert after.quest_step is None and after.phase is Phase.MOVEMENT and "quest_step_ended" in types(events)
