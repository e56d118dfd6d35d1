"""Tests of the offline Discord test infrastructure: payload factories, the dispatch harness and the fake server."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import struct
import sys
import textwrap
import zlib
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.discord import payloads
from tests.discord.fakeapi import TOKEN_LIFETIME_S, ManualClock
from tests.discord.fakediscord import FakeDiscord
from tests.discord.harness import DispatchHarness, InteractionError
from tests.discord.payloads import Typed, World

TERRITORIES = ["Alaska", "Alberta", "Argentina", "Brazil", "Ukraine"]
POSTS = r"^/channels/\d+/messages$"
CALLBACKS = r"^/interactions/\d+/[^/]+/callback$"


def tiny_png() -> bytes:
    """Return a valid 1x1 red PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        """Return one PNG chunk with length and CRC."""
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + \
        chunk(b"IEND", b"")


PNG = tiny_png()


class VoteView(discord.ui.View):
    """A button and a select."""

    @discord.ui.button(label="Yes", custom_id="vote:yes")
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        """Reply ephemerally with who voted."""
        await interaction.response.send_message(f"{interaction.user.display_name} voted yes", ephemeral=True)

    @discord.ui.select(custom_id="vote:colour", options=[discord.SelectOption(label="red"),
                                                         discord.SelectOption(label="blue")])
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        """Update the message in place."""
        await interaction.response.edit_message(content=f"colour: {select.values[0]}", view=None)


