"""Cards and spells in their windows: the shared checks and payments (engine/games/battlemist/windows.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Action, Event, copier, from_json, to_json
from engine.core.rng import Rng
from engine.games.battlemist import combat as C
from engine.games.battlemist import commands, movement, rules, ruleset, windows
from engine.games.battlemist import quest as QU
from engine.games.battlemist import text as T
from engine.games.battlemist.data import load
from engine.games.battlemist.pieces import Effects, Stars
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.combat_kit import acts, battle, combat, passes
from tests.engine.battlemist.helpers import position, snapshot
from tests.engine.battlemist.quest_helpers import run as quest_run
from tests.engine.battlemist.quest_helpers import step

copy = copier(BMState)


def code(err: pytest.ExceptionInfo[RuleError]) -> str:
    return err.value.code


@pytest.mark.rule("BM-ACT-1")
def test_a_card_is_played_only_in_its_window_and_goes_to_the_discards() -> None:
    before = position(hands={1: ["AC02", "AC05"]})
    original = snapshot(before)
    state = copy(before)
    card, events = windows.play(state, 1, "AC02", "movestart")
    assert card.name == "Forced March" and state.hands[1] == ["AC05"] and state.discard == ["AC02"]
    assert [(e.type, e.card) for e in events] == [("card_played", "AC02")]
    assert snapshot(before) == original  # the given position is untouched
    with pytest.raises(RuleError) as err:
        windows.play(copy(before), 1, "AC05", "movestart")
    assert code(err) == "BM_E_CARD_WINDOW" and "W-RALLY" in err.value.message


def test_a_card_not_held_is_refused_before_its_window() -> None:
    with pytest.raises(RuleError) as err:
        windows.play(position(hands={1: []}), 1, "AC05", "movestart")
    assert code(err) == "BM_E_CARD_NOT_IN_HAND" and "Rally the Troops (AC05)" in err.value.message


@pytest.mark.rule("BM-ACT-5")
def test_a_card_may_be_discarded_at_any_time() -> None:
    state = copy(position(hands={1: ["AC04"]}))
    assert [e.type for e in windows.discard(state, 1, "AC04")] == ["card_discarded"]
    assert state.hands[1] == [] and state.discard == ["AC04"]
    with pytest.raises(RuleError) as err:
        windows.discard(state, 1, "AC04")
    assert code(err) == "BM_E_CARD_NOT_IN_HAND"


@pytest.mark.rule("BM-MAG-1", "BM-MAG-2", "BM-STAR-3")
def test_a_spell_spends_unspent_stars_for_good() -> None:
    before = position(stars={1: Stars(owned=3, spent=1), 2: Stars(owned=1)})
    state = copy(before)
    spell, events = windows.cast(state, 1, "SP05", "battlestart", "r1:battle:N05")
    assert spell.name == "Fireball" and state.stars[1] == Stars(owned=3, spent=3) and state.stars[1].power == 0
    assert [(e.type, e.spell, e.cost) for e in events] == [("spell_cast", "SP05", 2)]
    assert before.stars[1] == Stars(owned=3, spent=1)
    with pytest.raises(RuleError) as err:
        windows.cast(state, 1, "SP02", "movestart", "r1:move:1")
    assert code(err) == "BM_E_NOT_ENOUGH_STAR_POWER" and "1 star power; you have 0" in err.value.message


@pytest.mark.rule("BM-SPL-1")
def test_different_spells_in_one_window_but_each_once() -> None:
    state = copy(position(stars={1: Stars(owned=6), 2: Stars(owned=1)}))
    windows.cast(state, 1, "SP05", "battlestart", "r1:battle:N05")
    windows.cast(state, 1, "SP07", "battlestart", "r1:battle:N05")
    with pytest.raises(RuleError) as err:
        windows.cast(state, 1, "SP05", "battlestart", "r1:battle:N05")
    assert code(err) == "BM_E_SPELL_ALREADY_CAST"
    windows.cast(state, 1, "SP06", "battlestart", "r1:battle:N06")  # another battle is another window
    assert state.stars[1].spent == 6 and state.cast[1] == ["r1:battle:N05:SP05", "r1:battle:N05:SP07",
                                                                "r1:battle:N06:SP06"]


@pytest.mark.rule("BM-SPL-2")
def test_a_spell_is_announced_with_its_cost() -> None:
    state = copy(position(stars={1: Stars(owned=2), 2: Stars(owned=1)}))
    _, events = windows.cast(state, 1, "SP08", "individual", "r1:turn:1")
    assert events[0].private_to is None and events[0].spell == "SP08"  # that Far Sight is cast is public


@pytest.mark.rule("BM-MAG-3")
def test_mana_storm_raises_costs_or_forbids_casting() -> None:
    state = copy(position(stars={1: Stars(owned=2), 2: Stars(owned=1)}, effects=Effects(mana_storm="costly")))
    _, events = windows.cast(state, 1, "SP04", "rally", "r1:battle:N05")
    assert events[0].cost == 2 and state.stars[1].power == 0
    forbidden = position(stars={1: Stars(owned=5), 2: Stars(owned=1)}, effects=Effects(mana_storm="none"))
    with pytest.raises(RuleError) as err:
        windows.cast(copy(forbidden), 1, "SP04", "rally", "r1:battle:N05")
    assert code(err) == "BM_E_SPELLS_FORBIDDEN"


def test_spell_checks_run_in_the_validation_order() -> None:
    """BM-VAL-0: existence, then window, then once per window, then cost."""
    poor = position(stars={1: Stars(owned=1, spent=1), 2: Stars(owned=1)}, cast={1: ["r1:battle:N05:SP05"]})
    for spell, window, expected in [("SP99", "battlestart", "BM_E_UNKNOWN_SPELL"),
                                    ("SP05", "rally", "BM_E_SPELL_WINDOW"),
                                    ("SP05", "battlestart", "BM_E_SPELL_ALREADY_CAST"),
                                    ("SP07", "battlestart", "BM_E_NOT_ENOUGH_STAR_POWER")]:
        with pytest.raises(RuleError) as err:
            windows.cast(copy(poor), 1, spell, window, "r1:battle:N05")
        assert code(err) == expected, spell


# ---------------------------------------------------------------- W-INDIVIDUAL: Spy and Far Sight


def _apply(state: BMState, action: Action) -> tuple[BMState, list[Event]]:
    before = snapshot(state)
    after, events = rules.apply(state, action)
    assert snapshot(state) == before
    return after, events


def _refused(state: BMState, action: Action) -> RuleError:
    with pytest.raises(RuleError) as err:
        rules.apply(state, action)
    return err.value


def _movement(**fields: Any) -> BMState:
    state = position(("DAQ", "ORC", "ELF"), troops={"N20": {1: {"infantry": 2}}}, **fields)
    movement.begin_movement(state, Rng(state.rng))
    return state


SECRETS: dict[str, Any] = {"hands": {1: ["AC15", "AC02"], 2: ["AC04", "AC10"], 3: ["AC07"]},
                           "quests": {2: "QA01", 3: "QA05"}}


@pytest.mark.rule("BM-ACT-8", "BM-DIG-1", "BM-ACT-3")
def test_spy_shows_its_player_alone_one_players_hand_and_current_quest() -> None:
    state = _movement(**SECRETS)
    after, events = _apply(state, windows.IndividualPlay(player=1, card="AC15", target=2))
    assert after.hands[1] == ["AC02"] and after.discard == ["AC15"]
    assert [(e.type, e.private_to) for e in events] == [("card_played", None), ("player_spied", None),
                                                         ("spy_report", 1)]
    spied, report = events[1], events[2]
    assert (spied.player, spied.target, spied.source) == (1, 2, "AC15")  # type: ignore[attr-defined]
    assert (report.hand, report.quest) == (["AC04", "AC10"], "QA01")  # type: ignore[attr-defined]
    assert after.sightings == {1: [windows.Sighting(target=2, source="AC15", round=1, hand=("AC04", "AC10"),
                                                    quest="QA01")]}
    assert after.hands[2] == ["AC04", "AC10"] and after.quests[2] == "QA01"  # nothing of P2's changes
    assert ruleset.view(after, 1).sightings == after.sightings
    for viewer in (2, 3, None):
        assert ruleset.view(after, viewer).sightings == {}, viewer
    assert T.narrate(spied, after) == "🕵️ P1 looks at P2's hand and quest card (Spy)."
    assert T.narrate(report, after) is None
    assert T.private(report, after) == ("🕵️ P2's hand (Spy, round 1): Ambush and Inspired Hero; quest QA01, "
                                        "reach N01 Godstone Mountains.")
    assert from_json(BMState, to_json(after)) == after


@pytest.mark.rule("BM-SPL-3", "BM-SPL-1", "BM-SPL-2", "BM-MAG-2")
def test_far_sight_costs_a_star_and_is_cast_once_per_turn() -> None:
    state = _movement(stars={1: Stars(owned=3), 2: Stars(owned=1), 3: Stars(owned=1)}, **SECRETS)
    after, events = _apply(state, windows.IndividualCast(player=1, spell="SP08", target=3))
    assert [(e.type, e.private_to) for e in events] == [("spell_cast", None), ("player_spied", None),
                                                         ("spy_report", 1)]
    assert after.stars[1] == Stars(owned=3, spent=1)
    assert after.sightings[1] == [windows.Sighting(target=3, source="SP08", round=1, hand=("AC07",), quest="QA05")]
    err = _refused(after, windows.IndividualCast(player=1, spell="SP08", target=2))
    assert err.code == "BM_E_SPELL_ALREADY_CAST" and err.message == "You already cast Far Sight in this turn."
    later, _ = _apply(after, windows.IndividualPlay(player=1, card="AC15", target=3))  # a card: no such limit
    assert later.sightings[1] == [windows.Sighting(target=3, source="AC15", round=1, hand=("AC07",), quest="QA05")]
    assert _refused(later, windows.IndividualPlay(player=1, card="AC15", target=2)).code == "BM_E_CARD_NOT_IN_HAND"


@pytest.mark.rule("BM-WIN-1")
def test_w_individual_is_open_at_any_time_in_the_players_own_turn() -> None:
    """His quest step (W-PREQUEST still open, or later), his movement step (W-MOVESTART still open, or after his
    first move order) and his combat step (before a battle or in the middle of one)."""
    quest = step(("DAQ", "ORC"), hands={1: ["AC15"], 2: ["AC04"]})
    assert _apply(quest, windows.IndividualPlay(player=1, card="AC15", target=2))[0].sightings[1][0].hand == ("AC04",)
    later, _ = quest_run(quest, QU.QuestPass(player=1))
    assert later.quest_step is not None and later.quest_step.stage == "heroes"
    assert _apply(later, windows.IndividualPlay(player=1, card="AC15", target=2))[0].sightings
    moving = _movement(**SECRETS)
    assert moving.movement is not None and moving.movement.opening
    assert _apply(moving, windows.IndividualPlay(player=1, card="AC15", target=2))[0].sightings
    moved, _ = _apply(moving, movement.Move(player=1, n=1, unit="infantry", origin="N20", path=("N11",)))
    assert _apply(moved, windows.IndividualPlay(player=1, card="AC15", target=2))[0].sightings
    fighting, _ = combat({"N05": {1: {"infantry": 2}, 2: {"infantry": 1}}, "N06": {1: {"infantry": 1},
                                                                                   2: {"infantry": 1}}},
                         hands={1: ["AC15"], 2: ["AC04"]})
    assert fighting.combat.battle is None  # his choice of the first battle
    assert _apply(fighting, windows.IndividualPlay(player=1, card="AC15", target=2))[0].sightings
    battling, _ = _apply(fighting, C.ChooseBattle(player=1, region="N05"))
    assert battling.combat.battle is not None
    assert _apply(battling, windows.IndividualPlay(player=1, card="AC15", target=2))[0].sightings


@pytest.mark.rule("BM-WIN-1", "BM-VAL-0")
def test_w_individual_is_closed_outside_the_players_own_turn() -> None:
    moving = _movement(**SECRETS)
    moving.hands = {**moving.hands, 2: ["AC15"]}
    err = _refused(moving, windows.IndividualPlay(player=2, card="AC15", target=1))
    assert err.code == "BM_E_NOT_YOUR_TURN" and err.message == "It is P1's individual turn."
    assert _refused(moving, windows.IndividualPlay(player=2, card="AC99", target=1)).code == "BM_E_NOT_YOUR_TURN"
    for phase in (Phase.COUNCIL, Phase.ORDERS, Phase.INITIATIVE, Phase.UPKEEP):
        other = position(("DAQ", "ORC"), phase=phase, active=None, hands={1: ["AC15"], 2: []})
        err = _refused(other, windows.IndividualPlay(player=1, card="AC15", target=2))
        assert err.code == "BM_E_CARD_WINDOW", phase
        assert err.message == "Spy (AC15) can only be played during your individual turn (W-INDIVIDUAL).", phase
        err = _refused(other, windows.IndividualCast(player=1, spell="SP08", target=2))
        assert err.code == "BM_E_SPELL_WINDOW", phase


@pytest.mark.rule("BM-VAL-0")
def test_spy_checks_run_in_the_validation_order() -> None:
    """The card held (or the spell known), its window, Mana Storm, once per turn, its cost, then the player it
    is aimed at: another player still in the game."""
    state = _movement(stars={1: Stars(owned=1, spent=1), 2: Stars(owned=1), 3: Stars(owned=1)},
                      **{**SECRETS, "hands": {1: ["AC02"], 2: [], 3: []}})
    assert _refused(state, windows.IndividualPlay(player=1, card="AC15", target=9)).code == "BM_E_CARD_NOT_IN_HAND"
    assert _refused(state, windows.IndividualPlay(player=1, card="AC02", target=9)).code == "BM_E_CARD_WINDOW"
    assert _refused(state, windows.IndividualCast(player=1, spell="SP99", target=9)).code == "BM_E_UNKNOWN_SPELL"
    assert _refused(state, windows.IndividualCast(player=1, spell="SP02", target=9)).code == "BM_E_SPELL_WINDOW"
    storm = replace(state, effects=Effects(mana_storm="none"))
    assert _refused(storm, windows.IndividualCast(player=1, spell="SP08", target=9)).code == "BM_E_SPELLS_FORBIDDEN"
    assert _refused(state, windows.IndividualCast(player=1, spell="SP08", target=9)).code == \
        "BM_E_NOT_ENOUGH_STAR_POWER"
    state.hands = {**state.hands, 1: ["AC15"]}
    state.players = [replace(p, status="resigned") if p.id == 3 else p for p in state.players]
    for target in (9, 1, 3, None):
        err = _refused(state, windows.IndividualPlay(player=1, card="AC15", target=target))
        assert err.code == "BM_E_SPY_TARGET" and err.message == "Name another player still in the game.", target


@pytest.mark.rule("BM-DIG-1", "BM-DIG-3")
def test_what_a_spy_saw_stays_in_its_players_panel_and_a_newer_look_replaces_it() -> None:
    state = _movement(**{**SECRETS, "hands": {1: ["AC15", "AC15"], 2: ["AC04"], 3: []}})
    after, _ = _apply(state, windows.IndividualPlay(player=1, card="AC15", target=2))
    lines = commands.private_lines(after, 1, "en")
    assert "🕵️ P2's hand (Spy, round 1): Ambush; quest QA01, reach N01 Godstone Mountains." in lines
    assert not any("Ambush" in line for line in commands.private_lines(after, 3, "en"))
    after.hands = {**after.hands, 2: []}
    after.quests = {3: "QA05"}
    again, _ = _apply(after, windows.IndividualPlay(player=1, card="AC15", target=2))
    assert again.sightings[1] == [windows.Sighting(target=2, source="AC15", round=1)]
    assert "🕵️ P2's hand (Spy, round 1): no cards; no quest." in commands.private_lines(again, 1, "en")


@pytest.mark.rule("BM-SPL-1")
def test_a_spell_cast_twice_is_told_in_words() -> None:
    state = copy(position(stars={1: Stars(owned=6), 2: Stars(owned=1)}))
    for window, scope, told in [("movestart", "r1:move:1", "movement step"), ("battlestart", "r1:battle:N05", "battle"),
                                ("rally", "r1:battle:N05", "battle"), ("econstart", "r1:econstart", "economy phase"),
                                ("econorders", "r1:econorders", "order set"), ("quest", "r1:quest:1", "quest step"),
                                ("individual", "r1:turn:1", "turn")]:
        spell = next(s.id for s in load().cards.spells if s.window == window)
        fresh = copy(state)
        windows.cast(fresh, 1, spell, window, scope)  # type: ignore[arg-type]
        with pytest.raises(RuleError) as err:
            windows.cast(fresh, 1, spell, window, scope)  # type: ignore[arg-type]
        assert err.value.message == f"You already cast {load().cards.spell[spell].name} in this {told}.", window


@pytest.mark.rule("BM-SPL-1")
def test_a_rally_spell_is_cast_once_per_battle_not_once_per_rally() -> None:
    """In the battle windows "once per window" means once per battle: Courage helps one rally of a battle."""
    each_round = [1, 1, 1, 1, 6, 6, 6, 1]  # his archer and 3 infantry miss; the Orc Horde routs 3
    state, _ = combat({"N05": {1: {"infantry": 8, "archers": 1}, 2: {"infantry": 4}}},
                      dice=[*each_round, 1, *each_round, 1], stars={1: Stars(owned=3), 2: Stars(owned=1)})
    state, _ = passes(state)
    state, _ = acts(state, C.AssignCasualties(player=1, routs={"infantry": 3}))
    assert C.pending(state)[0].kind == "window_rally" and battle(state).round == 2
    state, _ = acts(state, C.BattleCast(player=1, spell="SP04"), C.BattlePass(player=1))  # 1 + 3: none back
    state, _ = acts(state, C.AssignCasualties(player=1, routs={"infantry": 3}))
    [window] = C.pending(state)
    assert window.kind == "window_rally" and battle(state).round == 3 and window.detail["spells"] == []
    with pytest.raises(RuleError) as err:
        acts(state, C.BattleCast(player=1, spell="SP04"))
    assert err.value.code == "BM_E_SPELL_ALREADY_CAST"
