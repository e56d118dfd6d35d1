"""Validation: the check order (§5.1), the error catalogue (§5.2), per-command orders (§5.3), phase legality."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Seat
from engine.games.risk import RULESET, RiskOptions, RiskState
from engine.games.risk.setup import new_game
from engine.games.risk.text import mission_text
from tests.engine.risk.helpers import (
    BOARD,
    IDS,
    NEUTRAL,
    P1,
    P2,
    P3,
    Interrupt,
    Phase,
    new,
    of_type,
    play,
    position,
    rejects,
)

OUTSIDER = 999

# ---------------------------------------------------------------- builders


def game_over() -> RiskState:
    s = position(phase=Phase.GAME_OVER)
    return replace(s, winner=P1, interrupt=None)


def defending() -> RiskState:
    """P1 attacks Kamchatka (P3, 3 armies) from Alaska with 3 dice under `choose`: P3 must pick dice."""
    s = position(phase=Phase.ATTACK, defender_dice="choose", armies={"alaska": 5})
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}))
    assert s.interrupt is not None and s.interrupt.kind == "defend"
    return s


def occupying() -> RiskState:
    """P1 has just taken Kamchatka from Alaska (6 armies) with 3 dice: a move of 3..5 is pending."""
    s = position(phase=Phase.ATTACK, armies={"alaska": 6, "kamchatka": 1})
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}), dice=[6, 5, 4, 1])
    assert s.interrupt is not None and s.interrupt.kind == "occupy"
    assert (s.interrupt.min, s.interrupt.max) == (3, 5)
    return s


def last_stand_owner() -> dict[str, int]:
    """P3 keeps only Kamchatka; P3's other default territories go to P2."""
    base = position()
    return {t: (P2 if o == P3 and t != "kamchatka" else o) for t, o in base.owner.items()}


def elim_trade() -> RiskState:
    """P1 eliminates P3 (3 cards) holding 3 cards: 6 cards, so ELIM_TRADE is pending."""
    s = position(
        phase=Phase.ATTACK,
        owner=last_stand_owner(),
        armies={"alaska": 6, "kamchatka": 1},
        hands={P1: ["alaska", "venezuela", "northwest_territory"], P3: ["greenland", "quebec", "ontario"]},
    )
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}), dice=[6, 5, 4, 1])
    s, _ = play(s, ("move", P1, {"count": 3}))
    assert s.interrupt is not None and s.interrupt.kind == "elim_trade"
    assert len(s.hands[P1]) == 6
    return s


def elim_place() -> RiskState:
    """After trading the cavalry set (4 armies) P1 holds 3 cards and must place 4 armies."""
    s, _ = play(elim_trade(), ("trade", P1, {"cards": ["greenland", "quebec", "ontario"]}))
    assert s.interrupt is not None and s.interrupt.kind == "elim_place"
    assert s.pool == 4 and len(s.hands[P1]) == 3
    return s


def claiming() -> RiskState:
    """A fresh 3-player claim game: P1 claimed Alaska, P2 Alberta, P3 Greenland; P1 to claim again."""
    s = new(3, seed=1)
    assert s.phase is Phase.SETUP_CLAIM and s.current == P1
    for pid, t in ((P1, "alaska"), (P2, "alberta"), (P3, "greenland")):
        s, _ = play(s, ("claim", pid, {"territory": t}))
    assert s.current == P1
    return s


def two_player_setup() -> RiskState:
    s = new(2, seed=1, mode="two_player")
    assert s.phase is Phase.SETUP_PLACE_2P and s.current == P1
    return s


def first_of(s: RiskState, owner: int) -> str:
    return next(t for t in IDS if s.owner.get(t) == owner)


def placing(**options: Any) -> RiskState:
    s = new(3, seed=1, setup="random_deal", **options)
    assert s.phase is Phase.SETUP_PLACE and s.current == P1
    return s


# ---------------------------------------------------------------- ERR-1: refusals change nothing


@pytest.mark.rule("RISK-ERR-1")
def test_refused_command_changes_nothing_not_even_the_dice_or_trade_window() -> None:
    s = position(hands={P1: ["alaska", "venezuela", "peru"]}, armies={"alaska": 1})
    # A refused attack (1 army) leaves the state, the sequence number and the dice untouched...
    rejects(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), "E_TOO_FEW_ARMIES")
    with pytest.raises(RuleError):
        RULESET.apply(s, RULESET.parse_action({"type": "attack", "player": P1, "source": "alaska",
                                               "target": "kamchatka"}))
    assert s.seq == 0 and s.phase is Phase.REINFORCE
    # ... so the trading window stays open (ruling 5).
    s2, events = play(s, ("trade", P1, {"cards": ["alaska", "venezuela", "peru"]}))
    assert of_type(events, "cards_traded")[0].value == 4
    assert s2.seq == 1


# ---------------------------------------------------------------- §5.1 check order


@pytest.mark.rule("RISK-ERR-5", "RISK-ERR-22")
def test_game_over_is_checked_first() -> None:
    s = game_over()
    err = rejects(s, ("end_turn", OUTSIDER), "E_GAME_OVER")  # before E_NOT_PLAYER
    assert err.message == "This game is over — Player1 won. Start a new one with `/new`."
    rejects(s, ("end_turn", P2), "E_GAME_OVER")  # before E_NOT_YOUR_TURN
    rejects(s, ("attack", P1, {"source": "atlantis", "target": "x"}), "E_GAME_OVER")
    rejects(s, ("resign", P2), "E_GAME_OVER")
    rejects(s, ("remove", P1, {"target": P2}), "E_GAME_OVER")


