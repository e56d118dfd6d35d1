"""`/game replay` through discord.py's dispatch: within the interaction's upload limit, saying what it left out,
drawn in a worker thread one replay at a time per server, and a finished game's picture made once."""

from __future__ import annotations

import asyncio
import io
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from PIL import Image

from engine import replays
from engine.core.models import Seat
from engine.core.record import GameRecord
from engine.replays import Animator, Frame, Replay
from engine.service import GameService
from tests.cogs.conftest import channel_id, state_of
from tests.discord.harness import DispatchHarness

SMALL = 200_000
"""An upload limit far below any Discord server's, so that a test game is over it."""
TINY = 60_000
"""Too small for even the first and last board at the usual size."""


async def ai_game(h: DispatchHarness, seed: int, channel: dict[str, Any] | None = None) -> int:
    """A Risk game of three AI seats in `channel`, played out at once; how many turns it had."""
    service: GameService = h.bot.service  # type: ignore[attr-defined]
    service.seed_source = lambda: seed
    seats = [Seat(id=k, name=f"AI {k}", ai=True) for k in (1, 2, 3)]
    where = channel_id(h, channel)
    await service.new_game(where, int(h.world.guild_id), seats[0], "risk", {"setup": "random_deal"})
    for seat in seats[1:]:
        await service.join(where, seat)
    await service.start(where, seats[0].id)
    state = await state_of(h, channel=channel)
    assert state.winner is not None
    return state.turn


class Spy:
    """The bot's animator, watched: how many pictures it drew, on which threads, how many at once; with `hold`,
    each drawing waits until the test releases it (or gives up after a while: the loop was blocked). `wake` is
    called from the drawing thread once it has begun."""

    def __init__(self, animator: Animator, wake: Callable[[], None], hold: bool = False) -> None:
        self.animator = animator
        self.wake = wake
        self.threads: list[int] = []
        self.running = self.most = 0
        self.released: list[bool] = []
        self.entered = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()
        self._count = threading.Lock()

    def __call__(self, frames: Sequence[Frame], max_bytes: int) -> Replay | None:
        with self._count:
            self.threads.append(threading.get_ident())
            self.running += 1
            self.most = max(self.most, self.running)
        self.entered.set()
        self.wake()
        self.released.append(self.release.wait(timeout=10))
        try:
            return self.animator(frames, max_bytes)
        finally:
            with self._count:
                self.running -= 1


def watch(h: DispatchHarness, hold: bool = False) -> Spy:
    """Put a Spy round the bot's animator; it wakes the harness's `wait_until` when a drawing begins."""
    service: GameService = h.bot.service  # type: ignore[attr-defined]
    loop = asyncio.get_running_loop()
    replays = service._replays
    spy = Spy(replays.animator, lambda: loop.call_soon_threadsafe(h.api.notify), hold)  # type: ignore[arg-type]
    replays.animator = spy
    return spy


async def test_a_long_games_replay_fits_the_upload_limit_and_says_what_it_left_out(h: DispatchHarness) -> None:
    turns = await ai_game(h, seed=4)
    result = await h.slash("game", "replay", user=h.add_member("Spectator"), attachment_size_limit=SMALL)
    [upload] = result.files  # the fake, like Discord, refuses a file over the interaction's limit
    assert upload.filename == "replay.gif" and len(upload.data) <= SMALL
    said = re.fullmatch(r"Showing (\d+) of (\d+) turns: one turn in (\d+), and the last\.", result.content)
    assert said is not None, result.content
    shown, total, step = map(int, said.groups())
    assert total == turns and 2 <= shown < turns and step > 1
    assert Image.open(io.BytesIO(upload.data)).n_frames == shown
    whole = await h.slash("game", "replay")
    assert whole.content == "The game so far, one frame per turn."
    assert Image.open(io.BytesIO(whole.files[0].data)).n_frames == turns
    tiny = await h.slash("game", "replay", attachment_size_limit=TINY)
    assert tiny.content.startswith("Showing 2 of ")
    assert re.search(r"\nThe pictures are \d+ pixels wide, smaller than usual, to fit this server's upload limit\.$",
                     tiny.content), tiny.content
    assert len(tiny.files[0].data) <= TINY
    too_small = await h.slash("game", "replay", attachment_size_limit=2000)
    [answer] = too_small.followups  # in place of the removed "thinking…" placeholder
    assert answer.ephemeral and answer.files == []
    assert answer.content == "⚠️ Even the smallest replay of this game is over this server's upload limit (1 KB)."


async def test_the_moves_are_replayed_and_drawn_off_the_event_loop(h: DispatchHarness,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    await ai_game(h, seed=4)
    loop_thread = threading.get_ident()
    spy = watch(h, hold=True)
    replayed: list[int] = []
    replay_moves = replays.frames

    def frames(record: GameRecord) -> list[Frame]:
        replayed.append(threading.get_ident())
        return replay_moves(record)

    monkeypatch.setattr(replays, "frames", frames)
    movie = await h.slash("game", "replay", wait=False)
    await h.api.wait_until(spy.entered.is_set, what="the replay to be drawn")
    status = await h.slash("game", "status")  # answered while the picture is still being drawn
    assert "AI 1" in status.said
    spy.release.set()
    await h.settle()
    assert spy.released == [True], "the drawing held the event loop, so nothing could release it"
    assert replayed and loop_thread not in replayed + spy.threads
    assert movie.files[0].filename == "replay.gif"


async def test_a_finished_games_replay_is_drawn_once_and_then_reused(h: DispatchHarness) -> None:
    await ai_game(h, seed=4)
    spy = watch(h)
    first = await h.slash("game", "replay")
    second = await h.slash("game", "replay", user=h.add_member("Spectator"))
    assert len(spy.threads) == 1
    assert second.files[0].data == first.files[0].data and second.content == first.content


async def test_replays_in_one_server_are_made_one_at_a_time(h: DispatchHarness) -> None:
    other = h.world.add_channel("other")
    await ai_game(h, seed=4)
    await ai_game(h, seed=2, channel=other)
    spy = watch(h, hold=True)
    first = await h.slash("game", "replay", wait=False)
    await h.api.wait_until(spy.entered.is_set, what="the first replay to be drawn")
    second = await h.slash("game", "replay", channel=other, wait=False)
    await h.api.wait_until(lambda: second.response is not None and not second.response.loading,
                           what="the second replay's note")
    assert second.content == "⏳ Another replay is being made in this server; yours comes right after it."
    assert len(spy.threads) == 1, "the second waits for the first before it starts"
    spy.release.set()
    await h.settle()
    assert len(spy.threads) == 2 and spy.most == 1
    assert [m.files[0].filename for m in (first.response, second.followups[0])] == ["replay.gif", "replay.gif"]
