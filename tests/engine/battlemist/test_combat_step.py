"""The combat step around the battles (engine/games/battlemist/combat.py): battle order, the W-BATTLESTART cards
and spells, auto-casualty standing orders, timeouts and homeland occupation."""

from __future__ import annotations

import pytest

from engine.core.events import changes_board
from engine.core.models import to_json
from engine.core.rng import Rng
from engine.games.battlemist import combat as C
from engine.games.battlemist import movement as M
from engine.games.battlemist import upkeep as U
from engine.games.battlemist.economy import Disband
from engine.games.battlemist.pieces import Stars, Troops
from engine.games.battlemist.rules import apply
from engine.games.battlemist.state import BMOptions, Phase
from tests.engine.battlemist.combat_kit import act, acts, battle, combat, copy, kinds, of, passes, refused, timeouts
from tests.engine.battlemist.helpers import position


@pytest.mark.rule("BM-CMB-1", "BM-CMB-11", "BM-CMB-12", "BM-CTL-3", "BM-A-44")
def test_every_shared_region_is_a_battle_fought_in_the_attackers_order() -> None:
    troops = {"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}, "N06": {1: {"infantry": 1}, 2: {"archers": 1}},
              "N07": {1: {"infantry": 1}}, "N08": {2: {"infantry": 1}}}
    state, events = combat(troops, dice=[1, 9, 9, 1])
    assert of(events, "combat_step_begun")[0].battles == ["N05", "N06"] and state.combat.battle is None
    assert kinds(C.pending(state)) == [(1, "battle_order")]
    assert C.pending(state)[0].detail == {"regions": ["N05", "N06"]}
    assert C.timeout_combat(state, 1) == C.ChooseBattle(player=1, region="N05")  # region-id order
    err = refused(state, C.ChooseBattle(player=1, region="N07"))
    assert err.code == "BM_E_BATTLE_ORDER" and "N07" in err.message
    assert refused(state, C.ChooseBattle(player=2, region="N05")).code == "BM_E_NOT_YOUR_TURN"
    assert refused(state, C.ChooseBattle(player=1, region="N99")).code == "BM_E_UNKNOWN_REGION"
    assert refused(state, C.ChooseBattle(player=1, region="H-ELF")).code == "BM_E_UNKNOWN_REGION"  # void here
    state, events = act(state, C.ChooseBattle(player=1, region="N06"))
    b = battle(state)
    assert (b.region, b.attacker.player, b.defender.player) == ("N06", 1, 2)
    assert refused(state, C.ChooseBattle(player=1, region="N05")).code == "BM_E_WRONG_PHASE"  # one at a time
    state, events = passes(state)  # N06: archery 1, melee 9 → P1 wins; then N05, the last one, starts by itself
    assert [e.region for e in of(events, "battle_begun")] == ["N05"] and not C.finished(state)
    state, events = passes(state)  # N05: 9 against 1
    assert [e.winner for e in of(events, "battle_ended")] == [1] and C.finished(state)
    assert of(events, "combat_step_ended")[0].player == 1 and C.pending(state) == []
    assert all(len(here) == 1 for here in state.troops.values())  # no two players share a region afterwards


def test_ambush_is_the_defenders_and_adds_one_in_round_one() -> None:
    state, _ = combat({"N05": {1: {"infantry": 3}, 2: {"infantry": 3}}}, dice=[1] * 12,
                      hands={1: ["AC04"], 2: ["AC04", "AC05"]})
    assert C.pending(state)[0].detail == {"region": "N05", "round": 0, "cards": [], "spells": []}
    err = refused(state, C.BattlePlay(player=1, card="AC04"))
    assert err.code == "BM_E_DEFENDER_ONLY" and "Ambush (AC04)" in err.message
    state, _ = act(state, C.BattlePass(player=1))
    assert C.pending(state)[0].detail["cards"] == ["AC04"]  # the defender's: Ambush, not the rally card
    assert refused(state, C.BattlePlay(player=2, card="AC05")).code == "BM_E_CARD_WINDOW"
    state, events = act(state, C.BattlePlay(player=2, card="AC04"))
    assert state.hands[2] == ["AC05"] and battle(state).defender.ambush
    state, events = act(state, C.BattlePass(player=2))
    assert [(e.player, e.modifier) for e in of(events, "battle_dice")][:4] == [(1, 0), (2, 1), (1, 0), (2, 0)]


