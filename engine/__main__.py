"""Command-line tools: replay a record, apply actions to a position, simulate AI games."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from pydantic import ValidationError

from engine.cliargs import (
    GAMES,
    Refused,
    check_players,
    dice_faces,
    game_name,
    game_options,
    option_pair,
    positive_int,
)
from engine.core.errors import FormatError, RuleError
from engine.core.models import Seat
from engine.core.play import play_out
from engine.core.record import replay
from engine.games import get
from engine.positions import dump_position, load_position, load_record, read_json

T = TypeVar("T")


def read(path: str) -> Any:
    try:
        return read_json(path)
    except json.JSONDecodeError as err:
        raise Refused(f"{path}: not valid JSON ({err})") from None


def load(what: str, loader: Callable[[Any], T], path: str) -> T:
    """A position or record from its file, or Refused naming the first field that breaks its format."""
    try:
        return loader(read(path))
    except FormatError as err:
        raise Refused(f"{what}: {err}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    ruleset, record = load("record", load_record, args.record)
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
        print(f"{where}: {FormatError.of(err)}", file=sys.stderr)
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
    ruleset, state = load("position", load_position, args.position)
    actions = read(args.actions)
    if isinstance(actions, dict):
        actions = [actions]
    if not isinstance(actions, list):
        raise Refused(f"{args.actions}: expected an action (a JSON object) or an array of actions")
    if args.dice:
        if max(args.dice) > ruleset.die_sides:
            raise Refused(f"--dice: {ruleset.title}'s dice have faces 1 to {ruleset.die_sides}")
        rng = replace(state.rng, forced=args.dice + list(state.rng.forced))
        state = replace(state, rng=rng)
    for index, data in enumerate(actions):
        kind = data.get("type") if isinstance(data, dict) else None
        where = f"action {index}" + (f" ({kind})" if isinstance(kind, str) else "")
        try:
            state, _ = ruleset.apply(state, ruleset.parse_action(data))
        except RuleError as err:
            print(f"{where}: {err.code}: {err.message}", file=sys.stderr)
            return 2
        except ValidationError as err:  # not an action of this game, or one with a field missing or wrong
            print(f"{where}: E_BAD_ACTION: {FormatError.of(err)}", file=sys.stderr)
            return 2
    print(dump_position(state))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    ruleset = get(args.game)
    options = game_options(ruleset, args.option)
    check_players(ruleset, options, args.players, args.option)
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
    print(f"{args.games} game{'' if args.games == 1 else 's'} in {elapsed:.2f} s: {args.games / elapsed:.2f} games/s")
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
    p.add_argument("--dice", type=dice_faces, help="die faces to use first, in order, e.g. 6,5,3")
    p.set_defaults(func=cmd_apply)
    p = sub.add_parser("simulate", help="play AI games to the end")
    p.add_argument("--game", type=game_name, choices=GAMES, default="risk", help="the game (default: %(default)s)")
    p.add_argument("--players", type=positive_int, default=4, help="AI players in each game (default: %(default)s)")
    p.add_argument("--seed", type=int, default=1,
                   help="the first game's seed; each next game adds 1 (default: %(default)s)")
    p.add_argument("--games", type=positive_int, default=10, help="games to play (default: %(default)s)")
    p.add_argument("--policy", choices=("random", "baseline"), default="random",
                   help="how the AI seats play (default: %(default)s)")
    p.add_argument("--option", type=option_pair, action="append", default=[], metavar="NAME=VALUE",
                   help="a game option, e.g. mode=two_player; repeatable (default: none)")
    p.add_argument("--max-actions", type=positive_int, default=100_000,
                   help="stop a game after this many actions (default: %(default)s)")
    p.set_defaults(func=cmd_simulate)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (Refused, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
