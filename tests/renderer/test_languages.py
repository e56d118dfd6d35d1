"""Every game's board in Korean, Russian and German: drawn in the language, every letter a real glyph (no box),
and no label running off the picture (the longest German and Russian words included)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.core.models import Seat
from engine.core.play import play_out
from engine.games import get, specs
from renderer import draw, has_board, render_board

SCRIPTS = {"ko": re.compile(r"[\uac00-\ud7a3]"), "ru": re.compile(r"[а-яё]", re.I), "de": re.compile(r"[äöüß]", re.I)}
"""A letter only the language's own words have (German: an umlaut somewhere on the board)."""
NAMES = ("민지", "Аня", "Jörg", "Zoë")


@pytest.mark.parametrize("language", sorted(SCRIPTS))
@pytest.mark.parametrize("game", [s.name for s in specs() if has_board(s.name)])
def test_the_board_speaks_the_language_in_real_glyphs(game: str, language: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[str, Any]] = []
    outside: list[str] = []
    original = draw.Canvas.text

    def text(self: Any, at: Any, content: str, face: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append((content, face))
        box = original(self, at, content, face, *args, **kwargs)
        x0, y0, x1, y1 = box
        if content and not (x0 >= 0 and y0 >= 0 and x1 <= self.img.width and y1 <= self.img.height):
            outside.append(content)
        return box

    monkeypatch.setattr(draw.Canvas, "text", text)
    ruleset = get(game)
    seats = [Seat(id=100 + k, name=name) for k, name in enumerate(NAMES)]
    state, _ = ruleset.new_game(seats, ruleset.options_model(), 4)
    policies = {s.id: ruleset.policy("baseline") for s in seats}
    state, _ = play_out(ruleset, state, policies, 4, max_actions=120)
    png = render_board(ruleset.view(state, None), [], locale=language)
    assert png.startswith(b"\x89PNG")
    boxes = {(content, ch) for content, face in drawn for ch in content
             if not ch.isspace() and face.face_for(ch) is None}
    assert not boxes, f"drawn as the missing-glyph box: {sorted(boxes)[:10]}"
    assert not outside, f"running off the picture: {outside}"
    own = [content for content, _ in drawn if SCRIPTS[language].search(content)]
    assert len(own) >= 5, f"the board is hardly in {language}: {[c for c, _ in drawn][:20]}"