def test_fireball_kills_on_six_and_the_victim_chooses_even_a_monster() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1, "giant": 1}}}, dice=[6, 5],
                      stars={1: Stars(owned=2), 2: Stars(owned=1)})
    state, events = act(state, C.BattleCast(player=1, spell="SP05"))
    assert of(events, "spell_cast")[0].cost == 2 and of(events, "battle_dice")[0].outcomes == ["kill", "miss"]
    assert kinds(C.pending(state)) == [(2, "casualties")] and C.pending(state)[0].detail["step"] == "fireball"
    assert refused(state, C.BattlePass(player=1)).code == "BM_E_BATTLE_WAITING"
    assert refused(state, C.BattleCast(player=1, spell="SP05")).code == "BM_E_BATTLE_WAITING"
    state, _ = act(state, C.AssignCasualties(player=2, kills={"giant": 1}))
    assert state.troops["N05"][2] == Troops(infantry=1) and kinds(C.pending(state)) == [(1, "window_battlestart")]
    assert refused(state, C.BattleCast(player=1, spell="SP05")).code == "BM_E_SPELL_ALREADY_CAST"  # per battle
    later, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, active=2, dice=[1, 1],
                      stars={1: Stars(owned=4, spent=2), 2: Stars(owned=1)}, cast=state.cast)
    later, events = acts(later, C.BattlePass(player=2), C.BattleCast(player=1, spell="SP05"))
    assert of(events, "spell_cast")[0].player == 1  # the same region in another player's step: another battle


def test_terror_routs_two_army_units_of_the_victims_choice() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 2, "archers": 1, "giant": 1}}},
                      stars={1: Stars(owned=2), 2: Stars(owned=1)})
    state, _ = act(state, C.BattleCast(player=1, spell="SP06"))
    assert C.pending(state)[0].detail["routs"] == 2
    assert refused(state, C.AssignCasualties(player=2, routs={"giant": 1, "infantry": 1})).code == "BM_E_MONSTER_ROUT"
    assert refused(state, C.AssignCasualties(player=2, kills={"infantry": 2})).code == "BM_E_CASUALTY_COUNT"
    state, _ = act(state, C.AssignCasualties(player=2, routs={"infantry": 1, "archers": 1}))
    side = battle(state).defender
    assert side.routed == Troops(infantry=1, archers=1) and side.active == Troops(infantry=1, giant=1)


def test_ward_takes_one_from_the_opponents_dice_on_top_of_the_siege() -> None:
    state, _ = combat({"H-ORC": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[1, 1],
                      stars={1: Stars(owned=1), 2: Stars(owned=2)})
    state, events = acts(state, C.BattlePass(player=1), C.BattleCast(player=2, spell="SP07"),
                         C.BattlePass(player=2))
    assert [(e.player, e.modifier) for e in of(events, "battle_dice")][:2] == [(1, -3), (2, 0)]
    assert state.stars[2].power == 0


def test_curse_of_frailty_worsens_one_unit_type_of_the_opponent() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[1, 9],
                      stars={1: Stars(owned=2), 2: Stars(owned=1)})
    err = refused(state, C.BattleCast(player=1, spell="SP12"))
    assert err.code == "BM_E_SPELL_TARGET" and "Curse of Frailty" in err.message
    state, events = act(state, C.BattleCast(player=1, spell="SP12", unit="infantry"))
    assert battle(state).defender.cursed == ("infantry",)
    state, events = passes(state)
    assert of(events, "battle_dice")[1].outcomes == ["rout"]  # Orc infantry 6/9 becomes 7/10: a 9 only routs


def test_window_actions_out_of_turn_are_refused() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}, "N06": {2: {"infantry": 1}}},
                      races=("DAQ", "ORC", "ELF"))
    assert refused(state, C.BattlePass(player=3)).code == "BM_E_NOT_YOUR_TURN"
    assert refused(state, C.BattlePass(player=9)).code == "BM_E_NOT_IN_GAME"
    assert refused(state, C.AssignCasualties(player=2)).code == "BM_E_WRONG_PHASE"
    assert refused(state, C.RallyPick(player=1)).code == "BM_E_WRONG_PHASE"


