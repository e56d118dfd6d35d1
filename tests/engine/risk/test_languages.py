"""The map's names in the reader's language: errors, narration, the text board and menus name territories by
their catalogue ids, and a name typed in any language the bot speaks finds its territory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core.errors import RuleError
from engine.core.i18n import words
from engine.games.risk import RULESET, names
from engine.games.risk.events import CardsTraded, Conquered
from engine.games.risk.names import resolve
from engine.games.risk.text import mission_text, narrate, text_board
from tests.engine.risk.helpers import BOARD, NEUTRAL, P1, P2, Phase, position, rejects
from tests.texts import stub_catalogues

RUSSIAN = {"risk.name.territory.alaska": "Аляска", "risk.name.territory.kamchatka": "Камчатка",
           "risk.name.territory.alberta": "Альберта", "risk.name.territory.siam": "Сиам",
           "risk.name.territory.eastern_united_states": "Восточные США",
           "risk.name.territory.western_united_states": "Западные США",
           "risk.name.territory.eastern_australia": "Восточная Австралия",
           "risk.name.territory.western_europe": "Западная Европа",
           "risk.name.territory.western_australia": "Западная Австралия",
           "risk.name.continent.north_america": "Северная Америка",
           "risk.name.mission.M01": "Захватите Северную Америку и Африку."}
KOREAN = {"risk.name.territory.alaska": "알래스카", "risk.name.territory.kamchatka": "캄차카"}


@pytest.fixture
def catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The shipped catalogues, with stub Russian and Korean names of a few things; the name lookups rebuilt."""
    monkeypatch.setattr(names, "_KEYS", {})
    monkeypatch.setattr(names, "_NAMES", {})
    with stub_catalogues(tmp_path, monkeypatch, {"ru": RUSSIAN, "ko": KOREAN}):
        yield


@pytest.mark.usefixtures("catalogues")
def test_a_rule_error_names_territories_and_neutral_in_the_readers_language() -> None:
    s = position(owner={"alaska": P1, "alberta": NEUTRAL}, phase=Phase.FORTIFY)
    err = rejects(s, ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1}), "E_NOT_OWNED")
    shown = err.localized("ru")
    assert "Альберта" in shown and "Alberta" not in shown and "Neutral" not in shown
    assert err.localized("en") == "You don't control Alberta — it belongs to Neutral."
    far = rejects(position(armies={"alaska": 5}, owner={"siam": P2}),
                  ("attack", P1, {"source": "alaska", "target": "siam"}), "E_NOT_ADJACENT")
    assert "Аляска" in far.localized("ru") and "Сиам" in far.localized("ru")


@pytest.mark.usefixtures("catalogues")
def test_suggestions_and_matches_are_named_in_the_readers_language() -> None:
    with pytest.raises(RuleError) as unknown:
        resolve("Alaskaa")
    assert "Аляска" in unknown.value.localized("ru")
    with pytest.raises(RuleError) as ambiguous:
        resolve("western")
    assert "Западная Европа" in ambiguous.value.localized("ru")
    assert "Western Europe" in ambiguous.value.localized("en")


@pytest.mark.usefixtures("catalogues")
def test_a_name_typed_in_any_language_finds_its_territory() -> None:
    assert resolve("알래스카") == "alaska"
    assert resolve("캄차") == "kamchatka", "a prefix of a Korean name"
    assert resolve("аляска") == "alaska" and resolve("Восточная Австралия") == "eastern_australia"
    assert resolve("Alaska") == "alaska" and resolve("eastern canada") == "quebec"
    s = position(owner={"alaska": P1}, phase=Phase.REINFORCE, pool=3)
    after, _ = RULESET.apply(s, RULESET.parse_action({"type": "place", "player": P1, "territory": "알래스카"}))
    assert after.armies["alaska"] == s.armies["alaska"] + 1


@pytest.mark.usefixtures("catalogues")
def test_choices_are_labelled_in_the_readers_language_and_found_by_any_name() -> None:
    s = position(phase=Phase.REINFORCE, pool=3)
    alaska = next(c for c in RULESET.choices(s, P1, "place.territory") if c.value == "alaska")
    assert words(alaska.label, "ko") == "알래스카" and words(alaska.label, "en") == "Alaska"
    assert {"알래스카", "Аляска", "Alaska"} <= set(alaska.aliases)


@pytest.mark.usefixtures("catalogues")
def test_narration_the_text_board_and_the_mission_speak_the_readers_language() -> None:
    s = position(owner={"kamchatka": NEUTRAL}, phase=Phase.ATTACK, mode="secret_mission", missions={P1: "M01"})
    taken = Conquered(player=P1, source="alaska", target="kamchatka", previous_owner=NEUTRAL)
    line = narrate(taken, s, locale="ru") or ""
    assert "Камчатка" in line and "Нейтралы" in line and "Neutral" not in line
    traded = CardsTraded(player=P1, cards=["alaska", "siam", BOARD.wild_cards[0]], value=4, sets_traded=1)
    line = narrate(traded, s, locale="ru") or ""
    assert "Аляска, Сиам, Джокер" in line and "Wild" not in line
    assert "Alaska, Siam, Wild" in (narrate(traded, s) or "")
    board = text_board(s, locale="ru")
    assert "**Северная Америка** (+5)" in board and "Аляска — Player1 (Красный)" in board
    assert "Alaska — Player1 (Red)" in text_board(s)
    assert "Захватите Северную Америку и Африку." in mission_text(s, P1, "ru")
