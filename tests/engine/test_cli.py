"""The command-line tools: replay, apply and simulate, run as a player would run them."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from bot import run_demo
from engine.core.models import to_json
from engine.games.risk import RULESET
from engine.positions import dump_position, load_position, read_json
from tests.engine.cli import EXAMPLE, ROOT, cli, cli_here


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


def test_apply_names_the_action_that_failed_and_exits_2() -> None:
    done = cli("apply", "--position", str(EXAMPLE / "risk-position.json"),
               "--actions", str(EXAMPLE / "risk-actions.json"), "--dice", "1,1,1,6,6")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("action 1 (move): E_NOTHING_PENDING: There is nothing waiting")
    assert len(done.stderr.splitlines()) == 1


def test_apply_names_a_malformed_action_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps([{"type": "end_attack", "player": 101},
                                   {"type": "fortify", "player": 101, "source": "alaska"}]), encoding="utf-8")
    done = cli_here(capsys, "apply", "--position", str(EXAMPLE / "risk-position.json"), "--actions", str(actions))
    assert done.returncode == 2
    assert done.stderr == "action 1 (fortify): E_BAD_ACTION: fortify.target: Field required\n"


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
                        actions=[to_json(a) for a in actions], schema_version=state.schema_version)
    replayed, _ = replay(RULESET, GameRecord.model_validate_json(record.model_dump_json()))
    assert replayed == state


@pytest.mark.parametrize(("args", "line"), [
    (["--players", "9"], "--players 9: Risk with default options takes 3–6 players"),
    (["--players", "2"], "--players 2: Risk with default options takes 3–6 players"),
    (["--players", "3", "--option", "mode=two_player"], "--players 3: Risk with --option mode=two_player takes 2"),
    (["--game", "wizards-quest", "--players", "1"], "--players 1: Wizard's Quest with default options takes 2–6"),
    (["--option", "mode=blitz"], "--option mode=blitz: Input should be 'standard', 'secret_mission' or 'two_player'"),
    (["--option", "speed=2"], '--option speed: Risk has no option "speed" (its options: mode, setup,'),
])
def test_simulate_refuses_what_the_game_does_not_take_in_one_line(
        args: list[str], line: str, capsys: pytest.CaptureFixture[str]) -> None:
    done = cli_here(capsys, "simulate", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"error: {line}") and len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.parametrize("args", [["--games", "-3"], ["--games", "0"], ["--max-actions", "-1"], ["--players", "0"]])
def test_simulate_counts_are_positive(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    done = cli_here(capsys, "simulate", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert f"argument {args[0]}: expected a whole number of at least 1, not '{args[1]}'" in done.stderr


def test_a_refusal_is_one_line_and_no_traceback() -> None:
    done = cli("simulate", "--players", "9")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "error: --players 9: Risk with default options takes 3–6 players\n"


def test_simulate_takes_both_spellings_of_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    done = cli_here(capsys, "simulate", "--game", "wizards_quest", "--players", "2", "--games", "1",
                    "--max-actions", "20")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("game 1 (seed 1): winner unfinished, rounds")


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "input.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)



@pytest.mark.parametrize(("change", "line"), [
    ({"game": "chess"}, 'record: game: there is no game "chess" (the games are battlemist, risk, wizards_quest)'),
    ({"format": "gm-record/2"}, 'record: format: this engine reads "gm-record/1" records, not "gm-record/2"'),
    ({"seed": "soon"}, "record: seed: Input should be a valid integer, unable to parse string as an integer"),
])
def test_replay_refuses_a_record_that_breaks_the_format(change: dict[str, object], line: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    record = {"format": "gm-record/1", "game": "risk", "seed": 3, "seats": [{"id": 1, "name": "Ada"}]}
    done = cli_here(capsys, "replay", write(tmp_path, {**record, **change}))
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {line}\n")


@pytest.mark.parametrize(("command", "what"), [("replay", "a game record"), ("apply", "a position")])
def test_a_file_that_is_not_an_object_is_refused(command: str, what: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, [1, 2, 3])
    args = [path] if command == "replay" else ["--position", path, "--actions", str(EXAMPLE / "risk-actions.json")]
    done = cli_here(capsys, command, *args)
    kind = "record" if command == "replay" else "position"
    assert (done.returncode, done.stderr) == (2, f"error: {kind}: {what} is a JSON object, not an array\n")


def test_apply_refuses_a_position_of_an_unknown_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = {**read_json(EXAMPLE / "risk-position.json"), "game": "chess"}
    done = cli_here(capsys, "apply", "--position", write(tmp_path, position),
                    "--actions", str(EXAMPLE / "risk-actions.json"))
    assert done.returncode == 2
    assert done.stderr == ('error: position: game: there is no game "chess" '
                           '(the games are battlemist, risk, wizards_quest)\n')


def test_apply_names_the_broken_field_of_a_position_without_a_traceback(tmp_path: Path) -> None:
    position = read_json(EXAMPLE / "risk-position.json")
    position["owner"]["narnia"] = 101
    done = cli("apply", "--position", write(tmp_path, position), "--actions", str(EXAMPLE / "risk-actions.json"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == 'error: position: owner.narnia: there is no territory "narnia" on this map\n'


def readme_examples() -> list[str]:
    """The `python -m engine` commands of the README's "Command-line tools" section that name real files."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Command-line tools", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    return [line for block in blocks for line in block.splitlines()
            if line.startswith("python -m engine ") and "docs/examples/" in line]


def test_the_readme_examples_run_as_written() -> None:
    examples = readme_examples()
    assert len(examples) >= 2, "the README shows an apply example for each game"
    for line in examples:
        done = cli(*shlex.split(line)[3:])
        assert done.returncode == 0, f"{line}: {done.stderr}"
        position = json.loads(done.stdout)
        assert position["game"] in line.replace("-", "_"), line


def test_replay_names_a_substitution_without_its_new_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = {"format": "gm-record/1", "game": "risk", "seed": 3, "options": {"mode": "two_player"},
              "seats": [{"id": 1 << 40, "name": "Ada"}, {"id": (1 << 40) + 1, "name": "Bo"}],
              "actions": [{"type": "reseat", "player": 1 << 40}]}
    done = cli_here(capsys, "replay", write(tmp_path, record))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "action 0 is malformed: seat: Field required\n"


def test_apply_takes_the_games_own_dice(capsys: pytest.CaptureFixture[str]) -> None:
    """Battlemist rolls d10s: a 10 is a face, an 11 is refused before anything is applied; the faces decide."""
    args = ("apply", "--position", str(EXAMPLE / "battlemist-position.json"),
            "--actions", str(EXAMPLE / "battlemist-actions.json"))
    high, low = cli_here(capsys, *args, "--dice", ",".join(["10"] * 40)), cli_here(capsys, *args, "--dice",
                                                                                   ",".join(["1"] * 40))
    assert high.returncode == 0 and low.returncode == 0, high.stderr + low.stderr
    after = json.loads(high.stdout)
    assert after["troops"] != json.loads(low.stdout)["troops"]
    assert list(after["troops"]["H-KHR"]) == ["303"] and after["phase"] == "quest"  # as the README tells it
    refused = cli_here(capsys, *args, "--dice", "10,11")
    assert refused.returncode != 0 and "Battlemist's dice have faces 1 to 10" in refused.stderr
    assert cli_here(capsys, "apply", "--position", str(EXAMPLE / "risk-position.json"), "--actions",
                    str(EXAMPLE / "risk-actions.json"), "--dice", "7").returncode != 0
