"""A game's replay as an animated GIF: the board once each turn is over, at chat size, within a byte limit.

A frame is the board drawn on its palette canvas (never encoded as a PNG), scaled down and mapped back to the
board's own palette. Every frame thus shares one palette, and a later frame stores only the pixels that changed
(the rest transparent). Frames are drawn and written one at a time, so a replay holds two boards, not all of them.

At most MAX_FRAMES boards are drawn: every k-th turn from the first, and always the last. While the picture is
over the limit, a larger k is tried; only when even the first and the last board are too big do the frames get
narrower.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import NamedTuple

from PIL import GifImagePlugin, Image, ImageChops

from engine.core.errors import RuleError
from engine.replays import Frame, Replay
from renderer import draw_board

FRAME_MS = 700
LAST_FRAME_MS = 3000
MAX_FRAMES = 120
"""The most boards one replay draws: drawing, scaling and encoding one takes 10–15 ms (benchmarks/replay.py)."""
SHRINK = (2, 3, 4)
"""How many times smaller than the board (1600 px wide) a frame is: the first, unless not even two such frames
fit the limit."""


def replay_gif(frames: Sequence[Frame], max_bytes: int) -> Replay:
    """The boards of `frames` (state, that turn's public events) as a looping GIF of at most `max_bytes`; the
    final board lingers. Raises E_REPLAY_TOO_BIG when not even two of the smallest frames fit."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    step = 1
    while len(_indices(len(frames), step)) > MAX_FRAMES:
        step += 1
    for shrink in SHRINK:
        while True:
            chosen = _indices(len(frames), step)
            written = _gif([frames[k] for k in chosen], shrink, max_bytes)
            if written.gif is not None:
                return Replay(gif=written.gif, turns=len(frames), shown=written.frames, step=step,
                              width=written.width, shrunk=shrink != SHRINK[0])
            if len(chosen) <= 2:
                break
            projected = written.size * len(chosen) / written.frames  # the bytes grow about as the frames do
            step = min(len(frames) - 1, max(step + 1, int(step * projected / max_bytes) + 1))
    raise RuleError("E_REPLAY_TOO_BIG", kb=max_bytes // 1024)


def _indices(count: int, step: int) -> list[int]:
    """Every `step`-th index from the first, and the last one."""
    chosen = list(range(0, count, step))
    if chosen[-1] != count - 1:
        chosen.append(count - 1)
    return chosen


class _Written(NamedTuple):
    gif: bytes | None
    """None when writing stopped at the first frame that took it over the limit."""
    frames: int
    """How many frames were written."""
    size: int
    width: int


def _gif(frames: Sequence[Frame], shrink: int, max_bytes: int) -> _Written:
    """A looping GIF of the boards, `shrink` times smaller, unless it would be over `max_bytes`."""
    out = io.BytesIO()
    previous: Image.Image | None = None
    for count, frame in enumerate(frames, start=1):
        image, clear = _frame(frame, shrink)
        ms = LAST_FRAME_MS if count == len(frames) else FRAME_MS
        if previous is None:
            header, _ = GifImagePlugin.getheader(image, info={"loop": 0})
            out.write(b"".join(header))
            out.write(b"".join(GifImagePlugin.getdata(image, duration=ms, disposal=1)))
        else:
            out.write(b"".join(_changes(previous, image, clear, ms)))
        if out.tell() + 1 > max_bytes:  # with the trailer
            return _Written(None, count, out.tell(), image.width)
        previous = image
    out.write(b";")  # the trailer
    return _Written(out.getvalue(), len(frames), out.tell(), image.width)


def _frame(frame: Frame, shrink: int) -> tuple[Image.Image, int]:
    """One board, `shrink` times smaller, in the board's own palette; and an index that palette leaves free."""
    canvas = draw_board(*frame)
    image = canvas.img.convert("RGB").reduce(shrink)
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in canvas.palette.colours for v in colour])
    return image.quantize(palette=palette, dither=Image.Dither.NONE), len(canvas.palette.colours)


def _changes(previous: Image.Image, image: Image.Image, clear: int, ms: int) -> list[bytes]:
    """The GIF frame that turns `previous` into `image`: the box around what changed, the rest of it see-through
    (`clear` is an index no board pixel uses)."""
    changed = ImageChops.subtract_modulo(image, previous)
    box = changed.getbbox() or (0, 0, 1, 1)
    part = image.crop(box)
    if clear == 256:  # a full palette: the box is written whole
        return GifImagePlugin.getdata(part, offset=box[:2], duration=ms, disposal=1)
    part.paste(clear, mask=changed.crop(box).point([255] + [0] * 255, "1"))
    return GifImagePlugin.getdata(part, offset=box[:2], duration=ms, disposal=1, transparency=clear)