@pytest.mark.rule("RISK-ERR-6", "RISK-ERR-23", "RISK-ERR-24")
def test_not_player_then_eliminated() -> None:
    s = position(eliminated=(P3,), resigned=(P2,), phase=Phase.ATTACK)
    err = rejects(s, ("end_turn", OUTSIDER), "E_NOT_PLAYER")
    assert err.message == "You are not playing in this game."
    rejects(s, ("defend", OUTSIDER, {"dice": 1}), "E_NOT_PLAYER")
    rejects(s, ("resign", OUTSIDER), "E_NOT_PLAYER")
    # Out players get E_ELIMINATED, before E_NOT_YOUR_TURN or E_NOTHING_PENDING.
    for pid in (P2, P3):
        err = rejects(s, ("end_turn", pid), "E_ELIMINATED")
        assert err.message == "You are out of this game and can no longer act in it."
        rejects(s, ("defend", pid, {"dice": 1}), "E_ELIMINATED")
        rejects(s, ("resign", pid), "E_ELIMINATED")


@pytest.mark.rule("RISK-ERR-7")
def test_resign_skips_turn_and_phase_checks() -> None:
    # P2 resigns while P1's attack waits for P3's defence dice: accepted, nothing about P1's turn changes.
    s = defending()
    s2, events = play(s, ("resign", P2))
    assert of_type(events, "player_left")[0].player == P2
    assert s2.player(P2).status == "resigned"
    assert all(s2.owner[t] == NEUTRAL for t in s.territories_of(P2))
    assert s2.current == P1 and s2.interrupt == s.interrupt
    # During a pending move-in, and during setup claims, a non-active player may resign as well.
    s3, _ = play(occupying(), ("resign", P2))
    assert s3.player(P2).status == "resigned" and s3.interrupt is not None and s3.interrupt.kind == "occupy"
    s4, _ = play(new(4, seed=1), ("resign", P3))
    assert s4.player(P3).status == "resigned" and s4.phase is Phase.SETUP_CLAIM


@pytest.mark.rule("RISK-ERR-7", "RISK-ERR-60")
def test_mission_lookup_outside_secret_mission() -> None:
    s = position()
    with pytest.raises(RuleError) as info:
        mission_text(s, P1)
    assert info.value.code == "E_NOT_MISSION_GAME"
    assert info.value.message == "This game has no secret missions."
    sm = position(mode="secret_mission", missions={P1: "M03", P2: "M05", P3: "M06"})
    assert "Conquer Asia and South America." in mission_text(sm, P1)


@pytest.mark.rule("RISK-ERR-8", "RISK-ERR-25")
def test_not_your_turn_comes_before_locks_phase_and_arguments() -> None:
    s = position(hands={P1: ["alaska", "alberta", "greenland", "peru", "iceland"]}, pool=3)
    err = rejects(s, ("end_turn", P2), "E_NOT_YOUR_TURN")
    assert err.message == "It's not your turn — it is Player1's turn (reinforcement)."
    rejects(s, ("attack", P2, {"source": "atlantis", "target": "ontario"}), "E_NOT_YOUR_TURN")
    rejects(s, ("claim", P3, {"territory": "alaska"}), "E_NOT_YOUR_TURN")
    rejects(s, ("place", P2, {"territory": "ontario", "count": 0}), "E_NOT_YOUR_TURN")
    rejects(position(phase=Phase.FORTIFY), ("trade", P2, {"cards": ["a", "b"]}), "E_NOT_YOUR_TURN")
    occ = occupying()
    rejects(occ, ("move", P3, {"count": 3}), "E_NOT_YOUR_TURN")
    rejects(elim_trade(), ("place", P2, {"territory": "ontario"}), "E_NOT_YOUR_TURN")
    rejects(claiming(), ("claim", P2, {"territory": "iceland"}), "E_NOT_YOUR_TURN")


@pytest.mark.rule("RISK-ERR-9", "RISK-ERR-16", "RISK-ERR-55")
def test_defend_skips_turn_checks_and_checks_pending_then_defender() -> None:
    s = defending()
    # The defender is not the active player, yet defend is accepted.
    s2, events = play(s, ("defend", P3, {"dice": 2}), dice=[6, 5, 4, 3, 2])
    assert of_type(events, "battle")[0].defence_dice == [3, 2]
    assert s2.armies["kamchatka"] == 1 and s2.interrupt is None
    # Nothing pending: E_NOTHING_PENDING even for a non-active player in a turn with gates that would fail.
    reinf = position(hands={P1: ["alaska", "alberta", "greenland", "peru", "iceland"]}, pool=3)
    err = rejects(reinf, ("defend", P2, {"dice": 1}), "E_NOTHING_PENDING")
    assert err.message == "There is nothing waiting for that command right now."
    rejects(reinf, ("defend", P2, {"dice": 7}), "E_NOTHING_PENDING")  # before E_DICE_RANGE
    rejects(occupying(), ("defend", P3, {"dice": 1}), "E_NOTHING_PENDING")
    # Someone else than the defender: E_NOT_DEFENDER, for the attacker too.
    rejects(s, ("defend", P2, {"dice": 1}), "E_NOT_DEFENDER")
    rejects(s, ("defend", P1, {"dice": 1}), "E_NOT_DEFENDER")


@pytest.mark.rule("RISK-ERR-10", "RISK-ERR-27")
def test_waiting_defender_locks_the_attacker() -> None:
    s = defending()
    err = rejects(s, ("end_turn", P1), "E_WAITING_DEFENDER")
    assert err.message == "Waiting for Player3 to choose defence dice for Kamchatka."
    for act in [
        ("attack", P1, {"source": "alaska", "target": "kamchatka"}),
        ("end_attack", P1),
        ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1}),
        ("trade", P1, {"cards": ["x"]}),  # not E_TRADE_NOT_NOW
        ("move", P1, {"count": 3}),  # not E_NOTHING_PENDING
        ("claim", P1, {"territory": "atlantis"}),  # not E_WRONG_PHASE or E_UNKNOWN_TERRITORY
    ]:
        rejects(s, act, "E_WAITING_DEFENDER")
    rejects(s, ("end_turn", P3), "E_NOT_YOUR_TURN")  # check 4 before check 5


