"""Delivery of the outbox: every post reaches its channel, in order, each message once, whatever fails meanwhile.

Each channel's posts go out one after another in a task of their own; a post that fails waits (1 s, doubling to
5 minutes) without holding up other channels, and one that can never go (the channel is gone, the bot may not
post there) is parked for the host to see. Every message carries a nonce that Discord enforces, and a message
that a crash may have posted unrecorded is looked for in the channel before it is sent again. A send that Discord
is slow to answer is given up on but not cancelled: the post is tried again once that send has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

import aiohttp
import discord
from discord.ext import commands

from cogs.common import mentions, service_of_bot, settings_of_bot
from engine.core.i18n import translate
from engine.core.models import Event, GameState, from_json
from engine.games import get, spec, title
from engine.service import GameService, Post, Queued
from engine.service.news import chunks

log = logging.getLogger("gamemaster.delivery")
T = TypeVar("T")

Controls = Callable[[GameState, Sequence[Event], str], discord.ui.View | None]
"""A game's buttons for the decision pending in a position (the position's recent events at hand), labelled in
a language."""
MAX_BACKOFF = 300.0
SWEEP = 30.0
"""Look for posts due again at least this often."""
LOOKBACK = 20
"""How many of a channel's messages after the last recorded one are searched for one a crash left unrecorded."""
FAILURES = (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError, OSError)


class Taken(Exception):
    """Another process sharing the store delivers this channel's posts now."""


def backoff(attempts: int) -> float:
    return min(MAX_BACKOFF, 2.0 ** max(0, attempts - 1))


def _outcome_seen(task: asyncio.Future[Any]) -> None:
    """A send that was given up on may still fail: its exception is expected, not news for the log."""
    if not task.cancelled():
        task.exception()


def never(err: discord.HTTPException) -> bool:
    """A refusal that trying again would not change: no access, no channel, a message Discord won't take."""
    return isinstance(err, discord.Forbidden | discord.NotFound) or (400 <= err.status < 500 and err.status != 429)


