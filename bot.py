"""Entry point of the game-master bot.

`python bot.py --demo` plays a whole offline game with AI seats (no Discord token needed) and writes
the game record and a transcript of the narration to an output folder.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.core.models import Seat
from engine.core.play import play_out
from engine.core.record import GameRecord
from engine.games import NAMES, get
from engine.positions import record_json

DEMO_NAMES = ("Ada", "Björn", "Chiyo", "Dmitri", "Eun-ji", "Farah")


def run_demo(game: str, players: int, seed: int, out: Path, policy: str = "baseline") -> GameRecord:
    """Play a whole AI game; write record.json and transcript.txt to `out`."""
    ruleset = get(game)
    options = ruleset.options_model()
    seats = [Seat(id=i + 1, name=DEMO_NAMES[i % len(DEMO_NAMES)], ai=True) for i in range(players)]
    state, events = ruleset.new_game(seats, options, seed)
    lines = [f"# {ruleset.title} — offline demo, seed {seed}, {players} AI players", ""]
    lines += [text for e in events if (text := ruleset.narrate(e, state))]

    def narrate_step(_before: object, _action: object, after: object, new_events: list) -> None:
        lines.extend(text for e in new_events if (text := ruleset.narrate(e, after)))

    policies = {s.id: ruleset.policy(policy) for s in seats}
    state, actions = play_out(ruleset, state, policies, seed, on_step=narrate_step)
    record = GameRecord(game=ruleset.name, seed=seed, options=options.model_dump(mode="json"), seats=seats,
                        actions=[a.model_dump(mode="json") for a in actions])
    out.mkdir(parents=True, exist_ok=True)
    (out / "record.json").write_text(record_json(record), encoding="utf-8")
    (out / "transcript.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    winners = ruleset.winners(state)
    names = {s.id: s.name for s in seats}
    result = ", ".join(names[w] for w in winners) if winners else "nobody"
    print(f"{ruleset.title}: {len(actions)} actions; winner {result}. Wrote {out / 'record.json'} and "
          f"{out / 'transcript.txt'}.")
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--demo", action="store_true", help="play an offline AI game (the default for now)")
    parser.add_argument("--game", default="risk", choices=[n.replace("_", "-") for n in NAMES])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("out/demo"))
    parser.add_argument("--policy", choices=("random", "baseline"), default="baseline")
    args = parser.parse_args(argv)
    ruleset = get(args.game)
    low, high = ruleset.player_range(ruleset.options_model())
    if not low <= args.players <= high:
        parser.error(f"{ruleset.title} with default options takes {low}–{high} players")
    run_demo(args.game, args.players, args.seed, args.out, args.policy)
    return 0


if __name__ == "__main__":
    sys.exit(main())
