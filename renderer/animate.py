"""A game's replay as an animated GIF: one board per turn, scaled for chat."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TypeVar

from PIL import Image

from engine.core.models import Event, GameState
from renderer import render_board

T = TypeVar("T")
FRAME_WIDTH = 800
FRAME_MS = 700
LAST_FRAME_MS = 3000
MAX_FRAMES = 400
MAX_BYTES = 8 * 1024 * 1024
"""Discord's upload limit for a server without boosts is 10 MB; stay safely under it."""


def replay_gif(frames: Sequence[tuple[GameState, Sequence[Event]]]) -> bytes:
    """The boards of `frames` (state, that turn's events) as a looping GIF; the final board lingers.

    A long game keeps every k-th turn, and always the first and the last, so the file fits `MAX_BYTES`.
    """
    if not frames:
        raise ValueError("a replay needs at least one frame")
    images = [_scaled(render_board(state, events)) for state, events in _every(frames, -(-len(frames) // MAX_FRAMES))]
    step = 1
    while True:
        gif = _encode(_every(images, step))
        if len(gif) <= MAX_BYTES or step >= len(images):
            return gif
        step *= 2


def _every(items: Sequence[T], step: int) -> list[T]:
    """Every `step`-th item, and the last one."""
    chosen = list(items[::step])
    if chosen[-1] is not items[-1]:
        chosen.append(items[-1])
    return chosen


def _encode(images: list[Image.Image]) -> bytes:
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return out.getvalue()


def _scaled(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(image.height * FRAME_WIDTH / image.width)
    return image.resize((FRAME_WIDTH, height), Image.Resampling.LANCZOS).quantize(colors=128, dither=Image.Dither.NONE)
