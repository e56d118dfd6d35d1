"""Turn structure: seat order, the REINFORCE → ATTACK → FORTIFY state machine and its exits (RISK-TURN-*)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.games.risk import RULESET, pending
from engine.games.risk.state import RiskState
from tests.engine.risk.helpers import (
    IDS,
    NEUTRAL,
    P1,
    P2,
    P3,
    P4,
    Phase,
    new,
    of_type,
    play,
    position,
    rejects,
)

# Table order round-robin with 3 players: alaska (#0) is P1's, kamchatka (#29) is P3's, alberta (#3) is P1's.
ATTACK_KAMCHATKA = ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3, "until": "conquer"})
CONQUERING_DICE = [6, 6, 6, 1]
FOUR_CARDS = ["alaska", "peru", "greenland", "japan"]
FIVE_CARDS = ["alaska", "peru", "venezuela", "greenland", "japan"]


def leave_action(kind: str) -> tuple[Any, ...]:
    """One of the four commands that leave REINFORCE or ATTACK, legal in the default 3-player position."""
    return {
        "attack": ATTACK_KAMCHATKA,
        "end_attack": ("end_attack", P1),
        "fortify": ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 2}),
        "end_turn": ("end_turn", P1),
    }[kind]


def decision(state: RiskState) -> tuple[int, str]:
    (d,) = pending(state)
    return d.player, d.kind


@pytest.mark.rule("RISK-TURN-1")
def test_turns_pass_to_the_next_seat_and_wrap_around() -> None:
    s = position(3, phase=Phase.FORTIFY, current=P1)
    order = []
    for _ in range(4):
        s, events = play(s, ("end_turn", s.current))
        (started,) = of_type(events, "turn_started")
        assert started.player == s.current
        order.append(s.current)
        # The new player places their pool so that they may end their turn.
        s, _ = play(s, ("place", s.current, {"territory": s.territories_of(s.current)[0], "count": s.pool}))
    assert order == [P2, P3, P1, P2]


@pytest.mark.rule("RISK-TURN-1")
def test_turn_order_skips_eliminated_and_resigned_players() -> None:
    # Four seats: P2 was eliminated (owns nothing), P3 resigned (its territories are Neutral).
    owner = {t: (P1 if k % 4 == 1 else NEUTRAL if k % 4 == 2 else None) for k, t in enumerate(IDS)}
    owner = {t: o for t, o in owner.items() if o is not None}
    s = position(4, owner=owner, eliminated=(P2,), resigned=(P3,), phase=Phase.FORTIFY, current=P1)
    s, events = play(s, ("end_turn", P1))
    assert s.current == P4
    assert [e.player for e in of_type(events, "turn_started")] == [P4]
    # From the last seat play wraps to the first living seat, P1.
    s = replace(s, phase=Phase.FORTIFY, pool=0)
    s, events = play(s, ("end_turn", P4))
    assert s.current == P1
    assert [e.player for e in of_type(events, "turn_started")] == [P1]


@pytest.mark.rule("RISK-TURN-2")
@pytest.mark.parametrize(
    ("options", "phase"),
    [
        ({}, Phase.SETUP_CLAIM),
        ({"setup": "random_deal"}, Phase.SETUP_PLACE),
        ({"mode": "secret_mission"}, Phase.SETUP_PLACE),
        ({"mode": "two_player"}, Phase.SETUP_PLACE_2P),
    ],
)
def test_setup_state_depends_on_mode(options: dict[str, str], phase: Phase) -> None:
    n = 2 if options.get("mode") == "two_player" else 3
    s = new(n, seed=5, **options)
    assert s.phase is phase
    assert s.turn == 0


@pytest.mark.rule("RISK-TURN-2")
def test_a_whole_turn_walks_through_the_state_machine() -> None:
    s = position(3, phase=Phase.FORTIFY, current=P3, armies={"alaska": 1, "kamchatka": 1})
    s, events = play(s, ("end_turn", P3))  # TURN_END of P3 → TURN_START of P1
    assert [e.type for e in events] == ["turn_started"]
    assert (s.phase, s.current, s.pool) == (Phase.REINFORCE, P1, 4)  # 14 territories → 4
    assert decision(s) == (P1, "reinforce")

    s, _ = play(s, ("place", P1, {"territory": "alaska", "count": 4}))
    assert s.phase is Phase.REINFORCE  # REINFORCE is left by a command, not by an empty pool
    s, events = play(s, ATTACK_KAMCHATKA, dice=CONQUERING_DICE)
    # 5 armies roll 3 dice and conquer; moving 3 or 4 is a choice: the OCCUPY sub-state of ATTACK.
    assert s.phase is Phase.ATTACK
    assert s.interrupt is not None and s.interrupt.kind == "occupy"
    assert (s.interrupt.min, s.interrupt.max) == (3, 4)
    assert decision(s) == (P1, "occupy")

    s, _ = play(s, ("move", P1, {"count": 3}))
    assert (s.phase, s.interrupt) == (Phase.ATTACK, None)
    assert decision(s) == (P1, "attack")

    s, _ = play(s, ("end_attack", P1))
    assert s.phase is Phase.FORTIFY
    assert decision(s) == (P1, "fortify")

    s, events = play(s, ("fortify", P1, {"source": "kamchatka", "target": "alaska", "count": 2}))
    assert [e.type for e in events] == ["moved", "turn_started"]
    assert (s.phase, s.current) == (Phase.REINFORCE, P2)


@pytest.mark.rule("RISK-TURN-2")
def test_defender_dice_is_a_sub_state_of_attack() -> None:
    s = position(3, phase=Phase.ATTACK, defender_dice="choose", armies={"alaska": 4, "kamchatka": 2})
    s, events = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}))
    assert s.phase is Phase.ATTACK
    assert s.interrupt is not None and s.interrupt.kind == "defend"
    assert decision(s) == (P3, "defend")
    assert of_type(events, "battle") == []
    rejects(s, ("end_attack", P1), "E_WAITING_DEFENDER")
    s, events = play(s, ("defend", P3, {"dice": 2}), dice=[6, 5, 1, 2, 1])
    # 6-2 and 5-1: both defenders fall, and the 3 possible armies move in by themselves.
    assert [e.type for e in events] == ["battle", "conquered", "moved"]
    assert (s.phase, s.interrupt) == (Phase.ATTACK, None)
    assert (s.owner["kamchatka"], s.armies["kamchatka"], s.armies["alaska"]) == (P1, 3, 1)


@pytest.mark.rule("RISK-TURN-2")
def test_victory_enters_game_over() -> None:
    # P3 is out; P2 holds only kamchatka. Taking it leaves P1 alone.
    owner = {t: P1 for t in IDS} | {"kamchatka": P2}
    s = position(3, owner=owner, eliminated=(P3,), phase=Phase.ATTACK, armies={"alaska": 4, "kamchatka": 1})
    s, events = play(s, ATTACK_KAMCHATKA, dice=CONQUERING_DICE)
    assert s.phase is Phase.GAME_OVER
    assert s.winner == P1
    assert [(e.player, e.reason) for e in of_type(events, "game_won")] == [(P1, "last_standing")]
    assert pending(s) == []
    rejects(s, ("end_turn", P1), "E_GAME_OVER")


@pytest.mark.rule("RISK-TURN-3", "RISK-TURN-4")
@pytest.mark.parametrize("kind", ["attack", "end_attack", "fortify", "end_turn"])
def test_reinforce_is_left_by_each_of_the_four_commands(kind: str) -> None:
    # A hand of 4 does not block leaving, nor does an empty pool.
    s = position(3, hands={P1: FOUR_CARDS}, armies={"alaska": 4, "kamchatka": 1})
    s, events = play(s, leave_action(kind), dice=CONQUERING_DICE)
    if kind == "attack":
        assert (s.phase, s.current) == (Phase.ATTACK, P1)
        assert s.owner["kamchatka"] == P1
    elif kind == "end_attack":
        assert (s.phase, s.current) == (Phase.FORTIFY, P1)
    else:
        assert (s.phase, s.current) == (Phase.REINFORCE, P2)
        assert [e.player for e in of_type(events, "turn_started")] == [P2]
    if kind == "fortify":
        assert (s.armies["alaska"], s.armies["alberta"]) == (2, 5)


@pytest.mark.rule("RISK-TURN-4")
@pytest.mark.parametrize("kind", ["attack", "end_attack", "fortify", "end_turn"])
def test_leaving_reinforce_needs_an_empty_pool(kind: str) -> None:
    s = position(3, pool=1, armies={"alaska": 4, "kamchatka": 1})
    err = rejects(s, leave_action(kind), "E_ARMIES_UNPLACED", dice=CONQUERING_DICE)
    assert err.params["n"] == 1


@pytest.mark.rule("RISK-TURN-4")
@pytest.mark.parametrize("kind", ["attack", "end_attack", "fortify", "end_turn"])
def test_leaving_reinforce_needs_a_hand_of_four_or_fewer(kind: str) -> None:
    s = position(3, hands={P1: FIVE_CARDS}, armies={"alaska": 4, "kamchatka": 1})
    rejects(s, leave_action(kind), "E_MUST_TRADE", dice=CONQUERING_DICE)
    # With a full pool as well, the hand is reported first.
    rejects(replace(s, pool=3), leave_action(kind), "E_MUST_TRADE", dice=CONQUERING_DICE)


@pytest.mark.rule("RISK-TURN-5")
def test_placing_the_last_army_does_not_leave_reinforce() -> None:
    s = position(3, pool=3, hands={P1: ["alaska", "peru", "venezuela"]})  # three Infantry
    s, events = play(s, ("place", P1, {"territory": "alaska", "count": 3}))
    assert [e.type for e in events] == ["placed"]
    assert (s.phase, s.current, s.pool) == (Phase.REINFORCE, P1, 0)
    # The bot prompts for what is left: the attack, and the trade the player may still make (ruling 37).
    assert decision(s) == (P1, "attack")
    assert "/risk trade" in RULESET.prompt(RULESET.pending(s)[0], s)
    s, events = play(s, ("trade", P1, {"cards": ["alaska", "peru", "venezuela"]}))
    assert (s.phase, s.pool) == (Phase.REINFORCE, 4)
    # Without a set in hand only the attack is left to decide.
    bare, _ = play(position(3, pool=3), ("place", P1, {"territory": "alaska", "count": 3}))
    assert decision(bare) == (P1, "attack")
    assert "/risk trade" not in RULESET.prompt(RULESET.pending(bare)[0], bare)


@pytest.mark.rule("RISK-TURN-6")
def test_end_attack_moves_to_fortify() -> None:
    s = position(3, phase=Phase.ATTACK, armies={"alaska": 4, "kamchatka": 1})
    s, events = play(s, ("end_attack", P1))
    assert (s.phase, s.current) == (Phase.FORTIFY, P1)
    assert of_type(events, "turn_started") == []
    assert decision(s) == (P1, "fortify")
    rejects(s, ATTACK_KAMCHATKA, "E_WRONG_PHASE", dice=CONQUERING_DICE)


@pytest.mark.rule("RISK-TURN-7", "RISK-CARD-22")
def test_fortify_during_attack_ends_the_attack_then_moves() -> None:
    s = position(3, phase=Phase.ATTACK, conquered=True, deck=["iceland", "japan"])
    s, events = play(s, ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 2}))
    # The attack closes first (the card is drawn), then the move is made and the turn ends.
    assert [e.type for e in events] == ["card_drawn", "moved", "turn_started"]
    assert (s.armies["alaska"], s.armies["alberta"]) == (1, 5)
    assert s.hands[P1] == ["iceland"]
    assert (s.phase, s.current) == (Phase.REINFORCE, P2)


@pytest.mark.rule("RISK-TURN-8")
def test_end_turn_during_attack_ends_the_attack_and_the_turn() -> None:
    s = position(3, phase=Phase.ATTACK, conquered=True, deck=["iceland", "japan"])
    s, events = play(s, ("end_turn", P1))
    assert [e.type for e in events] == ["card_drawn", "turn_started"]
    assert s.hands[P1] == ["iceland"]
    assert of_type(events, "moved") == []
    assert (s.phase, s.current) == (Phase.REINFORCE, P2)


@pytest.mark.rule("RISK-TURN-9")
def test_turn_end_clears_the_turn_fields() -> None:
    s = position(
        3, phase=Phase.ATTACK, conquered=True, card_bonus_taken=True, turn=7, deck=["iceland"],
    )
    s, events = play(s, ("end_turn", P1))
    (started,) = of_type(events, "turn_started")
    assert (s.current, s.phase, s.turn) == (P2, Phase.REINFORCE, 8)
    assert (started.player, started.turn) == (P2, 8)
    assert s.conquered_this_turn is False
    assert s.card_bonus_taken is False
    assert s.interrupt is None
    assert s.pool == started.total == 4  # P2's own reinforcements, nothing carried over


@pytest.mark.rule("RISK-TURN-9", "RISK-CARD-22")
def test_ending_a_turn_without_a_conquest_draws_nothing() -> None:
    # P1 ends in FORTIFY with nothing conquered: nothing is drawn and P2 starts clean.
    s = position(3, phase=Phase.FORTIFY, current=P1, deck=["iceland"])
    s, events = play(s, ("end_turn", P1))
    assert of_type(events, "card_drawn") == []
    assert s.hands[P1] == []
    assert s.deck == ["iceland"]
    assert (s.current, s.conquered_this_turn, s.card_bonus_taken, s.interrupt) == (P2, False, False, None)

