"""Many Councils played through with random votes and the stand-ins' choices: cards are conserved, hands stay
within the limit, events never reach a hand and each leaves the game once resolved."""

from __future__ import annotations

import random
from collections import Counter

from engine.games.battlemist import council as C
from engine.games.battlemist import setup as S
from engine.games.battlemist.pieces import CityMark, Troops
from engine.games.battlemist.state import BMOptions, BMState
from tests.engine.battlemist.council_tools import of, run, seats, step
from tests.engine.battlemist.helpers import DATA, snapshot


def armies(state: BMState, rnd: random.Random) -> None:
    """Scatter armies and cities so that every event has something to strike."""
    troops = dict(state.troops)
    for region in rnd.sample([r for r in state.regions if r.startswith("N")], 12):
        pid = rnd.choice(state.seat_order())
        troops[region] = {pid: Troops(infantry=rnd.randint(0, 5), archers=rnd.randint(0, 3),
                                      cavalry=rnd.randint(1, 2))}
        if rnd.random() < 0.4:
            state.cities = {**state.cities, region: CityMark(kind=rnd.choice(["city", "large_city"]), since=0)}
    state.troops = troops


def play_council(state: BMState, rnd: random.Random) -> tuple[BMState, list]:
    before = snapshot(state)
    state_after, events = step(state, C.begin_council)
    assert snapshot(state) == before
    state = state_after
    while not C.council_over(state):
        decision = rnd.choice(C.council_decisions(state))
        action = C.timeout_council(state, decision.player)
        if isinstance(action, C.Vote):
            action = C.Vote(player=action.player, commit=rnd.random() < 0.5)
        before = snapshot(state)
        after, more = run(state, C.HANDLERS[type(action)], action)
        assert snapshot(state) == before, action
        state = after
        events += more
    return state, events


def test_councils_conserve_cards_and_keep_hands_legal() -> None:
    for seed in range(12):
        rnd = random.Random(seed)
        state, _ = S.new_game(DATA, seats(3 + seed % 4), BMOptions(), seed)
        start = Counter(state.deck)
        armies(state, rnd)
        removed: Counter[str] = Counter()
        for round_ in range(1, 16):
            state.round = round_
            state, events = play_council(state, rnd)
            removed.update(e.card for e in of(events, C.EventRemoved))
            assert not state.events and state.council is None
            assert all(len(h) <= DATA.rules.hand_limit for h in state.hands.values())
            assert not [c for h in state.hands.values() for c in h if c.startswith("EV")]
            assert all(s.spent == 0 for s in state.stars.values())
            held = Counter(c for h in state.hands.values() for c in h)
            assert held + Counter(state.deck) + Counter(state.discard) + removed == start
            assert all(t.total() for here in state.troops.values() for t in here.values())
            for pid in state.seat_order():
                for kind in list(state.hands[pid])[:1]:
                    state, _ = run(state, C.discard_card, C.DiscardCard(player=pid, card=kind))
        assert removed and all(n <= 2 for n in removed.values())


def test_draft_and_construction_never_change_the_state_they_were_given() -> None:
    for n in (2, 3, 5):
        state, _ = S.new_game(DATA, seats(n), BMOptions(board="build", races="draft"), n)
        while S.setup_decisions(state):
            [decision] = S.setup_decisions(state)
            action = S.timeout_setup(state, decision.player)
            before = snapshot(state)
            after, _ = run(state, S.HANDLERS[type(action)], action)
            assert snapshot(state) == before
            state = after
        assert len(state.regions) == 33 + n and state.round == 0
