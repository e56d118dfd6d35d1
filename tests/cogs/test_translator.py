"""The command tree in four languages: every name, description and choice localized from the catalogues, within
Discord's limits (the fake Discord refuses a tree that breaks them, as Discord does)."""

from __future__ import annotations

import json
import os

import discord
import pytest

from cogs.translator import CatalogueTranslator, english
from engine.core import i18n
from tests.discord.fakeapi import command_problems
from tests.discord.harness import DispatchHarness

COMMANDS = i18n.LOCALES_DIR / "en" / "commands.json"
OTHERS = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT_LOCALE]


def _walk(items: list[dict]) -> list[dict]:
    """Every command, group and option of a synced tree, depth first."""
    return [x for item in items for x in [item, *_walk(item.get("options") or [])]]


async def test_the_english_catalogue_of_commands_is_the_tree(h: DispatchHarness) -> None:
    """`commands.json` is made from the tree: after a command changes, `UPDATE_COMMANDS=1 pytest <this file>`."""
    made = english(h.bot.tree)
    if os.environ.get("UPDATE_COMMANDS"):
        COMMANDS.write_text(json.dumps(made, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert json.loads(COMMANDS.read_text(encoding="utf-8")) == made, "run UPDATE_COMMANDS=1 on this test"


async def test_every_command_and_option_is_named_in_every_language(h: DispatchHarness) -> None:
    synced = h.api.synced_commands()
    assert synced and not [p for c in synced for p in command_problems(c)]
    for item in _walk(synced):
        for language in OTHERS:
            assert item.get("name_localizations", {}).get(language), f"{item['name']} has no {language} name"
            assert item.get("description_localizations", {}).get(language), f"{item['name']}: no {language} text"
    game = next(c for c in synced if c["name"] == "game")
    assert game["description_localizations"]["ko"] == i18n.translate("cmd.game.description", "ko")
    new = next(c for c in synced if c["name"] == "new")
    risk = next(o for o in new["options"] if o["name"] == "risk")
    timer = next(o for o in risk["options"] if o["name"] == "timer")
    assert timer["description_localizations"]["ru"] == i18n.translate("lobby.option.timer", "ru")
    language = next(o for o in risk["options"] if o["name"] == "language")
    assert [c["name"] for c in language["choices"]] == ["English", "Deutsch", "Русский", "한국어"]
    assert all(not c.get("name_localizations") for c in language["choices"]), "a language keeps its own name"


async def test_a_locale_the_bot_does_not_speak_reads_english() -> None:
    translator = CatalogueTranslator()
    group = discord.app_commands.Group(name="game", description="Start, join and manage a game")
    context = discord.app_commands.TranslationContext(discord.app_commands.TranslationContextLocation.group_name,
                                                      group)
    name = discord.app_commands.locale_str("game")
    assert await translator.translate(name, discord.Locale.brazil_portuguese, context) is None
    assert await translator.translate(name, discord.Locale.american_english, context) is None
    assert await translator.translate(name, discord.Locale.korean, context) == i18n.translate("cmd.game.name", "ko")


@pytest.mark.parametrize("bad", [
    {"name": "Attack", "description": "x"},
    {"name": "a" * 33, "description": "x"},
    {"name": "attack", "description": ""},
    {"name": "attack", "description": "x", "name_localizations": {"ko": "공격 하기"}},
    {"name": "attack", "description": "x", "name_localizations": {"xx": "attack"}},
    {"name": "attack", "description": "x", "description_localizations": {"ru": "я" * 101}},
    {"name": "attack", "description": "x", "options": [
        {"type": 3, "name": "a", "description": "x", "name_localizations": {"de": "b"}},
        {"type": 3, "name": "b", "description": "x"}]},
    {"name": "attack", "description": "x", "options": [
        {"type": 3, "name": "a", "description": "x"}, {"type": 3, "name": "b", "description": "x", "required": True}]},
    {"name": "attack", "description": "x", "options": [
        {"type": 3, "name": "a", "description": "x", "choices": [{"name": "", "value": "v"}]}]},
    {"name": "attack", "description": "x", "options": [
        {"type": 3, "name": "a", "description": "x", "choices": [{"name": "c", "value": "v" * 100}] * 25}] * 2},
])
def test_the_fake_discord_refuses_what_discord_refuses(bad: dict) -> None:
    assert command_problems({"type": 1, **bad})


def test_the_fake_discord_takes_names_in_every_script() -> None:
    good = {"type": 1, "name": "attack", "description": "Attack",
            "name_localizations": {"ko": "공격", "ru": "атака", "de": "angriff-über"},
            "description_localizations": {"ko": "공격해요", "ru": "Атаковать", "de": "Angreifen"}}
    assert command_problems(good) == []


async def test_a_quoted_command_becomes_a_mention_each_reader_sees_in_their_language(h: DispatchHarness) -> None:
    ids = {c["name"]: c["id"] for c in h.api.synced_commands()}
    text = "Attack (`/risk attack`), join (`/game join`), `/new`, `/nothing here`, `/bm orders recruit|build`."
    assert h.bot.links(text) == (f"Attack (</risk attack:{ids['risk']}>), join (</game join:{ids['game']}>), "
                                 "`/new`, `/nothing here`, `/bm orders recruit|build`."), "groups and others stay"
    quoted = "`/risk attack source target` or `/bm battle casualties kills:… routs:…` or `/bm tile <tile> <q> <r>`"
    source, target, kills, tile = (i18n.translate(f"cmd.{key}.name", "ko") for key in (
        "risk.attack.source", "risk.attack.target", "bm.battle.casualties.kills", "bm.tile.tile"))
    assert h.bot.links(quoted, "ko") == (
        f"</risk attack:{ids['risk']}> `{source} {target}` or </bm battle casualties:{ids['bm']}> "
        f"`{kills}:… {i18n.translate('cmd.bm.battle.casualties.routs.name', 'ko')}:…` or "
        f"</bm tile:{ids['bm']}> `<{tile}> <q> <r>`"), "the options are named in the reader's language"
    await h.slash("new", "risk", user=h.add_member("Ada"))
    answer = await h.slash("board", user=h.add_member("Bo"), locale="ko")
    assert answer.ephemeral and answer.content.startswith("⚠️"), answer.content
    assert f"</game start:{ids['game']}>" in answer.content and "`/game start`" not in answer.content
