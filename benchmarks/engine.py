"""Engine benchmark: random-legal 4-player Risk games per second, apply latency, state size.

Run: python benchmarks/engine.py [--games 200] [--setup claim|random_deal] [--pyrisk PATH]
Everything runs in this one process, so on one core. With --pyrisk, a checkout of chronitis/pyrisk
(a simple Risk engine without cards, issue #2's yardstick) plays as many games right after ours:
four StupidAI seats, logging off.
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


def pyrisk_games_per_second(path: Path, games: int, seed: int) -> tuple[float, float, float]:
    """(games/s, mean turns, mean battles per game) of pyrisk at `path` with four StupidAI seats.

    Battles (dice rounds) are counted in a second, identical run, so that counting does not slow the timed one.
    """
    sys.path.insert(0, str(path))
    logging.disable(logging.CRITICAL)
    game = importlib.import_module("game")
    world = importlib.import_module("world")
    stupid = importlib.import_module("ai.stupid").StupidAI
    options = dict(curses=False, color=False, delay=0, wait=False, deal=False, connect=world.CONNECT,
                   cmap=world.MAP, ckey=world.KEY, areas=world.AREAS)

    def play_all() -> tuple[float, int]:
        random.seed(seed)
        turns = 0
        started = time.perf_counter()
        for k in range(games):
            g = game.Game(screen=None, round=(k + 1, games), history={}, **options)
            for name in ("ALPHA", "BRAVO", "CHARLIE", "DELTA"):
                g.add_player(name, stupid)
            g.play()
            turns += g.turn
        return time.perf_counter() - started, turns

    elapsed, turns = play_all()
    rounds = [0]
    combat = game.Game.combat

    def counted(self: object, src: object, target: object, f_atk: object, f_move: object) -> object:
        def each_round(attackers: int, defenders: int) -> bool:  # asked once before every dice round
            rounds[0] += 1
            return True if f_atk is None else f_atk(attackers, defenders)  # type: ignore[operator]

        return combat(self, src, target, each_round, f_move)

    game.Game.combat = counted
    play_all()
    game.Game.combat = combat
    return games / elapsed, turns / games, rounds[0] / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setup", choices=("claim", "random_deal"), default="claim")
    parser.add_argument("--pyrisk", type=Path, help="a checkout of chronitis/pyrisk to measure in the same run")
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
    if args.pyrisk:
        rate, turns, battles = pyrisk_games_per_second(args.pyrisk, args.games, args.seed)
        print(f"pyrisk ({args.pyrisk}), no cards, 4 StupidAI seats: {args.games} games")
        print(f"  games per second (one core): {rate:.1f}")
        print(f"  per game: {turns:.0f} turns, {battles:.0f} battles")
        print(f"  battles per second: {rate * battles:.0f}")


if __name__ == "__main__":
    main()