@pytest.mark.rule("BM-DIG-24")
def test_standing_orders_assign_casualties_without_asking_and_within_the_rules() -> None:
    auto = BMOptions(auto_casualties=True)
    troops = {"N05": {1: {"infantry": 1}, 2: {"infantry": 1, "archers": 1, "cavalry": 1}}}
    state, _ = combat(troops, dice=[1, 1, 9, 1], options=auto)
    state, events = act(state, C.CasualtyOrder(player=2, order=["archers", "cavalry"]))
    assert of(events, "casualty_order_set")[0].order == ["archers", "cavalry"]
    state, events = passes(state)
    taken = of(events, "casualties_taken")[0]
    assert (taken.kills, taken.auto) == ({"archers": 1}, True)  # melee: his order decides
    archery = {"N05": {1: {"archers": 2}, 2: {"infantry": 1, "cavalry": 1, "archers": 2}}}
    state, _ = combat(archery, dice=[8, 1, 1, 1], options=auto)
    state, _ = passes(state)
    assert kinds(C.pending(state)) == [(2, "casualties")]  # no order yet: he is asked
    state, events = act(state, C.CasualtyOrder(player=2, order=["archers", "cavalry"]))
    assert of(events, "casualties_taken")[0].kills == {"cavalry": 1}  # archers only once non-archers are hit
    assert refused(state, C.CasualtyOrder(player=2, order=["infantry", "infantry"])).code == "BM_E_CASUALTY_ORDER"
    state, _ = act(state, C.CasualtyOrder(player=2, order=[]))
    assert 2 not in state.combat.standing
    off, _ = combat(troops)
    assert refused(off, C.CasualtyOrder(player=2, order=["archers"])).code == "BM_E_AUTO_CASUALTIES_OFF"


def test_timeouts_play_every_battle_to_its_end() -> None:
    troops = {"N05": {1: {"infantry": 3, "archers": 2, "cavalry": 1}, 2: {"infantry": 3, "archers": 1, "giant": 1}},
              "N06": {1: {"cavalry": 2}, 2: {"infantry": 2, "cavalry": 2}}}
    state, _ = combat(troops, seed=11)
    state, events = timeouts(state)
    assert C.finished(state) and len(of(events, "battle_ended")) == 2
    assert all(len(here) == 1 for here in state.troops.values())
    assert all(to_json(e)["type"] == e.type for e in events)  # every event is JSON for the log
    assert all(changes_board(e) for e in of(events, "battle_ended"))


