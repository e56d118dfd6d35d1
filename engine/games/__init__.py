"""The registry of games: every package here declares one `GameSpec` as `SPEC`; nothing else lists the games.

Adding a game is adding its package (and its data, cog and renderer): no shared file names it.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from engine.core.i18n import Msg, msg
from engine.core.ruleset import Ruleset
from engine.core.spec import GameSpec, key

NAMES: tuple[str, ...] = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))
"""Every game's name, as positions, records and the database write it (each package is named so)."""


@cache
def _load(package: str) -> GameSpec:
    found = importlib.import_module(f"{__name__}.{package}").SPEC
    if not isinstance(found, GameSpec) or found.name != package:
        raise TypeError(f"engine.games.{package}.SPEC must be the GameSpec of a ruleset named {package!r}")
    return found


def specs() -> tuple[GameSpec, ...]:
    """Every game, in the order of `NAMES`."""
    return tuple(_load(name) for name in NAMES)


def spec(name: str) -> GameSpec:
    """The game called `name` or one of its aliases, in any spelling `key` accepts; KeyError if there is none."""
    wanted = key(name)
    if wanted in NAMES:
        return _load(wanted)
    for found in specs():
        if wanted in found.names():
            return found
    raise KeyError(name)


def get(name: str) -> Ruleset:
    """The ruleset of the game called `name` (see `spec`); KeyError if there is none."""
    return spec(name).ruleset


def title(name: str) -> Msg:
    """The game's title as its readers' language writes it (`title.<game>` in the catalogues)."""
    return msg(f"title.{spec(name).name}")
