"""The Battlemist board picture in the reader's language: the race letters, region names and the names of races,
events and artifacts are the catalogue's of the locale the board is drawn for."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from engine.core import i18n
from engine.games.battlemist.state import Phase
from renderer import battlemist as bm
from tests.engine.battlemist.helpers import position
from tests.renderer.test_texts import drawn
from tests.texts import stub_catalogues

KOREAN = {
    "bm.board.letter.DAQ": "다",
    "bm.board.letter.ORC": "오",
    "bm.name.region.N12": "철봉우리",
    "bm.name.region.H-DAQ": "고국: 다칸의 기사단",
    "bm.name.region.H-ORC": "고국: 줄 오크",
    "bm.name.race.ORC": "줄 오크",
    "bm.name.event.EV2": "역병",
    "bm.name.artifact.AR1": "새벽의 검",
}


def _forget() -> None:
    """Drop what the renderer keeps of texts already drawn (letters, hex names, the map picture, badges)."""
    for kept in (i18n.catalogue, bm.race_looks, bm.name_lines, bm._map_picture, bm.badge, bm._blank):
        kept.cache_clear()


@pytest.fixture
def korean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The shipped English catalogue and a Korean one of a few names (the rest reads English)."""
    with stub_catalogues(tmp_path, monkeypatch, {"ko": KOREAN}, shipped=("en",)):
        _forget()
        yield
    _forget()


def drawn_board(locale: str) -> list[str]:
    state = position(("DAQ", "ORC"), phase=Phase.MOVEMENT, round=2, events=["EV2"], artifacts={1: ["AR1"]},
                     troops={"N12": {1: {"infantry": 2}}, "H-DAQ": {1: {"archers": 1}}})
    with drawn() as texts:
        png = bm.render(state, locale=locale)
    assert Image.open(io.BytesIO(png)).format == "PNG"
    return texts


@pytest.mark.usefixtures("korean")
def test_the_board_is_drawn_in_the_readers_language() -> None:
    texts = drawn_board("ko")
    assert {"다", "오", "철봉우리", "다칸의 기사단"} <= set(texts), "race letters and hex names in Korean"
    assert any("줄 오크" in t for t in texts) and any("새벽의 검" in t for t in texts)
    assert any("역병" in t for t in texts), "the round's event in the banner"
    assert not any(english in t for t in texts for english in ("Ironpeak", "Plague", "Zul Orcs", "Blade of Dawn",
                                                                "Homeland", "고국:"))
    assert bm.race_looks("ko")["DAQ"].letter == "다" and bm.race_looks()["DAQ"].letter == "K"


@pytest.mark.usefixtures("korean")
def test_the_english_board_keeps_its_english_names() -> None:
    texts = drawn_board("en")
    assert {"K", "O", "Ironpeak", "Knights of Daqan"} <= set(texts)
    assert any("Zul Orcs" in t for t in texts) and any("Plague" in t for t in texts)
    assert not any("다" in t or "철봉우리" in t for t in texts)
