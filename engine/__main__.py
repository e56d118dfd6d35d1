"""Command-line tools: replay a record, apply actions to a position, simulate AI games."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from pydantic import ValidationError

from engine.core.errors import RuleError
from engine.core.models import Seat
from engine.core.play import play_out
from engine.core.record import GameRecord, replay
from engine.games import NAMES, get
from engine.positions import dump_position, load_position, read_json


def cmd_replay(args: argparse.Namespace) -> int:
    record = GameRecord.model_validate(read_json(args.record))
    ruleset = get(record.game)
    try:
        state, _ = replay(ruleset, record)
    except RuleError as err:
        index = getattr(err, "index", None)
        where = "the record can't start" if index is None else f"action {index} is illegal"
        print(f"{where}: {err.code}: {err.message}", file=sys.stderr)
        return 1
    except ValidationError as err:
        index = getattr(err, "index", None)
        where = "the record's options are invalid" if index is None else f"action {index} is malformed"
        print(f"{where}: {err}", file=sys.stderr)
        return 1
    winners = ruleset.winners(state)
    names = {s.id: s.name for s in record.seats}
    print(f"digest: {state.digest()}")
    print(f"actions: {len(record.actions)}")
    if winners is None:
        print("winner: none yet (the game is not over)")
    else:
        print("winner: " + (", ".join(f"{names.get(w, w)} ({w})" for w in winners) or "nobody"))
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    ruleset, state = load_position(read_json(args.position))
    actions = read_json(args.actions)
    if isinstance(actions, dict):
        actions = [actions]
    if args.dice:
        faces = [int(x) for x in args.dice.split(",") if x.strip()]
        if any(not 1 <= f <= 6 for f in faces):
            print("--dice takes die faces from 1 to 6, separated by commas", file=sys.stderr)
            return 2
        rng = state.rng.model_copy(update={"forced": faces + list(state.rng.forced)})
        state = state.model_copy(update={"rng": rng})
    for data in actions:
        try:
            state, _ = ruleset.apply(state, ruleset.parse_action(data))
        except RuleError as err:
            print(f"{err.code}: {err.message}")
            return 2
        except ValidationError as err:
            print(f"E_BAD_ACTION: {err.errors()[0]['msg']} in {data}")
            return 2
    print(dump_position(state))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    ruleset = get(args.game)
    options = ruleset.options_model.model_validate(dict(kv.split("=", 1) for kv in args.option))
    started = time.perf_counter()
    for k in range(args.games):
        seed = args.seed + k
        seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(args.players)]
        state, _ = ruleset.new_game(seats, options, seed)
        policies = {s.id: ruleset.policy(args.policy) for s in seats}
        state, actions = play_out(ruleset, state, policies, seed, max_actions=args.max_actions)
        winners = ruleset.winners(state)
        who = ", ".join(f"AI {w}" for w in winners) if winners else ("nobody" if winners == [] else "unfinished")
        progress = f"{state.progress_unit} {state.progress()}"
        print(f"game {k + 1} (seed {seed}): winner {who}, {progress}, actions {len(actions)}")
    elapsed = time.perf_counter() - started
    print(f"{args.games} games in {elapsed:.2f} s: {args.games / elapsed:.2f} games/s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="check and replay a game record; print the final digest and winner")
    p.add_argument("record")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("apply", help="apply actions to a position and print the resulting position")
    p.add_argument("--position", required=True)
    p.add_argument("--actions", required=True)
    p.add_argument("--dice", help="die faces to use first, in order, e.g. 6,5,3")
    p.set_defaults(func=cmd_apply)
    p = sub.add_parser("simulate", help="play AI games to the end")
    p.add_argument("--game", choices=[n.replace("_", "-") for n in NAMES], default="risk")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--policy", choices=("random", "baseline"), default="random")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    p.add_argument("--max-actions", type=int, default=100_000)
    p.set_defaults(func=cmd_simulate)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