@pytest.mark.rule("BM-HOM-1", "BM-HOM-2", "BM-HOM-5", "BM-A-1")
def test_occupying_a_homeland_captures_half_its_owners_stars_spent_first() -> None:
    stars = {1: Stars(owned=1), 2: Stars(owned=3, spent=1)}
    state, events = combat({"H-ORC": {1: {"infantry": 1}}}, stars=stars)
    occupied = of(events, "homeland_occupied")[0]
    assert (occupied.homeland, occupied.owner, occupied.stars) == ("H-ORC", 2, 2) and state.occupied == {"H-ORC": 1}
    assert state.stars == {1: Stars(owned=3, spent=2), 2: Stars(owned=1, spent=0)}  # arriving spent
    again, events = combat({"H-ORC": {1: {"infantry": 1}}}, stars=stars, occupied={"H-ORC": 1})
    assert not of(events, "homeland_occupied") and again.stars == stars  # continued occupation captures nothing
    empty, _ = combat({"H-ORC": {1: {"infantry": 1}}, "N05": {2: {"infantry": 1}}},
                           stars={1: Stars(owned=1), 2: Stars(owned=0)})
    assert empty.occupied == {"H-ORC": 1} and empty.stars[1] == Stars(owned=1)  # S = 0: nothing
    fought, _ = combat({"H-ORC": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[10, 1], stars=stars)
    fought, events = passes(fought)  # 10 − 2 (siege) routs the last defender, who is destroyed
    assert of(events, "battle_ended")[0].winner == 1 and of(events, "homeland_occupied")[0].stars == 2


@pytest.mark.rule("BM-MON-9")
def test_monsters_alone_never_occupy_a_homeland() -> None:
    state, events = combat({"H-ORC": {1: {"giant": 1}}, "H-DAQ": {1: {"infantry": 2}}})
    assert state.occupied == {} and not of(events, "homeland_occupied") and C.finished(state)


@pytest.mark.rule("BM-HOM-4")
def test_an_occupation_ends_when_the_occupier_has_no_army_units_there() -> None:
    state, _ = combat({"H-ORC": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[9, 1], active=2,
                      occupied={"H-ORC": 1})
    assert battle(state).attacker.player == 2 and battle(state).siege == 0  # the occupier is not at home
    state, events = passes(state)
    assert [(e.player, e.homeland) for e in of(events, "occupation_ended")] == [(1, "H-ORC")]
    assert state.occupied == {} and state.controller("H-ORC") == 2


def test_two_ambush_cards_add_up() -> None:
    """Reference ruling 11: copies of one action card played in one window add their effects."""
    state, _ = combat({"N05": {1: {"infantry": 3}, 2: {"infantry": 3}}}, dice=[1] * 6, hands={2: ["AC04", "AC04"]})
    state, _ = acts(state, C.BattlePass(player=1), C.BattlePlay(player=2, card="AC04"),
                    C.BattlePlay(player=2, card="AC04"))
    state, events = act(state, C.BattlePass(player=2))
    assert [(e.player, e.modifier) for e in of(events, "battle_dice")][:2] == [(1, 0), (2, 2)]


@pytest.mark.rule("BM-SPL-1", "BM-RAL-1")
def test_courage_is_cast_once_per_battle_not_once_per_rally() -> None:
    state, _ = combat({"N05": {1: {"infantry": 3}, 2: {"infantry": 3}}},
                      dice=[1, 1, 1, 6, 1, 1, 1, 1, 1, 6, 1, 1], stars={1: Stars(owned=3), 2: Stars(owned=1)})
    state, _ = passes(state)  # melee: one of his infantry is routed
    state, _ = acts(state, C.BattleCast(player=1, spell="SP04"), C.BattlePass(player=1))  # 1 + 1 + 2: none back
    assert battle(state).round == 3 and kinds(C.pending(state)) == [(1, "window_rally")]
    assert C.pending(state)[0].detail["spells"] == []
    assert refused(state, C.BattleCast(player=1, spell="SP04")).code == "BM_E_SPELL_ALREADY_CAST"


@pytest.mark.rule("BM-VAL-0", "BM-SPL-3")
def test_curse_of_frailty_checks_its_target_after_the_spell_itself() -> None:
    """Reference ruling 2: a spell's targets are checked last, after its window, limits and star power."""
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}})
    assert refused(state, C.BattleCast(player=1, spell="SP12")).code == "BM_E_NOT_ENOUGH_STAR_POWER"
    rich, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, stars={1: Stars(owned=2), 2: Stars(owned=1)})
    assert refused(rich, C.BattleCast(player=1, spell="SP12")).code == "BM_E_SPELL_TARGET"


