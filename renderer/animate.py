"""A game's replay as an animated GIF: one board per turn, scaled for chat."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from engine.core.models import Event, GameState
from renderer import render_board

FRAME_WIDTH = 800
FRAME_MS = 700
LAST_FRAME_MS = 3000
MAX_FRAMES = 400
"""Longer games keep every k-th turn (and the last) so the file stays within Discord's upload limit."""


def replay_gif(frames: Sequence[tuple[GameState, Sequence[Event]]]) -> bytes:
    """The boards of `frames` (state, that turn's events) as a looping GIF; the final board lingers."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    step = -(-len(frames) // MAX_FRAMES)
    chosen = list(frames[::step])
    if chosen[-1] is not frames[-1]:
        chosen.append(frames[-1])
    images = [_scaled(render_board(state, events)) for state, events in chosen]
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return out.getvalue()


def _scaled(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(image.height * FRAME_WIDTH / image.width)
    return image.resize((FRAME_WIDTH, height), Image.Resampling.LANCZOS).quantize(colors=128, dither=Image.Dither.NONE)
