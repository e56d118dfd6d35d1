"""The game registry: every package under engine/games declares a GameSpec, found under any of its names."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import engine.games
from engine.core.i18n import translate, words
from engine.core.spec import GameSpec
from engine.games import NAMES, get, spec, specs
from tests.engine.cli import cli_here

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_package_declares_its_spec() -> None:
    packages = sorted(m.name for m in pkgutil.iter_modules(engine.games.__path__) if m.ispkg)
    assert list(NAMES) == packages and {"risk", "wizards_quest"} <= set(NAMES)
    for found in specs():
        package = importlib.import_module(f"engine.games.{found.name}")
        assert isinstance(found, GameSpec) and package.SPEC is found and found.ruleset is package.RULESET
        assert found.options_model is found.ruleset.options_model and found.title == found.ruleset.title


@pytest.mark.parametrize("name", ["wizards_quest", "wizards-quest", "Wizards-Quest", "wizards quest", "wq"])
def test_a_game_answers_to_each_of_its_spellings(name: str) -> None:
    assert spec(name) is spec("wizards_quest") and get(name).name == "wizards_quest"
    assert spec(name).slug == "wizards-quest"


def test_an_unknown_game_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        spec("chess")


def test_each_games_renderer_and_cog_exist(tmp_path: Path) -> None:
    for found in specs():
        for module in (found.renderer, found.cog):
            assert module is None or (ROOT / (module.replace(".", "/") + ".py")).is_file(), module
        assert found.summarised is None or set(found.summarised) <= set(found.options_model.model_fields)
        assert set(found.option_names) <= set(found.options_model.model_fields)


def test_the_variant_a_lobby_plays_is_named_by_the_games_own_option() -> None:
    assert words(spec("risk").variant({"mode": "two_player"})) == "two_player"
    assert words(spec("risk").variant({"mode": "two_player"}), "ru") == translate("cmd.choice.two_player", "ru")
    assert words(spec("wq").variant({"turn_order": "fixed"})) == "Wizard's Quest"


def test_the_command_line_takes_an_alias(capsys: pytest.CaptureFixture[str]) -> None:
    done = cli_here(capsys, "simulate", "--game", "wq", "--games", "1", "--max-actions", "40")
    assert done.returncode == 0, done.stderr
    assert "1 game in" in done.stdout
    refused = cli_here(capsys, "simulate", "--game", "chess")
    assert refused.returncode == 2 and "risk" in refused.stderr and "wizards-quest" in refused.stderr
