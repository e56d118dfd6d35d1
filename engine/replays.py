"""A game's replay as one picture per turn: the moves replayed and the picture drawn in a worker thread, one
replay at a time per server, and a picture already made for the same game version reused."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass

from engine.core.events import TURN_STARTED
from engine.core.models import Event, GameState
from engine.core.record import GameRecord, apply_entry, start
from engine.games import get

TURN_EVENT = TURN_STARTED
"""The core's event kind every ruleset emits when a seat's turn begins: replays show one frame per turn."""
CACHE_BYTES = 32 * 1024 * 1024
"""How many bytes of finished pictures stay in memory (the most recently used)."""

Frame = tuple[GameState, Sequence[Event]]
"""The board as a turn left it, and that turn's public events (which the picture highlights)."""


@dataclass(frozen=True, slots=True)
class Replay:
    """An animated picture of a game, and what it leaves out to stay quick and within the upload limit."""

    gif: bytes
    turns: int
    """Turns in the game (one frame each in a full replay)."""
    shown: int
    """Frames in the picture: every `step`-th turn from the first, and the last."""
    step: int
    width: int
    """The pictures' width in pixels."""
    shrunk: bool
    """Whether they are smaller than usual, to fit the limit."""


Animator = Callable[[Sequence[Frame], int], Replay | None]
"""(frames, most bytes the picture may take) → the picture (None: the game has no picture); pure and synchronous,
run in a worker thread."""


def frames(record: GameRecord) -> list[Frame]:
    """The board at the end of every turn (the last frame is the latest position), with that turn's public events.

    This replays every move, so it runs in a worker thread.
    """
    ruleset = get(record.game)
    state, _ = start(ruleset, record)
    found: list[Frame] = []
    turn: list[Event] = []
    began = False
    for data in record.actions:
        state, events = apply_entry(ruleset, state, data)
        public = [e for e in events if e.private_to is None]
        if any(e.type == TURN_EVENT for e in public):
            if began:
                found.append((state, turn))
            began, turn = True, []
        turn.extend(public)
    if began:
        found.append((state, turn))
    return found


class Replays:
    """Builds replays off the event loop, one at a time per server, and keeps the pictures it made."""

    def __init__(self, animator: Animator | None, cache_bytes: int = CACHE_BYTES) -> None:
        self.animator = animator
        self.cache_bytes = cache_bytes
        self._locks: dict[int | None, asyncio.Lock] = {}
        self._kept: OrderedDict[Hashable, Replay] = OrderedDict()

    def _lock(self, guild_id: int | None) -> asyncio.Lock:
        """The lock that makes a server's replays build one at a time."""
        lock = self._locks.get(guild_id)
        if lock is None:
            lock = self._locks[guild_id] = asyncio.Lock()
        return lock

    async def replay(self, guild_id: int | None, key: Hashable, record: Callable[[], Awaitable[GameRecord]],
                     max_bytes: int, on_wait: Callable[[], Awaitable[None]] | None = None) -> Replay | None:
        """The picture of the game `key` names (its id and version: a version never changes), from the cache or
        built from `record()`; None when no turn has been played yet, or the game has no picture.

        While another replay of the server is being built, `on_wait()` is told, and this one waits its turn.
        """
        if self.animator is None:
            return None
        lock = self._lock(guild_id)
        if lock.locked() and on_wait is not None:
            await on_wait()
        async with lock:
            kept = self._kept.get((key, max_bytes))
            if kept is not None:
                self._kept.move_to_end((key, max_bytes))  # the most recently used go last
                return kept
            made = await asyncio.to_thread(build, self.animator, await record(), max_bytes)
            if made is not None and len(made.gif) <= self.cache_bytes:
                self._kept[key, max_bytes] = made
                while sum(len(r.gif) for r in self._kept.values()) > self.cache_bytes:
                    self._kept.popitem(last=False)  # the least recently used
            return made


def build(animator: Animator, record: GameRecord, max_bytes: int) -> Replay | None:
    """Replay the moves and draw the picture: slow, so it runs in a worker thread."""
    found = frames(record)
    return animator(found, max_bytes) if found else None
