"""Engine benchmark: random-legal 4-player Risk games per second, apply latency, state size.

Run: python benchmarks/engine.py [--games 200] [--setup claim|random_deal] [--pyrisk PATH]
Everything runs in this one process, so on one core. With --pyrisk, a checkout of chronitis/pyrisk
(a simple Risk engine without cards, issue #2's yardstick) plays as many games, alternating with ours
game by game: four StupidAI seats, logging off.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.models import Action, Event, Seat
from engine.core.play import play_out
from engine.games.risk import RULESET, RiskOptions, RiskState


def report(title: str, games: int, elapsed: float, battles: int, per_game: str) -> None:
    print(title)
    print(f"  games per second (one core): {games / elapsed:.1f}")
    print(f"  per game: {per_game}")
    print(f"  battles per second: {battles / elapsed:.0f}")


class OurGames:
    """Random-legal 4-player games of ours, one at a time, each timed on its own."""

    def __init__(self, options: RiskOptions, seed: int) -> None:
        self.options, self.seed = options, seed
        self.played = self.elapsed = self.actions = self.turns = self.battles = 0

    def play_one(self) -> None:
        events: list[list[Event]] = []
        seed = self.seed + self.played
        started = time.perf_counter()
        seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(4)]
        state, _ = RULESET.new_game(seats, self.options, seed)
        policies = {s.id: RULESET.policy("random") for s in seats}
        state, played = play_out(RULESET, state, policies, seed, on_step=lambda _s, _a, _n, e: events.append(e))
        self.elapsed += time.perf_counter() - started
        assert RULESET.winners(state), "a benchmark game did not finish"
        self.played += 1
        self.actions += len(played)
        self.turns += state.turn  # type: ignore[attr-defined]
        self.battles += sum(1 for step in events for e in step if e.type == "battle")  # counted after the clock

    def report(self, title: str) -> None:
        n = self.played
        report(title, n, self.elapsed, self.battles,
               f"{self.actions / n:.0f} actions, {self.turns / n:.0f} turns, {self.battles / n:.0f} battles")


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


class PyriskGames:
    """pyrisk at `path` with four StupidAI seats, logging off; one game at a time, each timed on its own.

    Its battles (dice rounds) are counted by a wrapper that stays off while a game is timed: counting them
    would slow it down, so `count_battles` replays the same games afterwards from the same seed.
    """

    def __init__(self, path: Path, seed: int) -> None:
        sys.path.insert(0, str(path))
        logging.disable(logging.CRITICAL)
        self.game = importlib.import_module("game")
        world = importlib.import_module("world")
        self.ai = importlib.import_module("ai.stupid").StupidAI
        self.options = dict(curses=False, color=False, delay=0, wait=False, deal=False, connect=world.CONNECT,
                            cmap=world.MAP, ckey=world.KEY, areas=world.AREAS)
        self.seed = seed
        self.random = random.Random(seed)
        self.played = self.elapsed = self.turns = self.battles = 0

    def _play(self, k: int) -> object:
        random.setstate(self.random.getstate())  # pyrisk rolls with the module's random functions
        g = self.game.Game(screen=None, round=(k + 1, k + 1), history={}, **self.options)
        for name in ("ALPHA", "BRAVO", "CHARLIE", "DELTA"):
            g.add_player(name, self.ai)
        g.play()
        self.random.setstate(random.getstate())
        return g

    def play_one(self) -> None:
        started = time.perf_counter()
        g = self._play(self.played)
        self.elapsed += time.perf_counter() - started
        self.played += 1
        self.turns += g.turn  # type: ignore[attr-defined]

    def count_battles(self) -> None:
        self.random = random.Random(self.seed)
        combat = self.game.Game.combat
        rounds = [0]

        def counted(game: object, src: object, target: object, f_atk: object, f_move: object) -> object:
            def each_round(attackers: int, defenders: int) -> bool:  # asked once before every dice round
                rounds[0] += 1
                return True if f_atk is None else f_atk(attackers, defenders)  # type: ignore[operator]

            return combat(game, src, target, each_round, f_move)

        self.game.Game.combat = counted
        try:
            for k in range(self.played):
                self._play(k)
        finally:
            self.game.Game.combat = combat
        self.battles = rounds[0]

    def report(self, title: str) -> None:
        n = self.played
        report(title, n, self.elapsed, self.battles, f"{self.turns / n:.0f} turns, {self.battles / n:.0f} battles")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setup", choices=("claim", "random_deal"), default="claim")
    parser.add_argument("--pyrisk", type=Path, help="a checkout of chronitis/pyrisk to measure in the same run")
    args = parser.parse_args()
    options = RiskOptions(setup=args.setup)
    ours = OurGames(options, args.seed)
    theirs = PyriskGames(args.pyrisk, args.seed) if args.pyrisk else None
    for _ in range(args.games):  # alternating, so that a slower minute of a shared machine hits both alike
        ours.play_one()
        if theirs is not None:
            theirs.play_one()
    ours.report(f"random-legal 4-player Risk, full rules with cards, setup={args.setup}: {args.games} games")
    timings, biggest = apply_latency(max(5, args.games // 10), options, args.seed)
    timings.sort()
    print(f"  apply: median {statistics.median(timings) * 1e6:.1f} µs, "
          f"p99 {timings[int(len(timings) * 0.99)] * 1e6:.1f} µs over {len(timings)} actions")
    print(f"  largest state JSON: {biggest / 1024:.1f} KB")
    if theirs is not None:
        theirs.count_battles()
        theirs.report(f"pyrisk ({args.pyrisk}), no cards, 4 StupidAI seats: {args.games} games, "
                      "played alternately with ours")
        print(f"ours / pyrisk, games per second: {(ours.played / ours.elapsed) / (theirs.played / theirs.elapsed):.2f}")
        print("ours / pyrisk, battle rounds per second: "
              f"{(ours.battles / ours.elapsed) / (theirs.battles / theirs.elapsed):.2f}")


if __name__ == "__main__":
    main()
