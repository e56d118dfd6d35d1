"""The Risk board in the reader's language: territory and continent names from the catalogue, fitted to the map."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.games.risk import events as E
from renderer import risk
from renderer.fonts import font
from tests.renderer.test_texts import drawn, game
from tests.texts import stub_catalogues

KOREAN = {"risk.name.territory.alaska": "알래스카", "risk.name.territory.indonesia": "인도네시아",
          "risk.name.territory.kamchatka": "캄차카", "risk.name.continent.north_america": "북아메리카"}
RUSSIAN = {"risk.name.territory.great_britain": "Великобритания",
           "risk.name.territory.northwest_territory": "Северо-Западная территория",
           "risk.name.territory.central_america": "Центральная Америка"}


@pytest.fixture
def catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with stub_catalogues(tmp_path, monkeypatch, {"ko": KOREAN, "ru": RUSSIAN}):
        yield


@pytest.mark.usefixtures("catalogues")
def test_the_map_and_the_banner_name_territories_in_the_readers_language() -> None:
    battle = E.Battle(player=2, source="kamchatka", target="alaska", defender=1, attack_dice=[6, 2],
                      defence_dice=[3], attacker_losses=0, defender_losses=1)
    with drawn() as texts:
        risk.render(game(), [battle], locale="ko")
    joined = "\n".join(texts)
    assert "알래스카" in texts and "인도네시아" in texts and "Alaska" not in texts
    assert "북아메리카 +5" in texts, "the continent's label"
    assert "호주" in texts and "AU" not in texts, "the chip of a continent held"
    assert "캄차카 → 알래스카" in joined, "the last battle"
    with drawn() as english:
        risk.render(game(), [battle])
    assert "Alaska" in english and "North America +5" in english and "AU" in english


@pytest.mark.usefixtures("catalogues")
def test_a_longer_name_is_broken_and_shrunk_to_its_room() -> None:
    g = risk.board().geometry
    for tid, name in (("northwest_territory", "Северо-Западная территория"),
                      ("central_america", "Центральная Америка")):
        lines, size, room = risk._label(tid, name)
        assert "".join(lines).replace(" ", "").replace("-", "") == name.replace(" ", "").replace("-", "")
        assert max(font(size, bold=True).getlength(line) for line in lines) <= room.x1 - room.x0
        assert len(lines) * g.line_height * size / g.label_size <= room.y1 - room.y0
    lines, size, _ = risk._label("great_britain", "Великобритания")
    assert lines == ("Великобритания",) and size == risk.MIN_LABEL, "no letter is lost, even where it overflows"
    english = g.territories["great_britain"]
    assert risk._label("great_britain", "Great Britain") == (tuple(english.label.lines), g.label_size,
                                                             english.label.box)


@pytest.mark.parametrize("locale", ["de", "ru", "ko"])
def test_the_board_renders_in_every_language(locale: str) -> None:
    assert risk.render(game(), locale=locale).startswith(b"\x89PNG")
