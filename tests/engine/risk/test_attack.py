"""Scenario tests for attacks: declaration, dice, battle resolution and attack-until (RISK-ATK-1 … ATK-25)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import to_json
from engine.games.risk import RULESET
from engine.games.risk import actions as A
from engine.games.risk.rules import battle
from engine.games.risk.state import RiskState
from tests.engine.risk.helpers import NEUTRAL, P1, P2, P3, Interrupt, Phase, of_type, play, position, rejects

# Default 3-player deal (round-robin in table order): alaska, alberta → P1; northwest_territory → P2;
# kamchatka, japan, greenland → P3. alaska borders kamchatka (across the sea) and northwest_territory.


def attack(source: str, target: str, **fields: Any) -> tuple[str, int, dict[str, Any]]:
    return ("attack", P1, {"source": source, "target": target, **fields})


def at_war(**kwargs: Any) -> RiskState:
    """P1 to move in the attack phase (pool empty)."""
    kwargs.setdefault("phase", Phase.ATTACK)
    return position(**kwargs)


def rolls(*groups: list[int]) -> list[int]:
    """Die faces of several battles, in order."""
    return [face for group in groups for face in group]


def battles(events: list[Any]) -> list[tuple[list[int], list[int], int, int]]:
    return [(b.attack_dice, b.defence_dice, b.attacker_losses, b.defender_losses) for b in of_type(events, "battle")]


# ---------------------------------------------------------------- declaring an attack


@pytest.mark.rule("RISK-ATK-1")
def test_attack_source_must_be_own_and_target_foreign() -> None:
    s = at_war(armies={"alaska": 5, "northwest_territory": 5, "kamchatka": 3})
    err = rejects(s, attack("northwest_territory", "alaska"), "E_NOT_OWNED")
    assert "Player2" in err.message
    rejects(s, attack("alaska", "alberta"), "E_ATTACK_OWN")
    after, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1, 1])
    assert [(b.source, b.target, b.defender) for b in of_type(events, "battle")] == [("alaska", "kamchatka", P3)]
    assert after.armies["kamchatka"] == 1


@pytest.mark.rule("RISK-ATK-1", "RISK-ATK-9")
def test_a_neutral_territory_may_be_attacked_and_defends_with_the_maximum() -> None:
    # Territories left by a resignation are Neutral; even under `choose` nobody is prompted (ruling 2).
    s = at_war(owner={"kamchatka": NEUTRAL}, armies={"alaska": 4, "kamchatka": 3}, defender_dice="choose")
    after, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1, 1])
    assert after.interrupt is None
    assert battles(events) == [([6, 6, 6], [1, 1], 0, 2)]
    assert of_type(events, "battle")[0].defender == NEUTRAL
    assert after.owner["kamchatka"] == NEUTRAL and after.armies["kamchatka"] == 1


@pytest.mark.rule("RISK-ATK-2")
def test_attack_target_must_border_source() -> None:
    s = at_war(armies={"alaska": 5})
    err = rejects(s, attack("alaska", "japan"), "E_NOT_ADJACENT")
    assert "Alaska" in err.message and "Japan" in err.message
    # The Alaska–Kamchatka sea lane counts as a border.
    after, events = play(s, attack("alaska", "kamchatka", dice=1), dice=[6, 1, 1])
    assert len(of_type(events, "battle")) == 1 and after.armies["kamchatka"] == 2


@pytest.mark.rule("RISK-ATK-3")
def test_attack_needs_two_armies_in_source() -> None:
    s = at_war(armies={"alaska": 1, "kamchatka": 1})
    err = rejects(s, attack("alaska", "kamchatka"), "E_TOO_FEW_ARMIES")
    assert "Alaska" in err.message
    after, _ = play(replace(s, armies={**s.armies, "alaska": 2}), attack("alaska", "kamchatka"),
                    dice=[1, 6])
    assert after.armies["alaska"] == 1 and after.armies["kamchatka"] == 1


@pytest.mark.rule("RISK-ATK-4")
def test_attacker_dice_between_one_and_armies_minus_one_capped_at_three() -> None:
    s = at_war(armies={"alaska": 3, "alberta": 10, "northwest_territory": 5})
    rejects(s, attack("alaska", "kamchatka", dice=0), "E_DICE_RANGE")
    rejects(s, attack("alberta", "northwest_territory", dice=4), "E_DICE_RANGE")
    err = rejects(s, attack("alaska", "kamchatka", dice=3), "E_TOO_MANY_DICE")
    assert "2" in err.message
    after, events = play(s, attack("alaska", "kamchatka", dice=2), dice=[5, 4, 1, 1])
    assert battles(events) == [([5, 4], [1, 1], 0, 2)]
    after, events = play(s, attack("alberta", "northwest_territory", dice=3), dice=[2, 2, 2, 6, 6])
    assert battles(events) == [([2, 2, 2], [6, 6], 2, 0)]
    assert after.armies["alberta"] == 8


@pytest.mark.rule("RISK-ATK-5")
@pytest.mark.parametrize(("armies", "expected"), [(2, 1), (3, 2), (4, 3), (9, 3)])
def test_default_dice_is_the_maximum(armies: int, expected: int) -> None:
    s = at_war(armies={"alaska": armies, "kamchatka": 5})
    faces = [1] * expected + [6, 6]
    _, events = play(s, attack("alaska", "kamchatka"), dice=faces)
    assert len(of_type(events, "battle")[0].attack_dice) == expected


@pytest.mark.rule("RISK-ATK-6")
def test_any_number_of_attacks_in_any_order() -> None:
    s = at_war(phase=Phase.REINFORCE, armies={"alaska": 6, "alberta": 6, "kamchatka": 9, "northwest_territory": 9})
    s, _ = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1, 1])
    assert s.phase is Phase.ATTACK
    s, _ = play(s, attack("alberta", "northwest_territory"), dice=[6, 6, 6, 1, 1])
    s, _ = play(s, attack("alaska", "northwest_territory"), dice=[6, 6, 6, 1, 1])
    s, _ = play(s, attack("alaska", "kamchatka", dice=1), dice=[6, 1, 1])
    assert s.armies["kamchatka"] == 6 and s.armies["northwest_territory"] == 5
    assert s.armies["alaska"] == 6 and s.armies["alberta"] == 6
    assert s.phase is Phase.ATTACK and s.current == P1


@pytest.mark.rule("RISK-ATK-7")
def test_armies_that_moved_in_may_attack_onward_at_once() -> None:
    s = at_war(armies={"alaska": 8, "kamchatka": 1, "japan": 2})
    s, _ = play(s, attack("alaska", "kamchatka"), dice=[6, 5, 4, 1])
    assert s.interrupt is not None and s.interrupt.kind == "occupy"
    s, _ = play(s, ("move", P1, {"count": 5}))
    assert s.armies["kamchatka"] == 5
    s, events = play(s, attack("kamchatka", "japan"), dice=[6, 6, 6, 1, 1])
    assert [(b.source, b.target) for b in of_type(events, "battle")] == [("kamchatka", "japan")]
    assert s.owner["japan"] == P1


# ---------------------------------------------------------------- defender dice


@pytest.mark.rule("RISK-ATK-8", "RISK-ATK-9")
@pytest.mark.parametrize(("defenders", "dice"), [(1, 1), (2, 2), (7, 2)])
def test_auto_max_defender_rolls_two_dice_only_with_two_armies(defenders: int, dice: int) -> None:
    s = at_war(armies={"alaska": 5, "kamchatka": defenders})
    after, events = play(s, attack("alaska", "kamchatka"), dice=[1, 1, 1, 6, 6])
    assert after.interrupt is None
    assert of_type(events, "battle")[0].defence_dice == [6, 6][:dice]
    assert after.armies["alaska"] == 5 - dice


@pytest.mark.rule("RISK-ATK-8")
def test_choosing_defender_may_roll_one_die_but_two_only_with_two_armies() -> None:
    s = at_war(armies={"alaska": 5, "kamchatka": 1, "northwest_territory": 3}, defender_dice="choose")
    one, _ = play(s, attack("alaska", "kamchatka"))
    rejects(one, ("defend", P3, {"dice": 2}), "E_DEFENDER_DICE")
    rejects(one, ("defend", P3, {"dice": 3}), "E_DICE_RANGE")
    three, _ = play(s, attack("alaska", "northwest_territory"))
    after, events = play(three, ("defend", P2, {"dice": 1}), dice=[1, 1, 1, 6])
    assert battles(events) == [([1, 1, 1], [6], 1, 0)]
    assert after.armies["alaska"] == 4 and after.armies["northwest_territory"] == 3


@pytest.mark.rule("RISK-ATK-10")
def test_choose_mode_asks_the_defender_after_the_attacker_announces_dice() -> None:
    s = at_war(armies={"alaska": 5, "kamchatka": 4}, defender_dice="choose")
    after, events = play(s, attack("alaska", "kamchatka", dice=2))
    assert after.interrupt == Interrupt(kind="defend", source="alaska", target="kamchatka", dice=2, defender=P3)
    declared = of_type(events, "attack_declared")
    assert [(e.player, e.dice, e.defender) for e in declared] == [(P1, 2, P3)]
    assert of_type(events, "battle") == []
    assert after.armies["alaska"] == 5 and after.armies["kamchatka"] == 4
    decisions = RULESET.pending(after)
    assert [(d.player, d.kind) for d in decisions] == [(P3, "defend")]
    rejects(after, ("end_turn", P1), "E_WAITING_DEFENDER")
    rejects(after, attack("alaska", "kamchatka"), "E_WAITING_DEFENDER")
    rejects(after, ("defend", P2, {"dice": 1}), "E_NOT_DEFENDER")


@pytest.mark.rule("RISK-ATK-11")
def test_both_sides_roll_together_once_the_defender_has_chosen() -> None:
    s = at_war(armies={"alaska": 5, "kamchatka": 4}, defender_dice="choose")
    declared, _ = play(s, attack("alaska", "kamchatka"), dice=[6, 2, 3, 5, 1])
    assert declared.rng.forced == [6, 2, 3, 5, 1], "no die may be rolled before the defender chooses"
    after, events = play(declared, ("defend", P3, {"dice": 2}))
    assert battles(events) == [([6, 3, 2], [5, 1], 0, 2)]
    assert after.rng.forced == []
    assert after.interrupt is None and after.phase is Phase.ATTACK
    assert after.armies["kamchatka"] == 2


@pytest.mark.rule("RISK-ATK-12")
@pytest.mark.parametrize(("defenders", "dice"), [(1, 1), (3, 2)])
def test_a_defender_who_times_out_rolls_the_maximum(defenders: int, dice: int) -> None:
    s = at_war(armies={"alaska": 5, "kamchatka": defenders}, defender_dice="choose")
    waiting, _ = play(s, attack("alaska", "kamchatka"))
    fallback = RULESET.timeout_actions(waiting, P3)
    assert fallback == [A.Defend(player=P3, dice=dice)]
    _, events = play(waiting, fallback[0], dice=[1, 1, 1, 6, 6])
    assert len(of_type(events, "battle")[0].defence_dice) == dice


# ---------------------------------------------------------------- resolving a battle


@pytest.mark.rule("RISK-ATK-13", "RISK-ATK-14", "RISK-ATK-15", "RISK-ATK-16")
def test_battle_helper_sorts_and_compares_pairwise() -> None:
    assert battle([2, 6, 4], [4, 5]) == (1, 1)  # 6>5, 4=4 (tie to defender)
    assert battle([1, 1, 6], [5, 2]) == (1, 1)  # sorted 6-1-1 vs 5-2: 6>5, 1<2
    assert battle([3, 5], [4, 6]) == (2, 0)  # sorted 5-3 vs 6-4
    assert battle([6, 6, 6], [5]) == (0, 1)  # a single comparison
    assert battle([2], [1, 6]) == (1, 0)  # highest defender die 6 is compared, not the first rolled
    assert battle([4], [4]) == (1, 0)


@pytest.mark.rule("RISK-ATK-13", "RISK-ATK-14")
def test_battle_sorts_dice_and_makes_min_of_both_counts_comparisons() -> None:
    s = at_war(armies={"alaska": 9, "kamchatka": 9})
    # attacker rolls 2-6-4, defender 4-5 → 6-4-2 vs 5-4: −1/−1
    after, events = play(s, attack("alaska", "kamchatka"), dice=[2, 6, 4, 4, 5])
    assert battles(events) == [([6, 4, 2], [5, 4], 1, 1)]
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (8, 8)
    # one attacking die against two defending dice: one comparison, against the higher die
    after, events = play(s, attack("alaska", "kamchatka", dice=1), dice=[5, 1, 4])
    assert battles(events) == [([5], [4, 1], 0, 1)]


@pytest.mark.rule("RISK-ATK-15")
def test_higher_attacker_die_kills_one_defender() -> None:
    s = at_war(armies={"alaska": 4, "kamchatka": 5})
    after, events = play(s, attack("alaska", "kamchatka", dice=1), dice=[4, 3, 2])
    assert battles(events) == [([4], [3, 2], 0, 1)]
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (4, 4)


@pytest.mark.rule("RISK-ATK-16")
def test_ties_go_to_the_defender() -> None:
    s = at_war(armies={"alaska": 4, "kamchatka": 5})
    after, events = play(s, attack("alaska", "kamchatka", dice=2), dice=[5, 3, 5, 3])
    assert battles(events) == [([5, 3], [5, 3], 2, 0)]
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (2, 5)


@pytest.mark.rule("RISK-ATK-17")
@pytest.mark.parametrize(
    ("faces", "losses"),
    [([1, 1, 1, 6, 6], (2, 0)), ([6, 6, 6, 1, 1], (0, 2)), ([6, 1, 1, 5, 5], (1, 1)), ([1, 1, 1, 6], (1, 0))],
)
def test_one_roll_removes_at_most_two_armies(faces: list[int], losses: tuple[int, int]) -> None:
    defenders = 1 if len(faces) == 4 else 5
    s = at_war(armies={"alaska": 10, "kamchatka": defenders})
    after, events = play(s, attack("alaska", "kamchatka"), dice=faces)
    (b,) = of_type(events, "battle")
    assert (b.attacker_losses, b.defender_losses) == losses
    assert after.armies["alaska"] == 10 - losses[0]


# ---------------------------------------------------------------- attack until


@pytest.mark.rule("RISK-ATK-18")
def test_until_conquer_repeats_battles_between_the_same_territories() -> None:
    s = at_war(armies={"alaska": 10, "kamchatka": 5})
    faces = rolls([1, 1, 1, 6, 6], [6, 6, 6, 1, 1], [6, 6, 6, 1, 1], [6, 6, 6, 1])
    after, events = play(s, attack("alaska", "kamchatka", until="conquer"), dice=faces)
    assert len(of_type(events, "battle")) == 4
    assert {(b.source, b.target) for b in of_type(events, "battle")} == {("alaska", "kamchatka")}
    assert after.owner["kamchatka"] == P1
    assert after.interrupt is not None and after.interrupt.kind == "occupy" and after.interrupt.max == 7


@pytest.mark.rule("RISK-ATK-18")
def test_until_once_fights_a_single_battle() -> None:
    s = at_war(armies={"alaska": 10, "kamchatka": 5})
    after, events = play(s, attack("alaska", "kamchatka", until="once"), dice=[6, 6, 6, 1, 1] * 3)
    assert len(of_type(events, "battle")) == 1
    assert after.armies["kamchatka"] == 3 and after.owner["kamchatka"] == P3


@pytest.mark.rule("RISK-ATK-19")
def test_loop_dice_shrink_with_the_attacking_army() -> None:
    s = at_war(armies={"alaska": 5, "kamchatka": 9})
    # 3 dice (5 armies) → lose 2 → 2 dice (3 armies) → lose 2 → 1 army: stop
    faces = rolls([1, 1, 1, 6, 6], [1, 1, 6, 6])
    after, events = play(s, attack("alaska", "kamchatka", until="conquer"), dice=faces)
    assert [len(b.attack_dice) for b in of_type(events, "battle")] == [3, 2]
    assert [len(b.defence_dice) for b in of_type(events, "battle")] == [2, 2]
    assert after.armies["alaska"] == 1 and after.armies["kamchatka"] == 9


@pytest.mark.rule("RISK-ATK-19")
def test_loop_keeps_the_requested_dice_count_when_smaller() -> None:
    s = at_war(armies={"alaska": 9, "kamchatka": 3})
    faces = rolls([6, 1, 1], [6, 1, 1], [6, 1])
    after, events = play(s, attack("alaska", "kamchatka", dice=1, until="conquer"), dice=faces)
    assert [len(b.attack_dice) for b in of_type(events, "battle")] == [1, 1, 1]
    assert [len(b.defence_dice) for b in of_type(events, "battle")] == [2, 2, 1]
    assert after.interrupt is not None and (after.interrupt.min, after.interrupt.max) == (1, 8)


@pytest.mark.rule("RISK-ATK-20")
def test_loop_without_standing_choice_uses_maximum_and_does_not_prompt() -> None:
    s = at_war(armies={"alaska": 10, "kamchatka": 3}, defender_dice="choose")
    act = attack("alaska", "kamchatka", until="conquer", keep=6)
    after, events = play(s, act, dice=[1, 1, 1, 6, 6] * 2)
    assert of_type(events, "attack_declared") == []
    assert [len(b.defence_dice) for b in of_type(events, "battle")] == [2, 2]
    assert after.interrupt is None and after.armies["alaska"] == 6


@pytest.mark.rule("RISK-ATK-20")
def test_loop_uses_the_defenders_standing_choice() -> None:
    s = at_war(armies={"alaska": 10, "kamchatka": 5}, defender_dice="choose")
    s, _ = play(s, attack("alaska", "kamchatka"))
    s, events = play(s, ("defend", P3, {"dice": 1, "always": True}), dice=[1, 1, 1, 6])
    assert [len(b.defence_dice) for b in of_type(events, "battle")] == [1]
    after, events = play(s, attack("alaska", "kamchatka", until="conquer", keep=6), dice=[1, 1, 1, 6] * 3)
    assert after.interrupt is None
    assert [len(b.defence_dice) for b in of_type(events, "battle")] == [1, 1, 1]
    assert after.armies["alaska"] == 6


@pytest.mark.rule("RISK-ATK-20")
def test_answering_without_always_keeps_the_standing_choice() -> None:
    # Project ruling 1: a one-off answer leaves the standing choice alone; only `always:true` changes it.
    s = at_war(armies={"alaska": 12, "kamchatka": 9}, defender_dice="choose")
    s, _ = play(s, attack("alaska", "kamchatka"))
    s, _ = play(s, ("defend", P3, {"dice": 1, "always": True}), dice=[1, 1, 1, 6])
    s, _ = play(s, attack("alaska", "kamchatka"))
    s, _ = play(s, ("defend", P3, {"dice": 2, "always": False}), dice=[1, 1, 1, 6, 6])
    assert s.standing_defence[P3] == 1
    _, events = play(s, attack("alaska", "kamchatka", until="conquer", keep=8), dice=[1, 1, 1, 6])
    assert of_type(events, "battle")[0].defence_dice == [6]


@pytest.mark.rule("RISK-ATK-21", "RISK-ATK-19")
def test_loop_stops_on_conquest_with_the_last_battles_dice_as_minimum() -> None:
    s = at_war(armies={"alaska": 5, "kamchatka": 3})
    # 3 dice: −2 attacker (3 left) → 2 dice: −2 defender (1 left) → 2 dice vs 1: conquest with 2 dice
    faces = rolls([1, 1, 1, 6, 6], [6, 6, 1, 1], [6, 6, 1])
    after, events = play(s, attack("alaska", "kamchatka", until="conquer"), dice=faces)
    assert len(of_type(events, "battle")) == 3
    assert len(of_type(events, "conquered")) == 1
    # min = 2 = max = 3 − 1, so the move is made automatically
    assert [(m.count, m.kind) for m in of_type(events, "moved")] == [(2, "occupy")]
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (1, 2)


@pytest.mark.rule("RISK-ATK-21")
def test_loop_conquest_opens_occupy_with_min_of_final_dice() -> None:
    s = at_war(armies={"alaska": 10, "kamchatka": 2})
    after, events = play(s, attack("alaska", "kamchatka", dice=2, until="conquer"), dice=[6, 6, 1, 1])
    assert len(of_type(events, "battle")) == 1
    assert after.interrupt is not None
    assert (after.interrupt.kind, after.interrupt.min, after.interrupt.max) == ("occupy", 2, 9)


@pytest.mark.rule("RISK-ATK-22")
def test_loop_stops_when_source_is_down_to_keep() -> None:
    s = at_war(armies={"alaska": 8, "kamchatka": 9})
    faces = [1, 1, 1, 6, 6] * 5
    after, events = play(s, attack("alaska", "kamchatka", until="conquer", keep=4), dice=faces)
    assert len(of_type(events, "battle")) == 2  # 8 → 6 → 4
    assert after.armies["alaska"] == 4 and after.armies["kamchatka"] == 9
    assert after.phase is Phase.ATTACK and after.interrupt is None


@pytest.mark.rule("RISK-ATK-22")
def test_loop_stops_below_keep_when_a_battle_overshoots() -> None:
    s = at_war(armies={"alaska": 6, "kamchatka": 9})
    after, events = play(s, attack("alaska", "kamchatka", until="conquer", keep=5), dice=[1, 1, 1, 6, 6] * 3)
    assert len(of_type(events, "battle")) == 1
    assert after.armies["alaska"] == 4


@pytest.mark.rule("RISK-ATK-22")
def test_loop_with_keep_already_reached_fights_no_battle() -> None:
    # Project ruling 23: nothing changes and the bot says so (privately).
    s = at_war(armies={"alaska": 3, "kamchatka": 9})
    act = attack("alaska", "kamchatka", until="conquer", keep=3)
    try:
        after, events = play(s, act, dice=[6, 6, 6, 1, 1] * 3)
    except RuleError as err:  # a refusal is an acceptable way to say so
        assert err.message
        return
    assert of_type(events, "battle") == []
    assert after.armies == s.armies and after.owner == s.owner


@pytest.mark.rule("RISK-ATK-23")
def test_loop_stops_when_source_cannot_attack_any_more() -> None:
    s = at_war(armies={"alaska": 4, "kamchatka": 9})
    faces = rolls([1, 1, 1, 6, 6], [1, 6, 6], [1, 6, 6])
    after, events = play(s, attack("alaska", "kamchatka", until="conquer"), dice=faces)
    assert [len(b.attack_dice) for b in of_type(events, "battle")] == [3, 1]
    assert after.armies["alaska"] == 1
    assert after.rng.forced == [1, 6, 6], "no battle after the source is down to 1 army"
    rejects(after, attack("alaska", "kamchatka"), "E_TOO_FEW_ARMIES")


@pytest.mark.rule("RISK-ATK-24")
def test_every_battle_of_a_loop_is_logged() -> None:
    s = at_war(armies={"alaska": 10, "kamchatka": 4})
    faces = rolls([3, 2, 1, 4, 4], [6, 5, 1, 5, 5], [2, 1, 6, 1, 1], [6, 1, 1, 2])
    after, events = play(s, attack("alaska", "kamchatka", until="conquer"), dice=faces)
    assert battles(events) == [
        ([3, 2, 1], [4, 4], 2, 0),
        ([6, 5, 1], [5, 5], 1, 1),
        ([6, 2, 1], [1, 1], 0, 2),
        ([6, 1, 1], [2], 0, 1),
    ]
    assert [e.type for e in events][:4] == ["battle"] * 4
    assert after.armies["alaska"] == 7


@pytest.mark.rule("RISK-ATK-25")
def test_loop_equals_single_attacks_with_the_same_dice() -> None:
    start = at_war(armies={"alaska": 6, "kamchatka": 4})
    rounds = [[3, 2, 1, 4, 4], [6, 5, 1, 5, 5], [6, 6, 1, 1], [6, 2, 1]]
    looped, loop_events = play(start, attack("alaska", "kamchatka", until="conquer"), dice=rolls(*rounds))
    single = start
    single_events: list[Any] = []
    for faces in rounds:
        single, events = play(single, attack("alaska", "kamchatka"), dice=faces)
        single_events += events
    assert battles(loop_events) == battles(single_events)
    assert [to_json(e) for e in loop_events] == [to_json(e) for e in single_events]
    for field in ("owner", "armies", "interrupt", "phase", "conquered_this_turn", "hands"):
        assert getattr(looped, field) == getattr(single, field), field
    assert looped.owner["kamchatka"] == P1 and looped.armies["kamchatka"] == 2