class ConfirmView(discord.ui.View):
    """One button; the command awaits view.wait()."""

    by: str | None = None

    @discord.ui.button(label="OK", custom_id="confirm:ok")
    async def ok(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        """Remember who confirmed and stop the view."""
        self.by = interaction.user.display_name
        await interaction.response.defer()
        self.stop()


class NameModal(discord.ui.Modal, title="Your name"):
    """A one-field modal."""

    name = discord.ui.TextInput(label="Name", custom_id="name:input")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Greet the submitted name."""
        await interaction.response.send_message(f"Hello {self.name.value}", ephemeral=True)


class Demo(commands.Cog):
    """Test-only cog exercising every response style."""

    demo = app_commands.Group(name="demo", description="Demo commands")

    @demo.command(name="ping", description="Reply with text")
    async def ping(self, interaction: discord.Interaction, text: str = "pong", times: int = 1) -> None:
        """Reply with `text` repeated."""
        await interaction.response.send_message(text * times)

    @demo.command(name="greet", description="Greet a member")
    async def greet(self, interaction: discord.Interaction, who: discord.Member) -> None:
        """Reply with the member's display name."""
        await interaction.response.send_message(f"Hi {who.display_name} from {interaction.user.display_name}")

    @app_commands.command(name="card", description="Reply with a PNG")
    async def card(self, interaction: discord.Interaction) -> None:
        """Reply with a PNG attachment."""
        await interaction.response.send_message("your card", file=discord.File(io.BytesIO(PNG), "card.png"))

    @app_commands.command(name="slow", description="Defer, then follow up")
    async def slow(self, interaction: discord.Interaction, private: bool = False) -> None:
        """Defer and follow up with a PNG."""
        await interaction.response.defer(thinking=True, ephemeral=private)
        await interaction.followup.send("rendered", file=discord.File(io.BytesIO(PNG), "map.png"))

    @app_commands.command(name="regret", description="Defer publicly, then answer privately")
    async def regret(self, interaction: discord.Interaction) -> None:
        """Think in public, then remove the placeholder and say something only the user sees."""
        await interaction.response.defer(thinking=True)
        await interaction.delete_original_response()
        await interaction.followup.send("just for you", ephemeral=True)

    @app_commands.command(name="vote", description="Post a view")
    async def vote(self, interaction: discord.Interaction) -> None:
        """Post the vote view."""
        await interaction.response.send_message("Vote!", view=VoteView(timeout=None))

    @app_commands.command(name="pick", description="Autocomplete a territory")
    async def pick(self, interaction: discord.Interaction, territory: str) -> None:
        """Echo the territory."""
        await interaction.response.send_message(f"picked {territory}")

    @pick.autocomplete("territory")
    async def pick_territory(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Suggest territories starting with the typed text."""
        return [app_commands.Choice(name=t, value=t) for t in TERRITORIES if t.lower().startswith(current.lower())]

    @app_commands.command(name="announce", description="Ack ephemerally, post in the channel")
    async def announce(self, interaction: discord.Interaction, text: str) -> None:
        """Ack privately and post a plain channel message."""
        await interaction.response.send_message("posted", ephemeral=True)
        await interaction.channel.send(text)  # type: ignore[union-attr]

    @app_commands.command(name="whisper", description="DM the caller")
    async def whisper(self, interaction: discord.Interaction, text: str) -> None:
        """Send the caller a DM and ack ephemerally."""
        await interaction.user.send(text)
        await interaction.response.send_message("check your DMs", ephemeral=True)

    @app_commands.command(name="confirm", description="Ask, wait for the button, follow up")
    async def confirm(self, interaction: discord.Interaction) -> None:
        """Post a view, wait for it and follow up."""
        view = ConfirmView(timeout=30)
        await interaction.response.send_message("Sure?", view=view)
        await view.wait()
        await interaction.followup.send(f"confirmed by {view.by}")

    @app_commands.command(name="name", description="Open a modal")
    async def name(self, interaction: discord.Interaction) -> None:
        """Open the name modal."""
        await interaction.response.send_modal(NameModal())

    @app_commands.command(name="boom", description="Fail")
    async def boom(self, interaction: discord.Interaction) -> None:
        """Raise."""
        raise RuntimeError("kaboom")


class DemoBot(commands.Bot):
    """Minimal bot: loads the Demo cog and syncs the command tree in setup_hook."""

    def __init__(self) -> None:
        """Default intents, fast on_ready."""
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, guild_ready_timeout=0.05)

    async def setup_hook(self) -> None:
        """Add the cog and sync."""
        await self.add_cog(Demo())
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Re-identify at once (discord.py waits 5 s before every non-initial IDENTIFY)."""


@pytest.fixture
async def h() -> AsyncIterator[DispatchHarness]:
    """A dispatch harness around a fresh DemoBot (setup_hook run, so commands are synced into the fake)."""
    bot = DemoBot()
    async with DispatchHarness(bot, setup_hook=True) as harness:
        yield harness
    await bot.close()


# ----------------------------------------------------------------------------------------------- payload factories


def test_payload_factories_build_nested_options_and_resolved_members() -> None:
    """Group/subcommand nesting, inferred option types, resolved members and the focused flag."""
    world = World()
    ada = world.add_member("Ada")
    payload = world.slash("game", "new", options={"game": "risk", "players": 4, "fast": True, "who": ada})
    assert payload["type"] == 2 and payload["data"]["name"] == "game"
    (sub,) = payload["data"]["options"]
    assert (sub["name"], sub["type"]) == ("new", payloads.SUB_COMMAND)
    assert [(o["name"], o["type"]) for o in sub["options"]] == [("game", 3), ("players", 4), ("fast", 5), ("who", 6)]
    assert payload["data"]["resolved"]["members"][ada["user"]["id"]]["roles"] == []
    assert payload["member"]["user"]["id"] == world.player["user"]["id"]
    assert int(payload["member"]["permissions"]) == payloads.MEMBER_PERMISSIONS

    nested = world.autocomplete("risk", "army", "move", options={"source": "Ala", "count": Typed("3", 4)},
                                focused="source")
    (group,) = nested["data"]["options"]
    assert (group["name"], group["type"], group["options"][0]["type"]) == ("army", 2, 1)
    leaves = group["options"][0]["options"]
    assert leaves[0] == {"name": "source", "type": 3, "value": "Ala", "focused": True}
    assert leaves[1] == {"name": "count", "type": 4, "value": "3"}

    msg = payloads.message(world.channel["id"], author=world.bot_user,
                           components=[payloads.action_row(payloads.string_select_component("pick", ["a", "b"]))])
    select = world.component("pick", message=msg, values=["b"], user=world.owner)
    assert select["type"] == 3 and select["data"] == {"custom_id": "pick", "component_type": 3, "values": ["b"]}
    assert int(select["member"]["permissions"]) == payloads.ALL_PERMISSIONS
    assert int(payloads.snowflake()) < int(payloads.snowflake())


# -------------------------------------------------------------------------------------------- layer 2: harness


async def test_layer2_slash_group_subcommand_with_options(h: DispatchHarness) -> None:
    """`/demo ping text:hi times:3` runs through the real tree and replies publicly."""
    result = await h.slash("demo", "ping", options={"text": "hi", "times": 3})
    assert result.callback_type == 4
    assert result.content == "hihihi"
    assert not result.ephemeral
    assert [c["name"] for c in h.api.synced_commands()] == ["demo", "card", "slow", "regret", "vote", "pick",
                                                            "announce", "whisper", "confirm", "name", "boom"]
    assert not h.unhandled()


async def test_layer2_member_option_is_resolved(h: DispatchHarness) -> None:
    """A member option arrives as a discord.Member built from `resolved`."""
    ada = h.world.add_member("Ada", nick="Countess")
    result = await h.slash("demo", "greet", options={"who": ada})
    assert result.content == "Hi Countess from Player"


async def test_layer2_png_file_response(h: DispatchHarness) -> None:
    """A file sent with the response is recorded with its bytes."""
    result = await h.slash("card")
    assert result.content == "your card"
    assert [f.filename for f in result.files] == ["card.png"]
    assert result.files[0].data == PNG
    assert result.response is not None and result.response.payload["attachments"][0]["size"] == len(PNG)


async def test_layer2_deferred_command_with_followup(h: DispatchHarness) -> None:
    """defer() then followup.send(): type 5, and the followup fills the "thinking" message."""
    result = await h.slash("slow")
    assert result.callback_type == 5 and result.deferred
    assert result.content == "rendered"
    assert result.response is not None and not result.response.loading
    assert result.files[0].filename == "map.png" and result.files[0].data == PNG
    assert [r.route for r in result.requests] == ["callback", "followup"]
    assert not result.ephemeral and result.followups == []
    private = await h.slash("slow", options={"private": True})
    assert private.ephemeral and private.content == "rendered"


async def test_layer2_a_file_over_the_interactions_upload_limit_is_refused(h: DispatchHarness) -> None:
    """Like Discord, the fake refuses a file larger than the payload's attachment_size_limit (413, code 40005)."""
    result = await h.slash("slow", attachment_size_limit=len(PNG) - 1, raise_errors=False)
    error = result.errors[0]
    assert isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, discord.HTTPException)
    assert error.original.status == 413 and error.original.code == 40005
    assert (await h.slash("slow", attachment_size_limit=len(PNG))).files[0].data == PNG


async def test_layer2_followup_after_a_deleted_placeholder_is_a_new_private_message(h: DispatchHarness) -> None:
    """As on Discord: once the "thinking…" placeholder is deleted, an ephemeral followup is its own message."""
    result = await h.slash("regret")
    placeholder = h.api.messages(include_deleted=True)
    assert any(m.deleted and m.interaction_id == result.id for m in placeholder)
    [followup] = [m for m in h.api.responses(result.id) if not m.deleted]
    assert followup.ephemeral and followup.content == "just for you"
    assert not any(m.content == "just for you" for m in h.messages(h.world.channel["id"]) if not m.ephemeral)


async def test_layer2_button_and_select(h: DispatchHarness) -> None:
    """A view's button replies ephemerally; its select edits the message (type 7)."""
    posted = await h.slash("vote")
    assert posted.response is not None and posted.response.custom_ids() == ["vote:yes", "vote:colour"]
    ada = h.world.add_member("Ada")
    pressed = await h.button("vote:yes", user=ada)
    assert pressed.ephemeral and pressed.content == "Ada voted yes"
    chosen = await h.select("vote:colour", ["blue"])
    assert chosen.callback_type == 7
    assert chosen.response is not None and chosen.response.id == posted.response.id
    assert posted.response.content == "colour: blue" and posted.response.components == []


async def test_layer2_autocomplete(h: DispatchHarness) -> None:
    """Autocomplete returns the bot's choices for the focused option."""
    choices = await h.autocomplete("pick", options={"territory": "al"}, focused="territory")
    assert [c["value"] for c in choices] == ["Alaska", "Alberta"]


async def test_layer2_channel_send_is_recorded(h: DispatchHarness) -> None:
    """channel.send goes through bot.http and lands in the channel's messages."""
    result = await h.slash("announce", options={"text": "Turn 3: Ada attacks"})
    assert result.ephemeral and result.content == "posted"
    assert [m.content for m in result.channel_messages] == ["Turn 3: Ada attacks"]
    assert [m.content for m in h.messages(h.world.channel["id"]) if not m.ephemeral] == ["Turn 3: Ada attacks"]


async def test_layer2_dm_guild_only_command_and_member_cache(h: DispatchHarness) -> None:
    """user.send opens a DM; guild-only commands get data.guild_id; add_member fills the guild cache."""
    ada = h.add_member("Ada")
    assert h.guild.get_member(int(ada["user"]["id"])) is not None
    result = await h.slash("whisper", options={"text": "your cards: 3"}, user=ada)
    dm = h.world.dm_channel(ada)
    assert [m.content for m in h.messages(dm["id"])] == ["your cards: 3"]
    assert result.channel_messages[0].channel_id == dm["id"]

    @app_commands.command(name="local", description="Guild only")
    async def local(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"guild {interaction.guild_id}")

    h.bot.tree.add_command(local, guild=discord.Object(int(h.world.guild_id)))  # type: ignore[attr-defined]
    assert (await h.slash("local")).content == f"guild {h.world.guild_id}"


async def test_layer2_fail_next_gives_the_bot_a_discord_error(h: DispatchHarness) -> None:
    """fail_next works in-process too: a closed-DM 403 reaches the command as discord.Forbidden (no retries here)."""
    h.api.fail_next("POST", r"^/channels/\d+/messages$", 403, {"message": "Cannot send messages to this user",
                                                                "code": 50007})
    result = await h.slash("whisper", options={"text": "psst"}, raise_errors=False)
    error = result.errors[0]
    assert isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, discord.Forbidden)
    assert error.original.code == 50007
    assert h.messages() == [] and [r.scripted for r in result.requests] == [False, True]


