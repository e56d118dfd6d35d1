"""Cog tests: the real bot, real command dispatch, HTTP answered in memory, a fresh SQLite file each."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot import GameMasterBot, Settings
from engine.core.models import GameState
from engine.core.rng import RngState
from engine.games.risk import RiskState
from tests.discord.harness import DispatchHarness, InteractionResult

S = TypeVar("S", bound=GameState)


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[DispatchHarness]:
    bot = GameMasterBot(Settings(database_path=tmp_path / "bot.sqlite3", discord_token=None))
    async with DispatchHarness(bot, setup_hook=True) as harness:
        yield harness
    await bot.close()


def uid(member: dict[str, Any]) -> int:
    return int(member["user"]["id"])


def channel_id(h: DispatchHarness) -> int:
    return int(h.world.channel["id"])


def refused(result: InteractionResult, text: str) -> None:
    """The bot answered privately with a warning containing `text`."""
    assert result.ephemeral, f"expected a private answer, got: {result.content!r}"
    assert result.content.startswith("⚠️"), result.content
    assert text in result.content, result.content


async def start_game(h: DispatchHarness, *names: str, game: str = "risk", **options: Any) -> list[dict[str, Any]]:
    """Open, fill and start a game with these members (the first is the host); returns the members.

    A Risk game is dealt at random with bulk placement unless the options say otherwise.
    """
    members = [h.add_member(n) for n in names]
    defaults = {"setup": "random_deal", "placement": "bulk_sequential"} if game == "risk" else {}
    await h.slash("game", "new", options={"game": game, **defaults, **options}, user=members[0])
    for m in members[1:]:
        await h.slash("game", "join", user=m)
    await h.slash("game", "start", user=members[0])
    return members


async def state_of(h: DispatchHarness, model: type[S] = RiskState) -> S:  # type: ignore[assignment]
    _, state = await h.bot.service.current(channel_id(h))  # type: ignore[attr-defined]
    assert isinstance(state, model)
    return state


async def put_state(h: DispatchHarness, state: S, dice: list[int] | None = None) -> S:
    """Replace the channel's game state (for a scenario), optionally forcing the next die faces."""
    if dice is not None:
        state = state.model_copy(update={"rng": RngState(state=state.rng.state, forced=dice)})
    service = h.bot.service  # type: ignore[attr-defined]
    game = await service.store.live_game(channel_id(h))
    await service.store.update_game(game.id, game.version, state=state.model_dump_json())
    return state
