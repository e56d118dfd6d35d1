"""Risk's /risk commands in the reader's language: a member reads the territories' names in his own language, and
may type them in any language the bot speaks (a stub Korean catalogue of a few names)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.games.risk import names
from tests.cogs.conftest import put_state, refused
from tests.cogs.test_risk import scenario, three_players
from tests.discord.harness import DispatchHarness
from tests.texts import stub_catalogues

KOREAN = {"risk.name.territory.alaska": "알래스카", "risk.name.territory.alberta": "앨버타",
          "risk.name.territory.kamchatka": "캄차카", "risk.name.territory.northwest_territory": "노스웨스트 준주",
          "risk.name.continent.north_america": "북아메리카"}


@pytest.fixture
def korean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(names, "_KEYS", {})
    monkeypatch.setattr(names, "_NAMES", {})
    with stub_catalogues(tmp_path, monkeypatch, {"ko": KOREAN}):
        yield


@pytest.mark.usefixtures("korean")
async def test_a_territory_is_typed_and_shown_in_the_members_language(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, them = base.players[0].id, base.players[1].id
    await put_state(h, scenario(base, owner={"alaska": me, "kamchatka": them, "alberta": them},
                                armies={"alaska": 4}))
    info = await h.slash("risk", "territory", options={"name": "알래스카"}, user=members[1], locale="ko")
    assert info.content.startswith("**알래스카** (북아메리카)") and "캄차카" in info.content, info.content
    assert "Alaska" not in info.content and "Kamchatka" not in info.content
    english = await h.slash("risk", "territory", options={"name": "알래스카"}, user=members[1])
    assert english.content.startswith("**Alaska** (North America)"), english.content
    refused(await h.slash("risk", "attack", options={"source": "앨버타", "target": "알래스카"}, user=members[0],
                          locale="ko"), "앨버타")
    attacked = await h.slash("risk", "attack", options={"source": "알래스카", "target": "캄차카"}, user=members[0])
    assert attacked.posts and "Alaska → Kamchatka" in attacked.said, attacked.said


@pytest.mark.usefixtures("korean")
async def test_autocomplete_shows_the_members_language_and_finds_any(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, them = base.players[0].id, base.players[1].id
    await put_state(h, scenario(base, owner={"alaska": me, "kamchatka": them, "alberta": me,
                                             "northwest_territory": me}, armies={"alaska": 4, "alberta": 4}))
    korean = await h.autocomplete("risk", "attack", options={"source": "알"}, focused="source", user=members[0],
                                  locale="ko")
    assert [(c["name"], c["value"]) for c in korean] == [("알래스카", "alaska")], korean
    typed = await h.autocomplete("risk", "attack", options={"source": "알래"}, focused="source", user=members[0])
    assert [(c["name"], c["value"]) for c in typed] == [("Alaska", "alaska")], typed