@pytest.mark.rule("BM-PLU-1")
def test_plunder_between_battles_is_invalid_not_out_of_phase() -> None:
    troops = {"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}, "N06": {1: {"infantry": 1}, 2: {"infantry": 1}}}
    state, _ = combat(troops)
    assert refused(state, C.Plunder(player=1, yes=True)).code == "BM_E_PLUNDER_INVALID"
    assert refused(state, C.Plunder(player=2, yes=True)).code == "BM_E_NOT_YOUR_TURN"


@pytest.mark.rule("BM-HOM-4", "BM-HOM-3")
def test_an_occupation_ends_when_the_occupiers_last_army_unit_is_disbanded_at_upkeep() -> None:
    state = copy(position(phase=Phase.COMBAT, troops={"H-ORC": {1: {"infantry": 1}}, "N05": {2: {"infantry": 1}}},
                          occupied={"H-ORC": 1}, stock={2: {"grain": 5}}))
    U.begin_upkeep(state, Rng(state.rng))
    state, events = acts(state, U.SubmitUpkeep(player=1, disband=(Disband(region="H-ORC", what="infantry"),),
                                               lock=True), U.SubmitUpkeep(player=2, lock=True), using=apply)
    assert [(e.player, e.homeland) for e in of(events, "occupation_ended")] == [(1, "H-ORC")]
    assert state.occupied == {} and state.controller("H-ORC") == 2


@pytest.mark.rule("BM-HOM-2", "BM-HOM-4")
def test_an_occupier_moving_his_army_out_and_back_in_captures_nothing_more() -> None:
    stars = {1: Stars(owned=1), 2: Stars(owned=2)}
    state = copy(position(phase=Phase.MOVEMENT, troops={"H-ORC": {1: {"infantry": 1}}, "N10": {1: {"archers": 1}}},
                          occupied={"H-ORC": 1}, stars=stars))
    M.begin_movement(state, Rng(state.rng))
    moves = (M.Move(player=1, n=1, unit="infantry", origin="H-ORC", path=("N22",)),
             M.Move(player=1, n=1, unit="archers", origin="N10", path=("H-ORC",)))
    state, events = acts(state, moves[0], using=apply)
    assert state.occupied == {"H-ORC": 1}  # his own turn: settled at the end of his combat step
    state, events = acts(state, moves[1], M.EndMove(player=1), using=apply)
    assert of(events, "combat_step_ended") and not of(events, "occupation_ended")
    assert not of(events, "homeland_occupied") and state.occupied == {"H-ORC": 1} and state.stars == stars


@pytest.mark.rule("BM-VAL-0", "BM-WIN-1", "BM-ACT-1")
def test_battle_cards_and_spells_outside_their_window_are_told_so() -> None:
    troops = {"N05": {1: {"infantry": 2, "archers": 1}, 2: {"infantry": 2, "archers": 1}}}
    stars = {1: Stars(owned=2), 2: Stars(owned=2)}
    state, _ = combat(troops, dice=[1, 1, 9, 1, 9, 1], hands={1: ["AC05"], 2: ["AC04"]}, stars=stars)
    state, _ = passes(state)
    assert kinds(C.pending(state)) == [(2, "casualties"), (1, "casualties")]  # round 1's melee
    assert refused(state, C.BattlePlay(player=2, card="AC04")).code == "BM_E_CARD_WINDOW"
    assert refused(state, C.BattlePlay(player=2, card="AC05")).code == "BM_E_CARD_NOT_IN_HAND"
    assert refused(state, C.BattleCast(player=1, spell="SP05")).code == "BM_E_SPELL_WINDOW"
    assert refused(state, C.BattleCast(player=1, spell="SP04")).code == "BM_E_SPELL_WINDOW"
    assert refused(state, C.BattlePass(player=1)).code == "BM_E_WRONG_PHASE"
    two = {"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}, "N06": {1: {"infantry": 1}, 2: {"infantry": 1}}}
    between, _ = combat(two, stars=stars, hands={1: ["AC05"]})
    assert refused(between, C.BattleCast(player=1, spell="SP05")).code == "BM_E_SPELL_WINDOW"
    assert refused(between, C.BattlePlay(player=1, card="AC05")).code == "BM_E_CARD_WINDOW"
    assert refused(between, C.BattleCast(player=2, spell="SP05")).code == "BM_E_NOT_YOUR_TURN"


@pytest.mark.rule("BM-CMB-12")
def test_choosing_the_battle_that_already_began_by_itself_changes_nothing() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[9, 1])
    assert battle(state).region == "N05"  # the only battle starts by itself
    again, events = act(state, C.ChooseBattle(player=1, region="N05"))
    assert events == [] and again.combat == state.combat
    assert refused(state, C.ChooseBattle(player=1, region="N06")).code == "BM_E_WRONG_PHASE"
    assert refused(state, C.ChooseBattle(player=2, region="N05")).code == "BM_E_NOT_YOUR_TURN"
    later, _ = act(state, C.BattlePass(player=1))
    assert refused(later, C.ChooseBattle(player=1, region="N05")).code == "BM_E_WRONG_PHASE"