async def test_layer2_a_callback_later_than_the_window_is_an_unknown_interaction(h: DispatchHarness) -> None:
    """As on Discord, a callback after the window (narrowed here, and the answer held back) is 404 / 10062."""
    h.api.callback_window = 0.02
    h.api.delay_next("POST", CALLBACKS, 0.05)
    result = await h.slash("demo", "ping", raise_errors=False)
    error = result.errors[0]
    assert isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, discord.NotFound)
    assert error.original.code == 10062
    assert result.response is None and not result.record.acknowledged


async def test_layer2_a_followup_after_fifteen_minutes_is_refused(h: DispatchHarness) -> None:
    """The interaction token dies after 15 minutes (401 / 50027): a command that waits that long cannot follow up."""
    clock = ManualClock()
    h.api.clock = clock
    asked = await h.slash("confirm", wait=False)
    clock.advance(TOKEN_LIFETIME_S + 1)
    await h.button("confirm:ok", user=h.add_member("Ada"))  # a fresh interaction: its own token still works
    error = (await h.settle(raise_errors=False))[0]
    assert isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, discord.HTTPException)
    assert (error.original.status, error.original.code) == (401, 50027)
    assert asked.followups == []


async def test_layer2_a_dropped_connection_after_the_post_reaches_the_bot(h: DispatchHarness) -> None:
    """drop_next(applied=True): the message is posted, the bot sees aiohttp.ServerDisconnectedError."""
    h.api.drop_next("POST", POSTS, applied=True)
    result = await h.slash("announce", options={"text": "Turn 3"}, raise_errors=False)
    error = result.errors[0]
    assert isinstance(error, app_commands.CommandInvokeError)
    assert isinstance(error.original, aiohttp.ServerDisconnectedError)
    assert [m.content for m in h.api.ledger()[h.world.channel["id"]]] == ["Turn 3"]


