"""Turn machinery every game shares: leaving the game (`resign`, `remove`) and the phase gate.

A game's `apply` runs `Seating.admit` before anything else: it raises the game-over error, checks the
target of a `remove` and the actor's seat, and hands a `resign` or `remove` to the game's `leave` hook.
Every other action goes on to the game's own checks, which usually start with its `Gate`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from engine.core.errors import RuleError
from engine.core.models import Action
from engine.core.players import ACTIVE, SeatedState

S = TypeVar("S", bound=SeatedState)
Ph = TypeVar("Ph", bound=Hashable)


@dataclass(frozen=True, slots=True, kw_only=True)
class Resign(Action):
    """The acting seat leaves the game for good; the game's `leave` hook decides what becomes of its pieces."""

    type: Literal["resign"] = "resign"


@dataclass(frozen=True, slots=True, kw_only=True)
class Remove(Action):
    """The host removes (kicks) `target`, as a resignation; the bot has checked who may do this."""

    type: Literal["remove"] = "remove"
    target: int


Leave = Callable[[int, int | None], None]
"""A game's `leave(pid, removed_by)` hook: `pid` leaves its own working copy of the state (`removed_by` is
None for a resignation). It settles what the leaver owned and held, and moves the turn on if it was theirs."""


@dataclass(frozen=True, slots=True)
class Seating(Generic[S]):
    """The checks every action of a game passes first, with the game's own error codes where it words them."""

    game_over: Callable[[S], RuleError | None]
    """The game's error for any action once the game is over; None while it goes on."""
    not_seated: str = "E_NOT_PLAYER"
    """The actor has no seat in the game."""
    out: str = "E_ELIMINATED"
    """The actor's seat no longer plays (eliminated or resigned)."""

    def admit(self, state: S, action: Action, leave: Leave) -> bool:
        """Check, in order, the game's end, a removal's target and the actor; True when the action was a
        `resign` or `remove`, which `leave` has carried out, False when the game's rules take it on."""
        over = self.game_over(state)
        if over is not None:
            raise over
        kind = action.type  # runs before every action: the type name is tested first, isinstance only on a match
        if kind == "remove" and isinstance(action, Remove):
            target = state.player(action.target)
            if target is None or target.status != ACTIVE:
                raise RuleError("E_NOT_PLAYER_TARGET", player=state.name(action.target))
            leave(action.target, action.player)
            return True
        me = state.player(action.player)
        if me is None:
            raise RuleError(self.not_seated)
        if me.status != ACTIVE:
            raise RuleError(self.out)
        if kind == "resign" and isinstance(action, Resign):
            leave(action.player, None)
            return True
        return False


@dataclass(frozen=True, slots=True)
class Gate(Generic[Ph]):
    """A phase-to-allowed-actions table and the error for an action its phase does not allow."""

    allowed: Mapping[Ph, Collection[str]]
    wrong: Callable[[Ph, str, Collection[str]], RuleError]
    """The error for action type `kind` in `phase`, given the types the phase allows."""
    refusals: Mapping[str, str] = field(default_factory=dict)
    """Action types refused with a code of their own, in any phase that does not allow them."""

    def check(self, phase: Ph, kind: str, allowed: Collection[str] | None = None) -> None:
        """Raise unless `phase` allows `kind`; `allowed` replaces the table's entry (an option narrows it)."""
        allowed = self.allowed[phase] if allowed is None else allowed
        if kind in allowed:
            return
        code = self.refusals.get(kind)
        raise RuleError(code) if code is not None else self.wrong(phase, kind, allowed)

