"""AI seats: both policies only play legal actions, and the baseline beats random seats."""

from __future__ import annotations

import pytest

from engine.core.models import Action, Event, GameState, Seat
from engine.core.play import play_out
from engine.games.wizards_quest import RULESET, WQOptions
from engine.games.wizards_quest import events as E


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


@pytest.mark.rule("WQ-BOAT-3", "WQ-VAL-24")
@pytest.mark.parametrize("policy", ["random", "baseline"])
def test_ai_games_spend_boats_only_across_water(policy: str) -> None:
    """Random seats name a boat on about a third of their attacks: every one of them crosses water."""
    crossings: list[tuple[str, str]] = []

    def step(before: GameState, action: Action, after: GameState, events: list[Event]) -> None:
        crossings.extend((e.source, e.target) for e in events if isinstance(e, E.AttackDeclared) and e.boat)

    for seed in range(4):
        seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(4)]
        state, _ = RULESET.new_game(seats, WQOptions(round_limit=20), seed)
        play_out(RULESET, state, {s.id: RULESET.policy(policy) for s in seats}, seed, on_step=step)
    assert crossings, "no boat was used, so nothing was checked"
    assert all(RULESET.data.map.shared_water(src, dst) for src, dst in crossings)
