"""Base models shared by every ruleset: seats, state, actions, events, decisions, and their JSON edge.

States, actions, events and decisions are plain slotted dataclasses: the rules build and read them without any
library in between. Pydantic checks and writes them only at the edges (positions, records, the store, Discord
and CLI input), through one cached `TypeAdapter` per type: `from_json`, `to_json`, `json_text`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.core.rng import RngState

T = TypeVar("T")


class Seat(BaseModel):
    """A player as the lobby knows them: a Discord user id (or a synthetic id for an AI) and a name."""

    model_config = ConfigDict(frozen=True)

    id: int = Field(gt=0)
    name: str = Field(min_length=1, max_length=100)
    ai: bool = False
    colour: str | None = None
    """A colour the player asked for in the lobby; the ruleset assigns one otherwise."""


@cache
def adapter(kind: Any) -> TypeAdapter[Any]:
    """The pydantic adapter of a type (a dataclass, a union …), built once: its schema is costly to make."""
    return TypeAdapter(kind)


def from_json(kind: type[T], data: Any) -> T:
    """`data` (parsed JSON, or Python values) validated into `kind`; raises pydantic's ValidationError."""
    return adapter(kind).validate_python(data)  # type: ignore[no-any-return]


def to_json(obj: Any, *, exclude: set[str] | None = None) -> Any:
    """`obj` as JSON-ready Python values, fields in declaration order (a base class's fields first)."""
    return adapter(type(obj)).dump_python(obj, mode="json", exclude=exclude)


def json_text(obj: Any, *, indent: int | None = None) -> str:
    """`obj` as JSON text, as the store, positions and records write it."""
    return adapter(type(obj)).dump_json(obj, indent=indent).decode()


@cache
def copier(kind: type[T]) -> Callable[[T], T]:
    """The shallow copy of a (non-frozen) dataclass `kind`: every field read and written once, nothing else.

    The rules copy the state at every action. `dataclasses.replace` goes through `fields()` and `__init__` with
    every field as a keyword, about eight times as slow; like `dataclasses` itself, this writes the function out.
    """
    names = [f.name for f in fields(kind)]  # type: ignore[arg-type]
    body = "".join(f"    n.{name} = s.{name}\n" for name in names)
    code = f"def copy(s):\n    n = new(kind)\n{body}    return n\n"
    space: dict[str, Any] = {"new": object.__new__, "kind": kind}
    exec(code, space)  # the source is built above from the field names alone
    return space["copy"]  # type: ignore[no-any-return]


@dataclass(slots=True, kw_only=True)
class GameState:
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
        return int(next(f.default for f in fields(cls) if f.name == "schema_version"))  # type: ignore[call-overload]

    @classmethod
    def too_new(cls, version: object) -> bool:
        """A position or record of this schema comes from a newer engine: it is refused, never guessed at."""
        return isinstance(version, int) and version > cls.newest_schema()

    def digest(self) -> str:
        """A short stable fingerprint of the whole position."""
        return hashlib.sha256(canonical_json(to_json(self)).encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """Base of every action: the acting seat and a `type` discriminator."""

    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")

    type: str
    player: int


@dataclass(slots=True, kw_only=True)
class Event:
    """Something that happened. `private_to` marks an event only that seat may see.

    Events and decisions are not frozen, unlike actions: every `apply` and `pending` builds them afresh and no
    state holds them, and a frozen dataclass's `__init__` costs 2.5 times as much (1.0 µs against 0.4 µs for a
    seven-field event), a seventh of a random Risk game.
    """

    type: str
    private_to: int | None = None


@dataclass(slots=True, kw_only=True)
class Decision:
    """Who must decide what next: drives pings, buttons, autocomplete, AI seats and deadlines."""

    player: int
    kind: str
    detail: dict[str, Any] = field(default_factory=dict)


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
