"""Sample boards for people to look at: python -m renderer.gallery OUTDIR [--game risk|wizards-quest]

The positions come from AI games with fixed seeds, so the gallery is the same on every machine. Without
--game, both games' samples are written (Wizard's Quest files start with "wq-").
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from engine.core.events import TURN_STARTED
from engine.core.models import Event, GameState, Seat
from engine.core.play import play_out
from engine.core.ruleset import Ruleset
from engine.games.risk import RULESET, RiskOptions, RiskState
from engine.games.risk.actions import Resign
from engine.games.wizards_quest import RULESET as WQ_RULESET
from engine.games.wizards_quest import WQOptions, WQState
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

    state: GameState
    events: list[Event]


def seats(names: Sequence[str]) -> list[Seat]:
    return [Seat(id=k, name=name, ai=True) for k, name in enumerate(names, start=1)]


def turns(players: list[Seat], options: BaseModel, seed: int, max_actions: int = 20_000,
          ruleset: Ruleset = RULESET) -> list[Turn]:
    """Every turn of a baseline-AI game: the board once it ended (the next turn begun) and what happened in it.

    Only public events are kept, as the bot passes them to the renderer."""
    state, _ = ruleset.new_game(players, options, seed)
    found: list[Turn] = []
    current: list[Event] = []

    def step(_before: object, _action: object, after: GameState, events: list[Event]) -> None:
        events = [e for e in events if e.private_to is None]
        begun = next((k for k, e in enumerate(events) if e.type == TURN_STARTED), None)
        if begun is None:
            current.extend(events)
            return
        found.append(Turn(after, current + events[:begun]))
        current[:] = events[begun:]

    policies = {s.id: ruleset.policy("baseline") for s in players}
    end, _ = play_out(ruleset, state, policies, seed, max_actions=max_actions, on_step=step)
    found.append(Turn(end, current))
    return found


def conquests(turn: Turn) -> int:
    return sum(e.type == "conquered" for e in turn.events)


def samples() -> dict[str, Turn]:
    """The Risk gallery's boards, by file name."""
    out: dict[str, Turn] = {}
    claim = turns(seats(NAMES[:3]), RiskOptions(setup="claim"), 11, max_actions=20)
    out["01-claiming"] = claim[-1]
    four = turns(seats(NAMES[:4]), RiskOptions(setup="random_deal"), 7)
    out["02-first-turn"] = Turn(next(t.state for t in four if t.state.progress() == 1), [])
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
    middle = mission[len(mission) // 3].state
    assert isinstance(middle, RiskState)
    quitter = next(p for p in middle.players if p.status == "active" and p.id != middle.current)
    resigned, events = RULESET.apply(middle, Resign(player=quitter.id))
    out["09-resigned-to-neutral"] = Turn(resigned, events)
    return out


def wq_turns(names: Sequence[str], seed: int, options: WQOptions | None = None,
             max_actions: int = 20_000) -> list[Turn]:
    return turns(seats(names), options or WQOptions(), seed, max_actions=max_actions, ruleset=WQ_RULESET)


def beasts(turn: Turn) -> int:
    """How much a turn shows of the Dragon, the Mage and fighting: beasts on the board, their moves, captures."""
    s = turn.state
    assert isinstance(s, WQState)
    on_board = (s.dragon is not None) + (s.mage is not None)
    moved = sum(e.type in ("dragon_landed", "mage_moved") for e in turn.events)
    return 10 * on_board + 3 * moved + sum(e.type in ("captured", "frenzy") for e in turn.events)


def wq_samples() -> dict[str, Turn]:
    """The Wizard's Quest gallery's boards, by file name."""
    out: dict[str, Turn] = {}
    out["wq-01-setup-hiding"] = wq_turns(NAMES[:4], 3, max_actions=32)[-1]
    four = wq_turns(NAMES[:4], 3)
    out["wq-02-first-turn"] = four[1]
    out["wq-03-mid-game"] = four[len(four) // 2]
    six = wq_turns(NAMES, 8)
    out["wq-04-dragon-mage-protected"] = max(six[: len(six) * 2 // 3], key=beasts)
    out["wq-05-game-over"] = four[-1]
    hard = wq_turns(HARD_NAMES, 9)
    out["wq-06-long-and-non-latin-names"] = hard[len(hard) // 2]
    decoy = wq_turns(NAMES[:3], 12, WQOptions(decoy=True))
    out["wq-07-decoy-markers"] = decoy[len(decoy) // 3]
    two = wq_turns(NAMES[:2], 4)
    out["wq-08-two-players"] = two[len(two) // 2]
    return out


GALLERIES = {"risk": samples, "wizards-quest": wq_samples}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--game", choices=sorted(GALLERIES), help="only this game's samples")
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    for game, gallery in GALLERIES.items():
        if args.game not in (None, game):
            continue
        for name, turn in gallery().items():
            started = time.perf_counter()
            png = render_board(turn.state, turn.events)
            ms = (time.perf_counter() - started) * 1000
            path = args.outdir / f"{name}.png"
            path.write_bytes(png)
            progress = f"{turn.state.progress_unit[:-1]} {turn.state.progress()}"
            print(f"{path}  {len(png) / 1024:.0f} KB  {ms:.0f} ms  {progress} {turn.state.phase.value}")  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
