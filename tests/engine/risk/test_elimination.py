"""Scenario tests for elimination, elimination trades and leaving the game (RISK-ELIM-1 … ELIM-15)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.core.models import Event
from engine.games.risk import RULESET
from engine.games.risk.mapdata import classic
from engine.games.risk.rules import forced_elim_trades, set_value, valid_sets
from engine.games.risk.state import RiskState
from engine.games.risk.text import narrate
from engine.games.risk.view import view
from tests.engine.risk.helpers import IDS, NEUTRAL, P1, P2, P3, Interrupt, Phase, of_type, play, position, rejects

BOARD = classic()
# Default 3-player deal: seat k % 3 owns the k-th territory in table order. alaska → P1 borders kamchatka (P3)
# and northwest_territory (P2). In most positions below P3 is down to Kamchatka, the rest of P3's land is P2's.
INFANTRY_P2 = ["peru", "iceland", "east_africa", "mongolia", "china", "siam"]
CAVALRY_P2 = ["ontario", "ukraine", "madagascar", "yakutsk"]
ARTILLERY_P2 = ["northwest_territory", "eastern_united_states", "northern_europe", "western_australia"]


def only(pid: int, keep: list[str], heir: int, n: int = 3) -> dict[str, int]:
    """Owner overrides: `pid` keeps only `keep`; its other default territories go to `heir`."""
    players = [P1, P2, P3, 104, 105, 106][:n]
    return {t: heir for k, t in enumerate(IDS) if players[k % n] == pid and t not in keep}


def last_stand(**kwargs: Any) -> RiskState:
    """P1 attacking; P3 holds only Kamchatka with 1 army, Alaska has 5."""
    kwargs.setdefault("phase", Phase.ATTACK)
    owner = {**only(P3, ["kamchatka"], P2), **kwargs.pop("owner", {})}
    armies = {"alaska": 5, "kamchatka": 1, **kwargs.pop("armies", {})}
    return position(owner=owner, armies=armies, **kwargs)


def take_kamchatka(s: RiskState, move: int = 3) -> tuple[RiskState, list[Any]]:
    """Conquer Kamchatka from Alaska with three sixes and move `move` armies in."""
    s, events = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), dice=[6, 6, 6, 1])
    assert s.owner["kamchatka"] == P1
    if s.interrupt is not None and s.interrupt.kind == "occupy":
        s, more = play(s, ("move", P1, {"count": move}))
        events = events + more
    return s, events


def finish_turn(s: RiskState, pid: int) -> tuple[RiskState, list[Any]]:
    """The current player places the whole pool on a territory of theirs and ends the turn."""
    assert s.current == pid
    if len(s.hands[pid]) >= 5:
        s, _ = play(s, ("trade", pid, {"cards": list(valid_sets(BOARD, s.hands[pid])[0])}))
    if s.pool:
        s, _ = play(s, ("place", pid, {"territory": s.territories_of(pid)[0], "count": s.pool}))
    return play(s, ("end_turn", pid))


# ---------------------------------------------------------------- elimination by conquest


@pytest.mark.rule("RISK-ELIM-1")
def test_losing_the_last_territory_eliminates_the_player() -> None:
    s = last_stand()
    pending, events = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), dice=[6, 6, 6, 1])
    assert of_type(events, "eliminated") == [], "elimination waits for the move-in"
    assert pending.player(P3).status == "active"
    after, events = play(pending, ("move", P1, {"count": 3}))
    assert [(e.player, e.by, e.cards_taken) for e in of_type(events, "eliminated")] == [(P3, P1, 0)]
    assert after.player(P3).status == "eliminated"
    assert after.active_ids() == [P1, P2]
    assert after.phase is Phase.ATTACK and after.winner is None
    rejects(after, ("end_turn", P3), "E_ELIMINATED")


@pytest.mark.rule("RISK-ELIM-1")
def test_an_eliminated_player_is_skipped_in_turn_order() -> None:
    s, _ = take_kamchatka(last_stand())
    s, events = play(s, ("end_turn", P1))
    assert s.current == P2
    s, events = finish_turn(s, P2)
    assert s.current == P1
    assert [e.player for e in of_type(events, "turn_started")] == [P1]


@pytest.mark.rule("RISK-ELIM-1")
def test_an_eliminated_players_mission_stays_hidden_until_the_end() -> None:
    missions = {P1: "M01", P2: "M02", P3: "M03"}
    s, _ = take_kamchatka(last_stand(mode="secret_mission", missions=missions))
    assert s.player(P3).status == "eliminated" and s.phase is Phase.ATTACK
    assert view(s, P1).missions == {P1: "M01"}
    assert view(s, P3).missions == {P3: "M03"}
    assert view(s, None).missions == {}


@pytest.mark.rule("RISK-ELIM-2")
def test_eliminating_the_last_opponent_wins_before_any_card_transfer() -> None:
    owner = {t: P1 for t in IDS} | {"kamchatka": P3}
    hands = {P1: ["peru", "iceland"], P3: ["ontario", "ukraine", "madagascar", "yakutsk", "china", "wild_1"]}
    s = position(phase=Phase.ATTACK, owner=owner, armies={"alaska": 5, "kamchatka": 1}, hands=hands,
                 eliminated=(P2,))
    deck = list(s.deck)
    after, events = take_kamchatka(s)
    assert after.phase is Phase.GAME_OVER and after.winner == P1
    assert [(e.player, e.reason) for e in of_type(events, "game_won")] == [(P1, "last_standing")]
    assert after.hands[P1] == ["peru", "iceland"], "no cards are taken after the game is won"
    assert after.interrupt is None and of_type(events, "card_drawn") == [] and after.deck == deck
    cards_stay_with_the_loser(s, after, events)


@pytest.mark.rule("RISK-ELIM-2")
def test_a_mission_completed_by_the_elimination_ends_the_game_first() -> None:
    missions = {P1: "M09", P2: "M01", P3: "M02"}  # M09: destroy Green (P3)
    hands = {P1: ["peru", "iceland", "east_africa"], P3: ["ontario", "ukraine", "madagascar"]}
    s = last_stand(mode="secret_mission", missions=missions, hands=hands)
    after, events = take_kamchatka(s)
    assert after.phase is Phase.GAME_OVER and after.winner == P1
    assert [e.reason for e in of_type(events, "game_won")] == ["mission"]
    assert after.hands[P1] == ["peru", "iceland", "east_africa"]
    assert after.interrupt is None
    cards_stay_with_the_loser(s, after, events)


def cards_stay_with_the_loser(s: RiskState, after: RiskState, events: list[Event]) -> None:
    """State, event and narration agree: the game ended before the card transfer (RISK-ELIM-2, RISK-ELIM-3)."""
    assert after.hands[P3] == s.hands[P3]
    (elim,) = of_type(events, "eliminated")
    assert (elim.player, elim.by, elim.cards_taken) == (P3, P1, 0)
    assert [e.type for e in events if e.private_to is None][-2:] == ["eliminated", "game_won"]
    text = narrate(elim, after)
    assert "Player3" in text and "Player1" in text and "card" not in text


@pytest.mark.rule("RISK-ELIM-3")
def test_the_eliminator_takes_all_the_cards() -> None:
    hands = {P1: ["peru", "iceland"], P3: ["ontario", "ukraine", "wild_1"]}
    after, events = take_kamchatka(last_stand(hands=hands))
    assert Counter(after.hands[P1]) == Counter(["peru", "iceland", "ontario", "ukraine", "wild_1"])
    assert after.hands[P3] == []
    assert [e.cards_taken for e in of_type(events, "eliminated")] == [3]
    assert after.hands[P2] == []


@pytest.mark.rule("RISK-ELIM-4")
def test_six_or_more_cards_after_taking_them_opens_the_elimination_trade() -> None:
    hands = {P1: INFANTRY_P2[:3], P3: CAVALRY_P2[:3]}
    after, _ = take_kamchatka(last_stand(hands=hands))
    assert len(after.hands[P1]) == 6
    assert after.interrupt == Interrupt(kind="elim_trade", eliminated=P3)
    assert after.phase is Phase.ATTACK
    assert [(d.player, d.kind) for d in RULESET.pending(after)] == [(P1, "elim_trade")]


@pytest.mark.rule("RISK-ELIM-5")
def test_elimination_trade_is_compulsory_then_must_stop_at_four_or_fewer() -> None:
    hands = {P1: INFANTRY_P2[:3], P3: CAVALRY_P2[:3]}
    s, _ = take_kamchatka(last_stand(hands=hands))
    for act in [
        ("end_turn", P1),
        ("end_attack", P1),
        ("attack", P1, {"source": "kamchatka", "target": "japan"}),
        ("place", P1, {"territory": "alaska", "count": 1}),
        ("fortify", P1, {"source": "kamchatka", "target": "alaska", "count": 1}),
    ]:
        rejects(s, act, "E_MUST_TRADE_NOW")
    s, _ = play(s, ("trade", P1, {"cards": INFANTRY_P2[:3]}))
    assert len(s.hands[P1]) == 3
    assert s.interrupt is not None and s.interrupt.kind == "elim_place"
    # the remaining three cavalry are a valid set, but trading must stop at 4 or fewer
    rejects(s, ("trade", P1, {"cards": CAVALRY_P2[:3]}), "E_TRADE_MUST_STOP")


@pytest.mark.rule("RISK-ELIM-5")
def test_seven_cards_trade_once_down_to_four_and_stop() -> None:
    hands = {P1: [*INFANTRY_P2[:3], "wild_1"], P3: CAVALRY_P2[:3]}
    s, _ = take_kamchatka(last_stand(hands=hands))
    assert s.interrupt is not None and s.interrupt.kind == "elim_trade"
    s, _ = play(s, ("trade", P1, {"cards": CAVALRY_P2[:3]}))
    assert len(s.hands[P1]) == 4
    assert s.interrupt is not None and s.interrupt.kind == "elim_place"
    rejects(s, ("trade", P1, {"cards": INFANTRY_P2[:3]}), "E_TRADE_MUST_STOP")


@pytest.mark.rule("RISK-ELIM-6")
def test_forced_elim_trades_formula() -> None:
    assert [forced_elim_trades(n) for n in range(0, 16)] == [0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]


@pytest.mark.rule("RISK-ELIM-6", "RISK-ELIM-7")
@pytest.mark.parametrize("total", [6, 7, 8, 9, 10, 11, 12, 13])
def test_exactly_ceil_cards_minus_four_over_three_trades(total: int) -> None:
    pile = [*INFANTRY_P2, *CAVALRY_P2, *ARTILLERY_P2]
    hands = {P1: pile[:4], P3: pile[4:total]}
    s, _ = take_kamchatka(last_stand(hands=hands, sets_traded=2))
    trades = 0
    while s.interrupt is not None and s.interrupt.kind == "elim_trade":
        s, _ = play(s, ("trade", P1, {"cards": list(valid_sets(BOARD, s.hands[P1])[0])}))
        trades += 1
    expected = -(-(total - 4) // 3)
    assert trades == expected
    assert len(s.hands[P1]) <= 4
    assert s.sets_traded == 2 + expected
    assert s.pool == sum(set_value(BOARD, n) for n in range(3, 3 + expected))
    assert s.interrupt is not None and s.interrupt.kind == "elim_place"


@pytest.mark.rule("RISK-ELIM-7")
def test_elimination_armies_must_be_placed_before_continuing() -> None:
    hands = {P1: INFANTRY_P2[:3], P3: CAVALRY_P2[:3]}
    s, _ = take_kamchatka(last_stand(hands=hands, sets_traded=4))
    s, events = play(s, ("trade", P1, {"cards": CAVALRY_P2[:3]}))
    assert [e.value for e in of_type(events, "cards_traded")] == [12]  # the 5th set of the game
    assert s.pool == 12
    assert [(d.player, d.kind, d.detail["pool"]) for d in RULESET.pending(s)] == [(P1, "elim_place", 12)]
    for act in [
        ("end_turn", P1),
        ("end_attack", P1),
        ("attack", P1, {"source": "kamchatka", "target": "japan"}),
        ("fortify", P1, {"source": "kamchatka", "target": "alaska", "count": 1}),
    ]:
        rejects(s, act, "E_ARMIES_UNPLACED")
    rejects(s, ("place", P1, {"territory": "japan", "count": 1}), "E_NOT_OWNED")
    rejects(s, ("place", P1, {"territory": "alaska", "count": 13}), "E_TOO_MANY_TO_PLACE")
    s, _ = play(s, ("place", P1, {"territory": "alaska", "count": 5}))
    assert s.pool == 7 and s.interrupt is not None and s.interrupt.kind == "elim_place"
    s, _ = play(s, ("place", P1, {"territory": "kamchatka", "count": 7}))
    assert s.pool == 0 and s.interrupt is None
    assert (s.armies["alaska"], s.armies["kamchatka"]) == (7, 10)


@pytest.mark.rule("RISK-ELIM-7")
def test_the_once_per_turn_card_bonus_limit_covers_elimination_trades() -> None:
    # Alaska is P1's and its card is in the set; the +2 was already taken this turn.
    hands = {P1: ["alaska", "peru", "iceland"], P3: CAVALRY_P2[:3]}
    s, _ = take_kamchatka(last_stand(hands=hands, card_bonus_taken=True))
    alaska = s.armies["alaska"]
    s, events = play(s, ("trade", P1, {"cards": ["alaska", "peru", "iceland"]}))
    assert [e.bonus_territory for e in of_type(events, "cards_traded")] == [None]
    assert s.armies["alaska"] == alaska and s.pool == 4
    fresh, _ = take_kamchatka(last_stand(hands=hands))
    fresh, events = play(fresh, ("trade", P1, {"cards": ["alaska", "peru", "iceland"]}))
    assert [e.bonus_territory for e in of_type(events, "cards_traded")] == ["alaska"]
    assert fresh.armies["alaska"] == alaska + 2


@pytest.mark.rule("RISK-ELIM-8")
def test_fewer_than_six_cards_wait_for_the_next_turn() -> None:
    hands = {P1: ["peru", "iceland"], P3: ["ontario", "ukraine", "wild_1"]}
    s, _ = take_kamchatka(last_stand(hands=hands))
    assert len(s.hands[P1]) == 5 and s.interrupt is None
    rejects(s, ("trade", P1, {"cards": ["peru", "iceland", "wild_1"]}), "E_TRADE_NOT_NOW")
    s, _ = play(s, ("attack", P1, {"source": "kamchatka", "target": "japan"}), dice=[6, 6, 1, 1])
    s, _ = play(s, ("end_turn", P1))
    assert len(s.hands[P1]) == 6  # the card earned this turn
    s, _ = finish_turn(s, P2)
    assert s.current == P1 and s.phase is Phase.REINFORCE
    rejects(s, ("place", P1, {"territory": "alaska", "count": 1}), "E_MUST_TRADE")
    assert RULESET.pending(s)[0].kind == "trade"


@pytest.mark.rule("RISK-ELIM-9")
def test_after_the_elimination_steps_the_attack_goes_on() -> None:
    hands = {P1: INFANTRY_P2[:3], P3: CAVALRY_P2[:3]}
    s, _ = take_kamchatka(last_stand(hands=hands))
    s, _ = play(s, ("trade", P1, {"cards": INFANTRY_P2[:3]}))
    s, _ = play(s, ("place", P1, {"territory": "kamchatka", "count": s.pool}))
    assert s.phase is Phase.ATTACK and s.interrupt is None and s.current == P1
    assert RULESET.pending(s)[0].kind == "attack"
    s, events = play(s, ("attack", P1, {"source": "kamchatka", "target": "japan"}), dice=[6, 6, 6, 1, 1])
    assert [(b.source, b.target, b.defender_losses) for b in of_type(events, "battle")] == [("kamchatka", "japan", 2)]


@pytest.mark.rule("RISK-ELIM-9")
def test_without_elimination_trade_the_attack_goes_on_at_once() -> None:
    s, _ = take_kamchatka(last_stand())
    assert s.phase is Phase.ATTACK and s.interrupt is None
    s, events = play(s, ("attack", P1, {"source": "kamchatka", "target": "japan"}), dice=[6, 6, 1, 1])
    assert len(of_type(events, "battle")) == 1


# ---------------------------------------------------------------- resignation and removal


@pytest.mark.rule("RISK-ELIM-10")
def test_resigning_turns_territories_neutral_and_leaves_turn_order() -> None:
    s = position(phase=Phase.ATTACK, armies={"northwest_territory": 7, "ontario": 2})
    mine = s.territories_of(P2)
    after, events = play(s, ("resign", P2))
    assert [(e.player, e.removed_by) for e in of_type(events, "player_left")] == [(P2, None)]
    assert after.player(P2).status == "resigned"
    assert all(after.owner[t] == NEUTRAL for t in mine)
    assert {t: after.armies[t] for t in mine} == {t: s.armies[t] for t in mine}
    assert after.armies["northwest_territory"] == 7 and after.armies["ontario"] == 2
    assert after.current == P1 and after.phase is Phase.ATTACK
    after, _ = play(after, ("end_turn", P1))
    assert after.current == P3
    rejects(after, ("end_turn", P2), "E_ELIMINATED")


@pytest.mark.rule("RISK-ELIM-10")
def test_removal_by_the_host_works_like_a_resignation() -> None:
    s = position(phase=Phase.ATTACK, armies={"northwest_territory": 7})
    mine = s.territories_of(P2)
    after, events = play(s, ("remove", P1, {"target": P2}))
    assert [(e.player, e.removed_by) for e in of_type(events, "player_left")] == [(P2, P1)]
    assert after.player(P2).status == "resigned"
    assert all(after.owner[t] == NEUTRAL for t in mine) and after.armies["northwest_territory"] == 7
    rejects(after, ("remove", P1, {"target": P2}), "E_NOT_PLAYER_TARGET")


@pytest.mark.rule("RISK-ELIM-11")
def test_neutral_armies_left_by_a_resignation_never_act() -> None:
    s = position(phase=Phase.ATTACK)
    s, _ = play(s, ("resign", P2))
    neutral = {t: n for t, n in s.armies.items() if s.owner[t] == NEUTRAL}
    started: list[int] = []
    s, events = play(s, ("end_turn", P1))
    started += [e.player for e in of_type(events, "turn_started")]
    for pid in (P3, P1, P3):
        s, events = finish_turn(s, pid)
        started += [e.player for e in of_type(events, "turn_started")]
    assert started == [P3, P1, P3, P1]
    assert {t: s.armies[t] for t in neutral} == neutral
    assert all(s.owner[t] == NEUTRAL for t in neutral)
    assert NEUTRAL not in s.hands or s.hands[NEUTRAL] == []


@pytest.mark.rule("RISK-ELIM-12")
def test_a_resigning_players_cards_go_to_the_discard_pile() -> None:
    hands = {P1: ["alaska"], P2: ["peru", "iceland", "wild_1"], P3: ["greenland", "quebec"]}
    s = position(phase=Phase.ATTACK, hands=hands, discard=["ural", "siberia", "china"])
    after, _ = play(s, ("resign", P2))
    assert after.hands[P2] == []
    assert Counter(after.discard) == Counter(["ural", "siberia", "china", "peru", "iceland", "wild_1"])
    assert after.hands[P1] == ["alaska"] and after.hands[P3] == ["greenland", "quebec"]
    assert after.deck == s.deck


@pytest.mark.rule("RISK-ELIM-13")
def test_a_resigning_players_mission_is_discarded_and_destroy_missions_on_them_convert() -> None:
    missions = {P1: "M01", P2: "M02", P3: "M08"}  # M08: destroy Blue (P2)
    s = position(phase=Phase.ATTACK, mode="secret_mission", missions=missions)
    after, events = play(s, ("resign", P2))
    assert P2 not in after.missions
    assert after.missions == {P1: "M01", P3: "M05"}
    changed = of_type(events, "mission_changed")
    assert [(e.private_to, e.mission, e.previous, e.reason) for e in changed] == [(P3, "M05", "M08", "target_left")]
    assert after.phase is Phase.ATTACK


@pytest.mark.rule("RISK-ELIM-14")
def test_resigning_on_ones_own_turn_ends_it_without_a_card() -> None:
    s = position(phase=Phase.ATTACK, conquered=True, hands={P1: ["peru"]})
    after, events = play(s, ("resign", P1))
    assert of_type(events, "card_drawn") == []
    assert after.deck == s.deck
    assert after.current == P2 and after.phase is Phase.REINFORCE and after.turn == s.turn + 1
    assert [e.player for e in of_type(events, "turn_started")] == [P2]
    assert after.conquered_this_turn is False


@pytest.mark.rule("RISK-ELIM-14", "RISK-ELIM-10")
def test_resigning_off_turn_does_not_end_the_current_turn() -> None:
    s = position(phase=Phase.ATTACK, conquered=True)
    after, events = play(s, ("resign", P3))
    assert after.current == P1 and after.phase is Phase.ATTACK and after.turn == s.turn
    assert after.conquered_this_turn is True
    assert of_type(events, "turn_started") == []


@pytest.mark.rule("RISK-ELIM-14", "RISK-CONQ-5")
def test_resigning_with_a_move_in_pending_moves_the_minimum_first() -> None:
    # Project ruling 19: open decisions are settled as under `skip` (move the minimum), then the player leaves.
    s = position(phase=Phase.ATTACK, armies={"alaska": 8, "kamchatka": 1})
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), dice=[6, 6, 6, 1])
    assert s.interrupt is not None and s.interrupt.min == 3
    after, events = play(s, ("resign", P1))
    assert after.owner["kamchatka"] == NEUTRAL and after.owner["alaska"] == NEUTRAL
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (5, 3)
    assert min(after.armies.values()) >= 1
    assert of_type(events, "card_drawn") == []
    assert after.current == P2 and after.interrupt is None


@pytest.mark.rule("RISK-ELIM-14")
def test_resigning_with_elimination_armies_unplaced_places_them_first() -> None:
    # Project ruling 19: elimination placements are made automatically before the resignation applies.
    hands = {P1: INFANTRY_P2[:3], P3: CAVALRY_P2[:3]}
    s, _ = take_kamchatka(last_stand(hands=hands))
    s, _ = play(s, ("trade", P1, {"cards": INFANTRY_P2[:3]}))
    assert s.pool == 4
    mine = s.territories_of(P1)
    before = sum(s.armies[t] for t in mine)
    after, _ = play(s, ("resign", P1))
    assert sum(after.armies[t] for t in mine) == before + 4
    # P3 is out already, so P1 leaving makes P2 the last player standing (RISK-WIN-5).
    assert after.phase is Phase.GAME_OVER and after.winner == P2 and after.interrupt is None


@pytest.mark.rule("RISK-ELIM-10")
def test_a_defender_resigning_during_the_prompt_defends_with_the_maximum_first() -> None:
    # Project ruling 19: the defence dice use the maximum, then the resignation applies.
    s = position(phase=Phase.ATTACK, armies={"alaska": 5, "kamchatka": 3}, defender_dice="choose")
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}))
    after, events = play(s, ("resign", P3), dice=[6, 6, 6, 1, 1])
    (b,) = of_type(events, "battle")
    assert (b.attack_dice, b.defence_dice, b.defender) == ([6, 6, 6], [1, 1], P3)
    types = [e.type for e in events]
    assert types.index("battle") < types.index("player_left")
    assert after.owner["kamchatka"] == NEUTRAL and after.armies["kamchatka"] == 1
    assert after.interrupt is None and after.current == P1


@pytest.mark.rule("RISK-ELIM-15")
def test_neutral_territories_from_a_resignation_need_not_be_conquered() -> None:
    owner = {t: (NEUTRAL if o == P3 else o) for t, o in position().owner.items()} | only(P2, ["kamchatka"], P1)
    owner["kamchatka"] = P2
    s = position(phase=Phase.ATTACK, owner=owner, armies={"alaska": 5, "kamchatka": 1}, resigned=(P3,))
    assert s.territories_of(P2) == ["kamchatka"]
    after, events = take_kamchatka(s)
    assert after.phase is Phase.GAME_OVER and after.winner == P1
    assert [(e.player, e.reason) for e in of_type(events, "game_won")] == [(P1, "last_standing")]
    assert len(after.territories_of(NEUTRAL)) == 13
