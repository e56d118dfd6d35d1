"""The table around a game: seats, clocks, absences, pause and votes. Not rules: the bot's own bookkeeping."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from engine.core.i18n import DEFAULT_LOCALE
from engine.core.models import Decision, GameState, Seat
from engine.core.ruleset import Ruleset

MIN_DEADLINE_HOURS = 1.0
MAX_DEADLINE_HOURS = 24.0 * 7
MAX_VACATION_DAYS = 14
REMINDERS = (0.5, 0.9)
"""Reminders go out when these fractions of a deadline have passed (RISK-DIG-41: at 50% and 90%)."""

CLOCK_OPTIONS = {"turn_timer_hours": "turn_hours", "defender_timeout_minutes": "reaction_minutes",
                 "absent_after": "absent_after", "timeout_action": "timeout_action"}
"""/new option → Clock field. Every game takes them; a game whose options lack them keeps them in its clock."""


class Clock(BaseModel):
    """How long a seat may take to decide, and what happens when it does not."""

    turn_hours: float | None = Field(default=24.0, gt=0, le=MAX_DEADLINE_HOURS)
    """None: no deadlines at all."""
    reaction_minutes: float = Field(default=60.0, gt=0, le=24 * 60)
    """For decisions answered out of turn (the ruleset's `reaction_kinds`)."""
    absent_after: int = Field(default=2, ge=1, le=10)
    timeout_action: Literal["ai", "skip"] = "ai"

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Clock:
        """The clock a game's options ask for (Risk names them RISK-OPT-8 … OPT-11); defaults otherwise."""
        return cls.model_validate({ours: options[key] for key, ours in CLOCK_OPTIONS.items() if key in options})

    def seconds(self, decision: Decision, ruleset: Ruleset) -> float | None:
        """How long `decision` may take, or None when deadlines are off."""
        if self.turn_hours is None:
            return None
        if decision.kind in ruleset.reaction_kinds:
            return self.reaction_minutes * 60
        return self.turn_hours * 3600


class SeatStatus(BaseModel):
    """A human seat's absences: consecutive timeouts, the AI stand-in, a vacation."""

    timeouts: int = 0
    absent: bool = False
    """An AI stand-in (or the skip auto-play) answers this seat's decisions until `/game back`."""
    vacation_until: float | None = None
    clock_left: float | None = None
    """Seconds a running deadline had left when its vacation began: `back` gives them back, not a new clock."""


class Result(BaseModel):
    """How a game ended outside the rules: by a vote of every remaining human."""

    kind: Literal["draw", "surrender"]
    winners: list[int] = Field(default_factory=list)


class Lobby(BaseModel):
    """A game's table: options and seats (the host first, then turn order once started), clocks and votes."""

    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[Seat] = Field(default_factory=list)
    ai_policy: str = "baseline"
    clock: Clock = Field(default_factory=Clock)
    status: dict[int, SeatStatus] = Field(default_factory=dict)
    paused: dict[int, float] | None = None
    """While paused: each running clock's seconds left, by seat; None while the game runs."""
    votes: dict[str, list[int]] = Field(default_factory=dict)
    result: Result | None = None
    first_seats: list[Seat] = Field(default_factory=list)
    """The seats as the game began (the record's seats); `seats` follows substitutions."""
    language: str = DEFAULT_LOCALE
    """What the game's public posts and board speak (a private reply speaks its reader's own language)."""

    def seat(self, seat_id: int) -> Seat | None:
        return next((s for s in self.seats if s.id == seat_id), None)

    def status_of(self, seat_id: int) -> SeatStatus:
        return self.status.setdefault(seat_id, SeatStatus())

    def absent(self, seat_id: int) -> bool:
        status = self.status.get(seat_id)
        return bool(status and status.absent)

    def stand_ins(self) -> set[int]:
        """Seats an AI plays: AI seats, and humans marked absent unless the game is paused (ruling 16)."""
        return {s.id for s in self.seats if s.ai or (self.absent(s.id) and self.paused is None)}

    def humans(self) -> list[int]:
        return [s.id for s in self.seats if not s.ai]


def placements(ruleset: Ruleset, state: GameState, lobby: Lobby) -> dict[int, int]:
    """Each seat's final place (1 = first); a drawn game puts every remaining seat first."""
    ranking = ruleset.ranking(state)
    if lobby.result is not None and lobby.result.kind == "draw":
        alive = set(ruleset.alive(state))
        rest = [p for p in ranking if p not in alive]
        return {p: 1 for p in alive} | {p: 2 + k for k, p in enumerate(rest)}
    return {p: k + 1 for k, p in enumerate(ranking)}


def winners_of(ruleset: Ruleset, state: GameState, lobby: Lobby) -> list[int] | None:
    """The winners by the rules, or by a vote; None while the game goes on."""
    if lobby.result is not None:
        return list(lobby.result.winners)
    return ruleset.winners(state)
