"""Wizard's Quest benchmark: AI games per second (random and baseline seats), actions and rounds per
game, median apply latency, largest state JSON.

Run: python benchmarks/wizards_quest.py [--games 20] [--players 4]
Everything runs in this one process, so on one core.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.models import Action, Seat, json_text
from engine.core.play import play_out
from engine.games.wizards_quest import RULESET, WQOptions, WQState


def run(policy: str, games: int, players: int, seed: int) -> tuple[float, list[tuple[WQState, Action]], float, float]:
    """(games/s, every (state, action) played, mean actions and mean rounds per game)."""
    steps: list[tuple[WQState, Action]] = []
    actions = rounds = 0
    gc.collect()  # the clock starts on a clean heap: a full collection of an earlier run's garbage is not this run's
    started = time.perf_counter()
    for k in range(games):
        seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(players)]
        state, _ = RULESET.new_game(seats, WQOptions(), seed + k)
        state, played = play_out(RULESET, state, {s.id: RULESET.policy(policy) for s in seats}, seed + k,
                                 on_step=lambda s, a, _n, _e: steps.append((s, a)))  # type: ignore[arg-type]
        assert RULESET.winners(state) is not None, "a benchmark game did not finish"
        actions += len(played)
        rounds += state.round  # type: ignore[attr-defined]
    elapsed = time.perf_counter() - started
    return games / elapsed, steps, actions / games, rounds / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Wizard's Quest, {args.players} AI seats, {args.games} games per policy (one core)")
    for policy in ("random", "baseline"):
        rate, steps, actions, rounds = run(policy, args.games, args.players, args.seed)
        print(f"  {policy}: {rate:.2f} games/s (AI choice included), {actions:.0f} actions and {rounds:.1f} "
              "rounds per game")
        timings = []
        for state, action in steps[:: max(1, len(steps) // 3000)]:
            t = time.perf_counter()
            RULESET.apply(state, action)
            timings.append(time.perf_counter() - t)
        biggest = max(len(json_text(s)) for s, _ in steps[:: max(1, len(steps) // 2000)])
        print(f"    apply: median {statistics.median(timings) * 1e6:.0f} µs over {len(timings)} actions; "
              f"largest state JSON {biggest / 1024:.1f} KB")
        del steps  # the next policy's games are timed without these states alive for the collector to scan


if __name__ == "__main__":
    main()
