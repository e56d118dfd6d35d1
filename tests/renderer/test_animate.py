"""The replay GIF: one frame per turn, the first and last always kept, and within the upload limit."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.core.models import Seat
from engine.core.play import play_out
from engine.games.risk import RULESET, RiskOptions
from renderer import animate


def frames(turns: int) -> list[tuple[object, list[object]]]:
    """A real game's boards at several moments (the same few states repeated stand in for a long game)."""
    seats = [Seat(id=i, name=f"P{i}", ai=True) for i in (1, 2, 3)]
    state, _ = RULESET.new_game(seats, RiskOptions(setup="random_deal"), 5)
    seen = [state]
    policies = {s.id: RULESET.policy("random") for s in seats}
    play_out(RULESET, state, policies, 5, max_actions=300, on_step=lambda s, _a, _n, _e: seen.append(s))
    return [(seen[k * len(seen) // turns], []) for k in range(turns)]


def test_one_frame_per_turn_when_it_fits() -> None:
    gif = Image.open(io.BytesIO(animate.replay_gif(frames(6))))  # type: ignore[arg-type]
    assert gif.n_frames == 6 and gif.width == animate.FRAME_WIDTH


def test_a_replay_too_big_for_discord_keeps_every_kth_turn_and_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    turns = frames(9)
    whole = animate.replay_gif(turns)  # type: ignore[arg-type]
    monkeypatch.setattr(animate, "MAX_BYTES", len(whole) // 2)
    small = animate.replay_gif(turns)  # type: ignore[arg-type]
    assert len(small) <= len(whole) // 2
    gif = Image.open(io.BytesIO(small))
    assert 2 <= gif.n_frames < 9
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB").tobytes()
    ending = Image.open(io.BytesIO(animate._encode([animate._scaled(animate.render_board(turns[-1][0], []))])))
    assert ending.convert("RGB").tobytes() == last  # the final position is always the last frame
