"""Fingerprint of AI-played Risk games over every option: run it before and after a pure speed-up.

Run: python benchmarks/fingerprint.py [--seeds 4] [--max-actions 3000]
It plays the random and the baseline policy under seven option sets (every mode, setup, placement,
fortify and defence option, both mission sets and both destroy rules) with 2 to 6 players, and prints
how many games it played and one digest of all their final positions and events. A change that only
makes the engine faster must print the same digest; a change of rules, dice or AI prints another.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.models import Event, Seat, canonical_json, to_json
from engine.core.play import play_out
from engine.games.risk import RULESET, RiskOptions

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"mode": "secret_mission"},
    {"mode": "two_player"},
    {"setup": "random_deal", "setup_placement": "bulk_sequential"},
    {"setup_placement": "simultaneous", "fortify_mode": "connected"},
    {"defender_dice": "choose"},
    {"mode": "secret_mission", "mission_set": "euro14", "destroy_rule": "convert_24"},
]


def events_into(events: list[Event]) -> Callable[[object, object, object, list[Event]], None]:
    def step(_state: object, _action: object, _after: object, new: list[Event]) -> None:
        events.extend(new)

    return step


def fingerprint(seeds: int, max_actions: int) -> tuple[int, str]:
    digest = hashlib.sha256()
    games = 0
    for options, seed, policy in itertools.product(OPTION_SETS, range(1, seeds + 1), ("random", "baseline")):
        opts = RiskOptions(**options)
        players = 2 if opts.mode == "two_player" else 3 + seed % 4
        seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(players)]
        state, _ = RULESET.new_game(seats, opts, seed)
        events: list[Event] = []
        state, _ = play_out(RULESET, state, {s.id: RULESET.policy(policy) for s in seats}, seed,
                            max_actions=max_actions, on_step=events_into(events))
        digest.update(state.digest().encode())
        digest.update(canonical_json([to_json(e) for e in events]).encode())
        games += 1
    return games, digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--max-actions", type=int, default=3000)
    args = parser.parse_args()
    games, digest = fingerprint(args.seeds, args.max_actions)
    print(f"{games} games, fingerprint {digest}")


if __name__ == "__main__":
    main()
