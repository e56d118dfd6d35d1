"""The two-player game with a Neutral army: RISK-TWO-1 … TWO-14."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from engine.games.risk import RULESET, RiskState
from engine.games.risk.state import NEUTRAL, Phase
from tests.engine.risk.helpers import (
    BOARD,
    IDS,
    P1,
    P2,
    drive,
    new,
    new_with_events,
    of_type,
    on_board,
    play,
    position,
    rejects,
)

SIDES = (P1, P2, NEUTRAL)


def fresh(seed: int = 1, **options: Any) -> RiskState:
    return new(2, seed=seed, mode="two_player", **options)




def two_player(**kwargs: Any) -> RiskState:
    """A play-phase two-player position (territories alternate P1, P2 unless overridden)."""
    return position(mode="two_player", **kwargs)


# ---------------------------------------------------------------- setup


@pytest.mark.rule("RISK-TWO-1")
def test_the_territory_cards_are_dealt_into_three_piles_of_fourteen() -> None:
    s, events = new_with_events(2, seed=1, mode="two_player", mission_set="euro14")
    assert set(s.owner) == set(IDS)
    assert Counter(s.owner.values()) == {P1: 14, P2: 14, NEUTRAL: 14}
    assert of_type(events, "territories_dealt")[0].counts == {P1: 14, P2: 14, NEUTRAL: 14}
    assert not set(s.owner) & set(BOARD.wild_cards)
    assert s.missions == {} and of_type(events, "mission_dealt") == []
    assert s.deck == [] and all(h == [] for h in s.hands.values())


@pytest.mark.rule("RISK-TWO-2")
def test_the_piles_go_to_the_two_players_and_neutral_at_random() -> None:
    layouts = [fresh(seed) for seed in range(1, 9)]
    for side in SIDES:
        assert len({frozenset(s.territories_of(side)) for s in layouts}) == 8
    # Neither player nor the Neutral is tied to a fixed part of the map.
    assert {s.owner["alaska"] for s in layouts} == set(SIDES)
    assert fresh(3).owner == fresh(3).owner


@pytest.mark.rule("RISK-TWO-3", "RISK-SET-10")
def test_one_army_on_every_territory_and_twenty_six_left_per_side() -> None:
    s = fresh(2)
    assert set(s.armies.values()) == {1}
    assert s.setup_left == {P1: 26, P2: 26, NEUTRAL: 26}
    assert {side: on_board(s, side) for side in SIDES} == {P1: 14, P2: 14, NEUTRAL: 14}


@pytest.mark.rule("RISK-TWO-4")
def test_setup_turns_alternate_starting_with_the_die_roll_winner() -> None:
    for seed, first in [(1, P1), (3, P2)]:
        s, events = new_with_events(2, seed=seed, mode="two_player")
        assert of_type(events, "first_player_rolled")[0].first_player == first
        assert s.phase is Phase.SETUP_PLACE_2P
        assert s.current == first
        assert [(d.player, d.kind) for d in RULESET.pending(s)] == [(first, "setup_place_2p")]
        other = P2 if first == P1 else P1
        rejects(s, ("place", other, {"territory": s.territories_of(other)[0]}), "E_NOT_YOUR_TURN")
        _, _, actors = drive(s, lambda x: x.setup_left[NEUTRAL] <= 22)
        # Each setup turn is two actions here (own pair, then Neutral): first, first, other, other, …
        assert actors == [first, first, other, other, first, first, other, other]


@pytest.mark.rule("RISK-TWO-5")
def test_exactly_two_own_armies_per_setup_turn_on_own_territories() -> None:
    s = fresh(1)
    a, b = s.territories_of(P1)[:2]
    rejects(s, ("place", P1, {"territory": a, "count": 3}), "E_TOO_MANY_TO_PLACE")
    rejects(s, ("place", P1, {"territory": s.territories_of(P2)[0]}), "E_NOT_OWNED")
    rejects(s, ("place", P1, {"territory": s.territories_of(NEUTRAL)[0]}), "E_NOT_OWNED")
    # Split over two territories …
    split, _ = play(s, ("place", P1, {"territory": a}))
    assert split.current == P1 and split.setup_own_placed == 1
    split, _ = play(split, ("place", P1, {"territory": b}))
    assert (split.armies[a], split.armies[b]) == (2, 2)
    assert split.setup_left[P1] == 24
    rejects(split, ("place", P1, {"territory": a}), "E_TOO_MANY_TO_PLACE")
    assert split.current == P1  # the Neutral army is still owed
    assert [d.detail for d in RULESET.pending(split)] == [{"own": 0, "neutral": 1}]
    # … or both on one.
    both, _ = play(s, ("place", P1, {"territory": a, "count": 2}))
    assert both.armies[a] == 3 and both.setup_own_placed == 2


@pytest.mark.rule("RISK-TWO-6")
def test_exactly_one_neutral_army_per_setup_turn_on_a_neutral_territory() -> None:
    s = fresh(1)
    n1, n2 = s.territories_of(NEUTRAL)[:2]
    rejects(s, ("place_neutral", P1, {"territory": s.territories_of(P1)[0]}), "E_NOT_NEUTRAL")
    rejects(s, ("place_neutral", P1, {"territory": s.territories_of(P2)[0]}), "E_NOT_NEUTRAL")
    after, events = play(s, ("place_neutral", P1, {"territory": n1}))
    assert after.armies[n1] == 2
    assert after.owner[n1] == NEUTRAL
    assert after.setup_left[NEUTRAL] == 25
    assert after.setup_left[P1] == 26
    assert [(e.player, e.territory, e.count) for e in of_type(events, "placed")] == [(NEUTRAL, n1, 1)]
    rejects(after, ("place_neutral", P1, {"territory": n2}), "E_NEUTRAL_DONE")
    assert after.current == P1
    assert [d.detail for d in RULESET.pending(after)] == [{"own": 2, "neutral": 0}]


@pytest.mark.rule("RISK-TWO-7")
def test_the_two_parts_may_come_in_either_order() -> None:
    s = fresh(1)
    own = s.territories_of(P1)[0]
    neutral = s.territories_of(NEUTRAL)[0]
    a, _ = play(s, ("place", P1, {"territory": own, "count": 2}))
    assert a.current == P1
    a, _ = play(a, ("place_neutral", P1, {"territory": neutral}))
    b, _ = play(s, ("place_neutral", P1, {"territory": neutral}))
    assert b.current == P1
    b, _ = play(b, ("place", P1, {"territory": own, "count": 2}))
    for done in (a, b):
        assert done.current == P2
        assert done.armies[own] == 3 and done.armies[neutral] == 2
        assert (done.setup_own_placed, done.setup_neutral_placed) == (0, False)
        assert done.setup_left == {P1: 24, P2: 26, NEUTRAL: 25}


@pytest.mark.rule("RISK-TWO-8")
def test_after_thirteen_setup_turns_each_all_forty_are_on_the_board() -> None:
    s = fresh(5)
    first = s.first_player
    done, _, actors = drive(s, lambda x: x.phase is not Phase.SETUP_PLACE_2P)
    turns = [actors[k] for k in range(0, len(actors), 2)]
    assert len(actors) == 52
    assert Counter(turns) == {P1: 13, P2: 13}
    assert turns[0] == first
    assert all(turns[k] != turns[k + 1] for k in range(len(turns) - 1))
    assert {side: on_board(done, side) for side in SIDES} == {P1: 40, P2: 40, NEUTRAL: 40}
    assert set(done.setup_left.values()) == {0}
    assert done.phase is Phase.REINFORCE


@pytest.mark.rule("RISK-TWO-9")
def test_wilds_return_and_the_first_player_takes_turn_one() -> None:
    for seed in (1, 3):
        s = fresh(seed)
        done, events, _ = drive(s, lambda x: x.phase is not Phase.SETUP_PLACE_2P)
        assert Counter(done.deck) == Counter([*IDS, *BOARD.wild_cards])
        assert done.deck != [*IDS, *BOARD.wild_cards]
        assert done.turn == 1 and done.current == s.first_player
        started = of_type(events, "turn_started")
        assert [(e.player, e.turn) for e in started] == [(s.first_player, 1)]
        assert started[0].base == 14 // 3


# ---------------------------------------------------------------- during play


@pytest.mark.rule("RISK-TWO-10")
def test_neutral_never_takes_a_turn_nor_gets_reinforcements_or_cards() -> None:
    owner = dict.fromkeys(BOARD.members["australia"], NEUTRAL) | dict.fromkeys(BOARD.members["south_america"], NEUTRAL)
    s = two_player(owner=owner, phase=Phase.FORTIFY, current=P1)
    assert NEUTRAL not in s.hands
    after, events = play(s, ("end_turn", P1))
    assert [e.player for e in of_type(events, "turn_started")] == [P2]
    after, _ = play(after, ("place", P2, {"territory": after.territories_of(P2)[0], "count": after.pool}))
    after, events = play(after, ("end_turn", P2))
    assert [e.player for e in of_type(events, "turn_started")] == [P1]
    assert all(after.armies[t] == 3 for t in owner)  # no reinforcements ever reach Neutral land
    assert NEUTRAL not in after.hands
    assert all(d.player != NEUTRAL for d in RULESET.pending(after))
    # Nothing can be done in Neutral's name.
    rejects(after, ("attack", NEUTRAL, {"source": "peru", "target": "central_america"}), "E_NOT_PLAYER")
    rejects(after, ("end_turn", NEUTRAL), "E_NOT_PLAYER")


@pytest.mark.rule("RISK-TWO-11")
def test_the_non_active_player_chooses_the_neutral_defence() -> None:
    s = two_player(owner={"alaska": P1, "kamchatka": NEUTRAL, "alberta": P2, "northwest_territory": NEUTRAL},
                   armies={"alaska": 5, "kamchatka": 3, "alberta": 5, "northwest_territory": 3},
                   phase=Phase.ATTACK, defender_dice="choose")
    asked, events = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}))
    assert of_type(events, "battle") == []
    assert asked.interrupt is not None and asked.interrupt.defender == P2
    assert [(d.player, d.kind) for d in RULESET.pending(asked)] == [(P2, "defend")]
    rejects(asked, ("defend", P1, {"dice": 2}), "E_NOT_DEFENDER")
    done, events = play(asked, ("defend", P2, {"dice": 1}), dice=[6, 5, 4, 2])
    battle = of_type(events, "battle")[0]
    assert battle.defender == NEUTRAL and battle.defence_dice == [2]
    assert done.armies["kamchatka"] == 2
    # On P2's turn, P1 answers for the Neutral.
    theirs = replace(s, current=P2)
    asked, _ = play(theirs, ("attack", P2, {"source": "alberta", "target": "northwest_territory"}))
    assert asked.interrupt is not None and asked.interrupt.defender == P1


@pytest.mark.rule("RISK-TWO-11")
def test_with_auto_max_the_neutral_defends_with_the_maximum_at_once() -> None:
    s = two_player(owner={"alaska": P1, "kamchatka": NEUTRAL}, armies={"alaska": 5, "kamchatka": 3},
                   phase=Phase.ATTACK)
    after, events = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), dice=[6, 6, 6, 5, 5])
    battle = of_type(events, "battle")[0]
    assert battle.defence_dice == [5, 5]
    assert after.interrupt is None
    assert after.armies["kamchatka"] == 1


@pytest.mark.rule("RISK-TWO-12")
def test_conquering_a_neutral_territory_earns_a_card() -> None:
    s = two_player(owner={"alaska": P1, "kamchatka": NEUTRAL}, armies={"alaska": 5, "kamchatka": 1},
                   phase=Phase.ATTACK, deck=["peru", "wild_1"])
    after, events = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}),
                         dice=[6, 6, 6, 1])
    assert of_type(events, "conquered")[0].previous_owner == NEUTRAL
    assert after.conquered_this_turn is True
    after, _ = play(after, ("move", P1, {"count": 4}))
    after, events = play(after, ("end_turn", P1))
    assert [(e.player, e.hand_size) for e in of_type(events, "card_drawn")] == [(P1, 1)]
    assert after.hands[P1] == ["peru"]


@pytest.mark.rule("RISK-TWO-13")
def test_wiping_out_the_neutral_does_nothing_special() -> None:
    owner = {t: (P1 if k % 2 == 0 else P2) for k, t in enumerate(IDS)}
    owner.update({"alaska": P1, "kamchatka": NEUTRAL})
    s = two_player(owner=owner, armies={"alaska": 5, "kamchatka": 1}, phase=Phase.ATTACK,
                   hands={P1: ["peru"], P2: ["egypt"]})
    after, events = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}),
                         dice=[6, 6, 6, 1])
    after, more = play(after, ("move", P1, {"count": 3}))
    events += more
    assert NEUTRAL not in after.owner.values()
    assert of_type(events, "eliminated") == [] and of_type(events, "game_won") == []
    assert after.phase is Phase.ATTACK and after.winner is None and after.interrupt is None
    assert after.hands == {P1: ["peru"], P2: ["egypt"]}
    assert [p.status for p in after.players] == ["active", "active"]
    after, events = play(after, ("end_turn", P1))
    assert of_type(events, "turn_started")[0].player == P2
    assert len(after.hands[P1]) == 2


@pytest.mark.rule("RISK-TWO-14")
def test_a_traded_card_showing_a_neutral_territory_gives_no_bonus() -> None:
    # alaska, venezuela and peru are all Infantry: a valid set.
    cards = ["alaska", "venezuela", "peru"]
    neutral = two_player(owner={"alaska": NEUTRAL, "venezuela": P2, "peru": P2},
                         hands={P1: list(cards)}, pool=4)
    rejects(neutral, ("trade", P1, {"cards": cards, "bonus": "alaska"}), "E_BONUS_CHOICE")
    after, events = play(neutral, ("trade", P1, {"cards": cards}))
    traded = of_type(events, "cards_traded")[0]
    assert traded.bonus_territory is None
    assert after.armies["alaska"] == 3
    assert after.card_bonus_taken is False
    assert after.pool == 4 + traded.value
    # The same set with Alaska owned by the trader does give +2 there.
    owned = two_player(owner={"alaska": P1, "venezuela": P2, "peru": P2}, hands={P1: list(cards)}, pool=4)
    after, events = play(owned, ("trade", P1, {"cards": cards}))
    assert of_type(events, "cards_traded")[0].bonus_territory == "alaska"
    assert after.armies["alaska"] == 5
