"""Cog tests: the real bot, real command dispatch, HTTP answered in memory, a fresh SQLite file each."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot import GameMasterBot, Settings
from engine.core.models import GameState, json_text
from engine.core.rng import RngState
from engine.games.risk import RiskState
from tests.discord.harness import DispatchHarness, InteractionResult
from tests.sql import execute, rows

S = TypeVar("S", bound=GameState)


@pytest.fixture
async def h(tmp_path: Path, location: str) -> AsyncIterator[DispatchHarness]:
    """The bot on either store, its HTTP answered in memory."""
    url = location if location.startswith("postgresql:") else None
    bot = GameMasterBot(Settings(database_path=tmp_path / "bot.sqlite3", database_url=url, discord_token=None,
                                 rate_limit_per_minute=100_000, rate_limit_burst=1000))  # tests click fast
    async with DispatchHarness(bot, setup_hook=True) as harness:
        yield harness
    await bot.close()


def uid(member: dict[str, Any]) -> int:
    return int(member["user"]["id"])


def channel_id(h: DispatchHarness, channel: dict[str, Any] | None = None) -> int:
    """The id of `channel`, by default the world's channel."""
    return int((channel or h.world.channel)["id"])


def refused(result: InteractionResult, text: str) -> None:
    """The bot answered privately with a warning containing `text` (after a button's silent acknowledgement, in
    a followup)."""
    answer = result.followups[-1] if result.callback_type == 6 and result.followups else result.response
    assert answer is not None, f"no answer; requests: {result.requests}"
    assert answer.ephemeral, f"expected a private answer, got: {answer.content!r}"
    assert answer.content.startswith("⚠️"), answer.content
    assert text in answer.content, answer.content
    assert not result.posts, f"a refusal posted in the channel: {result.said!r}"


async def start_game(h: DispatchHarness, *names: str, game: str = "risk", **options: Any) -> list[dict[str, Any]]:
    """Open, fill and start a game with these members (the first is the host); returns the members.

    A Risk game is dealt at random with bulk placement unless the options say otherwise.
    """
    members = [h.add_member(n) for n in names]
    defaults = {"setup": "random_deal", "placement": "bulk_sequential"} if game == "risk" else {}
    await h.slash("new", game, options={**defaults, **options}, user=members[0])
    for m in members[1:]:
        await h.slash("game", "join", user=m)
    await h.slash("game", "start", user=members[0])
    return members


async def state_of(h: DispatchHarness, model: type[S] = RiskState,  # type: ignore[assignment]
                   channel: dict[str, Any] | None = None) -> S:
    """The channel's game state once its AI seats have played what is theirs."""
    await h.bot.service.idle(channel_id(h, channel))  # type: ignore[attr-defined]
    _, state = await h.bot.service.current(channel_id(h, channel))  # type: ignore[attr-defined]
    assert isinstance(state, model)
    return state


async def delivered(h: DispatchHarness, channel: dict[str, Any] | None = None) -> None:
    """Wait until the channel has every post that is due (those queued outside an interaction too)."""
    service = h.bot.service  # type: ignore[attr-defined]
    where = channel_id(h, channel)
    await service.idle(where)
    for _ in range(1000):
        post = await service.next_post(where)
        if post is None or post.next_try > time.time():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"channel {where}: post {post.id} was not delivered")


async def put_state(h: DispatchHarness, state: S, dice: list[int] | None = None,
                    channel: dict[str, Any] | None = None) -> S:
    """Replace the channel's game state (for a scenario), optionally forcing the next die faces; the next post
    pings whoever must decide in it, as nobody was told of the position."""
    if dice is not None:
        state = replace(state, rng=RngState(state=state.rng.state, forced=dice))
    service = h.bot.service  # type: ignore[attr-defined]
    game = await service.store.live_game(channel_id(h, channel))
    await service.store.update_game(game, state=json_text(state))
    await execute(service.store, "UPDATE games SET waiting = '[]' WHERE id = ?", game.id)
    return state


