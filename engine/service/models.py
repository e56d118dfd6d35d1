"""Data objects the service hands out: what a command did, alarms, vote tallies, history pages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.i18n import DEFAULT_LOCALE
from engine.core.models import Action, Decision, Event, GameState
from engine.core.ruleset import Ruleset
from engine.store import GameRow
from engine.table import Lobby


@dataclass(frozen=True, slots=True)
class Game:
    """A channel's game as the Discord side sees it (the store's row stays inside the service)."""

    id: int
    ruleset: str
    status: str
    host_id: int
    version: int
    lobby: Lobby

    @classmethod
    def of(cls, row: GameRow, lobby: Lobby) -> Game:
        return cls(id=row.id, ruleset=row.ruleset, status=row.status, host_id=row.host_id, version=row.version,
                   lobby=lobby)


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
class Entry:
    """One logged move as the history shows it: the turn it belongs to, who made it, what it was, what it did."""

    seq: int
    turn: int
    actor: int
    kind: str
    events: list[Event]


@dataclass(frozen=True, slots=True)
class HistoryPage:
    game_id: int
    ruleset: str
    state: GameState | None
    """The public view, which the entries are told from."""
    page: int
    pages: int
    total: int
    entries: list[Entry]
    """Oldest first."""


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
    posts: list[Post] = field(default_factory=list)
    """What the command queued for the channel."""

    @property
    def events(self) -> list[Event]:
        return [e for step in self.steps for e in step.events]

    @property
    def pending(self) -> list[Decision]:
        return self.ruleset.pending(self.state) if self.state is not None else []

    @property
    def winners(self) -> list[int] | None:
        return self.ruleset.winners(self.state) if self.state is not None else None


@dataclass(frozen=True, slots=True)
class Post:
    """An announcement for a game's channel, kept in the outbox until Discord has every message of it."""

    game: str
    """The ruleset, which draws the board and offers the buttons."""
    messages: list[str]
    pings: list[int] = field(default_factory=list)
    """The users its messages may ping; any other mention in them shows but pings nobody."""
    state: dict[str, Any] | None = None
    """The position the post shows (the public view, as JSON), for its board picture and its buttons."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """The public events the board highlights: the last turn and this one so far."""
    away: list[int] = field(default_factory=list)
    """Seats an AI stand-in plays for, marked on the board."""
    picture: bool = False
    """The board goes with the last message (the picture, or the text board for a game without one)."""
    controls: bool = False
    """The buttons of the decision pending in `state` go with the last message."""
    language: str = DEFAULT_LOCALE
    """The game's language, which its board and buttons speak too."""

    def payload(self) -> dict[str, Any]:
        return {"game": self.game, "messages": self.messages, "pings": self.pings, "state": self.state,
                "events": self.events, "away": self.away, "picture": self.picture, "controls": self.controls,
                "language": self.language}

    @classmethod
    def of(cls, payload: dict[str, Any]) -> Post:
        return cls(game=str(payload.get("game", "")), messages=list(payload.get("messages", [])),
                   pings=list(payload.get("pings", [])), state=payload.get("state"),
                   events=list(payload.get("events", [])), away=list(payload.get("away", [])),
                   picture=bool(payload.get("picture")), controls=bool(payload.get("controls")),
                   language=str(payload.get("language", DEFAULT_LOCALE)))


@dataclass(frozen=True, slots=True)
class Queued:
    """A post waiting in the outbox for its channel, with how far its delivery got."""

    id: int
    game_id: int
    channel_id: int
    post: Post
    attempts: int
    """Attempts so far: after one, a message may be in the channel unrecorded (a crash before it was noted)."""
    sent: list[int]
    """The ids of its messages Discord has accepted so far."""
    next_try: float
    """Not before this moment (epoch seconds)."""
