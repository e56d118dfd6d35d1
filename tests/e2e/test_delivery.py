"""Announcements reach the channel exactly once, in order, whatever Discord does to the posts (layer 3: the real bot
in-process against the fake Discord over HTTP, so discord.py's own retries take part).

The same seeded game is started twice, in two channels: once with Discord answering every post, once with a fault
injected on that channel's posts. The faulty channel must end with the same posts as the clean one: none missing,
none twice (FakeAPI.ledger).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import GameMasterBot, Settings
from tests.discord.fakeapi import SentMessage
from tests.discord.fakediscord import FakeDiscord
from tests.e2e.botprocess import OPENING

TOKEN = "delivery-token"
SEED = 7
DELIVERY_TIMEOUT_S = 6.0
"""How long the bot may take to deliver the faulty channel's posts (retries and back-off included)."""
QUIET_S = 1.5
"""Delivery is over once the channel has had no post request for this long: longer than a client's back-off before
it retries (discord.py waits 1 s after a 5xx), so a retry that posts twice is seen."""

CALLBACKS = r"^/interactions/\d+/[^/]+/callback$"
ORIGINAL = r"^/webhooks/\d+/[^/]+/messages/@original$"

Inject = Callable[[FakeDiscord, str], object]
"""Script a fault, just before `/game start`, on the channel's posts (their path regex is given) or elsewhere."""

FAULTS: dict[str, Inject] = {
    "500 after the post": lambda fake, posts: fake.fail_next("POST", posts, 500, applied=True),
    "429 per route": lambda fake, posts: fake.fail_next("POST", posts, 429, retry_after=0.01),
    "answer late after the post": lambda fake, posts: fake.delay_next("POST", posts, 0.5, applied=True),
    "dropped after the post": lambda fake, posts: fake.drop_next("POST", posts, applied=True),
    "dropped before the post": lambda fake, posts: fake.drop_next("POST", posts),
    "503 once": lambda fake, posts: fake.fail_next("POST", posts, 503),
    "start's thinking not taken away": lambda fake, posts: fake.drop_next("DELETE", ORIGINAL),
    "start's callback answered 500 after apply": lambda fake, posts: fake.fail_next("POST", CALLBACKS, 500,
                                                                                     applied=True),
}


def shown(messages: list[SentMessage]) -> list[tuple[str, list[str]]]:
    """What the channel shows (files by name and digest), without the times (`<t:…>`) that differ between games."""
    return [(re.sub(r"<t:\d+(:\w)?>", "<t>", m.content),
             [f"{f.filename} {hashlib.sha256(f.data).hexdigest()[:16]}" for f in m.files]) for m in messages]


async def quiet(fake: FakeDiscord, channel_id: str) -> list[tuple[str, list[str]]]:
    """What the channel shows once its posts have been quiet for QUIET_S."""
    def posts() -> int:
        return sum(r.route == "channel_message" and r.channel_id == channel_id for r in fake.requests)
    seen = -1
    while seen != posts():
        seen = posts()
        await asyncio.sleep(QUIET_S)
    return shown(fake.ledger().get(channel_id, []))


async def delivered(fake: FakeDiscord, channel_id: str, expected: list) -> None:
    """Wait until the channel shows the expected posts and its posts have been quiet for QUIET_S; check again."""
    await fake.wait_until(lambda: shown(fake.ledger().get(channel_id, [])) == expected, DELIVERY_TIMEOUT_S,
                          what=f"the faulty channel to show the clean channel's {len(expected)} posts")
    assert await quiet(fake, channel_id) == expected


async def start_game(fake: FakeDiscord, host: dict, channel: dict, inject: Callable[[], object]) -> None:
    """Open a Risk game with two AI seats in `channel`, call `inject`, and start the game (its reply is best effort:
    only the acknowledgement is awaited)."""
    for step, options in OPENING:
        record = await fake.slash(*step, options=options, user=host, channel=channel)
        answer = await fake.wait_for_result(record.id, 15)
        assert not answer.content.startswith("⚠️"), answer.content
    inject()
    start = await fake.slash("game", "start", user=host, channel=channel)
    await fake.wait_until(lambda: start.acknowledged, 15, what="the acknowledgement of /game start")


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_every_announcement_is_posted_exactly_once_in_order(tmp_path: Path, fault: str) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        host = await fake.add_member("Alice")
        clean, faulty = fake.world.add_channel("clean"), fake.world.add_channel("faulty")
        bot = GameMasterBot(Settings(database_path=tmp_path / "bot.sqlite3", discord_token=TOKEN))
        bot._connection.guild_ready_timeout = 0.05  # the fake sends its one guild at once; don't wait 2 s for more
        async with fake.run_bot(bot):
            bot.service.seed_source = lambda: SEED  # both games deal and roll alike
            await start_game(fake, host, clean, lambda: None)
            await fake.wait_until(lambda: any(f.filename == "board.png" for m in fake.ledger().get(clean["id"], [])
                                              for f in m.files), 15, what="the clean game's board post")
            expected = await quiet(fake, clean["id"])

            await start_game(fake, host, faulty, lambda: FAULTS[fault](fake, rf"^/channels/{faulty['id']}/messages$"))
            await delivered(fake, faulty["id"], expected)
            assert any(r.scripted for r in fake.requests), "the fault never fired"
        assert not fake.unhandled()
