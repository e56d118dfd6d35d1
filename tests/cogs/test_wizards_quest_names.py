"""Wizard's Quest's /wq commands in the reader's language: a member reads the names of castles and cards in his
own language, and may type them (and his treasures) in any language the bot speaks (stub Russian and Korean
names of a few things)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core import i18n
from engine.games.wizards_quest import RULESET, names
from engine.games.wizards_quest.state import Phase
from tests.cogs.conftest import put_state
from tests.cogs.test_wizards_quest import advance, member, scenario, three, wq_state
from tests.discord.harness import DispatchHarness
from tests.texts import stub_catalogues

STUBS = {"ru": {"wq.name.castle.C1": "Северный Дозор", "wq.name.card.levy": "Ополчение"},
         "ko": {"wq.name.castle.C1": "북쪽파수", "wq.name.card.levy": "징집"}}


@pytest.fixture
def stubs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(names, "_KEYS", {})
    with stub_catalogues(tmp_path, monkeypatch, STUBS):
        yield


@pytest.mark.usefixtures("stubs")
async def test_cards_and_castles_are_shown_in_the_members_language_and_typed_in_any(h: DispatchHarness) -> None:
    members, base = await three(h)
    me = base.players[0].id
    ada = member(members, me)
    await put_state(h, scenario(base, phase=Phase.PETITION, owner={"C1": me}, hands={me: ["levy-1"]},
                                boats={me: ["levy-2"]}))
    hand = await h.slash("wq", "hand", user=ada, locale="ru")
    assert hand.content.count("Ополчение") == 2 and "Levy" not in hand.content, hand.content
    castles = await h.autocomplete("wq", "place", options={"location": "북쪽"}, focused="location", user=ada)
    assert [(c["name"], c["value"]) for c in castles] == [("C1 Northwatch", "C1")], castles
    russian = await h.autocomplete("wq", "place", options={"location": "C1"}, focused="location", user=ada,
                                   locale="ru")
    assert [c["name"] for c in russian] == ["C1 Северный Дозор"], russian
    played = await h.slash("wq", "play", options={"card": "징집"}, user=ada)
    assert "plays Levy" in played.said and "levy-1" not in (await wq_state(h)).hands[me]


@pytest.mark.usefixtures("stubs")
async def test_a_treasure_is_typed_by_its_name_in_any_language(h: DispatchHarness) -> None:
    members, s = await three(h)
    s = await put_state(h, advance(s, Phase.SETUP_HIDE))
    me = member(members, s.current)
    duty = next(t for t in s.treasures if t.hider == s.current and t.location is None)
    spot = RULESET.choices(s, s.current, "hide.territory", treasure=f"{duty.owner}:{duty.kind}")[0].value
    owner = s.player(duty.owner).name  # type: ignore[union-attr]
    typed = f"{owner} {i18n.translate(f'wq.treasure.{duty.kind}', 'ko')}"
    hidden = await h.slash("wq", "hide", options={"treasure": typed, "territory": spot}, user=me)
    assert f"hides {owner}'s {duty.kind.capitalize()} in {spot}" in hidden.said, hidden.said
