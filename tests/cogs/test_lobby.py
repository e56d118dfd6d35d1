"""The /game lobby commands and the /board and /history views through real dispatch."""

from __future__ import annotations

import re
from typing import Literal, get_args, get_origin

import pytest
from discord import app_commands

from engine.games import specs
from engine.table import CLOCK_OPTIONS
from tests.cogs.conftest import channel_id, refused, start_game, state_of, uid
from tests.discord.harness import DispatchHarness
from tests.discord.payloads import INTEGER, STRING, USER, Typed


@pytest.mark.rule("RISK-ERR-2", "RISK-ERR-3")
async def test_errors_are_private_and_successes_public(h: DispatchHarness) -> None:
    ada = h.add_member("Ada")
    opened = await h.slash("new", "risk", user=ada)
    assert opened.posts and "opened a game of **Risk**" in opened.said
    again = await h.slash("new", "risk", user=h.add_member("Bo"))
    refused(again, "This channel already has a game")


async def test_a_game_outside_the_choices_is_refused(h: DispatchHarness) -> None:
    """Discord offers only the registered games, but a payload may name any: it is refused, not a crash."""
    refused(await h.slash("new", "chess", user=h.add_member("Ada")), "I don't know that command")
    refused(await h.slash("new", "chess", options={"mode": "standard"}, user=h.add_member("Bo")),
            "I don't know that command")
    assert await h.bot.service.store.live_game(channel_id(h)) is None  # type: ignore[attr-defined]


@pytest.mark.rule("RISK-DIG-15", "RISK-DIG-16")
async def test_join_leave_and_host_only_commands(h: DispatchHarness) -> None:
    ada, bo = h.add_member("Ada"), h.add_member("Bo")
    await h.slash("new", "risk", options={"mode": "two_player"}, user=ada)
    joined = await h.slash("game", "join", options={"colour": "blue"}, user=bo)
    assert joined.posts and "joins the game (2 seated)" in joined.said
    refused(await h.slash("game", "join", user=bo), "You're already in this game")
    refused(await h.slash("game", "join", user=h.add_member("Cy")), "This game is full: two_player takes at most 2")
    refused(await h.slash("game", "add-ai", user=bo), "Only the host")
    refused(await h.slash("game", "start", user=bo), "Only the host")
    left = await h.slash("game", "leave", user=bo)
    assert "leaves the lobby" in left.said
    refused(await h.slash("game", "start", user=ada), "two_player needs 2 players (seated so far: 1)")


@pytest.mark.rule("RISK-DIG-16", "RISK-DIG-40")
async def test_start_seats_everyone_and_pings_the_first_decision(h: DispatchHarness) -> None:
    ada = h.add_member("Ada")
    await h.slash("new", "risk", options={"setup": "random_deal"}, user=ada)
    await h.slash("game", "add-ai", user=ada)
    added = await h.slash("game", "add-ai", user=ada)
    assert "(AI) joins the game" in added.said
    started = await h.slash("game", "start", user=ada)
    assert started.deferred and "begins" in started.said
    assert [f.filename for m in started.channel_messages for f in m.files] == ["board.png"]
    posted = " ".join(m.content for m in started.channel_messages)
    assert f"<@{uid(ada)}>" in posted, "the human is pinged when it is their decision"
    state = await state_of(h)
    assert {p.id for p in state.players} == {uid(ada), 1, 2}
    refused(await h.slash("game", "join", user=h.add_member("Late")), "already started")
    leaving = await h.slash("game", "leave", user=ada)  # ruling 8: during a game, leaving is resigning
    assert leaving.ephemeral and "Resign from this game?" in leaving.content
    assert uid(ada) in {p.id for p in (await state_of(h)).players if p.status == "active"}  # nothing yet


async def test_status_for_a_player_and_a_spectator(h: DispatchHarness) -> None:
    refused(await h.slash("game", "status"), "There is no game in this channel")
    members = await start_game(h, "Ada", "Bo", "Cy")
    status = await h.slash("game", "status", user=h.add_member("Spectator"))
    assert status.ephemeral and "**Risk** — running" in status.content
    assert "place" in status.said.lower(), "it says who must decide what"
    assert uid(members[0]) > 0


