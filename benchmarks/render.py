"""Render benchmark: Risk board PNGs from varied AI-game positions — ms per render (encoding included), KB, size.

Run: python benchmarks/render.py [--renders 50]
Everything runs in this one process, so on one core. The one-off start-up (map layers, fonts) is timed apart.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games.risk import RiskOptions
from renderer import render_board
from renderer.gallery import HARD_NAMES, NAMES, Turn, seats, turns
from renderer.risk import board


def positions(count: int) -> list[Turn]:
    """`count` turns spread evenly over AI games of 2 to 6 players, the last ones with hard names."""
    games = [
        turns(seats(NAMES[:4]), RiskOptions(setup="random_deal"), 1),
        turns(seats(NAMES), RiskOptions(setup="random_deal", fortify_mode="connected"), 2),
        turns(seats(HARD_NAMES), RiskOptions(setup="random_deal"), 3),
        turns(seats(NAMES[:3]), RiskOptions(mode="secret_mission", setup="random_deal"), 4),
        turns(seats(NAMES[:2]), RiskOptions(mode="two_player"), 5),
    ]
    every = [t for game in games for t in game]
    step = max(1, len(every) // count)
    return every[::step][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=50)
    args = parser.parse_args()
    samples = positions(args.renders)
    started = time.perf_counter()
    board()
    setup_ms = (time.perf_counter() - started) * 1000
    timings, sizes, shapes = [], [], set()
    for turn in samples:
        started = time.perf_counter()
        png = render_board(turn.state, turn.events)
        timings.append((time.perf_counter() - started) * 1000)
        sizes.append(len(png) / 1024)
        shapes.add(Image.open(io.BytesIO(png)).size)
    timings.sort()
    print(f"Risk board renders: {len(samples)} positions from AI games of 2–6 players (one core)")
    print(f"  one-off start-up (map layers, palette): {setup_ms:.0f} ms")
    print(f"  render incl. PNG encoding: median {statistics.median(timings):.1f} ms, "
          f"p90 {timings[int(len(timings) * 0.9)]:.1f} ms, max {timings[-1]:.1f} ms")
    print(f"  PNG: median {statistics.median(sizes):.0f} KB, max {max(sizes):.0f} KB")
    print("  size: " + ", ".join(f"{w}×{h}" for w, h in sorted(shapes)))


if __name__ == "__main__":
    main()