async def test_layer2_a_bot_that_stops_waiting_does_not_stop_the_post(h: DispatchHarness) -> None:
    """As over a network: the bot's timeout fires during a delay, and the request still lands when it ends."""
    channel = h.bot.get_channel(int(h.world.channel["id"]))
    assert isinstance(channel, discord.TextChannel)
    h.api.delay_next("POST", POSTS, 1.0)  # long beside the timeout, so that a loaded machine can't close the gap
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(channel.send("landed late"), 0.01)
    assert h.api.ledger() == {}
    landed = await h.api.wait_for_message(lambda m: m.content == "landed late")
    assert h.api.ledger() == {h.world.channel["id"]: [landed]}


async def test_layer2_command_awaiting_a_view(h: DispatchHarness) -> None:
    """wait=False returns once acknowledged; settle() awaits the command after the button press."""
    asked = await h.slash("confirm", wait=False)
    assert asked.content == "Sure?" and asked.followups == []
    pressed = await h.button("confirm:ok", user=h.add_member("Ada"))
    assert pressed.callback_type == 6
    assert await h.settle() == []
    assert [m.content for m in asked.followups] == ["confirmed by Ada"]


async def test_layer2_modal_round_trip(h: DispatchHarness) -> None:
    """send_modal records the modal; submitting it runs on_submit."""
    opened = await h.slash("name")
    assert opened.callback_type == 9 and opened.modal is not None and opened.modal["title"] == "Your name"
    submitted = await h.submit_modal(opened.modal["custom_id"], {"name:input": "Ada"})
    assert submitted.content == "Hello Ada" and submitted.ephemeral


