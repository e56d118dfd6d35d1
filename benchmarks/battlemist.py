"""Battlemist engine benchmark: AI games (baseline and random seats), `apply` latency and the state's JSON size.

Run: python benchmarks/battlemist.py [--games 10] [--players 4] [--rounds 8] [--policy baseline|random]
Targets (issue #16): median apply under 100 µs, state JSON under 50 KB. The AI's own thinking (it tries its
candidates against `apply`) is timed apart from the game's own `apply` calls.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.models import Seat, json_text
from engine.games.battlemist import ruleset
from engine.games.battlemist.ai import POLICIES
from engine.games.battlemist.rules import apply
from engine.games.battlemist.state import BMOptions, Phase


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=8, help="the round cap")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="baseline")
    args = parser.parse_args()
    applies: list[float] = []
    sizes: list[int] = []
    thinking = playing = 0.0
    actions = 0
    started = time.perf_counter()
    for game in range(args.games):
        seats = [Seat(id=k, name=f"AI {k}", ai=True) for k in range(1, args.players + 1)]
        state, _ = ruleset.new_game(seats, BMOptions(round_cap=args.rounds), seed=game)
        policy = POLICIES[args.policy]()
        rng = random.Random(game)
        while state.phase is not Phase.GAME_OVER:
            player = ruleset.pending(state)[0].player
            t0 = time.perf_counter()
            action = policy.choose(state, player, rng)
            t1 = time.perf_counter()
            state, _ = apply(state, action)
            t2 = time.perf_counter()
            thinking += t1 - t0
            playing += t2 - t1
            applies.append(t2 - t1)
            actions += 1
            if actions % 25 == 0:
                sizes.append(len(json_text(state).encode()))
        sizes.append(len(json_text(state).encode()))
    elapsed = time.perf_counter() - started
    applies.sort()
    print(f"Battlemist: {args.games} games of {args.players} {args.policy} seats, round cap {args.rounds}")
    print(f"  games per second (one core, AI included): {args.games / elapsed:.2f}")
    print(f"  actions per game: {actions / args.games:.0f}; AI thinking {thinking:.1f} s, apply {playing:.1f} s")
    print(f"  apply median {statistics.median(applies) * 1e6:.0f} µs, "
          f"p90 {applies[int(len(applies) * 0.9)] * 1e6:.0f} µs, max {applies[-1] * 1e3:.1f} ms")
    print(f"  state JSON median {statistics.median(sizes) / 1024:.1f} KB, max {max(sizes) / 1024:.1f} KB")


if __name__ == "__main__":
    main()
