"""The command-line tools: replay, apply and simulate, run as a player would run them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import run_demo
from engine.games.risk import RULESET
from engine.positions import dump_position, load_position, read_json
from tests.engine.cli import EXAMPLE, cli


def test_position_round_trips_exactly() -> None:
    data = read_json(EXAMPLE / "risk-position.json")
    _, state = load_position(data)
    assert json.loads(dump_position(state)) == data
    _, again = load_position(json.loads(dump_position(state)))
    assert again == state


def test_apply_uses_the_given_dice_first(tmp_path: Path) -> None:
    done = cli("apply", "--position", str(EXAMPLE / "risk-position.json"),
               "--actions", str(EXAMPLE / "risk-actions.json"), "--dice", "6,6,6,1,1")
    assert done.returncode == 0, done.stderr
    after = json.loads(done.stdout)
    assert after["owner"]["kamchatka"] == 101
    assert after["armies"]["kamchatka"] == 5 and after["armies"]["alaska"] == 1
    assert after["current"] == 102 and after["phase"] == "reinforce"
    assert len(after["hands"]["101"]) == 4, "the conquest earned a card"


def test_apply_reports_the_rule_error_and_exits_2() -> None:
    done = cli("apply", "--position", str(EXAMPLE / "risk-position.json"),
               "--actions", str(EXAMPLE / "risk-actions.json"), "--dice", "1,1,1,6,6")
    assert done.returncode == 2
    assert done.stdout.startswith("E_NOTHING_PENDING: There is nothing waiting")


def test_demo_record_is_byte_identical_and_replays(tmp_path: Path) -> None:
    first = run_demo("risk", 4, 3, tmp_path / "a")
    run_demo("risk", 4, 3, tmp_path / "b")
    assert (tmp_path / "a" / "record.json").read_bytes() == (tmp_path / "b" / "record.json").read_bytes()
    transcript = (tmp_path / "a" / "transcript.txt").read_text(encoding="utf-8")
    assert "goes first" in transcript and "wins" in transcript
    done = cli("replay", str(tmp_path / "a" / "record.json"))
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(": ", 1) for line in done.stdout.strip().splitlines())
    assert len(lines["digest"]) == 16
    assert lines["actions"] == str(len(first.actions))
    assert lines["winner"] != "none yet (the game is not over)"


def test_replay_exits_1_on_an_illegal_action(tmp_path: Path) -> None:
    record = run_demo("risk", 3, 5, tmp_path / "demo")
    record.actions[10] = {**record.actions[10], "player": record.actions[10]["player"] % 3 + 1}
    path = tmp_path / "bad.json"
    path.write_text(record.model_dump_json(), encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 1
    assert "action 10 is illegal: E_NOT_YOUR_TURN" in done.stderr


def test_replay_exits_1_on_a_record_from_a_newer_engine(tmp_path: Path) -> None:
    record = run_demo("risk", 3, 5, tmp_path / "demo")
    path = tmp_path / "newer.json"
    path.write_text(record.model_copy(update={"schema_version": 99}).model_dump_json(), encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 1
    assert "the record can't start: E_RECORD_TOO_NEW: This record was made with position schema 99" in done.stderr


def test_simulate_prints_each_game_and_the_rate() -> None:
    done = cli("simulate", "--game", "risk", "--players", "4", "--seed", "7", "--games", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 4
    for line in lines[:3]:
        assert "winner AI" in line and "turns" in line and "actions" in line
    assert lines[3].startswith("3 games in") and lines[3].endswith("games/s")


@pytest.mark.parametrize("seed", [1, 2])
def test_replay_of_a_simulated_game_matches_the_live_state(seed: int) -> None:
    from engine.core.models import Seat
    from engine.core.play import play_out
    from engine.core.record import GameRecord, replay

    seats = [Seat(id=i + 1, name=f"P{i}") for i in range(4)]
    options = RULESET.options_model(mode="secret_mission")
    state, _ = RULESET.new_game(seats, options, seed)
    state, actions = play_out(RULESET, state, {s.id: RULESET.policy("baseline") for s in seats}, seed)
    record = GameRecord(game="risk", seed=seed, options=options.model_dump(), seats=seats,
                        actions=[a.model_dump(mode="json") for a in actions], schema_version=state.schema_version)
    replayed, _ = replay(RULESET, GameRecord.model_validate_json(record.model_dump_json()))
    assert replayed == state