@pytest.mark.rule("RISK-ERR-11", "RISK-ERR-28")
def test_pending_move_allows_only_move() -> None:
    s = occupying()
    err = rejects(s, ("end_turn", P1), "E_PENDING_MOVE")
    assert err.message == "First move armies into Kamchatka: choose between 3 and 5 (`/risk move`)."
    for act in [
        ("attack", P1, {"source": "alberta", "target": "northwest_territory"}),
        ("end_attack", P1),
        ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1}),
        ("trade", P1, {"cards": ["x"]}),
        ("place", P1, {"territory": "atlantis"}),
        ("claim", P1, {"territory": "alaska"}),
    ]:
        rejects(s, act, "E_PENDING_MOVE")
    s2, _ = play(s, ("move", P1, {"count": 4}))
    assert (s2.armies["alaska"], s2.armies["kamchatka"], s2.interrupt) == (2, 4, None)


@pytest.mark.rule("RISK-ERR-12", "RISK-ERR-30")
def test_elimination_trade_allows_only_trade() -> None:
    s = elim_trade()
    err = rejects(s, ("end_turn", P1), "E_MUST_TRADE_NOW")
    assert err.message == (
        "You now hold 6 cards after eliminating Player3: trade sets until you hold 4 or fewer before continuing."
    )
    for act in [
        ("place", P1, {"territory": "kamchatka"}),
        ("attack", P1, {"source": "kamchatka", "target": "japan"}),
        ("end_attack", P1),
        ("fortify", P1, {"source": "kamchatka", "target": "alaska", "count": 1}),
        ("move", P1, {"count": 1}),
        ("claim", P1, {"territory": "alaska"}),
    ]:
        rejects(s, act, "E_MUST_TRADE_NOW")
    s2, events = play(s, ("trade", P1, {"cards": ["greenland", "quebec", "ontario"]}))
    assert of_type(events, "cards_traded")[0].cards == ["greenland", "quebec", "ontario"]
    assert s2.interrupt is not None and s2.interrupt.kind == "elim_place" and s2.pool == 4


@pytest.mark.rule("RISK-ERR-13", "RISK-ERR-31", "RISK-ERR-46")
def test_elimination_placement_allows_only_place() -> None:
    s = elim_place()
    err = rejects(s, ("end_turn", P1), "E_ARMIES_UNPLACED")
    assert err.message == "You still have 4 armies to place."
    for act in [
        ("attack", P1, {"source": "kamchatka", "target": "japan"}),
        ("end_attack", P1),
        ("fortify", P1, {"source": "kamchatka", "target": "alaska", "count": 1}),
        ("move", P1, {"count": 1}),
    ]:
        rejects(s, act, "E_ARMIES_UNPLACED")
    err = rejects(s, ("trade", P1, {"cards": ["alaska", "venezuela", "northwest_territory"]}), "E_TRADE_MUST_STOP")
    assert err.message == (
        "You hold 3 cards — after an elimination you must stop trading once you are down to 4 or fewer."
    )
    s2, _ = play(s, ("place", P1, {"territory": "kamchatka", "count": 4}))
    assert s2.armies["kamchatka"] == 7 and s2.pool == 0 and s2.interrupt is None and s2.phase is Phase.ATTACK


@pytest.mark.rule("RISK-ERR-14", "RISK-ERR-26")
def test_wrong_phase_comes_before_reinforce_gates_and_arguments() -> None:
    s = position(phase=Phase.FORTIFY)
    err = rejects(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), "E_WRONG_PHASE")
    assert err.message == "You can't attack during the fortify phase. Allowed now: fortify, end your turn."
    rejects(position(phase=Phase.ATTACK), ("place", P1, {"territory": "atlantis", "count": 0}), "E_WRONG_PHASE")
    # During REINFORCE with 5 cards and a pool, a claim is still a phase error (check 6 before check 7).
    reinf = position(hands={P1: ["alaska", "alberta", "greenland", "peru", "iceland"]}, pool=3)
    rejects(reinf, ("claim", P1, {"territory": "alaska"}), "E_WRONG_PHASE")
    rejects(reinf, ("place_neutral", P1, {"territory": "alaska"}), "E_WRONG_PHASE")


@pytest.mark.rule("RISK-ERR-15", "RISK-ERR-41")
def test_trade_outside_its_windows() -> None:
    hand = {P1: ["alaska", "venezuela", "peru"]}
    for phase in (Phase.ATTACK, Phase.FORTIFY):
        err = rejects(position(phase=phase, hands=hand), ("trade", P1, {"cards": ["alaska", "venezuela", "peru"]}),
                      "E_TRADE_NOT_NOW")
        assert err.message.startswith("Cards can only be traded at the start of your turn")
        rejects(position(phase=phase, hands=hand), ("trade", P1, {"cards": ["alaska"]}), "E_TRADE_NOT_NOW")
    rejects(claiming(), ("trade", P1, {"cards": ["alaska", "venezuela", "peru"]}), "E_TRADE_NOT_NOW")
    # The first attack closes the window.
    s, _ = play(position(hands=hand, armies={"alaska": 4}),
                ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 1}), dice=[1, 6, 6])
    assert s.phase is Phase.ATTACK
    rejects(s, ("trade", P1, {"cards": ["alaska", "venezuela", "peru"]}), "E_TRADE_NOT_NOW")


@pytest.mark.rule("RISK-ERR-16", "RISK-ERR-72")
def test_move_with_nothing_pending() -> None:
    for phase in (Phase.REINFORCE, Phase.ATTACK, Phase.FORTIFY):
        rejects(position(phase=phase), ("move", P1, {"count": 2}), "E_NOTHING_PENDING")
        rejects(position(phase=phase), ("move", P1, {"count": 0}), "E_NOTHING_PENDING")  # before E_BAD_NUMBER
    rejects(position(phase=Phase.ATTACK), ("defend", P1, {"dice": 2}), "E_NOTHING_PENDING")