async def test_layer2_errors_surface(h: DispatchHarness) -> None:
    """An exception in a command fails the test by default, or is returned with raise_errors=False."""
    with pytest.raises(InteractionError, match="kaboom"):
        await h.slash("boom")
    result = await h.slash("boom", raise_errors=False)
    assert isinstance(result.errors[0], app_commands.CommandInvokeError)
    assert isinstance(result.errors[0].original, RuntimeError)
    assert result.response is None


# ------------------------------------------------------------------------------------------ layer 3: fake server


async def test_layer3_rest_headers_and_unhandled_routes(fake_discord: FakeDiscord) -> None:
    """JSON replies carry exactly `application/json`; unknown routes are a recorded 404."""
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake_discord.api_base}/users/@me") as response:
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["id"] == fake_discord.world.app_id
        async with session.get(f"{fake_discord.api_base}/nope/42") as response:
            assert response.status == 404
            assert "no route for GET /nope/42" in (await response.json())["message"]
    assert [str(r) for r in fake_discord.unhandled()] == ["GET /nope/42 -> 404 (unhandled)"]


async def test_layer3_login_sync_ready_slash_file_and_button(fake_discord: FakeDiscord) -> None:
    """The unmodified bot logs in, syncs, gets READY, and slash, file and button round trips work."""
    fake = fake_discord
    async with fake.run_bot(DemoBot()) as bot:
        assert bot.user is not None and str(bot.user.id) == fake.world.app_id
        assert bot.get_guild(int(fake.world.guild_id)) is not None
        assert "demo" in [c["name"] for c in fake.synced_commands()]
        session = fake.current_session
        assert session is not None and session.identify is not None
        assert session.identify["intents"] == discord.Intents.default().value

        ping = await fake.slash("demo", "ping", options={"text": "hey"})
        assert (await fake.wait_for_response(ping.id)).content == "hey"

        card = await fake.slash("card")
        card_msg = await fake.wait_for_response(card.id)
        assert card_msg.file("card.png").data == PNG
        attachment = discord.Attachment(data=card_msg.payload["attachments"][0], state=bot._connection)
        assert await attachment.read() == PNG

        slow = await fake.slash("slow")
        assert (await fake.wait_for_response(slow.id)).content == "rendered"

        vote = await fake.slash("vote")
        await fake.wait_for_response(vote.id)
        press = await fake.button("vote:yes", user=fake.world.add_member("Ada"))
        reply = await fake.wait_for_response(press.id)
        assert reply.ephemeral and reply.content == "Ada voted yes"

        assert await fake.autocomplete("pick", options={"territory": "b"}, focused="territory") == [
            {"name": "Brazil", "value": "Brazil"}]
    assert not fake.unhandled()


