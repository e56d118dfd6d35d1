"""What `python -m engine` and `python bot.py --demo` share on the command line: argument types and checks."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from pydantic import BaseModel, ValidationError

from engine.core.check import quoted
from engine.core.errors import player_count
from engine.core.ruleset import Ruleset
from engine.games import spec, specs

GAMES = tuple(s.slug for s in specs())
"""The games as the command line spells them; `game_name` accepts their other spellings and aliases too."""


class Refused(Exception):
    """A command line or input file the tools can't use: one line for stderr, and exit status 2."""


def game_name(text: str) -> str:
    """A game as the command line spells it: `wizards_quest` (as positions and records write it) is `wizards-quest`.

    A name no game answers to is returned as it is, for argparse to refuse with the list of games.
    """
    try:
        return spec(text).slug
    except KeyError:
        return text


def positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return n


def option_pair(text: str) -> tuple[str, str]:
    """`--option NAME=VALUE`: the game option NAME, as the lobby's options are named."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, e.g. mode=two_player, not {text!r}")
    return name.strip(), value.strip()


MAX_DIE = 100
"""No game here rolls a die with more faces."""


def dice_faces(text: str) -> list[int]:
    """`--dice 6,5,3`: die faces from 1 up, separated by commas (the game's die size is checked later)."""
    faces = [part.strip() for part in text.split(",") if part.strip()]
    if not all(face.isascii() and face.isdigit() and 1 <= int(face) <= MAX_DIE for face in faces):
        raise argparse.ArgumentTypeError(f"expected die faces from 1 up separated by commas, not {text!r}")
    return [int(face) for face in faces]


def game_options(ruleset: Ruleset, pairs: Sequence[tuple[str, str]]) -> BaseModel:
    """The game options from `--option` pairs, or Refused naming the first one the game can't use."""
    given = dict(pairs)
    try:
        return ruleset.options_model.model_validate(given)
    except ValidationError as err:
        problem = err.errors(include_url=False)[0]
        name = str(problem["loc"][0])
        if problem["type"] == "extra_forbidden":
            known = ", ".join(ruleset.options_model.model_fields)
            raise Refused(f"--option {name}: {ruleset.title} has no option {quoted(name)} (its options: {known})"
                          ) from None
        raise Refused(f"--option {name}={given.get(name, '')}: {problem['msg']}") from None


def check_players(ruleset: Ruleset, options: BaseModel, players: int, pairs: Sequence[tuple[str, str]]) -> None:
    """Refused unless the game with these options takes this many players; the message says how many it takes."""
    low, high = ruleset.player_range(options)
    if not low <= players <= high:
        chosen = " ".join(f"--option {name}={value}" for name, value in pairs) or "default options"
        raise Refused(f"--players {players}: {ruleset.title} with {chosen} takes {player_count(low, high)} players")