@dataclass(frozen=True)
class Stored:
    """Everything a command can change in the database: game rows, the action log, the clocks, the outbox."""

    games: tuple[tuple[Any, ...], ...]
    actions: tuple[tuple[Any, ...], ...]
    timers: tuple[tuple[Any, ...], ...]
    posts: tuple[tuple[Any, ...], ...]

    def moves(self) -> dict[int, int]:
        """The last logged seq of each game."""
        last: dict[int, int] = {}
        for game_id, seq, *_ in self.actions:
            last[game_id] = max(seq, last.get(game_id, seq))
        return last


async def stored(h: DispatchHarness) -> Stored:
    """A byte-for-byte copy of the database's games, actions, timers and queued posts (timestamps and delivery
    progress aside)."""
    store = h.bot.service.store  # type: ignore[attr-defined]
    found = []
    for sql in ("SELECT id, channel_id, guild_id, ruleset, status, host_id, seed, lobby, state, version, "
                "announced, waiting FROM games ORDER BY id",
                "SELECT game_id, seq, actor, action, events, interaction_id FROM actions ORDER BY game_id, seq",
                "SELECT id, game_id, kind, due_at, payload, player FROM timers ORDER BY id",
                "SELECT id, game_id, channel_id, payload FROM outbox ORDER BY id"):
        found.append(tuple(await rows(store, sql)))
    return Stored(*found)


async def restore(h: DispatchHarness, saved: Stored) -> None:
    """Put the database back as `saved` found it; versions only grow, so no cached state is reused."""
    store = h.bot.service.store  # type: ignore[attr-defined]
    ids = [row[0] for row in saved.games] or [-1]  # -1: no game; PostgreSQL takes no empty list
    await execute(store, f"DELETE FROM games WHERE id NOT IN ({', '.join('?' * len(ids))})", *ids)
    for game_id, last in saved.moves().items():
        await execute(store, "DELETE FROM actions WHERE game_id = ? AND seq > ?", game_id, last)
    logged = list(saved.moves()) or [-1]
    await execute(store, f"DELETE FROM actions WHERE game_id NOT IN ({', '.join('?' * len(logged))})", *logged)
    for game_id, _, _, _, status, host_id, _, lobby, state, _, announced, waiting in saved.games:
        await execute(store, "UPDATE games SET status = ?, host_id = ?, lobby = ?, state = ?, version = version + 1, "
                      "announced = ?, waiting = ? WHERE id = ?", status, host_id, lobby, state, announced, waiting,
                      game_id)
    await execute(store, "DELETE FROM outbox WHERE id > ?", max((row[0] for row in saved.posts), default=0))
    await execute(store, "DELETE FROM timers")
    keep_ids = "OVERRIDING SYSTEM VALUE " if store.shared else ""  # PostgreSQL numbers its rows itself otherwise
    for timer in saved.timers:
        await execute(store, f"INSERT INTO timers (id, game_id, kind, due_at, payload, player) {keep_ids}"
                      "VALUES (?, ?, ?, ?, ?, ?)", *timer)


MENTION = re.compile(r"<@!?(\d+)>")


def pinged(result: InteractionResult) -> set[int]:
    """The users the bot's posts in `result` ping, as Discord decides: mentioned in the content and let through
    by the post's allowed_mentions (Discord's default, with none given, lets every mention through)."""
    found: set[int] = set()
    for request in result.requests:
        body = request.json if isinstance(request.json, dict) else {}
        body = body.get("data") or body if "type" in body else body
        if not isinstance(body, dict):
            continue
        named = {int(x) for x in MENTION.findall(body.get("content") or "")}
        allowed = body.get("allowed_mentions")
        if allowed is None or "users" in allowed.get("parse", []):
            found |= named
        else:
            found |= named & {int(u) for u in allowed.get("users", [])}
    return found
