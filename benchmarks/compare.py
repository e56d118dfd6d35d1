"""Side by side: one benchmark in this checkout and in another (say, the commit before a change), alternately.

Run: python benchmarks/compare.py --against PATH [--rounds 5] SCRIPT [ARGS...]
e.g. `git worktree add /tmp/before bec48fa` and then
     python benchmarks/compare.py --against /tmp/before wizards_quest.py --games 5
Each round runs `benchmarks/SCRIPT ARGS` once in each checkout, in turn, so that a slower minute of a shared
machine hits both alike. Every figure a run prints as `NAME: X games/s` is collected; the medians over the
rounds are printed for both checkouts, with this checkout's speed as a multiple of the other's.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
FIGURE = re.compile(r"^\s*([\w' -]+?): ([\d.]+) games/s", re.MULTILINE)


def figures(checkout: Path, script: str, args: list[str]) -> dict[str, float]:
    done = subprocess.run([sys.executable, f"benchmarks/{script}", *args], cwd=checkout, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{script} failed in {checkout}:\n{done.stderr[-2000:]}")
    found = {name: float(value) for name, value in FIGURE.findall(done.stdout)}
    if not found:
        raise SystemExit(f"{script} printed no `NAME: X games/s` figure in {checkout}:\n{done.stdout[-2000:]}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    ours: dict[str, list[float]] = defaultdict(list)
    theirs: dict[str, list[float]] = defaultdict(list)
    for _ in range(args.rounds):
        for checkout, into in ((HERE, ours), (args.against.resolve(), theirs)):
            for name, value in figures(checkout, args.script, args.args).items():
                into[name].append(value)
    print(f"{args.script} {' '.join(args.args)}: medians of {args.rounds} alternating runs")
    for name in ours:
        mine, other = statistics.median(ours[name]), statistics.median(theirs.get(name, [float("nan")]))
        print(f"  {name}: {mine:.2f} games/s here, {other:.2f} games/s in {args.against}: {mine / other:.2f}×")


if __name__ == "__main__":
    main()
