"""A Battlemist battle (engine/games/battlemist/battle.py): rounds and steps, dice, casualties, rally, overrun, the
end of the battle, control, plunder and Raise the Dead."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core.models import from_json, to_json
from engine.games.battlemist import battle as B
from engine.games.battlemist import combat as C
from engine.games.battlemist.battle import Combat
from engine.games.battlemist.pieces import CityMark, HeroToken, Stars, Stock, Troops
from engine.games.battlemist.state import BMOptions, BMState
from tests.engine.battlemist.combat_kit import (
    act,
    acts,
    battle,
    combat,
    copy,
    kinds,
    of,
    passes,
    refused,
    timeouts,
    until,
)
from tests.engine.battlemist.helpers import snapshot


def dice(events: list, player: int | None = None) -> list[tuple[int, str, list[str], list[int]]]:
    return [(e.player, e.step, e.units, e.results) for e in of(events, "battle_dice")
            if player is None or e.player == player]


@pytest.mark.rule("BM-CMB-4", "BM-CMB-5", "BM-CMB-26", "BM-A-5")
def test_battle_start_window_then_rounds_of_archery_cavalry_melee_without_retreat() -> None:
    troops = {"N05": {1: {"infantry": 1, "archers": 1, "cavalry": 1}, 2: {"infantry": 1, "archers": 1, "cavalry": 1}}}
    state, events = combat(troops, dice=[1] * 6)
    assert of(events, "battle_begun")[0].attacker == 1 and kinds(C.pending(state)) == [(1, "window_battlestart")]
    assert refused(state, C.BattlePass(player=2)).code == "BM_E_WRONG_PHASE"  # the attacker plays first
    state, _ = act(state, C.BattlePass(player=1))
    assert kinds(C.pending(state)) == [(2, "window_battlestart")]
    state, events = act(state, C.BattlePass(player=2))
    steps = [(p, step) for p, step, _, _ in dice(events)][:6]
    assert steps == [(1, "archery"), (2, "archery"), (1, "cavalry"), (2, "cavalry"), (1, "melee"), (2, "melee")]
    rounds = [e.round for e in of(events, "combat_round")]
    assert rounds[:2] == [1, 2]  # both still have active units: no retreat, the next round follows (BM-CMB-7)
    assert all(d.kind != "retreat" for d in C.pending(state)) and "retreat" not in C.HANDLERS


@pytest.mark.rule("BM-CMB-13", "BM-CMB-14", "BM-CMB-15", "BM-CMB-19", "BM-MON-1", "BM-A-38")
def test_attackers_per_step_are_capped_and_monsters_take_melee_slots_first() -> None:
    troops = {"N05": {1: {"archers": 3, "cavalry": 4, "infantry": 5, "giant": 1, "dragon": 1},
                      2: {"infantry": 5, "giant": 1, "firebreather": 1}}}
    state, _ = combat(troops, dice=[1] * 12)
    _, events = passes(state)
    rolled = dice(events)[:6]
    assert rolled[0] == (1, "archery", ["archers"] * 2, [1, 1])  # cap 2
    assert rolled[1] == (1, "cavalry", ["cavalry"] * 3, [1, 1, 1])  # Daqan Lance Charge: 3
    assert rolled[2] == (1, "melee", ["dragon", "giant", "infantry"], [1, 1, 1])  # monsters only in melee, first
    assert rolled[3] == (2, "melee", ["firebreather", "giant", "infantry", "infantry"], [1, 1, 1, 1])  # Orc Horde: 4
    elves, _ = combat({"N05": {1: {"archers": 4}, 2: {"archers": 4}}}, races=("ELF", "DAQ"), dice=[1] * 5)
    _, events = passes(elves)
    assert [len(u) for _, _, u, _ in dice(events)[:2]] == [3, 2]  # Elven Bows: 3


@pytest.mark.rule("BM-CMB-16", "BM-CMB-17", "BM-CMB-24")
def test_a_modified_die_kills_at_k_routs_at_r_and_routed_units_stay_on_the_board() -> None:
    state, _ = combat({"N05": {1: {"infantry": 3}, 2: {"infantry": 3}}}, dice=[9, 6, 5, 1, 1, 1])
    state, events = passes(state)
    first = of(events, "battle_dice")[0]
    assert first.outcomes == ["kill", "rout", "miss"] and first.modifier == 0  # Daqan infantry 6/9
    assert [(h.victim, h.kills, h.routs) for h in of(events, "hits_scored")] == [(2, 1, 1)]
    taken = of(events, "casualties_taken")[0]
    assert (taken.kills, taken.routs, taken.auto) == ({"infantry": 1}, {"infantry": 1}, True)  # no choice to make
    side = battle(state).side(2)
    assert side.active.infantry == 1 and side.routed.infantry == 1 and side.killed_before == 1  # round 2 began
    assert state.troops["N05"][2].infantry == 2  # the killed one went to the supply, the routed one is still there


@pytest.mark.rule("BM-CMB-18", "BM-CMB-7", "BM-A-4")
def test_both_roll_before_casualties_and_a_round_leaving_nobody_destroys_both() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[9, 9])
    state, events = passes(state)
    assert [e.outcomes for e in of(events, "battle_dice")] == [["kill"], ["kill"]]  # the killed one still struck
    assert of(events, "battle_ended")[0].winner is None and "N05" not in state.troops
    assert state.combat.battle is None and C.finished(state)


@pytest.mark.rule("BM-CMB-18")
def test_both_victims_assign_at_once_in_either_order() -> None:
    troops = {"N05": {1: {"infantry": 2, "archers": 1}, 2: {"infantry": 2, "archers": 1}}}
    state, _ = combat(troops, dice=[1, 1, 9, 1, 9, 1])
    state, _ = passes(state)
    assert kinds(C.pending(state)) == [(2, "casualties"), (1, "casualties")]
    state, _ = act(state, C.AssignCasualties(player=2, kills={"archers": 1}))
    assert kinds(C.pending(state)) == [(1, "casualties")] and battle(state).stage == "melee"
    state, events = act(state, C.AssignCasualties(player=1, kills={"infantry": 1}))
    assert [(e.player, e.kills) for e in of(events, "casualties_taken")][:1] == [(1, {"infantry": 1})]
    assert [e.round for e in of(events, "combat_round")][:1] == [2]


@pytest.mark.rule("BM-CMB-6", "BM-CMB-20")
def test_archery_hits_go_to_non_archers_first() -> None:
    troops = {"N05": {1: {"archers": 2}, 2: {"infantry": 1, "cavalry": 1, "archers": 2}}}
    state, _ = combat(troops, dice=[8, 1, 1, 1])
    state, _ = passes(state)
    assert kinds(C.pending(state)) == [(2, "casualties")]
    err = refused(state, C.AssignCasualties(player=2, kills={"archers": 1}))
    assert err.code == "BM_E_ARCHER_CASUALTY"
    assert refused(state, C.AssignCasualties(player=2, kills={"infantry": 2})).code == "BM_E_CASUALTY_COUNT"
    state, events = act(state, C.AssignCasualties(player=2, kills={"cavalry": 1}))
    assert of(events, "casualties_taken")[0].kills == {"cavalry": 1} and battle(state).side(2).active.cavalry == 0


@pytest.mark.rule("BM-CMB-21")
def test_cavalry_hits_are_taken_by_cavalry_first() -> None:
    state, _ = combat({"N05": {1: {"cavalry": 2}, 2: {"cavalry": 1, "infantry": 2}}}, dice=[6, 4, 1, 1])
    state, _ = passes(state)
    err = refused(state, C.AssignCasualties(player=2, kills={"infantry": 1}, routs={"infantry": 1}))
    assert err.code == "BM_E_CAVALRY_CASUALTY" and "cavalry first" in err.message
    state, _ = act(state, C.AssignCasualties(player=2, kills={"infantry": 1}, routs={"cavalry": 1}))
    assert battle(state).side(2).routed.cavalry == 1 and battle(state).side(2).active == Troops(infantry=1)


@pytest.mark.rule("BM-CMB-22")
def test_melee_hits_may_go_to_any_unit() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1, "archers": 1, "cavalry": 1}}},
                      dice=[1, 1, 9, 1])
    state, _ = passes(state)
    state, events = act(state, C.AssignCasualties(player=2, kills={"archers": 1}))
    assert of(events, "casualties_taken")[0].kills == {"archers": 1}


@pytest.mark.rule("BM-CMB-23", "BM-A-6", "BM-MON-2")
def test_as_many_hits_as_possible_then_as_many_kills_and_monsters_only_killed() -> None:
    assert B.required(Troops(infantry=1), B.Hits(player=2, step="melee", kills=1, routs=1)) == (1, 0)
    assert B.required(Troops(infantry=2), B.Hits(player=2, step="melee", kills=3, routs=1)) == (2, 0)
    assert B.required(Troops(giant=1, infantry=1), B.Hits(player=2, step="melee", kills=1, routs=2)) == (1, 1)
    assert B.required(Troops(giant=2), B.Hits(player=2, step="melee", routs=2)) == (0, 0)  # excess hits are lost
    state, _ = combat({"N05": {1: {"infantry": 2}, 2: {"infantry": 2, "giant": 1}}}, dice=[9, 6, 1, 1, 1])
    state, _ = passes(state)
    assert C.pending(state)[0].detail == {"region": "N05", "step": "melee", "kills": 1, "routs": 1,
                                          "active": {"infantry": 2, "giant": 1}}
    err = refused(state, C.AssignCasualties(player=2, routs={"giant": 1}))
    assert err.code == "BM_E_MONSTER_ROUT"  # checked before the totals
    err = refused(state, C.AssignCasualties(player=2, kills={"infantry": 1}))
    assert err.code == "BM_E_CASUALTY_COUNT" and "1 kill(s) and 1 rout(s)" in err.message
    state, _ = act(state, C.AssignCasualties(player=2, kills={"giant": 1}, routs={"infantry": 1}))
    assert battle(state).side(2).routed.infantry == 1
    giant, _ = combat({"N05": {1: {"infantry": 1}, 2: {"giant": 1}}}, dice=[6, 1])
    _, events = passes(giant)
    types = [e.type for e in events]
    rounds = [i for i, t in enumerate(types) if t == "combat_round"]
    round_one = types[:rounds[1]] if len(rounds) > 1 else types
    assert of(events, "hits_scored")[0].routs == 1 and "casualties_taken" not in round_one  # the rout is lost


def test_the_greedy_default_is_legal_and_cheapest_first() -> None:
    """§7.5: kills first, then routs, each to the cheapest eligible unit; a rout is never wasted on a monster."""
    melee = B.Hits(player=2, step="melee", kills=2, routs=1)
    mixed = Troops(infantry=1, archers=1, cavalry=1)
    assert next(B.assignments(mixed, melee, B.CHEAPEST)) == ({"infantry": 1, "archers": 1}, {"cavalry": 1})
    archery = B.Hits(player=2, step="archery", kills=1, routs=1)
    assert next(B.assignments(Troops(infantry=1, archers=2), archery, B.CHEAPEST)) == ({"infantry": 1},
                                                                                      {"archers": 1})
    reserve = B.Hits(player=2, step="melee", kills=1, routs=1)
    assert next(B.assignments(Troops(infantry=1, giant=1), reserve, B.CHEAPEST)) == ({"giant": 1}, {"infantry": 1})


@pytest.mark.rule("BM-CMB-3", "BM-A-2")
def test_siege_penalties_on_the_attackers_combat_dice() -> None:
    state, events = combat({"H-ORC": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[9, 1])
    assert of(events, "battle_begun")[0].siege == 2
    _, events = passes(state)
    first, second = of(events, "battle_dice")[:2]
    assert (first.modifier, first.outcomes, second.modifier) == (-2, ["rout"], 0)  # 9 − 2 = 7: a rout only
    _, events = combat({"H-DWA": {1: {"infantry": 1}, 2: {"infantry": 1}}}, races=("DAQ", "DWA"))
    assert of(events, "battle_begun")[0].siege == 3  # Master Masons
    for mark, penalty in [(CityMark(kind="city", since=0), 1), (CityMark(kind="large_city", since=0), 2),
                          (CityMark(kind="city", since=1), 0), (CityMark(kind="large_city", since=1), 1)]:
        state, events = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, cities={"N05": mark})
        assert of(events, "battle_begun")[0].siege == penalty, mark
    assert B.siege_penalty(state, "N06", 2) == 0
    home, _ = combat({"H-ORC": {1: {"infantry": 1}, 2: {"infantry": 1}}})
    assert B.rally_modifier(home, battle(home), 1) == 1  # never the rally roll: Disciplined only


@pytest.mark.rule("BM-CMB-2")
def test_heroes_do_not_fight() -> None:
    heroes = [HeroToken(owner=2, number=1, region="N05", life=5), HeroToken(owner=2, number=2, region="N06", life=5)]
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}, "N06": {1: {"infantry": 1}}},
                      heroes=heroes, dice=[1, 1])
    assert battle(state).region == "N05"  # a hero alone in N06 is no battle
    state, events = passes(state)
    assert [len(e.units) for e in of(events, "battle_dice")][:2] == [1, 1]


@pytest.mark.rule("BM-RAL-1", "BM-RAL-2")
def test_rally_from_round_two_and_the_owner_picks_the_returning_units() -> None:
    state, _ = combat({"N05": {1: {"infantry": 2, "archers": 1}, 2: {"infantry": 3}}}, dice=[1, 1, 1, 6, 6, 1, 4])
    state, events = passes(state)
    assert not of(events, "rally_rolled")  # no rally in round 1
    state, _ = act(state, C.AssignCasualties(player=1, routs={"infantry": 1, "archers": 1}))
    assert kinds(C.pending(state)) == [(1, "window_rally")]  # only a side with routed units rallies
    state, events = act(state, C.BattlePass(player=1))
    rolled = of(events, "rally_rolled")[0]
    assert (rolled.result, rolled.modifier, rolled.total, rolled.back) == (4, 1, 5, 1)  # 5–6 → 1 (Disciplined +1)
    assert C.pending(state)[0].kind == "rally_pick" and C.pending(state)[0].detail["n"] == 1
    for wrong in ({"cavalry": 1}, {"infantry": 2}, {}, {"giant": 1}, {"archers": 2, "infantry": -1}):
        err = refused(state, C.RallyPick(player=1, units=wrong))
        assert err.code == "BM_E_RALLY_CHOICE" and "choose 1" in err.message
    assert C.timeout_combat(state, 1) == C.RallyPick(player=1, units={"infantry": 1})  # infantry first
    state, events = act(state, C.RallyPick(player=1, units={"archers": 1}))
    assert of(events, "rallied")[0].units == {"archers": 1} and battle(state).side(1).active.archers == 1


@pytest.mark.rule("BM-HER-5", "BM-HER-7")
def test_rally_modifiers_stack_and_are_clamped() -> None:
    heroes = [HeroToken(owner=1, number=1, region="N05", life=5), HeroToken(owner=1, number=2, region="N05", life=5)]
    state, _ = combat({"N05": {1: {"infantry": 2, "archers": 1}, 2: {"infantry": 3}}}, dice=[1, 1, 1, 6, 6, 1, 9],
                      heroes=heroes, artifacts={1: ["AR4"]}, hands={1: ["AC04", "AC05"]},
                      stars={1: Stars(owned=2), 2: Stars(owned=1)})
    state, _ = until(passes(state)[0], "casualties")
    state, _ = act(state, C.AssignCasualties(player=1, routs={"infantry": 1, "archers": 1}))
    assert B.rally_modifier(state, battle(state), 1) == 3  # hero once (two heroes), Disciplined, War Horn
    assert B.rally_modifier(state, battle(state), 2) == 0
    assert C.pending(state)[0].detail["cards"] == ["AC05"] and C.pending(state)[0].detail["spells"] == ["SP04"]
    assert refused(state, C.BattlePlay(player=1, card="AC04")).code == "BM_E_CARD_WINDOW"  # before defender-only
    state, _ = acts(state, C.BattlePlay(player=1, card="AC05"), C.BattleCast(player=1, spell="SP04"))
    assert refused(state, C.BattleCast(player=1, spell="SP04")).code == "BM_E_SPELL_ALREADY_CAST"
    state, events = act(state, C.BattlePass(player=1))
    rolled = of(events, "rally_rolled")[0]
    assert (rolled.modifier, rolled.total, rolled.back) == (7, 10, 2)  # 9 + 7 clamped to 10: 3, but only 2 routed
    assert battle(state).side(1).routed.total() == 0


@pytest.mark.rule("BM-OVR-1")
def test_a_side_with_two_kills_last_round_and_no_infantry_is_overrun() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1, "cavalry": 2}, 2: {"archers": 3}}}, dice=[1, 1, 6, 6, 1])
    state, events = passes(state)
    overrun = of(events, "overrun")
    assert [(e.player, e.killed) for e in overrun] == [(2, {"archers": 1})]
    assert of(events, "battle_ended")[0].winner == 1 and state.troops["N05"] == {1: Troops(infantry=1, cavalry=2)}
    kept, _ = combat({"N05": {1: {"infantry": 1, "cavalry": 2}, 2: {"archers": 2, "infantry": 1}}},
                     dice=[1, 1, 6, 6] + [1] * 6)
    kept, _ = passes(kept)
    kept, events = act(kept, C.AssignCasualties(player=2, kills={"archers": 2}))
    assert [e.round for e in of(events, "combat_round")][:1] == [2] and not of(events, "overrun")  # his infantry


@pytest.mark.rule("BM-OVR-2")
def test_both_sides_overrun_destroys_both_armies() -> None:
    state, _ = combat({"N05": {1: {"cavalry": 3}, 2: {"cavalry": 3}}}, dice=[6, 6, 1, 8, 8])
    state, events = passes(state)
    assert sorted(e.player for e in of(events, "overrun")) == [1, 2]
    assert of(events, "battle_ended")[0].winner is None and "N05" not in state.troops


@pytest.mark.rule("BM-OVR-3", "BM-A-43")
def test_fireball_kills_do_not_count_for_overrun() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"archers": 4}}}, dice=[6, 7, 1, 1, 1],
                      stars={1: Stars(owned=2), 2: Stars(owned=1)})
    state, events = act(state, C.BattleCast(player=1, spell="SP05"))
    assert state.stars[1].power == 0 and of(events, "battle_dice")[0].outcomes == ["kill", "kill"]
    assert of(events, "casualties_taken")[0].kills == {"archers": 2}  # no choice: all archers
    side = battle(state).side(2)
    assert (side.killed, side.lost) == (0, 2)
    state, events = passes(state)
    after = [e.type for e in events]
    assert "overrun" not in after[:after.index("combat_round", after.index("combat_round") + 1) + 2]


@pytest.mark.rule("BM-CMB-8", "BM-CMB-25", "BM-A-3")
def test_the_winners_routed_rejoin_and_the_losers_routed_are_destroyed() -> None:
    state, _ = combat({"N05": {1: {"infantry": 2}, 2: {"infantry": 2}}}, dice=[9, 6, 6, 1])
    state, events = passes(state)
    ended = of(events, "battle_ended")[0]
    assert ended.winner == 1 and ended.destroyed == {2: {"infantry": 1}}
    assert state.troops["N05"] == {1: Troops(infantry=2)}


@pytest.mark.rule("BM-CMB-9", "BM-CTL-1", "BM-MON-8", "BM-A-35")
def test_the_winner_controls_the_region_only_with_an_army_unit() -> None:
    city = {"N05": CityMark(kind="city", since=0)}
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[9, 1], cities=city)
    assert state.controller("N05") is None  # shared during the battle
    state, _ = passes(state)
    state, _ = act(state, C.Plunder(player=1, yes=False))
    assert state.controller("N05") == 1 and "N05" in state.cities  # the city passes to him
    monsters, _ = combat({"N05": {1: {"giant": 1}, 2: {"infantry": 1}}}, dice=[8, 1], cities=city)
    monsters, events = passes(monsters)
    assert of(events, "battle_ended")[0].winner == 1 and monsters.troops["N05"] == {1: Troops(giant=1)}
    assert monsters.controller("N05") is None


@pytest.mark.rule("BM-CMB-10")
def test_raise_the_dead_after_a_won_battle_with_two_enemy_dead() -> None:
    state, _ = combat({"N05": {1: {"infantry": 3}, 2: {"infantry": 2}}}, races=("DRK", "ORC"), dice=[10, 10, 1, 1, 1])
    state, events = passes(state)
    assert of(events, "dead_raised")[0].player == 1 and state.troops["N05"][1].infantry == 4
    one, _ = combat({"N05": {1: {"infantry": 3}, 2: {"infantry": 1}}}, races=("DRK", "ORC"), dice=[10, 1, 1, 1])
    one, events = passes(one)
    assert not of(events, "dead_raised") and one.troops["N05"][1].infantry == 3
    full, _ = combat({"N05": {1: {"infantry": 10}, 2: {"infantry": 2}}}, races=("DRK", "ORC"),
                     dice=[10, 10, 1, 1, 1])
    full, events = passes(full)
    assert not of(events, "dead_raised") and full.troops["N05"][1].infantry == 10  # the stacking limit
    monsters, _ = combat({"N05": {1: {"giant": 1, "dragon": 1}, 2: {"infantry": 2}}}, races=("DRK", "ORC"),
                         dice=[6, 8, 1, 1])
    monsters, events = passes(monsters)
    assert of(events, "dead_raised") and monsters.controller("N05") == 1  # the raised infantry gives control


@pytest.mark.rule("BM-PLU-1", "BM-PLU-2")
def test_plunder_destroys_the_city_for_resources() -> None:
    city = {"N05": CityMark(kind="city", since=0)}
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[9, 1], cities=city)
    state, _ = passes(state)
    assert kinds(C.pending(state)) == [(1, "plunder")] and C.timeout_combat(state, 1) == C.Plunder(player=1, yes=False)
    assert refused(state, C.Plunder(player=2, yes=True)).code == "BM_E_PLUNDER_INVALID"
    state, events = act(state, C.Plunder(player=1, yes=True))
    assert of(events, "plundered")[0].gain == {"grain": 2, "wood": 2, "iron": 2} and "N05" not in state.cities
    assert state.stock[1] == Stock(grain=2, wood=2, iron=2) and C.finished(state)
    large = {"N05": CityMark(kind="large_city", since=0)}
    raiders, _ = combat({"N05": {1: {"giant": 1}, 2: {"infantry": 1}}}, races=("KHR", "ORC"), dice=[8, 1], cities=large)
    raiders, _ = passes(raiders)
    raiders, events = act(raiders, C.Plunder(player=1, yes=True))  # even with only monsters left
    assert of(events, "plundered")[0].gain == {"grain": 8, "wood": 8, "iron": 8}  # 4/4/4, doubled for K'har
    lost, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[1, 9], cities=city)
    lost, _ = passes(lost)
    assert C.finished(lost) and "N05" in lost.cities  # only a winning attacker plunders


@pytest.mark.rule("BM-HER-6", "BM-HER-7")
def test_the_hero_reroll_once_per_combat_round() -> None:
    heroes = [HeroToken(owner=1, number=1, region="N05", life=5), HeroToken(owner=1, number=2, region="N05", life=5)]
    state, _ = combat({"N05": {1: {"archers": 1, "infantry": 2}, 2: {"infantry": 3}}}, heroes=heroes,
                      dice=[1, 1, 1, 1, 6, 6, 1, 1, 1])
    state, _ = passes(state)
    assert kinds(C.pending(state)) == [(1, "reroll")] and C.timeout_combat(state, 1) == C.Reroll(player=1)
    assert refused(state, C.Reroll(player=2, die=1)).code == "BM_E_REROLL_USED"  # he has no hero there
    assert refused(state, C.Reroll(player=1, die=2)).code == "BM_E_REROLL_DIE"
    state, events = act(state, C.Reroll(player=1, die=1))
    assert [(e.old, e.new) for e in of(events, "rerolled")] == [(1, 1)]  # the second result stands
    assert battle(state).round == 1 and kinds(C.pending(state)) == [(1, "casualties")]
    assert battle(state).roll_of(1) is None and not battle(state).undecided  # two heroes: one re-roll a round
    assert refused(state, C.Reroll(player=1, die=1)).code == "BM_E_REROLL_USED"
    state, _ = act(state, C.AssignCasualties(player=1, routs={"infantry": 1, "archers": 1}))
    state, _ = act(state, C.BattlePass(player=1))  # the rally: 1 + 2 = 3, nobody returns
    assert battle(state).round == 2 and kinds(C.pending(state)) == [(1, "reroll")]  # a new round, a new re-roll


def test_a_used_or_heroless_reroll_is_refused() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, dice=[1, 1])
    state, _ = passes(state)
    assert all(d.kind != "reroll" for d in C.pending(state))
    heroes = [HeroToken(owner=1, number=1, region="N05", life=5)]
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1}}}, heroes=heroes, dice=[1, 6])
    state, _ = passes(state)
    b = battle(state)
    used = copy(state)
    used.combat = replace(state.combat, battle=replace(b.with_side(replace(b.side(1), rerolled=True)), undecided=()))
    assert refused(used, C.Reroll(player=1, die=1)).code == "BM_E_REROLL_USED"
    assert refused(used, C.Reroll(player=1)).code == "BM_E_REROLL_USED"


def test_a_battle_in_progress_survives_the_json_round_trip() -> None:
    state, _ = combat({"N05": {1: {"infantry": 2}, 2: {"infantry": 2, "giant": 1}}}, dice=[9, 6, 1, 1, 1],
                      options=BMOptions(auto_casualties=True), combat=Combat(standing={1: ("archers",)}))
    state, _ = passes(state)
    again = from_json(BMState, to_json(state))
    assert again.combat == state.combat and to_json(again) == to_json(state)


def test_a_battle_leaves_the_position_it_was_given_unchanged() -> None:
    state, _ = combat({"N05": {1: {"infantry": 2}, 2: {"infantry": 2, "giant": 1}}},
                      cities={"N05": CityMark(kind="city", since=0)})
    before = snapshot(state)
    timeouts(state)
    assert snapshot(state) == before


@pytest.mark.rule("BM-CMB-7", "BM-HER-6")
def test_once_every_attacker_is_dead_nobody_rolls_again_and_no_reroll_is_offered() -> None:
    heroes = [HeroToken(owner=2, number=1, region="N05", life=5)]
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"archers": 1, "infantry": 2}}}, dice=[8, 1, 1, 1],
                      heroes=heroes)
    state, events = passes(state)
    assert dice(events) == [(2, "archery", ["archers"], [8])]  # no melee dice against nobody
    assert of(events, "battle_ended")[0].winner == 2 and C.finished(state) and C.pending(state) == []
    assert state.rng.forced == [1, 1, 1]  # the dice are left for whatever comes next


@pytest.mark.rule("BM-CMB-7")
def test_once_every_defender_is_dead_or_routed_the_round_ends() -> None:
    state, _ = combat({"N05": {1: {"archers": 2, "cavalry": 2, "infantry": 3}, 2: {"infantry": 2}}},
                      dice=[8, 6, 1, 1, 1, 1, 1])
    state, events = passes(state)
    assert dice(events) == [(1, "archery", ["archers"] * 2, [8, 6])]  # a kill and a rout: no one active is left
    ended = of(events, "battle_ended")[0]
    assert ended.winner == 1 and ended.destroyed == {2: {"infantry": 1}}  # the routed one is destroyed
    assert state.rng.forced == [1] * 5 and of(events, "combat_round")[-1].round == 1


@pytest.mark.rule("BM-CMB-7", "BM-A-4")
def test_both_sides_emptied_in_one_step_destroy_both_without_further_steps() -> None:
    state, _ = combat({"N05": {1: {"archers": 1}, 2: {"archers": 1}}}, dice=[8, 8, 1, 1])
    state, events = passes(state)
    assert [(p, step) for p, step, _, _ in dice(events)] == [(1, "archery"), (2, "archery")]
    assert of(events, "battle_ended")[0].winner is None and "N05" not in state.troops
    assert state.rng.forced == [1, 1]


@pytest.mark.rule("BM-HER-6", "BM-MON-1")
def test_no_reroll_when_the_dice_already_kill_every_active_enemy() -> None:
    heroes = [HeroToken(owner=1, number=1, region="N05", life=5)]
    state, _ = combat({"N05": {1: {"archers": 2, "infantry": 1}, 2: {"giant": 1}}}, dice=[8, 1, 1, 1],
                      heroes=heroes)
    state, events = passes(state)
    assert dice(events) == [(1, "archery", ["archers"] * 2, [8, 1])]  # the giant is killed: nothing to improve
    assert of(events, "battle_ended")[0].winner == 1 and C.pending(state) == []
    assert state.rng.forced == [1, 1]


@pytest.mark.rule("BM-CMB-7", "BM-WIN-1")
def test_a_fireball_killing_the_whole_defending_army_ends_the_battle_at_once() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 1, "giant": 1}}}, dice=[6, 9, 1, 1],
                      stars={1: Stars(owned=2), 2: Stars(owned=2)})
    state, events = act(state, C.BattleCast(player=1, spell="SP05"))
    assert of(events, "battle_ended")[0].winner == 1 and not of(events, "combat_round")
    assert C.finished(state) and state.troops["N05"] == {1: Troops(infantry=1)} and state.rng.forced == [1, 1]


@pytest.mark.rule("BM-CMB-7", "BM-CMB-25")
def test_a_defender_routed_whole_by_terror_keeps_his_window_then_loses_round_one() -> None:
    state, _ = combat({"N05": {1: {"infantry": 1}, 2: {"infantry": 2}}}, dice=[1, 1],
                      stars={1: Stars(owned=2), 2: Stars(owned=1)})
    state, _ = act(state, C.BattleCast(player=1, spell="SP06"))
    state, events = passes(state)
    assert not of(events, "battle_dice") and of(events, "battle_ended")[0].destroyed == {2: {"infantry": 2}}
    assert state.troops["N05"] == {1: Troops(infantry=1)} and state.rng.forced == [1, 1]


@pytest.mark.rule("BM-CMB-20", "BM-VAL-0")
def test_the_archery_order_is_checked_before_the_totals() -> None:
    """Reference ruling 2: casualties check the units named, then monster routs, then the step's order, then the
    totals."""
    troops = {"N05": {1: {"archers": 2}, 2: {"infantry": 2, "cavalry": 1, "archers": 1}}}
    state, _ = combat(troops, dice=[8, 8, 1])
    state, _ = passes(state)
    assert kinds(C.pending(state)) == [(2, "casualties")]
    assert refused(state, C.AssignCasualties(player=2, kills={"archers": 1})).code == "BM_E_ARCHER_CASUALTY"
    assert refused(state, C.AssignCasualties(player=2, kills={"infantry": 1})).code == "BM_E_CASUALTY_COUNT"
    cavalry = {"N05": {1: {"cavalry": 2}, 2: {"cavalry": 1, "infantry": 1, "archers": 1}}}
    state, _ = combat(cavalry, dice=[1, 6, 6, 1])
    state, _ = passes(state)
    assert refused(state, C.AssignCasualties(player=2, kills={"infantry": 1})).code == "BM_E_CAVALRY_CASUALTY"
