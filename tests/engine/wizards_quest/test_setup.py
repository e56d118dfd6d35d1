"""Setup (WQ-SET-1 … SET-10), the fixed turn order option (WQ-ORD-4) and the dice order of setup (WQ-DICE-1)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine.core.errors import RuleError
from engine.core.models import Seat
from engine.core.rng import Rng, RngState
from engine.games.wizards_quest import RULESET, WQOptions, WQState
from engine.games.wizards_quest.rules import roll_off
from engine.games.wizards_quest.setup import hiders
from engine.games.wizards_quest.state import Phase
from tests.engine.wizards_quest.helpers import MAP, P1, P2, P3, new, of_type, play, seats

TWELVE = [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 6], [2, 1], [2, 2], [2, 3], [2, 4], [2, 5], [2, 6]]


def drive(s: WQState, until: Phase) -> tuple[WQState, list]:
    events: list = []
    while s.phase is not until:
        pid = RULESET.pending(s)[0].player
        s, evs = play(s, RULESET.timeout_action(s, pid))
        events += evs
    return s, events


@pytest.mark.rule("WQ-SET-1")
def test_seats_in_join_order_with_colours() -> None:
    state, _ = RULESET.new_game([*seats(3)[:2], Seat(id=P3, name="C", colour="red")], WQOptions(), 1)
    assert isinstance(state, WQState)
    assert [p.id for p in state.players] == [P1, P2, P3]
    assert [p.colour for p in state.players] == ["blue", "green", "red"]
    with pytest.raises(RuleError) as info:
        RULESET.new_game(seats(1), WQOptions(), 1)
    assert info.value.code == "E_PLAYER_COUNT" and "from 2 to 6 players" in info.value.message
    assert RULESET.player_range(WQOptions()) == (2, 6)


@pytest.mark.rule("WQ-SET-2", "WQ-DICE-1")
def test_setup_leader_die_off_rerolls_ties_in_seat_order() -> None:
    rng = Rng(RngState(state=0, forced=[3, 5, 5, 2, 6]))
    leader, rounds = roll_off(rng, [P1, P2, P3])
    assert leader == P3 and rounds == [{P1: 3, P2: 5, P3: 5}, {P2: 2, P3: 6}]
    state, events = RULESET.new_game(seats(4), WQOptions(), 5)
    assert isinstance(state, WQState)
    rolled = of_type(events, "order_rolled")[0]
    assert rolled.purpose == "setup" and state.setup_leader == state.current == rolled.order[0]
    assert max(rolled.rounds[-1], key=rolled.rounds[-1].get) == state.setup_leader


@pytest.mark.rule("WQ-SET-3", "WQ-SET-4")
def test_castles_in_turn_then_orcs_on_unpicked_castles_and_twelve_territories() -> None:
    s = replace(new(2, seed=3), setup_leader=P2, current=P2)
    s, events = play(s, ("castle", P2, {"castle": "C7"}))
    assert s.owner["C7"] == P2 and s.men["C7"] == 3 and s.current == P1 and not s.orcs
    dice = [f for pair in TWELVE[:3] for f in pair] + [1, 1] + [f for pair in TWELVE[3:] for f in pair]
    s, events = play(s, ("castle", P1, {"castle": "northwatch"}), dice=dice)
    assert s.owner["C1"] == P1
    castles, rolled = of_type(events, "orcs_placed")
    assert castles.locations == ["C2", "C3", "C4", "C5", "C6", "C8"] and castles.orcs == 2
    assert len(rolled.rolls) == 13 and rolled.rolls[3] == [1, 1], "a repeat is rolled again"
    assert rolled.locations == [MAP.territory(r, t) for r, t in TWELVE]
    assert all(s.orcs[t] == 2 for t in rolled.locations) and len(s.orcs) == 18
    assert s.phase is Phase.SETUP_CLAIM and s.current == P2


@pytest.mark.rule("WQ-SET-5")
def test_claiming_round_robin_until_no_empty_territory() -> None:
    s, events = drive(new(5, seed=2), Phase.SETUP_HIDE)
    claims = of_type(events, "claimed")
    assert len(claims) == 24
    order = [c.player for c in claims]
    assert order[:5] == [order[k] for k in range(5)] and len(set(order[:5])) == 5
    assert order[5:10] == order[:5], "the claims go round the table"
    assert sorted(Counter(order).values()) == [4, 5, 5, 5, 5]
    assert Counter(order)[order[4]] == 4, "the last seat in setup order gets one fewer"
    assert all(s.owner.get(t) or s.orcs.get(t) for t in MAP.territories)


@pytest.mark.rule("WQ-SET-6")
def test_who_hides_whose_treasures() -> None:
    assert hiders([1, 2], 0, False) == [("crown", 2), ("chest", 2), ("ring", 2)]
    assert hiders([1, 2, 3], 2, False) == [("crown", 1), ("chest", 1), ("ring", 2)]
    assert hiders([1, 2, 3, 4, 5], 3, False) == [("crown", 5), ("chest", 1), ("ring", 2)]
    state = new(4)
    assert len(state.treasures) == 12 and all(t.location is None and t.hider != t.owner for t in state.treasures)


@pytest.mark.rule("WQ-SET-7")
def test_hiding_goes_round_the_table_one_marker_at_a_time() -> None:
    s, _ = drive(new(3, seed=4), Phase.SETUP_HIDE)
    assert s.current == s.setup_leader
    first = s.current
    t = next(t for t in s.treasures if t.hider == first)
    spot = next(x for x in MAP.territories if s.owner.get(x) not in (t.owner,))
    s, events = play(s, ("hide", first, {"owner": t.owner, "treasure": t.kind, "territory": spot}))
    hidden = of_type(events, "treasure_hidden")[0]
    assert (hidden.territory, hidden.kind, hidden.owner) == (spot, t.kind, t.owner)
    assert s.current != first
    s, _ = drive(s, Phase.SETUP_DEPLOY)
    placed = [t for t in s.treasures if t.location]
    assert len(placed) == 9 and len({t.location for t in placed}) == 9
    assert all(t.location in MAP.territories and s.owner.get(t.location) != t.owner for t in placed)


@pytest.mark.rule("WQ-SET-8")
def test_starting_men_in_batches_of_five() -> None:
    s, _ = drive(new(3, seed=6), Phase.SETUP_DEPLOY)
    leader = s.current
    assert s.pool == 5 and s.setup_left[leader] == 11
    spot = s.locations_of(leader)[0]
    s, events = play(s, ("buy", leader, {"leader": "hero", "location": spot}))
    assert s.hero[leader] == spot and s.pool == 3 and of_type(events, "leader_bought")[0].cost == 2
    s, _ = play(s, ("place", leader, {"placements": {spot: 3}}))
    assert s.current != leader and s.pool == 5
    totals: Counter[int] = Counter()
    while s.phase is Phase.SETUP_DEPLOY:
        pid = s.current
        totals[pid] += s.pool
        s, _ = play(s, RULESET.timeout_action(s, pid))
    assert totals[leader] == 11 and all(v == 16 for p, v in totals.items() if p != leader)


@pytest.mark.rule("WQ-SET-9", "WQ-SET-10")
def test_deck_shuffled_and_round_one_starts_with_the_orc_phase() -> None:
    s, _ = drive(new(2, seed=8), Phase.SETUP_DEPLOY)
    assert s.dragon is None and s.mage is None
    events: list = []
    while s.phase is Phase.SETUP_DEPLOY:
        s, evs = play(s, RULESET.timeout_action(s, s.current))
        events += evs
    types = [e.type for e in events]
    start = types.index("setup_finished")
    assert types[start + 1:start + 4] == ["round_started", "orc_growth", "orc_growth"]
    assert sorted(s.deck) == sorted(RULESET.data.deck.instances) and s.deck != list(RULESET.data.deck.instances)
    assert all(not h for h in s.hands.values()) and all(not b for b in s.boats.values())
    assert s.round == 1 and s.phase is Phase.PETITION


@pytest.mark.rule("WQ-ORD-4")
def test_fixed_turn_order_keeps_the_setup_order_without_dice() -> None:
    s, events = drive(new(3, seed=9, turn_order="fixed"), Phase.PETITION)
    seats_ = [P1, P2, P3]
    k = seats_.index(s.setup_leader)
    assert s.order == (seats_[k:] + seats_[:k])
    assert [e.purpose for e in of_type(events, "order_rolled")] == []
    _, events = drive(new(3, seed=9), Phase.PETITION)
    assert [e.purpose for e in of_type(events, "order_rolled")] == ["round"]