@pytest.mark.rule("RISK-ERR-17", "RISK-ERR-29")
def test_must_trade_with_five_cards() -> None:
    s = position(hands={P1: ["alaska", "alberta", "greenland", "peru", "iceland"]}, pool=3)
    err = rejects(s, ("place", P1, {"territory": "alaska"}), "E_MUST_TRADE")
    assert err.message == "You hold 5 cards — you must trade in a set (`/risk trade`) before doing anything else."
    for act in [
        ("attack", P1, {"source": "alaska", "target": "kamchatka"}),  # before E_ARMIES_UNPLACED
        ("end_attack", P1),
        ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1}),
        ("end_turn", P1),
        ("place", P1, {"territory": "atlantis", "count": 0}),  # before argument parsing
    ]:
        rejects(s, act, "E_MUST_TRADE")
    s2, _ = play(s, ("trade", P1, {"cards": ["alaska", "peru", "iceland"]}))
    assert len(s2.hands[P1]) == 2 and s2.pool == 3 + 4
    s3, _ = play(s2, ("place", P1, {"territory": "alaska", "count": 7}))
    assert s3.armies["alaska"] == 3 + 2 + 7  # +2 for the Alaska card


@pytest.mark.rule("RISK-ERR-18", "RISK-ERR-31")
def test_armies_unplaced_blocks_leaving_reinforce() -> None:
    s = position(pool=2, armies={"alaska": 5})
    err = rejects(s, ("end_turn", P1), "E_ARMIES_UNPLACED")
    assert err.message == "You still have 2 armies to place."
    for act in [
        ("attack", P1, {"source": "alaska", "target": "kamchatka"}),
        ("attack", P1, {"source": "atlantis", "target": "kamchatka"}),  # before argument parsing
        ("end_attack", P1),
        ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1}),
    ]:
        rejects(s, act, "E_ARMIES_UNPLACED")
    s2, _ = play(s, ("place", P1, {"territory": "alaska", "count": 2}))
    s3, _ = play(s2, ("end_attack", P1))
    assert s3.phase is Phase.FORTIFY


@pytest.mark.rule("RISK-ERR-19", "RISK-ERR-20", "RISK-ERR-32", "RISK-ERR-33", "RISK-ERR-34", "RISK-ERR-51")
def test_argument_parsing_before_command_checks() -> None:
    s = position(pool=3)
    err = rejects(s, ("place", P1, {"territory": "Ontaryo", "count": 99}), "E_UNKNOWN_TERRITORY")
    assert err.message.startswith("I don't know a territory called \"Ontaryo\". Did you mean: ")
    assert "Ontario" in err.message
    err = rejects(s, ("place", P1, {"territory": "Eastern", "count": 99}), "E_AMBIGUOUS_TERRITORY")
    assert "Quebec" in err.message and "Eastern United States" in err.message
    assert err.message.endswith("— please be more specific.")
    # E_BAD_NUMBER on a territory P1 does not own: parsing wins over E_NOT_OWNED.
    err = rejects(s, ("place", P1, {"territory": "ontario", "count": 0}), "E_BAD_NUMBER")
    assert err.message == "count must be a whole number of at least 1."
    rejects(s, ("place", P1, {"territory": "alaska", "count": -2}), "E_BAD_NUMBER")
    atk = position(phase=Phase.ATTACK, armies={"alaska": 1})
    for dice in (0, 4):
        err = rejects(atk, ("attack", P1, {"source": "ontario", "target": "alaska", "dice": dice}), "E_DICE_RANGE")
        assert err.message == "The attacker rolls 1–3 dice; the defender rolls 1–2 dice."
    rejects(atk, ("attack", P1, {"source": "ontario", "target": "Atlantis"}), "E_UNKNOWN_TERRITORY")
    fort = position(phase=Phase.FORTIFY)
    rejects(fort, ("fortify", P1, {"source": "alaska", "target": "alaska", "count": 0}), "E_BAD_NUMBER")
    rejects(fort, ("fortify", P1, {"source": "alaska", "target": "alaska", "count": -1}), "E_BAD_NUMBER")
    rejects(fort, ("fortify", P1, {"source": "ontario", "target": "atlantis", "count": 1}), "E_UNKNOWN_TERRITORY")
    occ = occupying()
    rejects(occ, ("move", P1, {"count": 0}), "E_BAD_NUMBER")
    rejects(occ, ("move", P1, {"count": -3}), "E_BAD_NUMBER")


@pytest.mark.rule("RISK-ERR-19", "RISK-ERR-69")
def test_trade_bonus_name_is_parsed_before_set_checks() -> None:
    s = position(hands={P1: ["alaska", "venezuela", "peru"]})
    rejects(s, ("trade", P1, {"cards": ["alaska", "venezuela"], "bonus": "Atlantis"}), "E_UNKNOWN_TERRITORY")


# ---------------------------------------------------------------- the catalogue, code by code


@pytest.mark.rule("RISK-ERR-35")
def test_not_owned_everywhere() -> None:
    err = rejects(position(pool=3), ("place", P1, {"territory": "ontario"}), "E_NOT_OWNED")
    assert err.message == "You don't control Ontario — it belongs to Player2."
    rejects(position(phase=Phase.ATTACK), ("attack", P1, {"source": "ontario", "target": "alberta"}), "E_NOT_OWNED")
    fort = position(phase=Phase.FORTIFY)
    rejects(fort, ("fortify", P1, {"source": "ontario", "target": "alberta", "count": 1}), "E_NOT_OWNED")
    rejects(fort, ("fortify", P1, {"source": "alberta", "target": "ontario", "count": 1}), "E_NOT_OWNED")
    rejects(placing(), ("place", P1, {"territory": first_of(placing(), P2)}), "E_NOT_OWNED")
    two = two_player_setup()
    neutral = first_of(two, NEUTRAL)
    err = rejects(two, ("place", P1, {"territory": neutral, "count": 3}), "E_NOT_OWNED")
    assert err.message.endswith("it belongs to Neutral.")


