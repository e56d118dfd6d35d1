"""Engine benchmark: random-legal 4-player Risk games per second, apply latency, state size.

Run: python benchmarks/engine.py [--games 200] [--setup claim|random_deal]
Everything runs in this one process, so on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.models import Action, Event, Seat
from engine.core.play import play_out
from engine.games.risk import RULESET, RiskOptions, RiskState


def games_per_second(games: int, options: RiskOptions, seed: int) -> tuple[float, float, float, float]:
    """(games/s, mean actions, mean turns and mean battles per game)."""
    actions = turns = 0
    battles = [0]

    def count(_s: object, _a: object, _n: object, events: list[Event]) -> None:
        battles[0] += sum(1 for e in events if e.type == "battle")

    started = time.perf_counter()
    for k in range(games):
        seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(4)]
        state, _ = RULESET.new_game(seats, options, seed + k)
        policies = {s.id: RULESET.policy("random") for s in seats}
        state, played = play_out(RULESET, state, policies, seed + k, on_step=count)
        assert RULESET.winners(state), "a benchmark game did not finish"
        actions += len(played)
        turns += state.turn  # type: ignore[attr-defined]
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / games, turns / games, battles[0] / games


def apply_latency(games: int, options: RiskOptions, seed: int) -> tuple[list[float], int]:
    """Time every apply of recorded games separately; also the largest state JSON seen."""
    steps: list[tuple[RiskState, Action]] = []
    for k in range(games):
        seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(4)]
        state, _ = RULESET.new_game(seats, options, seed + k)
        policies = {s.id: RULESET.policy("random") for s in seats}
        play_out(RULESET, state, policies, seed + k, on_step=lambda s, a, _n, _e: steps.append((s, a)))
    timings = []
    for state, action in steps:
        t = time.perf_counter()
        RULESET.apply(state, action)
        timings.append(time.perf_counter() - t)
    biggest = max(len(s.model_dump_json()) for s, _ in random.Random(seed).sample(steps, min(2000, len(steps))))
    return timings, biggest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setup", choices=("claim", "random_deal"), default="claim")
    args = parser.parse_args()
    options = RiskOptions(setup=args.setup)
    rate, actions, turns, battles = games_per_second(args.games, options, args.seed)
    print(f"random-legal 4-player Risk, full rules with cards, setup={args.setup}: {args.games} games")
    print(f"  games per second (one core): {rate:.1f}")
    print(f"  per game: {actions:.0f} actions, {turns:.0f} turns, {battles:.0f} battles")
    print(f"  battles per second: {rate * battles:.0f}")
    timings, biggest = apply_latency(max(5, args.games // 10), options, args.seed)
    timings.sort()
    print(f"  apply: median {statistics.median(timings) * 1e6:.1f} µs, "
          f"p99 {timings[int(len(timings) * 0.99)] * 1e6:.1f} µs over {len(timings)} actions")
    print(f"  largest state JSON: {biggest / 1024:.1f} KB")


if __name__ == "__main__":
    main()
