"""AI seats: both policies only play legal actions, and the baseline beats random seats."""

from __future__ import annotations

from engine.core.models import Seat
from engine.core.play import play_out
from engine.games.wizards_quest import RULESET, WQOptions


def test_baseline_beats_random_seats() -> None:
    wins = 0
    for seed in range(4):
        seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(3)]
        state, _ = RULESET.new_game(seats, WQOptions(round_limit=40), seed)
        policies = {1: RULESET.policy("baseline"), 2: RULESET.policy("random"), 3: RULESET.policy("random")}
        state, _ = play_out(RULESET, state, policies, seed)
        wins += RULESET.winners(state) == [1]
    assert wins >= 3, f"the baseline won only {wins} of 4 games against two random seats"


def test_random_seats_finish_games() -> None:
    seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(4)]
    state, _ = RULESET.new_game(seats, WQOptions(round_limit=30), 11)
    state, actions = play_out(RULESET, state, {s.id: RULESET.policy("random") for s in seats}, 11)
    assert RULESET.winners(state) is not None and actions
