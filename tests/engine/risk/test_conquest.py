"""Scenario tests for conquest and the move-in that follows it (RISK-CONQ-1 … CONQ-5)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games.risk import RULESET
from engine.games.risk.state import RiskState
from tests.engine.risk.helpers import P1, P3, Interrupt, Phase, of_type, play, position, rejects

# Default 3-player deal: alaska, alberta → P1; kamchatka, japan → P3; alaska borders kamchatka.


def attack(source: str, target: str, **fields: Any) -> tuple[str, int, dict[str, Any]]:
    return ("attack", P1, {"source": source, "target": target, **fields})


def conquer(alaska: int = 8, dice: int | None = None) -> tuple[RiskState, list[Any]]:
    """P1 takes a 1-army Kamchatka from Alaska with the given dice (all sixes against a one)."""
    s = position(phase=Phase.ATTACK, armies={"alaska": alaska, "kamchatka": 1})
    d = min(3, alaska - 1) if dice is None else dice
    return play(s, attack("alaska", "kamchatka", dice=dice), dice=[6] * d + [1])


@pytest.mark.rule("RISK-CONQ-1")
def test_conquest_transfers_ownership_and_marks_the_turn() -> None:
    s = position(phase=Phase.ATTACK, armies={"alaska": 8, "kamchatka": 1})
    assert not s.conquered_this_turn
    after, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1])
    assert after.owner["kamchatka"] == P1
    assert after.conquered_this_turn is True
    (c,) = of_type(events, "conquered")
    assert (c.player, c.source, c.target, c.previous_owner) == (P1, "alaska", "kamchatka", P3)


@pytest.mark.rule("RISK-CONQ-1")
def test_a_battle_that_leaves_a_defender_conquers_nothing() -> None:
    s = position(phase=Phase.ATTACK, armies={"alaska": 8, "kamchatka": 3})
    after, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1, 1])
    assert after.owner["kamchatka"] == P3 and after.armies["kamchatka"] == 1
    assert after.conquered_this_turn is False
    assert of_type(events, "conquered") == [] and after.interrupt is None


@pytest.mark.rule("RISK-CONQ-2")
@pytest.mark.parametrize(("alaska", "dice", "lo", "hi"), [(8, None, 3, 7), (8, 2, 2, 7), (8, 1, 1, 7), (5, 3, 3, 4)])
def test_conquest_opens_occupy_with_min_dice_and_max_armies_minus_one(
    alaska: int, dice: int | None, lo: int, hi: int
) -> None:
    after, _ = conquer(alaska, dice)
    assert after.interrupt == Interrupt(
        kind="occupy", source="alaska", target="kamchatka", dice=lo, min=lo, max=hi, defender=P3
    )
    assert after.phase is Phase.ATTACK
    decisions = RULESET.pending(after)
    assert [(d.player, d.kind, d.detail["min"], d.detail["max"]) for d in decisions] == [(P1, "occupy", lo, hi)]


@pytest.mark.rule("RISK-CONQ-2")
def test_occupy_minimum_counts_the_dice_of_the_final_battle() -> None:
    # A 3-dice battle leaves one defender; the 1-die battle that takes it sets the minimum.
    s = position(phase=Phase.ATTACK, armies={"alaska": 9, "kamchatka": 3})
    s, _ = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1, 1])
    after, _ = play(s, attack("alaska", "kamchatka", dice=1), dice=[6, 1])
    assert after.interrupt is not None
    assert (after.interrupt.min, after.interrupt.max) == (1, 8)


@pytest.mark.rule("RISK-CONQ-3")
def test_nothing_but_the_move_is_accepted_while_occupy_is_pending() -> None:
    pending, _ = conquer(8)
    for act in [
        attack("alberta", "northwest_territory"),
        ("end_attack", P1),
        ("end_turn", P1),
        ("fortify", P1, {"source": "alberta", "target": "alaska", "count": 1}),
        ("trade", P1, {"cards": ["wild_1", "wild_2", "peru"]}),
        ("place", P1, {"territory": "alaska", "count": 1}),
    ]:
        err = rejects(pending, act, "E_PENDING_MOVE")
        assert "Kamchatka" in err.message and "3" in err.message and "7" in err.message


@pytest.mark.rule("RISK-CONQ-3")
def test_move_must_lie_between_min_and_max() -> None:
    pending, _ = conquer(8)
    rejects(pending, ("move", P1, {"count": 2}), "E_MOVE_MIN")
    rejects(pending, ("move", P1, {"count": 8}), "E_MOVE_MAX")
    rejects(pending, ("move", P1, {"count": 0}), "E_BAD_NUMBER")
    for n in (3, 5, 7):
        after, events = play(pending, ("move", P1, {"count": n}))
        assert (after.armies["alaska"], after.armies["kamchatka"]) == (8 - n, n)
        assert after.interrupt is None and after.phase is Phase.ATTACK
        assert [(m.source, m.target, m.count, m.kind) for m in of_type(events, "moved")] == [
            ("alaska", "kamchatka", n, "occupy")
        ]


@pytest.mark.rule("RISK-CONQ-3")
def test_move_without_a_conquest_is_refused() -> None:
    s = position(phase=Phase.ATTACK, armies={"alaska": 8})
    rejects(s, ("move", P1, {"count": 1}), "E_NOTHING_PENDING")


@pytest.mark.rule("RISK-CONQ-4")
@pytest.mark.parametrize(("alaska", "dice"), [(4, None), (3, None), (2, None), (4, 3)])
def test_move_is_automatic_when_min_equals_max(alaska: int, dice: int | None) -> None:
    after, events = conquer(alaska, dice)
    moved = alaska - 1
    assert after.interrupt is None
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (1, moved)
    assert [(m.count, m.kind) for m in of_type(events, "moved")] == [(moved, "occupy")]
    assert RULESET.pending(after)[0].kind == "attack"


@pytest.mark.rule("RISK-CONQ-5")
def test_conquered_territory_is_never_left_empty_and_source_keeps_one() -> None:
    pending, _ = conquer(5)
    rejects(pending, ("move", P1, {"count": 0}), "E_BAD_NUMBER")
    rejects(pending, ("move", P1, {"count": 5}), "E_MOVE_MAX")
    after, _ = play(pending, ("move", P1, {"count": 4}))
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (1, 4)
    assert min(after.armies.values()) >= 1


@pytest.mark.rule("RISK-CONQ-5")
def test_every_territory_keeps_an_army_through_chained_conquests() -> None:
    s = position(phase=Phase.ATTACK, armies={"alaska": 6, "kamchatka": 2, "japan": 3})
    # Alaska loses two, then takes Kamchatka with 3 dice: min = max = 3 moves in by itself.
    s, _ = play(s, attack("alaska", "kamchatka", until="conquer"), dice=[1, 1, 1, 6, 6, 6, 6, 1, 1, 1])
    assert (s.armies["alaska"], s.armies["kamchatka"]) == (1, 3)
    # Kamchatka (3) takes Japan with 2 dice: min = max = 2.
    s, _ = play(s, attack("kamchatka", "japan", until="conquer"), dice=[6, 6, 1, 1, 6, 6, 1])
    assert (s.armies["kamchatka"], s.armies["japan"]) == (1, 2)
    assert s.owner["japan"] == P1 and s.interrupt is None
    assert min(s.armies.values()) >= 1


@pytest.mark.rule("RISK-CONQ-3")
@pytest.mark.parametrize(("move", "alaska", "kamchatka"), [("max", 1, 7), ("min", 5, 3)])
def test_a_move_in_chosen_with_the_attack_is_made_at_once(move: str, alaska: int, kamchatka: int) -> None:
    s = position(phase=Phase.ATTACK, armies={"alaska": 8, "kamchatka": 1})
    after, events = play(s, attack("alaska", "kamchatka", dice=3, move=move), dice=[6, 5, 4, 1])
    assert after.interrupt is None and after.owner["kamchatka"] == P1
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (alaska, kamchatka)
    assert of_type(events, "moved")[0].count == kamchatka


@pytest.mark.rule("RISK-CONQ-3", "RISK-ATK-10")
def test_a_move_in_chosen_with_the_attack_waits_for_the_defender() -> None:
    s = position(phase=Phase.ATTACK, armies={"alaska": 8, "kamchatka": 1}, defender_dice="choose")
    waiting, _ = play(s, attack("alaska", "kamchatka", move="max"))
    assert waiting.interrupt is not None and waiting.interrupt.kind == "defend"
    after, _ = play(waiting, ("defend", P3, {"dice": 1}), dice=[6, 5, 4, 1])
    assert after.interrupt is None
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (1, 7)