async def test_layer3_fail_next_429_is_retried_by_discord_py(fake_discord: FakeDiscord) -> None:
    """A scripted 429 on a channel message is retried by discord.py and the message is stored once."""
    fake = fake_discord
    async with fake.run_bot(DemoBot()) as bot:
        channel = bot.get_channel(int(fake.world.channel["id"]))
        assert isinstance(channel, discord.TextChannel)
        fake.fail_next("POST", POSTS, 429, retry_after=0.01)
        sent = await channel.send("retry me", file=discord.File(io.BytesIO(PNG), "board.png"))
        posts = [r for r in fake.requests if r.path == f"/channels/{channel.id}/messages"]
        assert [(r.status, r.route, r.scripted) for r in posts] == [(429, "channel_message", True),
                                                                    (200, "channel_message", False)]
        assert posts[0].files[0].data == PNG
        assert [m.content for m in fake.messages(channel.id)] == ["retry me"]
        assert str(sent.id) == fake.messages(channel.id)[0].id


async def test_layer3_a_500_after_the_post_is_retried_with_the_same_nonce_and_posted_once(
        fake_discord: FakeDiscord) -> None:
    """discord.py retries a 500 with the same nonce and enforce_nonce: the fake returns the message it already made."""
    fake = fake_discord
    async with fake.run_bot(DemoBot()) as bot:
        channel = bot.get_channel(int(fake.world.channel["id"]))
        assert isinstance(channel, discord.TextChannel)
        fake.fail_next("POST", POSTS, 500, applied=True)
        sent = await channel.send("exactly once")
        posts = [r for r in fake.requests if r.route == "channel_message"]
        assert [(r.status, r.scripted) for r in posts] == [(500, True), (200, False)]
        assert posts[0].json["nonce"] == posts[1].json["nonce"] and posts[1].json["enforce_nonce"] is True
        [posted] = fake.ledger()[str(channel.id)]
        assert posted.id == str(sent.id) and posted.nonce == posts[0].json["nonce"]


async def test_layer3_a_dropped_or_late_answer_then_a_retry_with_the_same_nonce_posts_once(
        fake_discord: FakeDiscord) -> None:
    """A dropped connection (over real HTTP) and a client timeout leave the client unsure; its retry is safe."""
    fake = fake_discord
    async with fake.run_bot(DemoBot()) as bot:
        channel = bot.get_channel(int(fake.world.channel["id"]))
        assert isinstance(channel, discord.TextChannel)
        fake.drop_next("POST", POSTS, applied=True)
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await channel.send("dropped", nonce="retry-1")
        await channel.send("dropped", nonce="retry-1")
        slow = fake.delay_next("POST", POSTS, 0.3)  # applied when the delay ends, after the client gave up
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(channel.send("late", nonce="retry-2"), 0.05)
        retried = await channel.send("late", nonce="retry-2")
        late = await fake.wait_for(lambda r: r.fault is slow)
        assert late.status == 200 and late.response["id"] == str(retried.id)
        assert [(m.content, m.nonce) for m in fake.ledger()[str(channel.id)]] == [("dropped", "retry-1"),
                                                                                 ("late", "retry-2")]