class Delivery(commands.Cog):
    """Posts the outbox: a task per channel with posts waiting, and a sweeper that resumes after a restart."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service: GameService = service_of_bot(bot)
        self.controls: dict[str, Controls] = getattr(bot, "controls", {})
        self.timeout: float = settings_of_bot(bot).post_timeout
        """A message Discord has not answered within this long is tried again (its nonce keeps it single)."""
        self.sweep = min(SWEEP, self.service.takeover_after / 2) if self.service.store.shared else SWEEP
        """How often to look for posts due: other processes queue posts this one is not told of."""
        self._channels: dict[int, asyncio.Task[None]] = {}
        self._sending: dict[int, asyncio.Future[Any]] = {}
        """Each channel's last message sent (one at a time per channel), which may outlive the post that gave up."""
        self._stopped = False
        self._again: set[int] = set()
        """Channels whose posts were queued while their task was running."""
        self._unpinnable: set[int] = set()
        """Games whose board message Discord would not pin (this run does not ask again)."""
        self._wake = asyncio.Event()
        self._sweeper: asyncio.Task[None] | None = None
        self.service.on_posts(self.deliver)

    async def cog_load(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep(), name="delivery-sweeper")

    async def cog_unload(self) -> None:
        """Stop posting (a post cut off mid-way is tried again, and looked for first, after a restart)."""
        self._stopped = True
        tasks = [task for task in [self._sweeper, *self._channels.values()] if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def deliver(self, channel_id: int) -> None:
        """Post what waits for `channel_id`, now (a task of its own; it returns at once); nothing once stopped, as
        the next start delivers it."""
        if self._stopped:
            return
        task = self._channels.get(channel_id)
        if task is None or task.done():
            self._channels[channel_id] = asyncio.create_task(self._drain(channel_id), name=f"posts-{channel_id}")
        else:
            self._again.add(channel_id)  # the running task may have looked already: it looks once more

    async def _sweep(self) -> None:
        """Start every channel whose post is due: at start (after a restart) and whenever a retry falls due."""
        while True:
            try:
                for channel_id in await self.service.post_channels():
                    self.deliver(channel_id)
                retry = await self.service.next_retry()
                wait = self.sweep if retry is None else min(self.sweep, max(0.5, retry - time.time()))
            except Exception:  # the store is down: nothing is lost, try again shortly
                log.exception("the outbox could not be read")
                wait = self.sweep
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    async def _drain(self, channel_id: int) -> None:
        """The channel's posts, oldest first, until none is left or one must wait, and again while more were queued
        meanwhile."""
        while True:
            self._again.discard(channel_id)
            await self._drain_once(channel_id)
            if channel_id not in self._again:
                return

    async def _drain_once(self, channel_id: int) -> None:
        """The channel's posts, oldest first, until none is left or one must wait; with several processes on one
        store, only while this one holds the channel's claim."""
        try:
            while (row := await self.service.next_post(channel_id)) is not None:
                if row.next_try > time.time() or not await self._post(row):
                    self._wake.set()  # the sweeper comes back for it when it is due
                    return
        except Taken:
            log.info("another process delivers the posts of channel %s", channel_id)
        except Exception:  # a store error: the sweeper tries the channel again
            log.exception("posts to channel %s stopped", channel_id)
        finally:
            with contextlib.suppress(Exception):
                await self.service.release_posts(channel_id)

    async def _claim(self, channel_id: int) -> None:
        """Make sure this process still delivers the channel's posts for a while (Taken if another one does)."""
        if not await self.service.claim_posts(channel_id, self.service.takeover_after):
            raise Taken(channel_id)

    async def _post(self, row: Queued) -> bool:
        """Send what Discord doesn't have yet of one post; False when it must wait (or was parked)."""
        post = row.post
        channel = self.bot.get_partial_messageable(row.channel_id)
        sent = list(row.sent)
        await self._claim(row.channel_id)
        try:
            await self._unhurried(row.channel_id)
            texts, png = await self._board(row, post)
            await self.service.post_tried(row, sent)  # from here on, a crash may leave a message unrecorded
            for index, text in enumerate(texts):
                if index < len(sent):
                    continue
                if row.attempts and index == len(row.sent):
                    found = await self._already_there(channel, row, text)
                    if found is not None:
                        sent.append(found)
                        continue
                last = index == len(texts) - 1
                await self._claim(row.channel_id)  # the wait and the picture above, or the last message, took time
                files = [discord.File(io.BytesIO(png), filename="board.png")] if last and png else []
                message = await self._send(channel, channel.send(
                    text, files=files, view=self._view(post) if last else discord.utils.MISSING,
                    allowed_mentions=mentions(set(post.pings)), nonce=f"{row.id}.{index}"))
                sent.append(message.id)
                await self.service.post_sent(row, sent)
            if post.state is not None and spec(post.game).pinned_board:  # after the story, so it reads first
                board = png or await self.service.picture(post.game, row.id, post.state, post.events, post.away,
                                                          post.language)
                if board:
                    await self._pinned(channel, row, board)
            await self.service.post_delivered(row, sent)
            return True
        except discord.HTTPException as err:
            if never(err):
                await self.service.post_parked(row, f"{err.status} {err.text or type(err).__name__}")
                return False
            log.warning("post %s to channel %s failed (%s); it waits", row.id, row.channel_id, err)
        except FAILURES as err:
            log.warning("post %s to channel %s failed (%r); it waits", row.id, row.channel_id, err)
        await self.service.post_sent(row, sent, retry_in=backoff(row.attempts + 1))
        return False

    async def _pinned(self, channel: discord.PartialMessageable, row: Queued, png: bytes) -> None:
        """Show `png` in the game's pinned board message: edited in place, or posted and pinned when there is none
        yet (or it was deleted). Pinning is a courtesy: without the permission the message is still kept up to
        date. A crash between posting and recording it posts nothing twice: the post's nonce finds it again."""
        game = spec(row.post.game)
        caption = translate("board.pinned", row.post.language, game=title(game.name))
        known = await self.service.board_message(row.game_id)
        message: discord.Message | None = None
        if known is not None:
            with contextlib.suppress(discord.NotFound):
                message = await self._send(channel, channel.get_partial_message(known).edit(
                    content=caption, attachments=[discord.File(io.BytesIO(png), filename="board.png")]))
        if message is None:
            message = await self._send(channel, channel.send(
                caption, files=[discord.File(io.BytesIO(png), filename="board.png")], nonce=f"b{row.id}",
                allowed_mentions=discord.AllowedMentions.none()))
            await self.service.board_posted(row.game_id, message.id)
        if message.pinned or row.game_id in self._unpinnable:
            return
        try:
            await self._send(channel, message.pin(reason=f"{game.title}: the board, kept up to date"))
        except discord.HTTPException as err:
            if not never(err):
                raise  # Discord had a moment: the post is tried again, board first
            self._unpinnable.add(row.game_id)  # no permission, or the channel's pins are full: not asked again
            log.info("the board of game %s in channel %s stays unpinned: %s", row.game_id, row.channel_id, err)

    async def _send(self, channel: discord.PartialMessageable, sending: Coroutine[Any, Any, T]) -> T:
        """Send one message, waiting at most `timeout` for Discord's answer (TimeoutError after that). A send
        that takes longer is left to end by itself, not cancelled: cancelled while it sleeps out a global rate
        limit, discord.py never lifts that limit, and the bot could post nothing more anywhere."""
        task = asyncio.ensure_future(sending)
        task.add_done_callback(_outcome_seen)
        self._sending[channel.id] = task
        await asyncio.wait([task], timeout=self.timeout)
        if not task.done():
            raise TimeoutError(f"no answer within {self.timeout} s")
        return task.result()

    async def _unhurried(self, channel_id: int) -> None:
        """Wait (up to `timeout`, else TimeoutError) until the channel's last send has ended: a post that gave up
        on it is tried again only once Discord has answered it, so that its look-up sees what that send did."""
        task = self._sending.get(channel_id)
        if task is not None and not task.done():
            await asyncio.wait([task], timeout=self.timeout)
            if not task.done():
                raise TimeoutError(f"an earlier send to the channel is still unanswered after {self.timeout} s")

    async def _already_there(self, channel: discord.PartialMessageable, row: Queued, text: str) -> int | None:
        """The id of a message of ours with `text` after the last one recorded: sent before a crash hid it."""
        me = self.bot.user
        anchor = row.sent[-1] if row.sent else await self.service.last_delivered(row.channel_id)
        after = discord.Object(id=anchor) if anchor is not None else None
        with contextlib.suppress(*FAILURES):
            async for message in channel.history(limit=LOOKBACK, after=after):
                if me is not None and message.author.id == me.id and message.content == text:
                    return message.id
        return None

    async def _board(self, row: Queued, post: Post) -> tuple[list[str], bytes | None]:
        """The post's messages and the picture of its board; a game without a picture gets its text board as
        further messages."""
        if not post.picture or post.state is None:
            return post.messages, None
        png = await self.service.picture(post.game, row.id, post.state, post.events, post.away, post.language)
        if png:
            return post.messages, png
        ruleset = get(post.game)
        board = ruleset.text_board(from_json(ruleset.state_model, post.state))
        return [*post.messages, *chunks(board.splitlines())], None

    def _view(self, post: Post) -> Any:
        controls = self.controls.get(post.game)
        if not post.controls or post.state is None or controls is None:
            return discord.utils.MISSING
        ruleset = get(post.game)
        view = controls(from_json(ruleset.state_model, post.state), [ruleset.parse_event(e) for e in post.events],
                        post.language)
        return view if view is not None else discord.utils.MISSING


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Delivery(bot))
