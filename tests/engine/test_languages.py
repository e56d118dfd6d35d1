"""Which language a game speaks: the host's choice, else the server's, else Discord's preferred locale; its posts
and board speak it, and the host may change it."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.core.i18n import translate
from engine.service import GameService
from tests.engine.test_service import ALICE, BOB, CHANNEL, OTHER, THIRD, code_of, seat

GUILD = 1


async def language_of(service: GameService, channel: int) -> str:
    post = await service.next_post(channel)
    assert post is not None
    return post.post.language


async def test_a_game_speaks_its_hosts_choice_else_the_servers_else_discords(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, seat(ALICE), "risk", {}, server_language="ko")
    assert await language_of(service, CHANNEL) == "ko", "Discord's preferred locale of the server"
    await service.set_server_language(GUILD, "de")
    await service.new_game(OTHER, GUILD, seat(BOB), "risk", {}, server_language="ko")
    assert await language_of(service, OTHER) == "de", "the server's own choice comes before Discord's"
    await service.new_game(THIRD, GUILD, seat(ALICE + 5), "risk", {}, language="ru", server_language="ko")
    assert await language_of(service, THIRD) == "ru", "the host's choice comes first"
    assert await service.store.guild_language(GUILD) == "de"


async def test_an_unsupported_locale_reads_english(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, seat(ALICE), "risk", {}, server_language="pt-BR")
    assert await language_of(service, CHANNEL) == "en"


async def test_the_host_changes_the_language_and_the_post_speaks_the_new_one(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, seat(ALICE), "risk", {})
    await service.join(CHANNEL, seat(BOB))
    assert await code_of(service.set_language(CHANNEL, BOB, False, "ru")) == "E_NOT_HOST"
    assert await code_of(service.set_language(CHANNEL, ALICE, False, "en")) == "E_SAME_LANGUAGE"
    assert await code_of(service.set_language(CHANNEL, ALICE, False, "xx")) == "E_UNKNOWN_LANGUAGE"
    assert (await service.live(CHANNEL)).lobby["language"] == "en", "a refusal changes nothing"
    await service.set_language(CHANNEL, ALICE, False, "ru")
    game = await service.live(CHANNEL)
    assert game.lobby["language"] == "ru"
    posts = []
    while (queued := await service.next_post(CHANNEL)) is not None:
        posts.append(queued.post)
        await service.post_delivered(queued, [1])
    assert posts[-1].language == "ru"
    assert posts[-1].messages == [translate("lobby.language", "ru", player=f"<@{ALICE}>",
                                            language=translate("language.ru", "ru"))]
    assert "язык" in posts[-1].messages[0]


async def test_a_started_game_tells_its_moves_in_its_language(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, seat(ALICE), "risk", {"setup": "random_deal"}, language="de")
    await service.join(CHANNEL, seat(BOB))
    await service.add_ai(CHANNEL, ALICE)
    await service.start(CHANNEL, ALICE)
    posts = []
    while (queued := await service.next_post(CHANNEL)) is not None:
        posts.append(queued.post)
        await service.post_delivered(queued, [1])
    assert {p.language for p in posts} == {"de"}
    started = "\n".join(posts[-1].messages)
    assert "beginnt" in started or "Spiel" in started, started


async def test_the_lobby_names_its_options_as_new_offers_them_in_the_games_language(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, seat(ALICE), "risk", {"mode": "secret_mission"}, language="ko")
    post = await service.next_post(CHANNEL)
    assert post is not None
    said = post.post.messages[0]
    shown = f"{translate('cmd.new.risk.mode.name', 'ko')}: {translate('cmd.choice.secret_mission', 'ko')}"
    assert shown in said and "secret_mission" not in said, said


async def test_a_posts_lines_pass_through_the_links_before_they_are_split(service: GameService) -> None:
    service.links = lambda line, language: line.replace("`/game join`", f"</game join:{language}>")
    await service.new_game(CHANNEL, GUILD, seat(ALICE), "risk", {})
    post = await service.next_post(CHANNEL)
    assert post is not None
    assert "</game join:en>" in post.post.messages[0] and "`/game join`" not in post.post.messages[0]


async def test_ai_seats_and_the_games_variant_are_named_in_the_games_language(service: GameService) -> None:
    await service.new_game(CHANNEL, GUILD, seat(ALICE), "risk", {"mode": "two_player"}, language="ru")
    await service.add_ai(CHANNEL, ALICE)
    game = await service.live(CHANNEL)
    assert game.lobby["seats"][1]["name"] == translate("lobby.ai_name", "ru", name="Ada") == "Ada (ИИ)"
    with pytest.raises(RuleError) as refused:
        await service.join(CHANNEL, seat(BOB))
    assert refused.value.code == "E_GAME_FULL"
    assert translate("cmd.choice.two_player", "ko") in refused.value.localized("ko")
    assert "two_player" in refused.value.localized("en")