async def test_abandon_needs_host_or_moderator_and_a_confirmation(h: DispatchHarness) -> None:
    await start_game(h, "Ada", "Bo", "Cy")
    refused(await h.slash("game", "abandon", user=h.add_member("Stranger")), "Only the host")
    ask = await h.slash("game", "abandon", user=h.world.owner)  # a server admin may
    assert ask.ephemeral and "can't be undone" in ask.content
    confirm = next(c for c in ask.response.custom_ids())
    await h.button(confirm, user=h.world.owner, message=ask.response)
    service = h.bot.service  # type: ignore[attr-defined]
    assert await service.store.live_game(channel_id(h)) is None
    assert any("abandoned the game" in m.content for m in h.api.messages(h.world.channel["id"]))


@pytest.mark.rule("RISK-DIG-28", "RISK-DIG-37")
async def test_board_and_history_views(h: DispatchHarness) -> None:
    refused(await h.slash("board"), "There is no game in this channel")
    await start_game(h, "Ada", "Bo", "Cy")
    picture = await h.slash("board", user=h.add_member("Spectator"))
    assert picture.ephemeral and [f.filename for f in picture.files] == ["board.png"]
    assert picture.files[0].data.startswith(b"\x89PNG")
    text = await h.slash("board", options={"view": "text"})
    assert text.ephemeral and "**North America** (+5)" in text.content and " — " in text.content
    public = await h.slash("board", options={"view": "text", "public": True})
    assert not public.ephemeral
    history = await h.slash("history")
    assert history.ephemeral and "**History** — page 1 of 1" in history.content


async def test_option_values_the_command_does_not_declare_are_refused(h: DispatchHarness) -> None:
    """discord.py passes a payload's option values through unchecked (a client on an older schema can send a
    string for a number): they used to crash the command or, like days:true, be taken as 1."""
    members = await start_game(h, "Ada", "Bo", "Cy")
    ada = members[0]
    service = h.bot.service  # type: ignore[attr-defined]
    before = await service.store.live_game(channel_id(h))
    for command, options in ((("game", "deadline"), {"hours": Typed("2", STRING)}),
                             (("game", "kick"), {"player": Typed(uid(members[1]), INTEGER)}),
                             (("game", "kick"), {"player": Typed(str(uid(members[1])), USER)}),  # not resolved
                             (("game", "vacation"), {"days": True}),
                             (("risk", "territory"), {"name": 7}),
                             (("game", "vote"), {})):
        result = await h.slash(*command, options=options, user=ada)
        refused(result, f"can't use in `{next(iter(options), 'choice')}`")
    assert await service.store.live_game(channel_id(h)) == before
    quiet = h.world.add_channel("quiet")
    refused(await h.slash("new", "risk", options={"timer": Typed("x", STRING)}, user=ada, channel=quiet),
            "`timer`")
    assert await service.store.live_game(int(quiet["id"])) is None


async def test_a_name_is_shown_as_typed_never_read_as_a_message_or_markup(h: DispatchHarness) -> None:
    """A display name that looks like a message id, markup or a mention is shown literally (item 16 of #13)."""
    odd = h.add_member("@already_done")
    await h.slash("new", "risk", options={"setup": "random_deal"}, user=odd)
    await h.slash("game", "join", user=h.add_member("**Bold** <@1> @everyone"))
    await h.slash("game", "add-ai", user=odd)
    started = await h.slash("game", "start", user=odd)
    posted = "\n".join(m.content for m in started.channel_messages)
    assert "That was already done" not in posted
    assert "\\@already\\_done" in posted, "the name is escaped, so chat shows it as it was typed"
    assert "**Bold**" not in posted and "\\*\\*Bold\\*\\* \\<\\@1> \\@everyone" in posted


async def test_a_command_delivered_five_times_is_applied_once(h: DispatchHarness) -> None:
    """One /game add-ai re-delivered by the gateway five times adds one AI seat (item 6 of #13)."""
    ada = h.add_member("Ada")
    await h.slash("new", "risk", user=ada)
    payload = h.world.slash("game", "add-ai", user=ada, guild_command=h._is_guild_command("game"))
    first = await h.interact(payload)
    assert "(AI) joins the game" in first.said
    for _ in range(4):
        await h.interact(payload, raise_errors=False)
    game, _ = await h.bot.service.current(channel_id(h))  # type: ignore[attr-defined]
    assert len(game.lobby.seats) == 2


