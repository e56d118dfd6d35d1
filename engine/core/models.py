"""Base models shared by every ruleset: seats, state, actions, events, decisions."""

from __future__ import annotations

import hashlib
import json
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from engine.core.rng import RngState


class Seat(BaseModel):
    """A player as the lobby knows them: a Discord user id (or a synthetic id for an AI) and a name."""

    model_config = ConfigDict(frozen=True)

    id: int = Field(gt=0)
    name: str = Field(min_length=1, max_length=100)
    ai: bool = False
    colour: str | None = None
    """A colour the player asked for in the lobby; the ruleset assigns one otherwise."""


class GameState(BaseModel):
    """Base of every game's state: JSON-serialisable, versioned, carrying its own dice."""

    schema_version: int = 1
    game: str
    rng: RngState
    seq: int = 0
    """Number of actions applied so far; buttons carry it so stale clicks are refused."""
    progress_unit: ClassVar[str] = "turns"
    """What `progress()` counts, as the command line prints it."""

    def progress(self) -> int:
        """How far the game has gone in its own unit (turns, rounds); 0 during setup."""
        return 0

    @classmethod
    def newest_schema(cls) -> int:
        """The newest schema of this game's positions that this engine reads: the one it writes."""
        return int(cls.model_fields["schema_version"].default)

    @classmethod
    def too_new(cls, version: object) -> bool:
        """A position or record of this schema comes from a newer engine: it is refused, never guessed at."""
        return isinstance(version, int) and version > cls.newest_schema()

    def digest(self) -> str:
        """A short stable fingerprint of the whole position."""
        return hashlib.sha256(canonical_json(self.model_dump(mode="json")).encode()).hexdigest()[:16]


class Action(BaseModel):
    """Base of every action: the acting seat and a `type` discriminator."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
    player: int


class Event(BaseModel):
    """Something that happened. `private_to` marks an event only that seat may see."""

    model_config = ConfigDict(frozen=True)

    type: str
    private_to: int | None = None


class Decision(BaseModel):
    """Who must decide what next: drives pings, buttons, autocomplete, AI seats and deadlines."""

    model_config = ConfigDict(frozen=True)

    player: int
    kind: str
    detail: dict[str, Any] = Field(default_factory=dict)


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
