"""Every command's replies and a game's posts through real dispatch, in the pseudo-locale: a member whose client
speaks it and a game that speaks it read no plain ASCII word, so nothing bypasses the catalogues in the cogs (AI
seats keep their names, as players do)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import i18n
from engine.games import specs
from engine.service import lobby
from engine.service.lobby import AI_NAMES
from tests.cogs.conftest import channel_id, uid
from tests.discord.harness import DispatchHarness, InteractionResult
from tests.test_pseudo_locale import english

PSEUDO = i18n.PSEUDO_LOCALE
OWN = {"risk": [("risk", "hand"), ("risk", "mission"), ("risk", "help")],
       "wizards_quest": [("wq", "hand"), ("wq", "help")],
       "battlemist": [("bm", "hand"), ("bm", "choices"), ("bm", "help")]}
"""Each game's own views: hands, panels, help."""


@pytest.fixture(autouse=True)
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pseudo-locale is a language the bot speaks, for members and games alike."""
    monkeypatch.setattr(i18n, "LANGUAGES", (*i18n.LANGUAGES, PSEUDO))
    monkeypatch.setattr(lobby, "LANGUAGES", i18n.LANGUAGES)


@pytest.mark.parametrize("game", [s.name for s in specs()])
async def test_a_game_and_its_replies_in_the_pseudo_locale_hold_no_english(h: DispatchHarness, game: str) -> None:
    host, other = h.add_member("Ñáďá"), h.add_member("Ƀóŕíš")
    slug = next(s.slug for s in specs() if s.name == game)
    read: list[tuple[str, str]] = []

    async def ask(*path: str, member: dict[str, Any] = host, **options: Any) -> InteractionResult:
        result = await h.slash(*path, options=options or None, user=member, locale=PSEUDO)
        read.extend((" ".join(path), m.content) for m in [*result.messages, *result.posts] if not m.deleted)
        return result

    await h.slash("new", slug, user=host)  # announced in English: the game speaks the pseudo-locale from now on
    await h.bot.service.set_language(channel_id(h), uid(host), False, PSEUDO)  # type: ignore[attr-defined]
    await ask("game", "join", member=other)
    await ask("game", "add-ai")
    await ask("game", "status")
    await ask("game", "start")
    for path in (("game", "status"), ("board",), ("history",), ("stats",), *OWN[game]):
        await ask(*path)
    await ask("board", view="text")
    await ask("game", "abandon")  # asks to confirm: a private question
    await ask("game", "join")  # refused: already seated
    found = {(where, word): text for where, text in read for word in english(text) if word not in AI_NAMES}
    assert read and not found, "English a player reads: " + "; ".join(
        f"{word!r} in /{where}: {text[:140]!r}" for (where, word), text in list(found.items())[:12])