async def test_layer3_a_global_429_is_honoured_by_discord_py(fake_discord: FakeDiscord,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    """A global 429 has `global` in the body and X-RateLimit-Global; discord.py waits it out for every route."""
    fake = fake_discord
    fake.fail_next("POST", POSTS, 429, retry_after=0.5, scope="global")
    url = f"{fake.api_base}/channels/{fake.world.channel['id']}/messages"
    async with aiohttp.ClientSession() as session, session.post(url, json={"content": "x"}) as response:
        assert response.status == 429 and (await response.json())["retry_after"] == 0.5
        assert (response.headers["Retry-After"], response.headers["X-RateLimit-Global"]) == ("1", "true")
    async with fake.run_bot(DemoBot()) as bot:
        channel = bot.get_channel(int(fake.world.channel["id"]))
        assert isinstance(channel, discord.TextChannel)
        fake.fail_next("POST", POSTS, 429, retry_after=0.01, scope="global")
        with caplog.at_level(logging.WARNING, logger="discord.http"):
            await channel.send("after the global limit")
        assert "Global rate limit has been hit" in caplog.text
        assert [m.content for m in fake.ledger()[str(channel.id)]] == ["after the global limit"]


async def test_layer3_a_callback_held_past_the_window_is_an_unknown_interaction(fake_discord: FakeDiscord) -> None:
    """Over real HTTP too: the answer to the callback is held back past the (narrowed) window and refused."""
    fake = fake_discord
    fake.callback_window = 0.05
    async with fake.run_bot(DemoBot()):
        fake.delay_next("POST", CALLBACKS, 0.1)
        ping = await fake.slash("demo", "ping")
        answered = await fake.wait_for(lambda r: r.route == "callback" and r.interaction_id == ping.id)
        assert (answered.status, answered.response["code"]) == (404, 10062)
        assert not ping.acknowledged and fake.responses(ping.id) == []


async def test_layer3_client_reconnects_after_server_disconnect(fake_discord: FakeDiscord) -> None:
    """After the server drops the socket, RESUME gets op 9 and the client re-identifies; commands still work."""
    fake = fake_discord
    async with fake.run_bot(DemoBot()):
        await fake.disconnect()
        session = await fake.wait_until_identified(count=2)
        assert any(p.get("op") == 6 for s in fake.sessions for p in s.received)
        ping = await fake.slash("demo", "ping", options={"text": "still here"})
        assert (await fake.wait_for_response(ping.id)).content == "still here"
        assert session.number == len(fake.sessions)


SUBPROCESS_BOT = textwrap.dedent("""
    import asyncio, os, sys
    import discord, yarl
    from discord.ext import commands
    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])

    class Bot(commands.Bot):
        async def setup_hook(self):
            @self.tree.command(name="where", description="pid")
            async def where(interaction: discord.Interaction) -> None:
                await interaction.response.send_message(f"pid {os.getpid()}")
            await self.tree.sync()

    bot = Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
    bot.run(os.environ["DISCORD_TOKEN"], log_handler=None)
""")


async def test_layer3_bot_subprocess_killed_and_restarted(tmp_path: Path) -> None:
    """A bot in another OS process connects via env vars; after kill and restart it re-identifies and answers."""
    script = tmp_path / "bot_process.py"
    script.write_text(SUBPROCESS_BOT, encoding="utf-8")
    async with FakeDiscord(token="secret-token") as fake:
        env = {**os.environ, **fake.env(), "DISCORD_TOKEN": "secret-token"}
        pids = []
        for run in (1, 2):
            log = tmp_path / f"bot{run}.log"
            with log.open("wb") as stderr:
                proc = await asyncio.create_subprocess_exec(sys.executable, str(script), env=env,
                                                            stdout=asyncio.subprocess.DEVNULL, stderr=stderr)
            try:
                await fake.wait_until_identified(count=run, timeout=15)
                ping = await fake.slash("where")
                reply = await fake.wait_for_response(ping.id, timeout=10)
            except TimeoutError as exc:
                raise AssertionError(f"bot process output:\n{log.read_text(errors='replace')}") from exc
            finally:
                proc.kill()
                await proc.wait()
            pids.append(proc.pid)
            assert reply.content == f"pid {proc.pid}"
        assert len(set(pids)) == 2
        assert [r.route for r in fake.requests if r.route == "sync_global"] == ["sync_global"] * 2
        assert not fake.unhandled()
