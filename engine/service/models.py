"""Data objects the service hands out: what a command did, alarms, vote tallies, history pages."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.models import Action, Decision, Event, GameState
from engine.core.ruleset import Ruleset
from engine.store import ActionRow, GameRow


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action with its events: a human's, or an AI seat's answering after it."""

    seq: int
    actor: int
    action: Action
    events: list[Event]
    ai: bool


@dataclass(frozen=True, slots=True)
class Alarm:
    """A timer that went off: a reminder, or a deadline the seat missed (and what was done about it)."""

    kind: str
    """"reminder", "timeout" (a stand-in played this decision), "absent" (it plays on until /game back), or
    "expired" (a lobby that never started was closed; `player` is its host)."""
    player: int
    outcome: Outcome
    due: float


@dataclass(frozen=True, slots=True)
class VoteTally:
    kind: str
    voters: list[int]
    needed: list[int]
    outcome: Outcome | None
    """Set when the vote carried and ended the game."""


@dataclass(frozen=True, slots=True)
class HistoryPage:
    game: GameRow
    state: GameState | None
    page: int
    pages: int
    total: int
    entries: list[tuple[int, ActionRow]]
    """(turn, logged action), oldest first."""


@dataclass(slots=True)
class Outcome:
    """What a command did: the game row, the state after it, and the steps applied."""

    game: GameRow
    ruleset: Ruleset
    state: GameState | None
    steps: list[Step] = field(default_factory=list)
    new_host: int | None = None
    """Set when the host left the game and the host's powers passed to this seat."""
    deadlines: dict[int, float] = field(default_factory=dict)
    """When each pending human seat's clock runs out (epoch seconds)."""
    waiting_before: frozenset[int] | None = None
    """The seats whose decision was pending before the command: a post about it pings only the others. Unless
    given, the seats pending in the state the outcome starts from."""

    def __post_init__(self) -> None:
        if self.waiting_before is None:
            state = self.state
            self.waiting_before = frozenset(d.player for d in self.ruleset.pending(state)) if state else frozenset()

    @property
    def events(self) -> list[Event]:
        return [e for step in self.steps for e in step.events]

    @property
    def pending(self) -> list[Decision]:
        return self.ruleset.pending(self.state) if self.state is not None else []

    @property
    def winners(self) -> list[int] | None:
        return self.ruleset.winners(self.state) if self.state is not None else None
