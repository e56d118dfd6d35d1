"""The island's names in the reader's language: errors, narration, the text board and menus name castles,
regions, waters and cards by their catalogue ids, and a name typed in any language the bot speaks is found."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.i18n import words
from engine.games.wizards_quest import RULESET, names
from engine.games.wizards_quest import events as E
from engine.games.wizards_quest.names import resolve
from engine.games.wizards_quest.state import WQState
from engine.games.wizards_quest.text import narrate, text_board
from tests.engine.wizards_quest.helpers import P1, P2, Phase, play, position, rejects
from tests.texts import stub_catalogues

RUSSIAN = {"wq.name.castle.C1": "Северный Дозор", "wq.name.castle.C7": "Западная Мостовая Крепость",
           "wq.name.castle.C8": "Восточная Мостовая Крепость", "wq.name.region.1": "Морозная Марка",
           "wq.name.water.sea": "Море", "wq.name.card.levy": "Ополчение", "wq.name.card.forced_march": "Марш-бросок"}
KOREAN = {"wq.name.castle.C1": "북쪽파수", "wq.name.card.levy": "징집"}


@pytest.fixture
def catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The shipped catalogues, with stub Russian and Korean names of a few things; the name lookups rebuilt."""
    monkeypatch.setattr(names, "_KEYS", {})
    with stub_catalogues(tmp_path, monkeypatch, {"ru": RUSSIAN, "ko": KOREAN}):
        yield


def attack(**kw: Any) -> WQState:
    return position(2, owner={"1.1": P1, "1.4": P1, "1.2": P2, "C1": P1}, **kw)


@pytest.mark.usefixtures("catalogues")
def test_rule_errors_name_waters_regions_castles_and_cards_in_the_readers_language() -> None:
    sea = rejects(attack(), ("attack", P1, {"source": "1.1", "target": "2.2"}), "WQ_VAL_23_BOAT")
    assert "Море" in sea.localized("ru") and "Sea" not in sea.localized("ru")
    assert sea.localized("en").endswith("A Boat Privilege could cross the Sea.")
    region = rejects(attack(mage="1.3"), ("attack", P1, {"source": "1.1", "target": "1.2"}), "WQ_VAL_25")
    assert "Морозная Марка" in region.localized("ru")
    march = rejects(attack(phase=Phase.PETITION, hands={P1: ["forced_march-1"]}),
                    ("play", P1, {"card": "march", "location": "1.1", "to": "6.6", "count": 1}),
                    "WQ_VAL_13_MARCH_PATH")
    assert march.localized("ru").startswith("Марш-бросок")
    with pytest.raises(RuleError) as ambiguous:
        resolve("bridge")
    assert "C7 Западная Мостовая Крепость" in ambiguous.value.localized("ru")
    assert "C7 West Bridge Keep" in ambiguous.value.localized("en")


@pytest.mark.usefixtures("catalogues")
def test_a_castle_or_a_card_typed_in_any_language_is_found() -> None:
    assert resolve("북쪽파수") == "C1" and resolve("северный") == "C1" and resolve("Northwatch") == "C1"
    s = position(2, owner={"1.1": P1}, phase=Phase.PETITION, hands={P1: ["levy-1"]})
    for typed in ("징집", "ополч", "levy"):
        after, events = play(s, ("play", P1, {"card": typed}))
        assert any(isinstance(e, E.CardPlayed) for e in events) and "levy-1" not in after.hands[P1]


@pytest.mark.usefixtures("catalogues")
def test_menus_narration_and_the_text_board_speak_the_readers_language() -> None:
    s = position(2, owner={"1.1": P1, "C1": P1}, phase=Phase.PETITION, hands={P1: ["levy-1"]})
    castle = next(c for c in RULESET.choices(s, P1, "place.location") if c.value == "C1")
    assert words(castle.label, "ru") == "C1 Северный Дозор" and words(castle.label, "en") == "C1 Northwatch"
    assert "북쪽파수" in castle.aliases
    card = RULESET.choices(s, P1, "play.card")[0]
    assert words(card.label, "ru").startswith("Ополчение") and "징집" in card.aliases
    played = E.CardPlayed(player=P1, card="levy-1", immediate=False, to_boat=False)
    assert "Ополчение" in (narrate(played, s, RULESET.data, "ru") or "")
    assert narrate(played, s, RULESET.data) == "Player1 plays Levy."
    board = text_board(s, RULESET.data, "ru")
    assert "Морозная Марка" in board and "C1 Северный Дозор" in board and "(красный," in board
    assert "Region 1: Frostmarch" in text_board(s, RULESET.data) and "(red, in play)" in text_board(s, RULESET.data)


def test_the_winner_of_a_game_nobody_won_is_worded_in_the_readers_language() -> None:
    s = position(2, owner={"1.1": P1}, phase=Phase.GAME_OVER, homes=False)
    err = rejects(s, ("end", P1), "WQ_VAL_40")
    assert "nobody won" in err.localized("en") and "nobody" not in err.localized("ru")
