"""Setup: RISK-SET-1 … SET-32 (player counts, seats, first player, claiming, dealing, placing, deck)."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Event, Seat, to_json
from engine.core.rng import Rng, RngState, roll_off
from engine.core.views import HIDDEN
from engine.games.risk import RULESET, RiskOptions, RiskState
from engine.games.risk.state import NEUTRAL, Phase
from engine.games.risk.text import narrate, text_board
from tests.engine.risk.helpers import (
    BOARD,
    IDS,
    P1,
    P2,
    P3,
    P4,
    P5,
    PLAYERS,
    drive,
    new,
    new_with_events,
    of_type,
    on_board,
    play,
    position,
    rejects,
)

START = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}


def start_game(seat_list: list[Seat], seed: int = 1, **options: Any) -> tuple[RiskState, list[Event]]:
    state, events = RULESET.new_game(seat_list, RiskOptions(**options), seed)
    assert isinstance(state, RiskState)
    return state, events


def count_owned(s: RiskState) -> dict[int, int]:
    return dict(Counter(s.owner.values()))




def claimed_all(s: RiskState) -> bool:
    return s.phase is not Phase.SETUP_CLAIM


def in_play(s: RiskState) -> bool:
    return s.phase is Phase.REINFORCE


# ---------------------------------------------------------------- player counts


def refuses_count(n: int, **options: Any) -> None:
    many = [Seat(id=100 + k, name=f"P{k}") for k in range(1, n + 1)]
    with pytest.raises(RuleError) as info:
        start_game(many, **options)
    assert info.value.code == "E_PLAYER_COUNT"
    assert info.value.message and "{" not in info.value.message


@pytest.mark.rule("RISK-SET-1")
def test_standard_takes_three_to_six_players() -> None:
    for n in range(3, 7):
        assert len(new(n, seed=1).players) == n
    refuses_count(2)
    refuses_count(1)
    refuses_count(7)
    assert RULESET.player_range(RiskOptions()) == (3, 6)


@pytest.mark.rule("RISK-SET-2")
def test_secret_mission_takes_three_to_six_players() -> None:
    for n in range(3, 7):
        assert len(new(n, seed=1, mode="secret_mission").missions) == n
    refuses_count(2, mode="secret_mission")
    refuses_count(7, mode="secret_mission")
    assert RULESET.player_range(RiskOptions(mode="secret_mission")) == (3, 6)


@pytest.mark.rule("RISK-SET-3")
def test_two_player_takes_exactly_two() -> None:
    assert [p.id for p in new(2, seed=1, mode="two_player").players] == [P1, P2]
    refuses_count(1, mode="two_player")
    refuses_count(3, mode="two_player")
    assert RULESET.player_range(RiskOptions(mode="two_player")) == (2, 2)


# ---------------------------------------------------------------- seats, colours, first player


@pytest.mark.rule("RISK-SET-4")
def test_seat_order_is_join_order_and_turns_follow_it() -> None:
    joined = [Seat(id=P3, name="Cleo"), Seat(id=P1, name="Ann"), Seat(id=P2, name="Bob")]
    s, _ = start_game(joined, seed=1)
    assert [p.id for p in s.players] == [P3, P1, P2]
    assert [p.name for p in s.players] == ["Cleo", "Ann", "Bob"]
    # Claims go round in that seat order from whoever rolled highest.
    order = [P3, P1, P2]
    s, _, actors = drive(s, lambda x: len(x.owner) == 6)
    k = order.index(s.first_player)
    assert actors == [order[(k + i) % 3] for i in range(6)]


@pytest.mark.rule("RISK-SET-5")
def test_seat_colours_are_the_six_classic_colours() -> None:
    s = new(6, seed=1)
    assert [p.colour for p in s.players] == ["red", "blue", "green", "yellow", "black", "pink"]
    assert BOARD.colours == ["red", "blue", "green", "yellow", "black", "pink"]
    asked = [Seat(id=P1, name="A", colour="pink"), Seat(id=P2, name="B"), Seat(id=P3, name="C", colour="red")]
    s, _ = start_game(asked)
    assert [p.colour for p in s.players] == ["pink", "blue", "red"]
    # A colour already taken gives the first free colour instead of an error (ruling 24).
    clash = [Seat(id=P1, name="A", colour="blue"), Seat(id=P2, name="B", colour="blue"), Seat(id=P3, name="C")]
    s, _ = start_game(clash)
    colours = [p.colour for p in s.players]
    assert colours[0] == "blue"
    assert len(set(colours)) == 3
    assert set(colours) <= set(BOARD.colours)


@pytest.mark.rule("RISK-SET-6")
def test_neutral_is_grey_never_a_seat_and_never_a_destroy_target() -> None:
    s = new(2, seed=1, mode="two_player")
    assert NEUTRAL not in [p.id for p in s.players]
    assert s.player(NEUTRAL) is None
    assert s.name(NEUTRAL) == "Neutral"
    neutral_land = next(t for t in IDS if s.owner[t] == NEUTRAL)
    line = next(x for x in text_board(s).splitlines() if x.startswith(BOARD.territory[neutral_land].name + " "))
    assert "Neutral (Grey)" in line
    assert "grey" not in BOARD.colours
    assert {m.destroy for m in BOARD.missions if m.destroy} <= set(BOARD.colours)
    # Resigned players' land turns Grey Neutral too.
    play_state = position(n=3)
    after, _ = play(play_state, ("resign", P3))
    gone = next(t for t in IDS if play_state.owner[t] == P3)
    assert after.owner[gone] == NEUTRAL
    line = next(x for x in text_board(after).splitlines() if x.startswith(BOARD.territory[gone].name + " "))
    assert "Neutral (Grey)" in line


@pytest.mark.rule("RISK-SET-7")
def test_highest_roll_goes_first() -> None:
    first, rounds = roll_off(Rng(RngState(state=1, forced=[2, 5, 3, 1])), [P1, P2, P3, P4])
    assert first == P2
    assert rounds == [{P1: 2, P2: 5, P3: 3, P4: 1}]
    for seed in range(1, 8):
        s, events = new_with_events(5, seed=seed)
        rolled = of_type(events, "first_player_rolled")[0]
        assert set(rolled.rounds[0]) == {P1, P2, P3, P4, P5}
        last = rolled.rounds[-1]
        assert rolled.first_player == max(last, key=lambda p: last[p])
        assert list(last.values()).count(max(last.values())) == 1
        assert s.first_player == rolled.first_player == s.current


@pytest.mark.rule("RISK-SET-8")
def test_tied_highest_players_reroll_among_themselves() -> None:
    rng = Rng(RngState(state=1, forced=[6, 2, 6, 3, 4, 4, 1, 5]))
    first, rounds = roll_off(rng, [P1, P2, P3, P4])
    assert rounds == [{P1: 6, P2: 2, P3: 6, P4: 3}, {P1: 4, P3: 4}, {P1: 1, P3: 5}]
    assert first == P3
    # A three-way tie: only the tied three roll again.
    rng = Rng(RngState(state=1, forced=[5, 5, 2, 5, 3, 6, 1]))
    first, rounds = roll_off(rng, [P1, P2, P3, P4])
    assert rounds == [{P1: 5, P2: 5, P3: 2, P4: 5}, {P1: 3, P2: 6, P4: 1}]
    assert first == P2


@pytest.mark.rule("RISK-SET-8")
def test_new_game_logs_every_reroll_round() -> None:
    found = False
    for seed in range(1, 40):
        _, events = new_with_events(3, seed=seed)
        rounds = of_type(events, "first_player_rolled")[0].rounds
        for before, after in itertools.pairwise(rounds):
            top = max(before.values())
            assert set(after) == {p for p, r in before.items() if r == top}
            found = True
    assert found


@pytest.mark.rule("RISK-SET-9")
def test_first_player_claims_first_and_plays_turn_one() -> None:
    s = new(3, seed=3)
    first = s.first_player
    assert s.current == first
    assert [(d.player, d.kind) for d in RULESET.pending(s)] == [(first, "claim")]
    other = next(p for p in (P1, P2, P3) if p != first)
    rejects(s, ("claim", other, {"territory": "alaska"}), "E_NOT_YOUR_TURN")
    after, events = play(s, ("claim", first, {"territory": "alaska"}))
    assert after.owner["alaska"] == first
    assert of_type(events, "claimed")[0].player == first
    done, events, _ = drive(after, in_play)
    assert done.turn == 1 and done.current == first
    assert of_type(events, "turn_started")[0].player == first


@pytest.mark.rule("RISK-SET-9", "RISK-SET-25")
def test_after_a_deal_the_first_player_places_first_and_plays_turn_one() -> None:
    s = new(4, seed=4, setup="random_deal")
    assert s.first_player == P2
    assert s.phase is Phase.SETUP_PLACE and s.current == P2
    done, _, actors = drive(s, in_play)
    assert actors[:5] == [P2, P3, P4, P1, P2]
    assert done.current == P2 and done.turn == 1


# ---------------------------------------------------------------- starting armies


@pytest.mark.rule("RISK-SET-10")
def test_two_players_start_with_forty_each_and_forty_neutral() -> None:
    s = new(2, seed=1, mode="two_player")
    for side in (P1, P2, NEUTRAL):
        assert on_board(s, side) + s.setup_left[side] == 40
    assert START[2] == BOARD.starting_armies[2] == 40


@pytest.mark.rule("RISK-SET-11", "RISK-SET-12", "RISK-SET-13", "RISK-SET-14")
def test_starting_armies_by_player_count() -> None:
    for n, armies in [(3, 35), (4, 30), (5, 25), (6, 20)]:
        s = new(n, seed=1)
        assert s.setup_left == {pid: armies for pid in PLAYERS[:n]}, n
        dealt = new(n, seed=1, setup="random_deal")
        for pid in PLAYERS[:n]:
            assert on_board(dealt, pid) + dealt.setup_left[pid] == armies


@pytest.mark.rule("RISK-SET-11")
def test_three_players_put_thirty_five_each_on_the_board() -> None:
    done, _, _ = drive(new(3, seed=1), in_play)
    assert {p: on_board(done, p) for p in (P1, P2, P3)} == {P1: 35, P2: 35, P3: 35}


@pytest.mark.rule("RISK-SET-12", "RISK-SET-13", "RISK-SET-14")
def test_four_five_six_players_put_their_armies_on_the_board() -> None:
    for n, armies in [(4, 30), (5, 25), (6, 20)]:
        done, _, _ = drive(new(n, seed=2, setup="random_deal", setup_placement="bulk_sequential"), in_play)
        assert {p: on_board(done, p) for p in PLAYERS[:n]} == dict.fromkeys(PLAYERS[:n], armies)


# ---------------------------------------------------------------- claiming


@pytest.mark.rule("RISK-SET-15")
def test_claims_go_round_one_unclaimed_territory_at_a_time() -> None:
    s = new(3, seed=1)
    assert s.first_player == P1
    after, events = play(s, ("claim", P1, {"territory": "alaska"}))
    assert after.owner == {"alaska": P1} and after.armies == {"alaska": 1}
    assert after.setup_left[P1] == 34
    assert after.current == P2
    assert of_type(events, "claimed")[0].territory == "alaska"
    rejects(after, ("claim", P2, {"territory": "alaska"}), "E_TERRITORY_TAKEN")
    rejects(after, ("place", P2, {"territory": "peru", "count": 2}), "E_TOO_MANY_TO_PLACE")
    # "place" on an empty territory also claims it.
    after, _ = play(after, ("place", P2, {"territory": "peru"}))
    assert after.owner["peru"] == P2 and after.current == P3
    done, _, actors = drive(after, claimed_all)
    assert len(done.owner) == 42 and set(done.armies.values()) == {1}
    assert actors == [[P3, P1, P2][k % 3] for k in range(40)]
    assert count_owned(done) == {P1: 14, P2: 14, P3: 14}
    assert done.phase is Phase.SETUP_PLACE


@pytest.mark.rule("RISK-SET-16")
def test_no_army_on_an_own_territory_while_any_is_unclaimed() -> None:
    s = new(3, seed=1)
    s, _ = play(s, ("claim", P1, {"territory": "alaska"}))
    s, _ = play(s, ("claim", P2, {"territory": "peru"}))
    s, _ = play(s, ("claim", P3, {"territory": "egypt"}))
    rejects(s, ("claim", P1, {"territory": "alaska"}), "E_MUST_CLAIM_EMPTY")
    rejects(s, ("place", P1, {"territory": "alaska"}), "E_MUST_CLAIM_EMPTY")
    # Even with one territory left.
    last = replace(s, owner={t: [P1, P2, P3][k % 3] for k, t in enumerate(IDS[:-1])},
                   armies=dict.fromkeys(IDS[:-1], 1),
                   current=P1)
    mine = next(t for t in IDS if last.owner.get(t) == P1)
    rejects(last, ("place", P1, {"territory": mine}), "E_MUST_CLAIM_EMPTY")
    done, _ = play(last, ("claim", P1, {"territory": IDS[-1]}))
    assert done.phase is Phase.SETUP_PLACE


@pytest.mark.rule("RISK-SET-17")
def test_four_or_five_players_first_two_claim_one_more() -> None:
    s = new(4, seed=1)
    assert s.first_player == P1
    done, _, _ = drive(s, claimed_all)
    assert count_owned(done) == {P1: 11, P2: 11, P3: 10, P4: 10}
    s = new(5, seed=1)
    assert s.first_player == P4
    done, _, _ = drive(s, claimed_all)
    assert count_owned(done) == {P4: 9, P5: 9, P1: 8, P2: 8, P3: 8}


@pytest.mark.rule("RISK-SET-18")
def test_placement_continues_after_the_last_claimer() -> None:
    s = new(4, seed=1)
    done, _, actors = drive(s, claimed_all)
    assert actors[-1] == P2  # 42 = 4·10 + 2: the 42nd claim is the second seat's
    assert done.phase is Phase.SETUP_PLACE
    assert done.current == P3
    s = new(5, seed=1)
    done, _, actors = drive(s, claimed_all)
    assert actors[-1] == P5
    assert done.current == P1


@pytest.mark.rule("RISK-SET-19")
def test_each_setup_turn_places_one_army_on_an_own_territory() -> None:
    s, _, _ = drive(new(3, seed=1), claimed_all)
    me = s.current
    mine = s.territories_of(me)[0]
    theirs = next(t for t in IDS if s.owner[t] != me)
    rejects(s, ("place", me, {"territory": theirs}), "E_NOT_OWNED")
    rejects(s, ("place", me, {"territory": mine, "count": 2}), "E_TOO_MANY_TO_PLACE")
    other = next(p for p in (P1, P2, P3) if p != me)
    rejects(s, ("place", other, {"territory": s.territories_of(other)[0]}), "E_NOT_YOUR_TURN")
    after, events = play(s, ("place", me, {"territory": mine}))
    assert after.armies[mine] == 2
    assert after.setup_left[me] == s.setup_left[me] - 1
    assert of_type(events, "placed")[0].count == 1
    assert after.current != me


@pytest.mark.rule("RISK-SET-20")
def test_players_with_nothing_left_are_skipped() -> None:
    s = new(4, seed=1)
    s, _, _ = drive(s, claimed_all)
    assert s.setup_left == {P1: 19, P2: 19, P3: 20, P4: 20}
    done, _, actors = drive(s, in_play)
    assert len(actors) == 78
    # After 19 rounds P1 and P2 are out; P3 and P4 place their last armies alone.
    assert actors[-6:] == [P3, P4, P1, P2, P3, P4]
    assert done.current == P1  # and the first player starts play
    crafted = replace(s, setup_left={P1: 0, P2: 3, P3: 1, P4: 0}, current=P3)
    after, _ = play(crafted, ("place", P3, {"territory": crafted.territories_of(P3)[0]}))
    assert after.current == P2
    after, _ = play(after, ("place", P2, {"territory": crafted.territories_of(P2)[0]}))
    assert after.current == P2


@pytest.mark.rule("RISK-SET-21", "RISK-GEN-5")
def test_setup_ends_when_every_army_is_placed() -> None:
    s, _, _ = drive(new(3, seed=2), lambda x: sum(x.setup_left.values()) == 1)
    assert s.phase is Phase.SETUP_PLACE
    last = s.current
    assert s.setup_left[last] == 1
    done, events = play(s, RULESET.timeout_action(s, last))
    assert done.phase is Phase.REINFORCE
    assert done.turn == 1
    assert set(done.setup_left.values()) == {0}
    assert sum(done.armies.values()) == 3 * 35
    assert of_type(events, "setup_finished")
    # Stacks have no cap.
    stacked = replace(s, setup_left={P1: 0, P2: 0, P3: 0, last: 200})
    t = stacked.territories_of(last)[0]
    for _ in range(3):
        stacked, _ = play(stacked, ("place", last, {"territory": t}))
    assert stacked.armies[t] == s.armies[t] + 3 and stacked.current == last


# ---------------------------------------------------------------- random deal


@pytest.mark.rule("RISK-SET-22")
def test_random_deal_shuffles_the_forty_two_territory_cards_without_wilds() -> None:
    s, events = new_with_events(3, seed=5, setup="random_deal")
    assert set(s.owner) == set(IDS)
    assert not set(s.owner) & set(BOARD.wild_cards)
    assert of_type(events, "territories_dealt")[0].counts == {P1: 14, P2: 14, P3: 14}
    layouts = {tuple(new(3, seed=k, setup="random_deal").owner[t] for t in IDS) for k in range(5, 10)}
    assert len(layouts) == 5
    # Not simply dealt round the table in table order.
    order = [p.id for p in s.players]
    assert [s.owner[t] for t in IDS] not in [[order[(k + r) % 3] for k in range(42)] for r in range(3)]


@pytest.mark.rule("RISK-SET-23")
def test_the_deal_starts_after_the_first_player_so_the_first_player_gets_no_extra() -> None:
    for n in (4, 5):
        firsts = set()
        for seed in range(1, 13):
            s = new(n, seed=seed, setup="random_deal")
            order = [p.id for p in s.players]
            k = order.index(s.first_player)
            extra = {order[(k + 1) % n], order[(k + 2) % n]}
            base = 42 // n
            assert count_owned(s) == {p: base + (1 if p in extra else 0) for p in order}, (n, seed)
            firsts.add(s.first_player)
        assert len(firsts) > 1


@pytest.mark.rule("RISK-SET-24")
def test_dealt_territories_get_one_army_each_from_the_starting_armies() -> None:
    for n in (3, 4, 6):
        s = new(n, seed=8, setup="random_deal")
        assert set(s.armies.values()) == {1}
        owned = count_owned(s)
        assert s.setup_left == {p: START[n] - owned[p] for p in PLAYERS[:n]}


@pytest.mark.rule("RISK-SET-25")
def test_after_a_deal_placing_is_one_army_at_a_time_in_seat_order() -> None:
    s = new(3, seed=2, setup="random_deal")
    first = s.first_player
    assert s.current == first and s.phase is Phase.SETUP_PLACE
    done, _, actors = drive(s, in_play)
    order = [p.id for p in s.players]
    k = order.index(first)
    assert actors == [order[(k + i) % 3] for i in range(63)]
    assert {p: on_board(done, p) for p in order} == dict.fromkeys(order, 35)


@pytest.mark.rule("RISK-SET-26")
def test_bulk_sequential_places_all_remaining_armies_in_one_turn() -> None:
    s = new(3, seed=2, setup="random_deal", setup_placement="bulk_sequential")
    me = s.current
    left = s.setup_left[me]
    a, b, c = s.territories_of(me)[:3]
    rejects(s, ("deploy", me, {"placements": {a: left, b: 1}}), "E_TOO_MANY_TO_PLACE")
    theirs = next(t for t in IDS if s.owner[t] != me)
    rejects(s, ("deploy", me, {"placements": {theirs: left}}), "E_NOT_OWNED")
    after, events = play(s, ("deploy", me, {"placements": {a: left - 3, b: 2, c: 1}}))
    assert (after.armies[a], after.armies[b], after.armies[c]) == (left - 2, 3, 2)
    assert after.setup_left[me] == 0
    assert sum(e.count for e in of_type(events, "placed")) == left
    assert after.current != me
    # Several `place` commands may share one bulk turn (ruling 13); it ends when nothing is left.
    nxt = after.current
    mine = after.territories_of(nxt)[0]
    rest = after.setup_left[nxt]
    part, _ = play(after, ("place", nxt, {"territory": mine, "count": rest - 1}))
    assert part.current == nxt and part.setup_left[nxt] == 1
    full, _ = play(part, ("place", nxt, {"territory": mine, "count": 1}))
    assert full.armies[mine] == 1 + rest
    assert full.current not in (me, nxt)
    done, _, actors = drive(full, in_play)
    assert len(actors) == 1
    assert done.turn == 1 and done.current == s.first_player


@pytest.mark.rule("RISK-SET-27")
def test_simultaneous_plans_stay_hidden_until_all_are_in() -> None:
    s = new(3, seed=2, setup="random_deal", setup_placement="simultaneous")
    players = [P1, P2, P3]
    plans = {p: {s.territories_of(p)[0]: s.setup_left[p]} for p in players}
    after, events = play(s, ("deploy", P2, {"placements": plans[P2]}))
    assert of_type(events, "placed") == []
    public = [{k: v for k, v in to_json(e).items() if v is not None} for e in events if e.private_to is None]
    assert public == [{"type": "plan_submitted", "player": P2}]
    assert all(e.private_to == P2 for e in of_type(events, "planned"))
    assert after.armies == s.armies
    assert RULESET.view(after, P1).plans == {P2: {HIDDEN: s.setup_left[P2]}}  # who is in, not where
    assert RULESET.view(after, None).plans == {P2: {HIDDEN: s.setup_left[P2]}}
    assert RULESET.view(after, P2).plans == {P2: plans[P2]}
    assert {d.player for d in RULESET.pending(RULESET.view(after, None))} == {P1, P3}
    rejects(after, ("deploy", P2, {"placements": plans[P2]}), "E_PLAN_DONE")
    after, _ = play(after, ("deploy", P3, {"placements": plans[P3]}))
    assert after.armies == s.armies and after.phase is Phase.SETUP_PLACE
    done, events = play(after, ("deploy", P1, {"placements": plans[P1]}))
    revealed = of_type(events, "plans_revealed")[0]
    assert revealed.plans == plans
    for p in players:
        (t, n), = plans[p].items()
        assert done.armies[t] == 1 + n
    assert done.phase is Phase.REINFORCE and done.turn == 1 and done.current == s.first_player


@pytest.mark.rule("RISK-SET-27")
def test_simultaneous_unplaced_armies_are_placed_automatically() -> None:
    s = new(3, seed=2, setup="random_deal", setup_placement="simultaneous")
    t = s.territories_of(P1)[0]
    after, _ = play(s, ("deploy", P1, {"placements": {t: 1}}))  # a partial plan
    after, _ = play(after, ("deploy", P2, {"placements": {s.territories_of(P2)[0]: 2}}))
    # The timer expires for P3: the bot submits the automatic plan.
    auto = RULESET.timeout_actions(after, P3)
    assert [a.type for a in auto] == ["deploy"]
    done, events = play(after, auto[0])
    revealed = of_type(events, "plans_revealed")[0].plans
    assert sum(revealed[P1].values()) == s.setup_left[P1]
    assert revealed[P1][t] >= 1
    assert sum(revealed[P2].values()) == s.setup_left[P2]
    assert sum(revealed[P3].values()) == s.setup_left[P3]
    assert {p: on_board(done, p) for p in (P1, P2, P3)} == {P1: 35, P2: 35, P3: 35}
    # Automatic armies go to border territories only (RISK-DIG-45).
    chosen = {P1: t, P2: s.territories_of(P2)[0]}
    for p in (P1, P2, P3):
        for terr in revealed[p]:
            assert terr == chosen.get(p) or any(s.owner[x] != p for x in BOARD.neighbours[terr]), (p, terr)
    assert done.phase is Phase.REINFORCE


@pytest.mark.rule("RISK-SET-28", "RISK-SET-30")
def test_after_a_dealt_setup_the_territory_cards_are_back_in_the_deck() -> None:
    s = new(4, seed=6, setup="random_deal", setup_placement="bulk_sequential")
    done, _, _ = drive(s, in_play)
    assert len(done.deck) == 44
    assert set(done.deck) == set(IDS) | set(BOARD.wild_cards)
    assert all(h == [] for h in done.hands.values())


# ---------------------------------------------------------------- secret missions


@pytest.mark.rule("RISK-SET-29")
def test_each_player_is_dealt_one_private_mission() -> None:
    s, events = new_with_events(4, seed=9, mode="secret_mission")
    dealt = of_type(events, "mission_dealt")
    assert sorted(e.private_to for e in dealt) == [P1, P2, P3, P4]
    assert {e.private_to: e.mission for e in dealt} == s.missions
    cards = [e.replaced or e.mission for e in dealt]
    assert len(set(cards)) == 4  # four different cards from the pool
    assert all(narrate(e, s) is None for e in dealt)
    assert RULESET.view(s, P1).missions == {P1: s.missions[P1]}
    assert RULESET.view(s, None).missions == {}
    # Shuffled: the deal differs between games, and unseated colours' destroy missions are out.
    deals = set()
    for seed in range(1, 30):
        _, evs = new_with_events(3, seed=seed, mode="secret_mission")
        got = tuple(e.replaced or e.mission for e in of_type(evs, "mission_dealt"))
        assert not set(got) & {"M10", "M11", "M12"}
        deals.add(got)
    assert len(deals) > 10


# ---------------------------------------------------------------- deck and first turn


@pytest.mark.rule("RISK-SET-30")
def test_play_starts_with_a_shuffled_44_card_deck_without_missions() -> None:
    decks = []
    for seed in (1, 2):
        s = new(3, seed=seed, setup="random_deal", setup_placement="bulk_sequential", mode="secret_mission")
        done, _, _ = drive(s, in_play)
        assert len(done.deck) == 44
        assert Counter(done.deck) == Counter([*IDS, *BOARD.wild_cards])
        assert not any(c.startswith("M") and c[1:].isdigit() for c in done.deck)
        assert done.deck != [*IDS, *BOARD.wild_cards]
        decks.append(done.deck)
    assert decks[0] != decks[1]


@pytest.mark.rule("RISK-SET-31")
def test_discard_pile_empty_and_no_sets_traded_at_the_start() -> None:
    done, _, _ = drive(new(3, seed=3), in_play)
    assert done.discard == []
    assert done.sets_traded == 0
    assert done.hands == {P1: [], P2: [], P3: []}
    assert done.conquered_this_turn is False


@pytest.mark.rule("RISK-SET-32")
def test_turn_one_gets_normal_reinforcements() -> None:
    for seed in (1, 4, 7):
        s = new(3, seed=seed, setup="random_deal", setup_placement="bulk_sequential")
        done, events, _ = drive(s, in_play)
        first = s.first_player
        started = of_type(events, "turn_started")
        assert len(started) == 1
        owned = set(done.territories_of(first))
        held = [c.id for c in BOARD.continents if set(BOARD.members[c.id]) <= owned]
        expected = max(3, len(owned) // 3) + sum(BOARD.continent[c].bonus for c in held)
        assert (started[0].player, started[0].turn, started[0].base) == (first, 1, len(owned) // 3)
        assert started[0].continents == held
        assert started[0].total == expected == done.pool
        assert done.phase is Phase.REINFORCE
    # A player holding a whole continent at the start gets its bonus on turn 1.
    owner = {t: (P2 if k % 2 else P3) for k, t in enumerate(IDS)}
    owner.update(dict.fromkeys(BOARD.members["australia"], P1))
    owner.update(dict.fromkeys(IDS[:8], P1))
    bulk = position(owner=owner, phase=Phase.SETUP_PLACE, current=P1, setup_placement="bulk_sequential")
    bulk = replace(bulk, setup_left={P1: 2, P2: 0, P3: 0}, turn=0)
    done, events = play(bulk, ("deploy", P1, {"placements": {"alaska": 2}}))
    started = of_type(events, "turn_started")[0]
    assert started.player == P1 and started.turn == 1
    assert started.base == 12 // 3
    assert started.continents == ["australia"]
    assert done.pool == 4 + 2



@pytest.mark.rule("RISK-SET-27")
def test_simultaneous_place_commands_build_the_secret_plan() -> None:
    s = new(3, seed=2, setup="random_deal", setup_placement="simultaneous")
    t2, t3 = s.territories_of(P2)[:2]
    left = s.setup_left[P2]
    after, events = play(s, ("place", P2, {"territory": t2, "count": 2}))  # no turn to wait for
    assert [e.type for e in events] == ["planned"] and events[0].private_to == P2
    assert after.armies == s.armies and RULESET.view(after, P2).plans == {P2: {t2: 2}}
    assert RULESET.view(after, P1).plans == {}  # a plan not yet complete: not even how far it got
    rejects(after, ("place", P2, {"territory": t3, "count": left - 1}), "E_TOO_MANY_TO_PLACE")
    after, events = play(after, ("place", P2, {"territory": t3, "count": left - 2}))
    assert [e.type for e in events if e.private_to is None] == ["plan_submitted"]
    assert RULESET.view(after, P1).plans == {P2: {HIDDEN: left}}
    rejects(after, ("place", P2, {"territory": t3}), "E_PLAN_DONE")
    assert {d.player for d in RULESET.pending(after)} == {P1, P3}
