"""Battlemist's AI seats: both policies answer every decision with an action the rules accept, their games end,
and the baseline beats random seats clearly."""

from __future__ import annotations

import random

import pytest

from engine.core.play import play_out
from engine.games.battlemist import ai, legal, ruleset
from engine.games.battlemist.state import BMOptions, BMState, Phase
from tests.engine.battlemist.ai_kit import RULES, seats


def policies(n: int, baseline: int | None) -> dict[int, ai.RandomPolicy | ai.BaselinePolicy]:
    return {k: ai.BaselinePolicy() if k == baseline else ai.RandomPolicy() for k in range(1, n + 1)}


@pytest.mark.rule("BM-VIC-3", "BM-VIC-2")
def test_the_baseline_beats_random_seats_clearly() -> None:
    """20 seeded games of 2–4 players, one baseline seat against the rest, to a 6-round cap."""
    wins = 0
    for seed in range(20):
        n = 2 + seed % 3
        state, _ = ruleset.new_game(seats(n), BMOptions(round_cap=6), seed)
        end, _ = play_out(RULES, state, policies(n, 1), seed, max_actions=4000)
        assert isinstance(end, BMState) and end.phase is Phase.GAME_OVER, "the game reaches its round cap"
        wins += end.winners == [1]
    assert wins >= 12, f"the baseline won only {wins} of 20 games outright"


@pytest.mark.rule("BM-DIG-19", "BM-SIM-1")
@pytest.mark.parametrize(("name", "options", "n", "seed"), [
    ("random", BMOptions(round_cap=3, board="build", races="draft"), 3, 4),
    ("baseline", BMOptions(round_cap=3, board="build", races="draft", player_trades=True), 4, 5),
    ("random", BMOptions(round_cap=4, player_trades=True), 5, 6),
])
def test_every_decision_gets_an_accepted_action_and_games_end(name: str, options: BMOptions, n: int,
                                                                seed: int) -> None:
    state, _ = ruleset.new_game(seats(n), options, seed)
    policy = ai.POLICIES[name]()
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(4000):
        if state.phase is Phase.GAME_OVER:
            break
        for decision in ruleset.pending(state):
            kinds.add(decision.kind)
        player = ruleset.pending(state)[0].player
        action = policy.choose(state, player, rng)
        assert legal.accepted(state, action), action
        state, _ = RULES.apply(state, action)
    assert state.phase is Phase.GAME_OVER
    setup = {"pick_race", "place_tile"} if options.board == "build" else set()
    trades = {"trade_offer"} if options.player_trades and name == "random" else set()
    assert {"vote", "econ_orders", "move", "upkeep", *setup, *trades} <= kinds


def test_the_baseline_buys_recruits_and_keeps_grain_for_its_upkeep() -> None:
    """Its order set is accepted as a whole, recruits something, and leaves the grain its upkeep will take."""
    state, _ = ruleset.new_game(seats(3), BMOptions(round_cap=2), 2)
    rng = random.Random(2)
    baseline = ai.BaselinePolicy()
    while state.phase is not Phase.ORDERS:
        player = ruleset.pending(state)[0].player
        state, _ = RULES.apply(state, baseline.choose(state, player, rng))
    lines = baseline.orders(state, 1)
    assert lines and not ruleset.economy.evaluate(state, 1, lines).errors
    assert any(line.kind == "recruit" for line in lines)
    assert ai.stock_after(state, 1, lines)["grain"] >= baseline.grain_needed(state, 1, lines)


def test_the_baseline_never_attacks_a_stronger_army() -> None:
    """A move into a region where the enemy is stronger than 2/3 of what arrives has no value."""
    from tests.engine.battlemist.helpers import position

    state = position(troops={"N01": {1: {"infantry": 2}}, "N02": {2: {"infantry": 3}}})
    from engine.games.battlemist.movement import Move

    move = Move(player=1, n=2, unit="infantry", origin="N01", path=("N02",))
    assert ai.BaselinePolicy().move_value(state, 1, move) == 0.0
    weak = position(troops={"N01": {1: {"infantry": 4}}, "N02": {2: {"infantry": 1}}})
    assert ai.BaselinePolicy().move_value(weak, 1, Move(player=1, n=4, unit="infantry", origin="N01",
                                                          path=("N02",))) > 0
