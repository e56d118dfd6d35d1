"""Render benchmark: board PNGs from varied AI-game positions — ms per render (encoding included), KB, size.

Run: python benchmarks/render.py [--renders 50] [--game risk|wizards-quest]
Without --game both boards are measured. Everything runs in this one process, so on one core. The one-off
start-up (map layers, fonts) is timed apart.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games.risk import RiskOptions
from engine.games.wizards_quest import WQOptions
from renderer import render_board, risk, wizards_quest
from renderer.gallery import HARD_NAMES, NAMES, Turn, seats, turns, wq_turns


def spread(games: list[list[Turn]], count: int) -> list[Turn]:
    """`count` turns spread evenly over the games."""
    every = [t for game in games for t in game]
    step = max(1, len(every) // count)
    return every[::step][:count]


def risk_positions(count: int) -> list[Turn]:
    """Turns of AI games of 2 to 6 players, the last ones with hard names."""
    return spread([
        turns(seats(NAMES[:4]), RiskOptions(setup="random_deal"), 1),
        turns(seats(NAMES), RiskOptions(setup="random_deal", fortify_mode="connected"), 2),
        turns(seats(HARD_NAMES), RiskOptions(setup="random_deal"), 3),
        turns(seats(NAMES[:3]), RiskOptions(mode="secret_mission", setup="random_deal"), 4),
        turns(seats(NAMES[:2]), RiskOptions(mode="two_player"), 5),
    ], count)


def wq_positions(count: int) -> list[Turn]:
    """Turns of Wizard's Quest AI games of 2 to 6 players, one with hard names and one with decoy markers."""
    return spread([
        wq_turns(NAMES[:4], 1), wq_turns(NAMES, 2), wq_turns(HARD_NAMES, 3),
        wq_turns(NAMES[:3], 4, WQOptions(decoy=True)), wq_turns(NAMES[:2], 5), wq_turns(NAMES[:5], 6),
    ], count)


BOARDS: dict[str, tuple[str, Callable[[int], list[Turn]], Callable[[], object]]] = {
    "risk": ("Risk", risk_positions, risk.board),
    "wizards-quest": ("Wizard's Quest", wq_positions, wizards_quest.board),
}


def measure(title: str, samples: list[Turn], start_up: Callable[[], object]) -> None:
    started = time.perf_counter()
    start_up()
    setup_ms = (time.perf_counter() - started) * 1000
    timings, sizes, shapes = [], [], set()
    for turn in samples:
        started = time.perf_counter()
        png = render_board(turn.state, turn.events)
        timings.append((time.perf_counter() - started) * 1000)
        sizes.append(len(png) / 1024)
        shapes.add(Image.open(io.BytesIO(png)).size)
    timings.sort()
    print(f"{title} board renders: {len(samples)} positions from AI games of 2–6 players (one core)")
    print(f"  one-off start-up (map layers, palette): {setup_ms:.0f} ms")
    print(f"  render incl. PNG encoding: median {statistics.median(timings):.1f} ms, "
          f"p90 {timings[int(len(timings) * 0.9)]:.1f} ms, max {timings[-1]:.1f} ms")
    print(f"  PNG: median {statistics.median(sizes):.0f} KB, max {max(sizes):.0f} KB")
    print("  size: " + ", ".join(f"{w}×{h}" for w, h in sorted(shapes)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=50)
    parser.add_argument("--game", choices=sorted(BOARDS))
    args = parser.parse_args()
    for game, (title, positions, start_up) in BOARDS.items():
        if args.game in (None, game):
            measure(title, positions(args.renders), start_up)


if __name__ == "__main__":
    main()
