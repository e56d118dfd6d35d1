"""Discord failing under the bot (layer 3: the real bot in-process against the fake Discord over HTTP).

A 429 with retry-after and then a 500 on the board post are retried by discord.py: the board is posted once and
the action is saved once. When Discord keeps failing, the game is still saved, `/board` shows the board, and the
outbox posts it, once, when Discord takes posts again.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot import GameMasterBot, Settings
from tests.discord.fakediscord import FakeDiscord
from tests.e2e.botprocess import OPENING

TOKEN = "failures-token"
CHANNEL_POSTS = r"^/channels/\d+/messages$"


def action_log(db: Path) -> tuple[list[int], int]:
    """The logged action sequence numbers, and the saved state's seq."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        seqs = [r[0] for r in con.execute("SELECT seq FROM actions ORDER BY seq")]
        state = con.execute("SELECT json_extract(state, '$.seq') FROM games").fetchone()[0]
        return seqs, state
    finally:
        con.close()


def attempts(db: Path) -> list[int | None]:
    """How often each outbox post was tried, in order (None: not delivered yet)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [a if delivered else None for a, delivered in con.execute(
            "SELECT attempts, delivered_at IS NOT NULL FROM outbox ORDER BY id")]
    finally:
        con.close()


async def open_game(fake: FakeDiscord, host: dict) -> None:
    for path, options in OPENING:
        record = await fake.slash(*path, options=options, user=host)
        assert not (await fake.wait_for_result(record.id)).content.startswith("⚠️")


async def test_discord_failure_429_then_500_on_the_board_post(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(token=TOKEN) as fake:
        host = await fake.add_member("Alice")
        async with fake.run_bot(GameMasterBot(Settings(database_path=db, discord_token=TOKEN))):
            await open_game(fake, host)
            fake.fail_next("POST", CHANNEL_POSTS, 429, retry_after=0.01)
            fake.fail_next("POST", CHANNEL_POSTS, 500)
            first = len(fake.requests)
            start = await fake.slash("game", "start", user=host)
            await fake.wait_for_result(start.id, 15)
            channel = fake.world.channel["id"]
            await fake.wait_until(lambda: any(f.filename == "board.png" for m in fake.messages(channel)
                                              for f in m.files), 15, what="the board post")
            posts = [(r.status, r.scripted) for r in fake.requests[first:] if r.path == f"/channels/{channel}/messages"]
            assert posts[:3] == [(429, True), (500, True), (200, False)]
            boards = [m for m in fake.messages(channel) if any(f.filename == "board.png" for f in m.files)]
            assert len(boards) == 1
            seqs, state_seq = action_log(db)
            assert seqs == sorted(set(seqs)) and (seqs[-1] if seqs else 0) == state_seq  # each action once
        assert not fake.unhandled()


async def test_discord_failure_that_persists_leaves_the_game_saved_and_the_post_comes_later(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(token=TOKEN) as fake:
        host = await fake.add_member("Alice")
        async with fake.run_bot(GameMasterBot(Settings(database_path=db, discord_token=TOKEN))):
            await open_game(fake, host)
            fake.fail_next("POST", CHANNEL_POSTS, 503, times=3)  # discord.py does not retry a 503: the outbox does
            start = await fake.slash("game", "start", user=host)
            await fake.wait_until(lambda: start.acknowledged, 15, what="the acknowledgement of /game start")
            channel = fake.world.channel["id"]
            await fake.wait_until(lambda: any(r.status == 503 for r in fake.requests), 15, what="the failed post")
            assert not any(f.filename == "board.png" for m in fake.messages(channel) for f in m.files)
            _, state_seq = action_log(db)
            board = await fake.slash("board", user=host)
            shown = await fake.wait_for_response(board.id)
            await fake.wait_until(lambda: any(f.filename == "board.png" for m in fake.responses(board.id)
                                              for f in m.files), 15, what="the /board picture")
            assert shown.ephemeral
            seqs, again = action_log(db)
            assert again == state_seq and seqs == sorted(set(seqs))
            await fake.wait_until(lambda: any(f.filename == "board.png" for m in fake.messages(channel)
                                              for f in m.files), 15, what="the board post, after the outbox waited")
            boards = [m for m in fake.messages(channel) if any(f.filename == "board.png" for f in m.files)]
            assert len(boards) == 1
        assert not fake.unhandled()


async def test_a_post_that_keeps_failing_counts_one_attempt_per_try(tmp_path: Path) -> None:
    """Its back-off doubles from one try to the next (1 s, 2 s, 4 s …, see cogs/delivery.backoff): each try counts
    once, however many of its messages went."""
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(token=TOKEN) as fake:
        host = await fake.add_member("Alice")
        async with fake.run_bot(GameMasterBot(Settings(database_path=db, discord_token=TOKEN))):
            await open_game(fake, host)
            lobby = len(attempts(db))
            fake.fail_next("POST", CHANNEL_POSTS, 503, times=2)  # discord.py does not retry a 503: the outbox does
            start = await fake.slash("game", "start", user=host)
            await fake.wait_for_result(start.id, 15)
            await fake.wait_until(lambda: None not in attempts(db), 15, what="every post delivered", poll=0.05)
        assert attempts(db)[lobby:][:1] == [3], "two failed tries and the one that went"
        assert not fake.unhandled()


async def test_a_global_rate_limit_longer_than_the_post_timeout_does_not_stop_the_posts(tmp_path: Path) -> None:
    """discord.py sleeps out a global 429 itself; a post that stops waiting meanwhile must not cancel that sleep,
    or discord.py never lifts its global limit and the bot posts nothing more, in any channel."""
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(token=TOKEN) as fake:
        host = await fake.add_member("Alice")
        async with fake.run_bot(GameMasterBot(Settings(database_path=db, discord_token=TOKEN, post_timeout=0.5))):
            await open_game(fake, host)
            fake.fail_next("POST", CHANNEL_POSTS, 429, retry_after=1.0, scope="global")
            start = await fake.slash("game", "start", user=host)
            await fake.wait_for_result(start.id, 15)
            await fake.wait_until(lambda: None not in attempts(db), 15, what="every post delivered", poll=0.05)
            assert any(r.status == 429 for r in fake.requests), "the rate limit never came"
        assert not fake.unhandled()
