"""The command-line tools run Wizard's Quest: simulate, apply, replay, and positions round-trip."""

from __future__ import annotations

import json
from pathlib import Path

from engine.core.models import Seat, to_json
from engine.core.play import play_out
from engine.core.record import GameRecord
from engine.games.wizards_quest import RULESET, WQOptions
from engine.positions import dump_position, load_position, read_json, record_json
from tests.engine.cli import EXAMPLE, cli


def test_position_round_trips_exactly() -> None:
    data = read_json(EXAMPLE / "wizards-quest-position.json")
    ruleset, state = load_position(data)
    assert ruleset is RULESET
    assert json.loads(dump_position(state)) == data


def test_apply_with_dice_and_a_refusal() -> None:
    args = ("apply", "--position", str(EXAMPLE / "wizards-quest-position.json"),
            "--actions", str(EXAMPLE / "wizards-quest-actions.json"))
    done = cli(*args, "--dice", "6,6")
    assert done.returncode == 0, done.stderr
    after = json.loads(done.stdout)
    assert after["owner"]["1.2"] == 101 and after["hero"]["101"] == "1.2" and after["retrieved"]["101"] == ["crown"]
    failed = cli(*args, "--dice", "1,1,1,1,1,1")
    assert (failed.returncode, failed.stdout) == (2, "")
    assert failed.stderr == "action 2 (capture): WQ_VAL_35: You have no attack in progress.\n"


def test_simulate_and_replay(tmp_path: Path) -> None:
    done = cli("simulate", "--game", "wizards-quest", "--players", "4", "--seed", "7", "--games", "2",
               "--policy", "baseline")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 3 and all("winner AI" in x and "rounds" in x for x in lines[:2])
    seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(3)]
    state, _ = RULESET.new_game(seats, WQOptions(), 3)
    state, actions = play_out(RULESET, state, {s.id: RULESET.policy("baseline") for s in seats}, 3)
    record = GameRecord(game="wizards_quest", seed=3, seats=seats, actions=[to_json(a) for a in actions])
    path = tmp_path / "record.json"
    path.write_text(record_json(record), encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert f"digest: {state.digest()}" in done.stdout and "winner: AI" in done.stdout