@pytest.mark.rule("RISK-ERR-36", "RISK-ERR-37", "RISK-ERR-38", "RISK-ERR-66", "RISK-ERR-74")
def test_claim_phase_order() -> None:
    s = claiming()
    # Taken by someone else beats a bad count; own territory beats a bad count.
    err = rejects(s, ("place", P1, {"territory": "alberta", "count": 2}), "E_TERRITORY_TAKEN")
    assert err.message == "Alberta is already claimed by Player2. Claim an unclaimed territory."
    rejects(s, ("claim", P1, {"territory": "greenland"}), "E_TERRITORY_TAKEN")
    err = rejects(s, ("place", P1, {"territory": "alaska", "count": 2}), "E_MUST_CLAIM_EMPTY")
    assert err.message == "There are still 39 unclaimed territories — claim one of them first."
    rejects(s, ("claim", P1, {"territory": "alaska"}), "E_MUST_CLAIM_EMPTY")
    err = rejects(s, ("place", P1, {"territory": "iceland", "count": 2}), "E_TOO_MANY_TO_PLACE")
    assert err.message == "You can place only 1 more army right now."
    # `place` works as `claim` during claiming.
    s2, events = play(s, ("place", P1, {"territory": "iceland"}))
    assert s2.owner["iceland"] == P1 and s2.armies["iceland"] == 1 and s2.current == P2
    assert of_type(events, "claimed")[0].territory == "iceland"


@pytest.mark.rule("RISK-ERR-38", "RISK-ERR-67")
def test_place_order_and_allowances() -> None:
    # REINFORCE: ownership first, then the pool.
    s = position(pool=3)
    rejects(s, ("place", P1, {"territory": "ontario", "count": 9}), "E_NOT_OWNED")
    err = rejects(s, ("place", P1, {"territory": "alaska", "count": 4}), "E_TOO_MANY_TO_PLACE")
    assert err.message == "You can place only 3 more armies right now."
    # ELIM_PLACE: the pool of the elimination trade.
    ep = elim_place()
    rejects(ep, ("place", P1, {"territory": "ontario", "count": 9}), "E_NOT_OWNED")
    rejects(ep, ("place", P1, {"territory": "kamchatka", "count": 5}), "E_TOO_MANY_TO_PLACE")
    # one_at_a_time setup: allowance 1.
    one = placing()
    mine = first_of(one, P1)
    rejects(one, ("place", P1, {"territory": first_of(one, P2), "count": 2}), "E_NOT_OWNED")
    err = rejects(one, ("place", P1, {"territory": mine, "count": 2}), "E_TOO_MANY_TO_PLACE")
    assert err.message == "You can place only 1 more army right now."
    # Two-player setup: what is left of the 2 own armies.
    two = two_player_setup()
    own = first_of(two, P1)
    rejects(two, ("place", P1, {"territory": own, "count": 3}), "E_TOO_MANY_TO_PLACE")
    two, _ = play(two, ("place", P1, {"territory": own, "count": 1}))
    err = rejects(two, ("place", P1, {"territory": own, "count": 2}), "E_TOO_MANY_TO_PLACE")
    assert err.message == "You can place only 1 more army right now."


@pytest.mark.rule("RISK-ERR-39", "RISK-ERR-40", "RISK-ERR-68")
def test_place_neutral_order() -> None:
    two = two_player_setup()
    neutral = first_of(two, NEUTRAL)
    mine, theirs = first_of(two, P1), first_of(two, P2)
    err = rejects(two, ("place_neutral", P1, {"territory": theirs}), "E_NOT_NEUTRAL")
    assert err.message == (
        f"The Neutral army must go on a Neutral territory; {BOARD.territory[theirs].name} belongs to Player2."
    )
    rejects(two, ("place_neutral", P1, {"territory": mine}), "E_NOT_NEUTRAL")
    two, _ = play(two, ("place_neutral", P1, {"territory": neutral}))
    assert two.armies[neutral] == 2 and two.current == P1
    err = rejects(two, ("place_neutral", P1, {"territory": theirs}), "E_NEUTRAL_DONE")  # before E_NOT_NEUTRAL
    assert err.message == "You have already placed this turn's Neutral army; place your remaining 2 own armies."
    rejects(two, ("place_neutral", P1, {"territory": neutral}), "E_NEUTRAL_DONE")


@pytest.mark.rule("RISK-ERR-42", "RISK-ERR-43", "RISK-ERR-44", "RISK-ERR-45", "RISK-ERR-69")
def test_trade_order() -> None:
    # alaska inf (P1), venezuela inf (P1), peru inf (P2), alberta cav (P1), wild_1
    s = position(hands={P1: ["alaska", "venezuela", "peru", "alberta"]})
    err = rejects(s, ("trade", P1, {"cards": ["alaska", "venezuela"]}), "E_SET_SIZE")
    assert err.message == "A set is exactly 3 different cards from your hand."
    rejects(s, ("trade", P1, {"cards": ["alaska", "alaska", "venezuela"]}), "E_SET_SIZE")
    rejects(s, ("trade", P1, {"cards": ["alaska", "venezuela", "peru", "alberta"]}), "E_SET_SIZE")
    rejects(s, ("trade", P1, {"cards": ["japan", "greenland"]}), "E_SET_SIZE")  # before E_CARD_NOT_IN_HAND
    err = rejects(s, ("trade", P1, {"cards": ["alaska", "venezuela", "japan"]}), "E_CARD_NOT_IN_HAND")
    assert err.message.startswith("You don't hold the Japan (artillery) card. Your cards: Alaska")
    rejects(s, ("trade", P1, {"cards": ["alaska", "alberta", "wild_1"]}), "E_CARD_NOT_IN_HAND")
    err = rejects(s, ("trade", P1, {"cards": ["alaska", "venezuela", "alberta"], "bonus": "peru"}), "E_INVALID_SET")
    assert err.message.startswith("Those cards are not a set")
    err = rejects(s, ("trade", P1, {"cards": ["alaska", "venezuela", "peru"], "bonus": "peru"}), "E_BONUS_CHOICE")
    assert err.message == "Peru isn't a territory you own on one of the traded cards. Choose from: Alaska, Venezuela."
    rejects(s, ("trade", P1, {"cards": ["alaska", "venezuela", "peru"], "bonus": "ontario"}), "E_BONUS_CHOICE")
    s2, events = play(s, ("trade", P1, {"cards": ["alaska", "venezuela", "peru"], "bonus": "venezuela"}))
    assert of_type(events, "cards_traded")[0].bonus_territory == "venezuela"
    assert s2.armies["venezuela"] == 5 and s2.armies["alaska"] == 3 and s2.pool == 4