async def test_game_commands_are_for_servers_only(h: DispatchHarness) -> None:
    """Item 20 of #13: in a direct message, /new opened a lobby nobody could join."""
    ada = h.add_member("Ada")
    tree = {c.name: c for c in h.bot.tree.get_commands()}
    assert all(command.guild_only for command in tree.values()), [n for n, c in tree.items() if not c.guild_only]
    dm = h.world.dm_channel(ada)
    for command, path in (("new", ("risk",)), ("game", ("join",)), ("board", ()), ("stats", ()), ("risk", ("hand",))):
        answer = await h.slash(command, *path, user=ada, channel=dm)
        refused(answer, "not in direct messages")
    assert await h.bot.service.store.live_game(int(dm["id"])) is None  # type: ignore[attr-defined]


async def test_an_unknown_button_or_command_is_answered_privately(h: DispatchHarness) -> None:
    """Item 21 of #13: a button of an older bot version, or a stale command list, gets a clear private answer."""
    ada = h.add_member("Ada")
    opened = await h.slash("new", "risk", user=ada)
    payload = h.world.component("risk:retreat:7", message=opened.response.payload, user=ada)
    pressed = await h.interact(payload)
    assert pressed.ephemeral and "older version of the bot" in pressed.content
    stale = await h.slash("game", "teleport", user=ada, raise_errors=False)
    assert stale.ephemeral and "command list has changed" in stale.content
    assert not stale.tracebacks


async def test_every_command_and_option_description_starts_with_a_capital(h: DispatchHarness) -> None:
    def walk(command: object) -> list[tuple[str, str]]:
        found = [(getattr(command, "qualified_name", "?"), getattr(command, "description", ""))]
        found += [(f"{getattr(command, 'qualified_name', '?')} {p.name}", p.description)
                  for p in getattr(command, "parameters", [])]
        for sub in getattr(command, "commands", []):
            found += walk(sub)
        return found

    described = [item for command in h.bot.tree.get_commands() for item in walk(command)]
    assert described and not [(name, text) for name, text in described if text[:1].islower()]


async def test_new_has_one_subcommand_per_game_made_from_its_options_model(h: DispatchHarness) -> None:
    new = h.bot.tree.get_command("new")
    assert isinstance(new, app_commands.Group)
    assert sorted(c.name for c in new.commands) == sorted(s.slug for s in specs())
    for found in specs():
        command = new.get_command(found.slug)
        assert isinstance(command, app_commands.Command)
        own = [k for k in found.options_model.model_fields if k not in CLOCK_OPTIONS]
        names = [p.name for p in command.parameters]
        assert names == [found.option_names.get(k, k) for k in own] + ["timer", "timeout_action", "absent_after",
                                                                               "language"]
        assert len(names) <= 25 and not any(p.required for p in command.parameters)
        for param in command.parameters:
            assert re.fullmatch(r"[a-z0-9_-]{1,32}", param.name) and 1 <= len(param.description) <= 100
        for option, field in found.options_model.model_fields.items():
            if get_origin(field.annotation) is Literal:
                param = command._params[found.option_names.get(option, option)]
                assert [c.value for c in param.choices] == list(get_args(field.annotation))
    risk = new.get_command("risk")
    assert isinstance(risk, app_commands.Command) and risk._params["placement"].choices[-1].value == "simultaneous"


async def test_a_game_speaks_its_language_and_each_member_reads_their_own(h: DispatchHarness) -> None:
    ada, bo = h.add_member("Ada"), h.add_member("Bo")
    opened = await h.slash("new", "risk", options={"language": "ko"}, user=ada)
    assert opened.posts and ("리스크" in opened.said or "게임" in opened.said), opened.said
    private = await h.slash("game", "join", user=ada, locale="ru")
    refused(private, "Вы уже")  # a private reply speaks the member's own language
    changed = await h.slash("game", "language", options={"language": "de"}, user=ada)
    assert changed.posts and "Deutsch" in changed.said, changed.said
    refused(await h.slash("game", "language", options={"language": "ru"}, user=bo), "host")


async def test_only_a_member_who_manages_the_server_sets_its_language(h: DispatchHarness) -> None:
    refused(await h.slash("game", "language", options={"language": "ru", "server": True}, user=h.add_member("Cy")),
            "manage the server")
    boss = h.add_member("Boss", admin=True)
    done = await h.slash("game", "language", options={"language": "ru", "server": True}, user=boss)
    assert done.ephemeral and "Русский" not in done.content and "Russian" in done.content
    opened = await h.slash("new", "risk", user=boss)
    assert opened.posts and "Russian" not in opened.said and "игр" in opened.said, opened.said
