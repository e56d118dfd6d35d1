"""The registry of rulesets, by the name used on the command line and in the database."""

from __future__ import annotations

from engine.core.ruleset import Ruleset


def get(name: str) -> Ruleset:
    """The ruleset called `name` ("risk", "wizards-quest" or "wizards_quest"); KeyError if there is none."""
    key = name.replace("-", "_")
    if key == "risk":
        from engine.games.risk import RULESET

        return RULESET
    if key == "wizards_quest":
        from engine.games.wizards_quest import RULESET as WQ

        return WQ
    raise KeyError(name)


NAMES = ("risk", "wizards_quest")