@pytest.mark.rule("RISK-ERR-46", "RISK-ERR-69")
def test_trade_must_stop_precedes_set_checks() -> None:
    ep = elim_place()
    rejects(ep, ("trade", P1, {"cards": ["alaska"]}), "E_TRADE_MUST_STOP")
    # An elimination trade window with 4 cards or fewer (e.g. left over) also refuses further trades.
    s = position(phase=Phase.ATTACK, eliminated=(P3,), interrupt=Interrupt(kind="elim_trade", eliminated=P3),
                 hands={P1: ["alaska", "venezuela", "peru", "alberta"]})
    err = rejects(s, ("trade", P1, {"cards": ["alaska", "venezuela"]}), "E_TRADE_MUST_STOP")
    assert err.message.startswith("You hold 4 cards")
    # Outside any window E_TRADE_NOT_NOW still comes first.
    rejects(position(phase=Phase.ATTACK, hands={P1: ["alaska"]}), ("trade", P1, {"cards": ["alaska"]}),
            "E_TRADE_NOT_NOW")


@pytest.mark.rule("RISK-ERR-47", "RISK-ERR-48", "RISK-ERR-50", "RISK-ERR-52", "RISK-ERR-70")
def test_attack_order() -> None:
    s = position(phase=Phase.ATTACK, armies={"alaska": 1, "alberta": 3, "argentina": 4})
    # Source not owned beats a target that is P1's own.
    err = rejects(s, ("attack", P1, {"source": "ontario", "target": "alberta", "dice": 3}), "E_NOT_OWNED")
    assert err.message == "You don't control Ontario — it belongs to Player2."
    # Own target beats non-adjacency and too few armies.
    err = rejects(s, ("attack", P1, {"source": "alaska", "target": "argentina"}), "E_ATTACK_OWN")
    assert err.message == "You can't attack Argentina — you already control it."
    # Non-adjacent beats too few armies.
    err = rejects(s, ("attack", P1, {"source": "alaska", "target": "japan"}), "E_NOT_ADJACENT")
    assert err.message == "Alaska does not border Japan."
    # Too few armies beats too many dice.
    err = rejects(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}), "E_TOO_FEW_ARMIES")
    assert err.message == "Alaska has only 1 army — you need at least 2 in a territory to attack from it."
    err = rejects(s, ("attack", P1, {"source": "alberta", "target": "ontario", "dice": 3}), "E_TOO_MANY_DICE")
    assert err.message == "With 3 armies in Alberta you can roll at most 2 dice — you need more armies than dice."
    s2, events = play(s, ("attack", P1, {"source": "alberta", "target": "ontario", "dice": 2}), dice=[6, 6, 1, 1])
    assert of_type(events, "battle")[0].defender_losses == 2 and s2.armies["ontario"] == 1


@pytest.mark.rule("RISK-ERR-51", "RISK-ERR-53", "RISK-ERR-54", "RISK-ERR-71")
def test_defend_order() -> None:
    s = defending()
    # Wrong player beats a bad number of dice.
    err = rejects(s, ("defend", P2, {"dice": 5}), "E_NOT_DEFENDER")
    assert err.message == "Only Player3 can choose the dice defending Kamchatka."
    for dice in (0, 3):
        rejects(s, ("defend", P3, {"dice": dice}), "E_DICE_RANGE")
    one = position(phase=Phase.ATTACK, defender_dice="choose", armies={"alaska": 5, "kamchatka": 1})
    one, _ = play(one, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}))
    rejects(one, ("defend", P3, {"dice": 3}), "E_DICE_RANGE")  # before E_DEFENDER_DICE
    err = rejects(one, ("defend", P3, {"dice": 2}), "E_DEFENDER_DICE")
    assert err.message == "Kamchatka has only 1 army, so it can defend with 1 die only."
    done, events = play(one, ("defend", P3, {"dice": 1}), dice=[1, 1, 1, 6])
    assert of_type(events, "battle")[0].attacker_losses == 1 and done.armies["alaska"] == 4


@pytest.mark.rule("RISK-ERR-56", "RISK-ERR-57", "RISK-ERR-72")
def test_move_order() -> None:
    s = occupying()
    err = rejects(s, ("move", P1, {"count": 2}), "E_MOVE_MIN")
    assert err.message == "You must move at least 3 armies into Kamchatka — you rolled 3 dice in the last battle."
    err = rejects(s, ("move", P1, {"count": 6}), "E_MOVE_MAX")
    assert err.message == "You can move at most 5 armies — at least 1 must stay in Alaska."
    s2, _ = play(s, ("move", P1, {"count": 5}))
    assert (s2.armies["alaska"], s2.armies["kamchatka"]) == (1, 5)


