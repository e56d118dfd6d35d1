"""A restart loses nothing: a new bot on the same database continues, and old buttons still work."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import GameMasterBot, Settings
from engine.games.risk import RiskState
from engine.service import GameService, Outcome
from tests.cogs.conftest import put_state, start_game, state_of, uid
from tests.cogs.test_risk import scenario
from tests.discord.harness import DispatchHarness
from tests.discord.payloads import World


async def test_buttons_posted_before_a_restart_still_work(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    world = World()
    first_bot = GameMasterBot(Settings(database_path=db))
    async with DispatchHarness(first_bot, world, setup_hook=True) as h:
        members = await start_game(h, "Ada", "Bo", "Cy")
        base = await state_of(h)
        me, them = base.players[0].id, base.players[1].id
        attacker = next(m for m in members if uid(m) == me)
        s = scenario(base, owner={"alaska": me, "kamchatka": them}, armies={"alaska": 8, "kamchatka": 1})
        await put_state(h, s, dice=[6, 5, 4, 1])
        attacked = await h.slash("risk", "attack", options={"source": "alaska", "target": "kamchatka"},
                                 user=attacker)
        old_message = attacked.post
        move_max = f"risk:move:{s.seq + 1}:7"
        assert move_max in old_message.custom_ids()
    await first_bot.close()

    second_bot = GameMasterBot(Settings(database_path=db))
    async with DispatchHarness(second_bot, world, setup_hook=True) as h2:
        pressed = await h2.button(move_max, user=attacker, message=old_message.payload)
        assert "moves 7 armies into Kamchatka" in pressed.said
        again = await h2.button(move_max, user=attacker, message=old_message.payload)
        assert again.ephemeral and "earlier moment" in again.content
        _, after = await second_bot.service.current(int(world.channel["id"]))
        assert isinstance(after, RiskState) and after.armies["kamchatka"] == 7
    await second_bot.close()


async def test_a_trade_menu_opened_before_a_restart_still_trades(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    world = World()
    first_bot = GameMasterBot(Settings(database_path=db))
    async with DispatchHarness(first_bot, world, setup_hook=True) as h:
        members = await start_game(h, "Ada", "Bo", "Cy")
        base = await state_of(h)
        me = base.players[0].id
        player = next(m for m in members if uid(m) == me)
        cards = ["alaska", "venezuela", "peru"]
        s = scenario(base, phase=base.phase.REINFORCE, hands={p.id: cards if p.id == me else [] for p in base.players})
        await put_state(h, s)
        menu = await h.slash("risk", "trade", user=player)
        select = menu.components[0]["components"][0]
    await first_bot.close()

    second_bot = GameMasterBot(Settings(database_path=db))
    async with DispatchHarness(second_bot, world, setup_hook=True) as h2:
        traded = await h2.select(select["custom_id"], cards, user=player, message=menu.response.payload)
        assert "for 4 armies" in traded.said
        stale = await h2.select(select["custom_id"], cards, user=player, message=menu.response.payload)
        assert stale.ephemeral and "earlier moment" in stale.content
    await second_bot.close()


async def test_closing_stops_the_ai_seats_before_the_delivery_and_a_stopped_delivery_starts_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """AI seats still playing while the cogs unload would queue posts that a closing store can't deliver: they stop
    first (between two actions; the next start plays on), and a post queued after all is left to the next start."""
    bot = GameMasterBot(Settings(database_path=tmp_path / "bot.sqlite3"))
    order: list[str] = []
    async with DispatchHarness(bot, World(), setup_hook=True):
        delivery = bot.get_cog("Delivery")
        assert delivery is not None
        stop, unload = bot.service.stop, delivery.cog_unload

        async def stopping() -> None:
            order.append("AI seats")
            await stop()

        async def unloading() -> None:
            order.append("delivery")
            await unload()

        monkeypatch.setattr(bot.service, "stop", stopping)
        monkeypatch.setattr(delivery, "cog_unload", unloading)
        await bot.close()
        delivery.deliver(12345)  # an AI seat's post, queued as the bot closes
        assert 12345 not in delivery._channels
    assert order == ["AI seats", "delivery"]



async def test_what_a_restart_tells_quotes_commands_as_mentions(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The posts a restart queues (what a crash left untold) are written once the commands are synced, so the
    commands they quote are mentions like everyone else's."""
    bot = GameMasterBot(Settings(database_path=tmp_path / "bot.sqlite3"))
    seen: list[str] = []

    async def resume_all(service: GameService) -> list[Outcome]:
        seen.append(bot.links("`/game start`", "en"))
        return []

    monkeypatch.setattr(GameService, "resume_all", resume_all)
    async with DispatchHarness(bot, World(), setup_hook=True) as h:
        game = next(c["id"] for c in h.api.synced_commands() if c["name"] == "game")
        assert seen == [f"</game start:{game}>"]
    await bot.close()
