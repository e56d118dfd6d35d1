"""The registry of rulesets, by the name used on the command line and in the database."""

from __future__ import annotations

from engine.core.ruleset import Ruleset


def get(name: str) -> Ruleset:
    """The ruleset called `name` (e.g. "risk"); KeyError if there is none."""
    key = name.replace("-", "_")
    if key == "risk":
        from engine.games.risk import RULESET

        return RULESET
    raise KeyError(name)


NAMES = ("risk",)