@pytest.mark.rule("RISK-ERR-48", "RISK-ERR-49", "RISK-ERR-58", "RISK-ERR-59", "RISK-ERR-73")
def test_fortify_order() -> None:
    s = position(phase=Phase.FORTIFY, armies={"alaska": 4})
    err = rejects(s, ("fortify", P1, {"source": "ontario", "target": "ontario", "count": 9}), "E_SAME_TERRITORY")
    assert err.message == "Pick two different territories."
    # `from` is checked before `to`: the message names the source.
    err = rejects(s, ("fortify", P1, {"source": "ontario", "target": "quebec", "count": 9}), "E_NOT_OWNED")
    assert "Ontario" in err.message
    err = rejects(s, ("fortify", P1, {"source": "alaska", "target": "japan", "count": 9}), "E_NOT_OWNED")
    assert err.message == "You don't control Japan — it belongs to Player3."
    err = rejects(s, ("fortify", P1, {"source": "alaska", "target": "argentina", "count": 9}), "E_NOT_ADJACENT")
    assert err.message == "Alaska does not border Argentina."
    err = rejects(s, ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 4}), "E_LEAVE_ONE")
    assert err.message == "You must leave at least 1 army in Alaska; you can move at most 3."
    # Connected mode: Alaska–Alberta–Western US is a path of P1's; Argentina is cut off.
    c = position(phase=Phase.FORTIFY, fortify_mode="connected", armies={"alaska": 4})
    err = rejects(c, ("fortify", P1, {"source": "alaska", "target": "argentina", "count": 9}), "E_NOT_CONNECTED")
    assert err.message == "Argentina can't be reached from Alaska through territories you control."
    rejects(c, ("fortify", P1, {"source": "alaska", "target": "western_united_states", "count": 4}), "E_LEAVE_ONE")
    c2, _ = play(c, ("fortify", P1, {"source": "alaska", "target": "western_united_states", "count": 3}))
    assert (c2.armies["alaska"], c2.armies["western_united_states"]) == (1, 6)


@pytest.mark.rule("RISK-ERR-61")
def test_player_count_per_mode() -> None:
    def seats(n: int) -> list[Seat]:
        return [Seat(id=100 + k, name=f"S{k}") for k in range(1, n + 1)]

    for mode, bad in (("standard", (2, 7)), ("secret_mission", (2, 7)), ("two_player", (1, 3))):
        for n in bad:
            with pytest.raises(RuleError) as info:
                new_game(BOARD, seats(n), RiskOptions(mode=mode), 1)
            assert info.value.code == "E_PLAYER_COUNT"
            assert "{" not in info.value.message and f"(seated so far: {n})" in info.value.message
    with pytest.raises(RuleError) as info:
        RULESET.new_game(seats(2), RiskOptions(), 1)
    assert info.value.message == "standard needs from 3 to 6 players (seated so far: 2)."
    state, _ = RULESET.new_game(seats(2), RiskOptions(mode="two_player"), 1)
    assert len(state.players) == 2


# ---------------------------------------------------------------- phase legality


def refused_code(state: RiskState, act: tuple[Any, ...]) -> str | None:
    """The error code an action gets, or None when it is accepted."""
    try:
        play(state, act)
    except RuleError as err:
        return err.code
    return None


