"""The Wizard's Quest board in the reader's language: region names from the catalogue, letters and plurals that
follow the locale, and pieces drawn for one language never showing up in another's picture."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from renderer import wizards_quest as wq
from tests.renderer.test_wizards_quest import busy, drawn
from tests.texts import stub_catalogues

RUSSIAN = {"wq.name.region.1": "Морозная Марка", "wq.name.region.4": "Восточная Долина",
           "wq.board.orcs": "{n, plural, one {орк} few {орка} many {орков} other {орка}}",
           "wq.board.letter.dragon": "Д"}


@pytest.fixture
def catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with stub_catalogues(tmp_path, monkeypatch, {"ru": RUSSIAN}):
        yield


@pytest.mark.usefixtures("catalogues")
def test_region_names_the_dragons_letter_and_the_keys_orcs_follow_the_locale() -> None:
    with drawn() as texts:
        wq.render(busy(), locale="ru")
    joined = "\n".join(texts)
    assert "1 · Морозная Марка" in texts, "the region's tab"
    assert "Восточная Долина" in joined and "Eastvale" not in joined, "the protected region in the banner"
    assert "Д" in texts and "D" not in texts, "the Dragon's token"
    assert "орка" in texts and "орков" not in texts, "4 orcs on the key's frenzy stack: the few form"
    with drawn() as english:
        wq.render(busy())
    assert "1 · Frostmarch" in english and "D" in english and "orcs" in english


def test_a_picture_in_one_language_leaves_no_letters_in_the_next() -> None:
    state = busy()
    before = wq.render(state)
    for locale in ("de", "ru", "ko"):
        wq.render(state, locale=locale)
    assert wq.render(state) == before
