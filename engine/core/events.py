"""The event kinds every game shares: the service, the replays and the renderer read them without knowing the game.

A game's own event models derive from these and add their fields; the JSON stays the game's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.core.models import Event

TURN_STARTED = "turn_started"
ROUND_STARTED = "round_started"


@dataclass(slots=True, kw_only=True)
class BoardChanged(Event):
    """Base of the events after which the board is drawn again: a turn begins, a place changes hands, the setup
    or the game ends (RISK-DIG-39)."""


@dataclass(slots=True, kw_only=True)
class Headline(Event):
    """Base of the events told in full even where the turns AI seats played are summed up in a line: an
    elimination, a departure, the end of the game."""


@dataclass(slots=True, kw_only=True)
class TurnStarted(BoardChanged):
    """`player`'s turn begins; a game adds what the turn starts with (its number, reinforcements …)."""

    type: Literal["turn_started"] = "turn_started"
    player: int


@dataclass(slots=True, kw_only=True)
class RoundStarted(Event):
    """A round begins: the automated phases of a game with rounds (orcs, dragon …) come before its first turn."""

    type: Literal["round_started"] = "round_started"
    round: int


@dataclass(slots=True, kw_only=True)
class PlayerLeft(Headline):
    """A seat resigned, or the host removed it (`removed_by`): what the `leave` hook of a game emits."""

    type: Literal["player_left"] = "player_left"
    player: int
    removed_by: int | None = None


def changes_board(event: Event) -> bool:
    """Whether the board looks different after `event`, so its picture is posted again."""
    return isinstance(event, BoardChanged)


def is_headline(event: Event) -> bool:
    """Whether `event` is told in full even within a summary of AI turns."""
    return isinstance(event, Headline)
