"""The replay GIF: one frame per turn while it fits; else every k-th turn and the last, then narrower frames, and
never over the byte limit."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image

from engine.core.errors import RuleError
from engine.core.models import Seat, to_json
from engine.core.play import play_out
from engine.core.record import GameRecord
from engine.games.risk import RULESET, RiskOptions
from engine.replays import Frame, frames
from renderer import animate
from renderer.risk import WIDTH

LIMIT = 10 * 1024 * 1024


@cache
def game() -> tuple[Frame, ...]:
    """The boards of a real AI game, one per turn, as the replay gets them."""
    seats = [Seat(id=i, name=f"P{i}", ai=True) for i in (1, 2, 3)]
    options = RiskOptions(setup="random_deal")
    state, _ = RULESET.new_game(seats, options, 5)
    _, actions = play_out(RULESET, state, {s.id: RULESET.policy("random") for s in seats}, 5)
    return tuple(frames(GameRecord(game="risk", seed=5, options=options.model_dump(mode="json"), seats=seats,
                                   actions=[to_json(a) for a in actions],
                                   schema_version=state.schema_version)))


def shown(gif: bytes) -> list[bytes]:
    """Each frame of the GIF as a viewer shows it (what the frames before left, with this one drawn over it)."""
    image = Image.open(io.BytesIO(gif))
    seen = []
    for k in range(image.n_frames):
        image.seek(k)
        seen.append(image.convert("RGB").tobytes())
    return seen


def board(frame: Frame, shrink: int = animate.SHRINK[0]) -> bytes:
    return animate._frame(frame, shrink)[0].convert("RGB").tobytes()


def test_one_frame_per_turn_when_it_fits() -> None:
    turns = game()[:6]
    made = animate.replay_gif(turns, LIMIT)
    assert (made.turns, made.shown, made.step, made.shrunk) == (6, 6, 1, False)
    assert Image.open(io.BytesIO(made.gif)).width == made.width == 800
    assert shown(made.gif) == [board(t) for t in turns], "each frame, drawn over the last, is that turn's board"


def test_a_long_game_shows_every_kth_turn_and_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(animate, "MAX_FRAMES", 4)
    turns = game()[:9]
    made = animate.replay_gif(turns, LIMIT)
    assert (made.turns, made.shown, made.step) == (9, 4, 3)
    assert shown(made.gif) == [board(turns[k]) for k in (0, 3, 6, 8)]


def test_a_picture_over_the_limit_keeps_fewer_turns_and_always_the_last() -> None:
    turns = game()[:12]
    whole = animate.replay_gif(turns, LIMIT)
    made = animate.replay_gif(turns, len(whole.gif) // 2)
    assert len(made.gif) <= len(whole.gif) // 2
    assert 2 <= made.shown < 12 and made.step > 1 and not made.shrunk
    frames = shown(made.gif)
    assert len(frames) == made.shown and frames[-1] == board(turns[-1])


def test_when_not_even_the_first_and_last_fit_the_frames_get_narrower() -> None:
    turns = game()[:12]
    two = animate.replay_gif(turns, LIMIT)
    made = animate.replay_gif(turns, len(animate.replay_gif([turns[0], turns[-1]], LIMIT).gif) - 1)
    assert made.shrunk and made.width < two.width and made.shown == 2
    assert shown(made.gif)[-1] == board(turns[-1], round(WIDTH / made.width))


def test_a_limit_too_small_for_any_picture_is_refused() -> None:
    with pytest.raises(RuleError) as info:
        animate.replay_gif(game()[:3], 2000)
    assert info.value.code == "E_REPLAY_TOO_BIG" and "1 KB" in info.value.message
