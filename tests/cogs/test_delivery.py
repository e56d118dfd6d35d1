"""The outbox's delivery as a channel sees it: Battlemist's one pinned board message, edited in place after every
change (BM-DIG-17), whatever Discord refuses meanwhile."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.cogs.conftest import channel_id, delivered, start_game, uid
from tests.discord.fakeapi import CHANNEL_PINNED_MESSAGE, SentMessage
from tests.discord.harness import DispatchHarness

PINS = r"^/channels/\d+/messages/pins/\d+$"


def boards(h: DispatchHarness) -> list[SentMessage]:
    """The bot's messages in the channel that hold only the board picture (no story)."""
    return [m for m in h.messages() if m.source == "channel" and m.content.startswith("📌")]


def pinned(h: DispatchHarness) -> list[SentMessage]:
    return [m for m in h.messages() if m.payload.get("pinned")]


async def lock_no_plays(h: DispatchHarness, member: dict[str, Any]) -> None:
    """`member` passes W-ECONSTART: once everyone has, the harvest changes the board."""
    await h.slash("bm", "pass", user=member)
    await delivered(h)


@pytest.mark.rule("BM-DIG-17", "BM-DIG-14")
async def test_one_pinned_board_is_edited_in_place_and_the_story_is_told_in_posts(h: DispatchHarness) -> None:
    ada, bo = await start_game(h, "Ada", "Bo", game="battlemist")
    await delivered(h)
    [board] = boards(h)
    assert pinned(h) == [board] and [f.filename for f in board.files] == ["board.png"]
    notices = [m for m in h.messages() if m.payload["type"] == CHANNEL_PINNED_MESSAGE]
    assert len(notices) == 1 and notices[0].payload["message_reference"]["message_id"] == board.id
    first = board.files[0].data
    pictures = [m for m in h.messages() if m is not board and any(f.filename == "board.png" for f in m.files)]
    assert pictures and int(pictures[0].id) < int(board.id)  # the post that tells the start, then the board
    for member in (ada, bo):
        await lock_no_plays(h, member)
    assert boards(h) == [board] and pinned(h) == [board]  # no second board, no second pin
    assert board.edits >= 2 and board.files[0].data != first  # each lock, then the harvest, is shown on it
    assert len([m for m in h.messages() if m.payload["type"] == CHANNEL_PINNED_MESSAGE]) == 1


async def test_a_risk_game_keeps_its_pictures_in_its_posts_only(h: DispatchHarness) -> None:
    await start_game(h, "Ada", "Bo", "Cy")
    await delivered(h)
    assert boards(h) == [] and pinned(h) == []
    assert any(f.filename == "board.png" for m in h.messages() for f in m.files)


@pytest.mark.rule("BM-DIG-17")
async def test_a_deleted_board_message_is_posted_and_pinned_anew(h: DispatchHarness) -> None:
    ada, bo = await start_game(h, "Ada", "Bo", game="battlemist")
    await delivered(h)
    [old] = boards(h)
    old.deleted = True  # a moderator removed it
    for member in (ada, bo):
        await lock_no_plays(h, member)
    [new] = boards(h)
    assert new.id != old.id and pinned(h) == [new]
    service = h.bot.service  # type: ignore[attr-defined]
    game = await service.store.live_game(channel_id(h))
    assert await service.board_message(game.id) == int(new.id)


@pytest.mark.rule("BM-DIG-17")
async def test_without_the_right_to_pin_the_board_is_still_kept_up_to_date_and_nothing_is_held_up(
        h: DispatchHarness) -> None:
    refusal = h.api.fail_next("PUT", PINS, 403, {"message": "Missing Permissions", "code": 50013}, times=10)
    ada, bo = await start_game(h, "Ada", "Bo", game="battlemist")
    await delivered(h)
    [board] = boards(h)
    for member in (ada, bo):
        await lock_no_plays(h, member)
    assert boards(h) == [board] and board.edits >= 1 and pinned(h) == []
    assert refusal.hits == 1  # asked once; the bot does not ask again at every change
    service = h.bot.service  # type: ignore[attr-defined]
    assert await service.next_post(channel_id(h)) is None and await service.parked(channel_id(h)) == []


@pytest.mark.rule("BM-DIG-17")
async def test_a_failed_pin_is_tried_again_before_the_post_goes_on(h: DispatchHarness) -> None:
    h.api.fail_next("PUT", PINS, 500, {"message": "Internal Server Error", "code": 0})
    await start_game(h, "Ada", "Bo", game="battlemist")
    service = h.bot.service  # type: ignore[attr-defined]
    await service.idle(channel_id(h))
    queued = await service.next_post(channel_id(h))
    assert queued is not None and queued.attempts == 1  # the first attempt stopped at the pin
    h.bot.get_cog("Delivery").deliver(channel_id(h))  # type: ignore[union-attr]
    await h.api.wait_until(lambda: bool(pinned(h)), 5.0, what="the retried pin")
    [board] = boards(h)
    assert pinned(h) == [board]


async def test_a_process_that_lost_the_channel_while_it_prepared_a_post_sends_nothing(
        h: DispatchHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim on the channel's posts is renewed right before each message: a process whose claim another one
    took over while it waited for Discord or drew the board leaves the post to that process."""
    ada, *_ = await start_game(h, "Ada", "Bo", "Cy")
    await delivered(h)
    service = h.bot.service  # type: ignore[attr-defined]
    claims = iter([True])  # the first look at the channel, then another process holds it

    async def claim_posts(channel: int, lease: float) -> bool:
        return next(claims, False)

    monkeypatch.setattr(service, "claim_posts", claim_posts)
    before = [m.id for m in h.messages() if m.source == "channel"]
    await service.pause(channel_id(h), uid(ada), moderator=False)
    for _ in range(50):  # the channel's delivery task has run and let go
        await asyncio.sleep(0.01)
    assert [m.id for m in h.messages() if m.source == "channel"] == before
    queued = await service.next_post(channel_id(h))
    assert queued is not None and queued.sent == []
