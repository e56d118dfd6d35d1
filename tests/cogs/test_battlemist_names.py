"""Battlemist's /bm commands in the reader's language: a member reads the names of regions, terrains, races and
the panel's options in his own language, and may type them in it (a stub Korean catalogue of a few names)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.games.battlemist import setup
from engine.games.battlemist.state import BMState, Phase
from tests.cogs.conftest import delivered, refused, start_game, state_of, uid
from tests.discord.harness import DispatchHarness
from tests.texts import stub_catalogues

KOREAN = {
    "bm.name.region.N05": "세 왕자",
    "bm.name.region.N06": "회색 숲",
    "bm.term.terrain.forest": "숲",
    "bm.region.facts": "지형: {terrain}; 이번 라운드 생산: {income}.",
    "bm.name.race.DAQ": "다칸의 기사단",
    "bm.name.race.ELF": "로타리아 엘프",
    "bm.name.race.DWA": "던와르 난쟁이",
    "bm.name.race.KHR": "크하르 야만족",
    "bm.name.race.ORC": "줄 오크",
    "bm.name.race.DRK": "암흑의 주인",
    "BM_E_UNKNOWN_REGION": "알 수 없는 지역이에요: \"{x}\".",
}
RACE_NAMES = {key.rsplit(".", 1)[1]: name for key, name in KOREAN.items() if key.startswith("bm.name.race.")}


@pytest.fixture
def korean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with stub_catalogues(tmp_path, monkeypatch, {"ko": KOREAN}, shipped=("en",)):
        yield


@pytest.mark.usefixtures("korean")
async def test_a_region_is_typed_and_shown_in_the_members_language(h: DispatchHarness) -> None:
    ada, _ = await start_game(h, "Ada", "Bo", game="battlemist")
    await delivered(h)
    shown = await h.slash("bm", "region", options={"region": "회색 숲"}, user=ada, locale="ko")
    assert shown.ephemeral and "N06 회색 숲" in shown.content and "지형: 숲;" in shown.content, shown.content
    english = await h.slash("bm", "region", options={"region": "회색 숲"}, user=ada)
    assert "N06 Greywood" in english.content and "Terrain forest;" in english.content, english.content
    refused(await h.slash("bm", "region", options={"region": "세 공주"}, user=ada, locale="ko"),
            '알 수 없는 지역이에요: "세 공주".')


@pytest.mark.usefixtures("korean")
async def test_a_race_is_drafted_by_its_name_in_any_language(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", game="battlemist", races="draft")
    state = await state_of(h, BMState)
    picker = setup.drafting(state)
    assert state.phase is Phase.DRAFT and picker is not None
    race = setup.free_races(state, picker)[0]
    member = next(m for m in members if uid(m) == picker)
    choices = await h.autocomplete("bm", "race", options={"race": RACE_NAMES[race][:2]}, focused="race",
                                   user=member, locale="ko")
    assert [c["value"] for c in choices] == [race], choices
    await h.slash("bm", "race", options={"race": RACE_NAMES[race]}, user=member, locale="ko")
    after = await state_of(h, BMState)
    assert after.player(picker).race == race  # type: ignore[union-attr]
    second = setup.drafting(after)
    assert second is not None and second != picker
    other = setup.free_races(after, second)[0]
    await h.slash("bm", "race", options={"race": other.lower()}, user=next(m for m in members if uid(m) == second))
    assert (await state_of(h, BMState)).player(second).race == other  # type: ignore[union-attr]
