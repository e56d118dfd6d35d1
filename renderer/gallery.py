"""Sample boards for people to look at: python -m renderer.gallery OUTDIR

The positions come from AI games with fixed seeds, so the gallery is the same on every machine.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.core.models import Event, Seat
from engine.core.play import play_out
from engine.games.risk import RULESET, RiskOptions, RiskState
from engine.games.risk.actions import Resign
from renderer import render_board

NAMES = ["Alice", "Bruno", "Chiara", "Dmitri", "Emeka", "Farah"]
HARD_NAMES = [
    "Владимир Владимирович",
    "김민준",
    "Friedrich Wilhelm Maximilian Alexander of Hohenzollern-Emden",
    "🐉 Drachenreiter 🐉",
    "Åsa Öberg-Šimić",
    "Ярослава",
]


@dataclass(frozen=True)
class Turn:
    """The board once a turn is over, and the events of that turn (which the picture highlights)."""

    state: RiskState
    events: list[Event]


def seats(names: Sequence[str]) -> list[Seat]:
    return [Seat(id=k, name=name, ai=True) for k, name in enumerate(names, start=1)]


def turns(players: list[Seat], options: RiskOptions, seed: int, max_actions: int = 20_000) -> list[Turn]:
    """Every turn of a baseline-AI game: the board once it ended (the next turn begun) and what happened in it."""
    state, _ = RULESET.new_game(players, options, seed)
    assert isinstance(state, RiskState)
    found: list[Turn] = []
    current: list[Event] = []

    def step(_before: object, _action: object, after: object, events: list[Event]) -> None:
        assert isinstance(after, RiskState)
        begun = next((k for k, e in enumerate(events) if e.type == "turn_started"), None)
        if begun is None:
            current.extend(events)
            return
        found.append(Turn(after, current + events[:begun]))
        current[:] = events[begun:]

    policies = {s.id: RULESET.policy("baseline") for s in players}
    end, _ = play_out(RULESET, state, policies, seed, max_actions=max_actions, on_step=step)
    assert isinstance(end, RiskState)
    found.append(Turn(end, current))
    return found


def conquests(turn: Turn) -> int:
    return sum(e.type == "conquered" for e in turn.events)


def samples() -> dict[str, Turn]:
    """The gallery's boards, by file name."""
    out: dict[str, Turn] = {}
    claim = turns(seats(NAMES[:3]), RiskOptions(setup="claim"), 11, max_actions=20)
    out["01-claiming"] = claim[-1]
    four = turns(seats(NAMES[:4]), RiskOptions(setup="random_deal"), 7)
    out["02-first-turn"] = Turn(next(t.state for t in four if t.state.turn == 1), [])
    out["03-mid-game"] = four[len(four) // 2]
    out["04-game-over"] = four[-1]
    six = turns(seats(NAMES), RiskOptions(setup="random_deal", fortify_mode="connected"), 5)
    out["05-six-players"] = six[len(six) // 3]
    hard = turns(seats(HARD_NAMES), RiskOptions(setup="random_deal"), 9)
    out["06-long-and-non-latin-names"] = hard[len(hard) // 2]
    out["07-many-conquests"] = max(six + four + hard, key=conquests)
    two = turns(seats(NAMES[:2]), RiskOptions(mode="two_player"), 4)
    out["08-two-player-neutral"] = two[len(two) // 2]
    mission = turns(seats(NAMES[:5]), RiskOptions(mode="secret_mission", setup="random_deal"), 21)
    middle = mission[len(mission) // 3]
    quitter = next(p for p in middle.state.players if p.status == "active" and p.id != middle.state.current)
    resigned, events = RULESET.apply(middle.state, Resign(player=quitter.id))
    assert isinstance(resigned, RiskState)
    out["09-resigned-to-neutral"] = Turn(resigned, events)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir", type=Path)
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    for name, turn in samples().items():
        started = time.perf_counter()
        png = render_board(turn.state, turn.events)
        ms = (time.perf_counter() - started) * 1000
        path = args.outdir / f"{name}.png"
        path.write_bytes(png)
        print(f"{path}  {len(png) / 1024:.0f} KB  {ms:.0f} ms  turn {turn.state.turn} {turn.state.phase.value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
