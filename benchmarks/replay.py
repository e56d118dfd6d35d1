"""Replay benchmark: `/game replay` of AI games of a given length — seconds, frames shown and MB of the GIF.

Run: python benchmarks/replay.py [--turns 50 100 200] [--limit-mb 10] [--game risk|wizards-quest]
Each game is the first random-AI game (seeds 1, 2, …) that lasts long enough, cut after that many turns: six
seats for Risk (connected fortifying), four for Wizard's Quest. The time is what the bot's worker thread spends:
replaying the moves, drawing the frames and encoding the GIF, on one core.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.models import Action, Event, GameState, Seat, to_json
from engine.core.play import play_out
from engine.core.record import GameRecord
from engine.core.ruleset import Ruleset
from engine.games import get
from engine.games.risk import RiskOptions
from engine.games.wizards_quest import WQOptions
from engine.replays import TURN_EVENT, build, frames
from renderer.animate import replay_gif

GAMES: dict[str, tuple[str, int, BaseModel]] = {
    "risk": ("Risk", 6, RiskOptions(setup="random_deal", fortify_mode="connected")),
    "wizards-quest": ("Wizard's Quest", 4, WQOptions()),
}
MAX_SEEDS = 200


def record(game: str, players: int, options: BaseModel, turns: int) -> GameRecord:
    """The first random-AI game that lasts `turns` turns, cut just before the next one begins."""
    ruleset = get(game)
    seats = [Seat(id=k, name=f"AI {k}", ai=True) for k in range(1, players + 1)]
    for seed in range(1, MAX_SEEDS + 1):
        state, _ = ruleset.new_game(seats, options, seed)
        actions, begun = play(ruleset, state, seed)
        if len(begun) > turns:
            return GameRecord(game=game, seed=seed, options=options.model_dump(mode="json"), seats=seats,
                              actions=[to_json(a) for a in actions[:begun[turns]]],
                              schema_version=state.schema_version)
    raise SystemExit(f"no {game} game of seeds 1–{MAX_SEEDS} lasts {turns} turns")


def play(ruleset: Ruleset, state: GameState, seed: int) -> tuple[list[Action], list[int]]:
    """A whole random-AI game: its actions, and the index of each that begins a turn."""
    begun: list[int] = []

    def step(before: GameState, _action: Action, _after: GameState, events: list[Event]) -> None:
        if any(e.type == TURN_EVENT for e in events):
            begun.append(before.seq)

    policies = {p: ruleset.policy("random") for p in ruleset.alive(state)}
    _, actions = play_out(ruleset, state, policies, seed, on_step=step)
    return actions, begun


def measure(game: str, turns: int, max_bytes: int) -> None:
    title, players, options = GAMES[game]
    made = record(game, players, options, turns)
    started = time.perf_counter()
    frames(made)
    moves = time.perf_counter() - started
    started = time.perf_counter()
    replay = build(replay_gif, made, max_bytes)
    elapsed = time.perf_counter() - started
    assert replay is not None and len(replay.gif) <= max_bytes
    print(f"{title}, {replay.turns} turns ({len(made.actions)} actions): {elapsed:.2f} s "
          f"(replaying the moves {moves:.2f} s), {replay.shown} frames (one turn in {replay.step}), "
          f"{len(replay.gif) / 1e6:.2f} MB, {replay.width} px wide")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--limit-mb", type=float, default=10.0, help="the upload limit (MiB)")
    parser.add_argument("--game", choices=sorted(GAMES))
    args = parser.parse_args()
    replay_gif(frames(record("risk", 3, GAMES["risk"][2], 1)), 1 << 20)  # fonts, map layers and palettes
    for game in GAMES:
        if args.game in (None, game):
            for turns in args.turns:
                measure(game, turns, int(args.limit_mb * 1024 * 1024))
    print(f"peak memory of the process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