@pytest.mark.rule("RISK-ERR-74")
def test_claim_phase_legality() -> None:
    s = claiming()
    assert refused_code(s, ("claim", P1, {"territory": "iceland"})) is None
    assert refused_code(s, ("place", P1, {"territory": "iceland"})) is None
    for act, code in [
        (("place_neutral", P1, {"territory": "iceland"}), "E_WRONG_PHASE"),
        (("deploy", P1, {"placements": {"alaska": 1}}), "E_WRONG_PHASE"),
        (("attack", P1, {"source": "alaska", "target": "alberta"}), "E_WRONG_PHASE"),
        (("end_attack", P1), "E_WRONG_PHASE"),
        (("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1}), "E_WRONG_PHASE"),
        (("end_turn", P1), "E_WRONG_PHASE"),
        (("trade", P1, {"cards": ["alaska", "alberta", "greenland"]}), "E_TRADE_NOT_NOW"),
        (("move", P1, {"count": 1}), "E_NOTHING_PENDING"),
    ]:
        rejects(s, act, code)
    err = rejects(s, ("end_turn", P1), "E_WRONG_PHASE")
    assert err.message == "You can't end your turn during the claim phase. Allowed now: claim, place."


@pytest.mark.rule("RISK-ERR-75")
def test_setup_place_legality() -> None:
    s = placing()
    mine = first_of(s, P1)
    assert refused_code(s, ("place", P1, {"territory": mine})) is None
    for act, code in [
        (("claim", P1, {"territory": mine}), "E_WRONG_PHASE"),
        (("place_neutral", P1, {"territory": mine}), "E_WRONG_PHASE"),
        (("attack", P1, {"source": mine, "target": "alberta"}), "E_WRONG_PHASE"),
        (("end_attack", P1), "E_WRONG_PHASE"),
        (("fortify", P1, {"source": mine, "target": "alberta", "count": 1}), "E_WRONG_PHASE"),
        (("end_turn", P1), "E_WRONG_PHASE"),
        (("trade", P1, {"cards": ["alaska", "alberta", "greenland"]}), "E_TRADE_NOT_NOW"),
        (("move", P1, {"count": 1}), "E_NOTHING_PENDING"),
    ]:
        rejects(s, act, code)
    # bulk_sequential: several `place` commands, the allowance being all remaining armies (ruling 13).
    bulk = placing(setup_placement="bulk_sequential")
    left = bulk.setup_left[P1]
    bulk2, _ = play(bulk, ("place", P1, {"territory": mine, "count": left - 1}))
    assert bulk2.current == P1 and bulk2.setup_left[P1] == 1
    bulk3, _ = play(bulk2, ("place", P1, {"territory": mine}))
    assert bulk3.current == P2 and bulk3.armies[mine] == bulk.armies[mine] + left


@pytest.mark.rule("RISK-ERR-75", "RISK-ERR-8")
def test_simultaneous_setup_place_needs_no_turn() -> None:
    # Ruling 14: in simultaneous placement every seated player with armies left sends `place` commands.
    s = placing(setup_placement="simultaneous")
    theirs = first_of(s, P2)
    s2, _ = play(s, ("place", P2, {"territory": theirs}))
    assert s2.seq == s.seq + 1
    assert RULESET.view(s2, None).armies[theirs] == s.armies[theirs]  # still secret


@pytest.mark.rule("RISK-ERR-76")
def test_two_player_setup_legality() -> None:
    s = two_player_setup()
    mine, neutral = first_of(s, P1), first_of(s, NEUTRAL)
    assert refused_code(s, ("place", P1, {"territory": mine})) is None
    assert refused_code(s, ("place_neutral", P1, {"territory": neutral})) is None
    for act, code in [
        (("claim", P1, {"territory": mine}), "E_WRONG_PHASE"),
        (("deploy", P1, {"placements": {mine: 2}}), "E_WRONG_PHASE"),
        (("attack", P1, {"source": mine, "target": neutral}), "E_WRONG_PHASE"),
        (("end_attack", P1), "E_WRONG_PHASE"),
        (("fortify", P1, {"source": mine, "target": neutral, "count": 1}), "E_WRONG_PHASE"),
        (("end_turn", P1), "E_WRONG_PHASE"),
        (("trade", P1, {"cards": ["alaska", "alberta", "greenland"]}), "E_TRADE_NOT_NOW"),
        (("move", P1, {"count": 1}), "E_NOTHING_PENDING"),
    ]:
        rejects(s, act, code)


@pytest.mark.rule("RISK-ERR-77")
def test_reinforce_legality() -> None:
    s = position(hands={P1: ["alaska", "venezuela", "argentina"]}, armies={"alaska": 4})
    legal = [
        ("trade", P1, {"cards": ["alaska", "venezuela", "argentina"]}),
        ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 1}),
        ("end_attack", P1),
        ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1}),
        ("end_turn", P1),
    ]
    for act in legal:
        assert refused_code(s, act) is None, act
    assert refused_code(position(pool=2), ("place", P1, {"territory": "alaska", "count": 2})) is None
    # `deploy` places from the pool too (ruling 36), within the same allowance as `place`.
    assert refused_code(position(pool=2), ("deploy", P1, {"placements": {"alaska": 1, "alberta": 1}})) is None
    rejects(position(pool=2), ("deploy", P1, {"placements": {"alaska": 2, "alberta": 1}}), "E_TOO_MANY_TO_PLACE")
    for act, code in [
        (("claim", P1, {"territory": "alaska"}), "E_WRONG_PHASE"),
        (("place_neutral", P1, {"territory": "alaska"}), "E_WRONG_PHASE"),
        (("move", P1, {"count": 1}), "E_NOTHING_PENDING"),
    ]:
        rejects(s, act, code)
    # Leaving REINFORCE: end_attack → FORTIFY, end_turn → next player.
    assert play(s, ("end_attack", P1))[0].phase is Phase.FORTIFY
    assert play(s, ("end_turn", P1))[0].current == P2


@pytest.mark.rule("RISK-ERR-78")
def test_attack_phase_legality() -> None:
    s = position(phase=Phase.ATTACK, hands={P1: ["alaska", "venezuela", "argentina"]}, armies={"alaska": 4})
    for act in [
        ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 1}),
        ("end_attack", P1),
        ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1}),
        ("end_turn", P1),
    ]:
        assert refused_code(s, act) is None, act
    err = rejects(s, ("place", P1, {"territory": "alaska"}), "E_WRONG_PHASE")
    assert err.message == (
        "You can't place during the attack phase. Allowed now: attack, end the attack, fortify, end your turn."
    )
    for act, code in [
        (("trade", P1, {"cards": ["alaska", "venezuela", "argentina"]}), "E_TRADE_NOT_NOW"),
        (("move", P1, {"count": 1}), "E_NOTHING_PENDING"),
        (("claim", P1, {"territory": "alaska"}), "E_WRONG_PHASE"),
        (("place_neutral", P1, {"territory": "alaska"}), "E_WRONG_PHASE"),
        (("deploy", P1, {"placements": {"alaska": 1}}), "E_WRONG_PHASE"),
    ]:
        rejects(s, act, code)
    # trade only via ELIM_TRADE, place only via ELIM_PLACE, move only via OCCUPY.
    assert refused_code(elim_trade(), ("trade", P1, {"cards": ["greenland", "quebec", "ontario"]})) is None
    assert refused_code(elim_place(), ("place", P1, {"territory": "kamchatka", "count": 1})) is None
    assert refused_code(elim_place(), ("deploy", P1, {"placements": {"kamchatka": 1}})) is None  # ruling 36
    assert refused_code(occupying(), ("move", P1, {"count": 3})) is None


@pytest.mark.rule("RISK-ERR-79")
def test_fortify_phase_legality() -> None:
    s = position(phase=Phase.FORTIFY, hands={P1: ["alaska", "venezuela", "argentina"]}, armies={"alaska": 4})
    assert refused_code(s, ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1})) is None
    assert refused_code(s, ("end_turn", P1)) is None
    err = rejects(s, ("end_attack", P1), "E_WRONG_PHASE")
    assert err.message == "You can't end the attack during the fortify phase. Allowed now: fortify, end your turn."
    for act, code in [
        (("attack", P1, {"source": "alaska", "target": "kamchatka"}), "E_WRONG_PHASE"),
        (("place", P1, {"territory": "alaska"}), "E_WRONG_PHASE"),
        (("claim", P1, {"territory": "alaska"}), "E_WRONG_PHASE"),
        (("place_neutral", P1, {"territory": "alaska"}), "E_WRONG_PHASE"),
        (("trade", P1, {"cards": ["alaska", "venezuela", "argentina"]}), "E_TRADE_NOT_NOW"),
        (("move", P1, {"count": 1}), "E_NOTHING_PENDING"),
    ]:
        rejects(s, act, code)
