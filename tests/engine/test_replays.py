"""The replay builder keeps the pictures it made, the most recently used, within its bytes."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine import replays
from engine.core.record import GameRecord
from engine.replays import Frame, Replay, Replays

RECORD = GameRecord(game="risk", seed=1, seats=[])


async def test_the_kept_pictures_stay_within_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replays, "frames", lambda _record: [object()])  # one turn; no moves replayed
    made: list[int] = []

    def animator(_frames: Sequence[Frame], max_bytes: int) -> Replay:
        made.append(max_bytes)
        return Replay(gif=b"G" * max_bytes, turns=1, shown=1, step=1, width=800, shrunk=False)

    async def record() -> GameRecord:
        return RECORD

    kept = Replays(animator, cache_bytes=100)

    async def replay(game: int, size: int = 40) -> Replay | None:
        return await kept.replay(None, (game, 1), record, size)

    first = await replay(1)
    await replay(2)
    assert await replay(1) is first and len(made) == 2, "a picture already made is reused"
    await replay(3)  # 120 bytes: the least recently used (game 2) goes
    assert len(made) == 3
    assert await replay(1) is first and await replay(3) is not None and len(made) == 3
    await replay(2)
    assert len(made) == 4, "game 2 was dropped, so it is made again"
    await replay(4, size=101)
    await replay(4, size=101)
    assert len(made) == 6, "a picture bigger than the cache is never kept"
    assert await replay(2) is not None and len(made) == 6, "and it did not push the others out"
