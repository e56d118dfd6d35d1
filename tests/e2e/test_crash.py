"""SIGKILL while the bot is in the middle of a command (AI seats answering a human's move), then a restart.

The database must hold exactly the committed actions: its state is the replay of its own action log, nothing is
half-applied, `PRAGMA integrity_check` is ok, and after the restart the game plays on to its end.
"""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

from engine.core.record import replay
from engine.games.risk import RULESET, RiskState
from engine.games.risk.state import Phase
from tests.discord.fakediscord import FakeDiscord
from tests.e2e.botprocess import (
    STARTUP_TIMEOUT_S,
    TOKEN,
    BotProcess,
    bot_env,
    integrity,
    logged_record,
    read_game,
)
from tests.e2e.test_risk_game import Humans

ATTEMPTS = 4
"""Human turns on which to try to cut the AI seats off mid-run."""
BUDGET_S = 120.0


def state_of(db: Path) -> RiskState:
    return read_game(db).parse(RiskState)


async def test_crash_sigkill_in_the_middle_of_a_command(tmp_path: Path) -> None:
    started = time.monotonic()
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(token=TOKEN) as fake:
        alice = await fake.add_member("Alice")
        alice_id = int(alice["user"]["id"])
        env = bot_env(fake.env(), db)
        bot = BotProcess(env, tmp_path)
        humans = Humans(fake, db, {alice_id: alice})
        try:
            await bot.start()
            await fake.wait_until_identified(timeout=STARTUP_TIMEOUT_S)
            await fake.wait_for(lambda r: r.route == "sync_global", STARTUP_TIMEOUT_S)
            await humans.slash(alice_id, "new", "risk", options={"setup": "random_deal",
                                                                 "placement": "bulk_sequential"})
            for _ in range(3):
                await humans.slash(alice_id, "game", "add-ai")
            await humans.slash(alice_id, "game", "start")
            await humans.settled()

            cut = False
            for _ in range(ATTEMPTS):
                # Play Alice's turn up to its end, then end it and kill the bot while the AI seats answer.
                while not (humans.state.phase is Phase.ATTACK and humans.state.current == alice_id
                           and humans.state.interrupt is None):
                    assert humans.snapshot is not None and humans.snapshot.status == "running"
                    await humans.step()
                    await humans.settled()
                before = humans.state.seq
                await fake.slash("risk", "endturn", user=alice)
                deadline = time.monotonic() + 10
                while state_of(db).seq < before + 2 and time.monotonic() < deadline:
                    await asyncio.sleep(0.001)
                await bot.kill()
                crashed = read_game(db)
                assert integrity(db) == "ok"
                # Exactly the committed actions: the saved state is the replay of the saved log.
                replayed, _ = replay(RULESET, logged_record(db))
                assert replayed.digest() == crashed.parse(RiskState).digest()
                assert crashed.actions == crashed.parse(RiskState).seq
                cut = RULESET.pending(crashed.parse(RiskState))[0].player != alice_id
                await bot.start()
                await fake.wait_until_identified(count=bot.runs, timeout=STARTUP_TIMEOUT_S)
                if cut:
                    at = crashed.parse(RiskState).seq
                    await fake.wait_until(lambda at=at: state_of(db).seq > at, STARTUP_TIMEOUT_S,
                                          what="the AI seats resuming after the restart")
                await fake.wait_until(lambda: RULESET.pending(state_of(db))[0].player == alice_id
                                      or read_game(db).status != "running", STARTUP_TIMEOUT_S,
                                      what="Alice's next decision")
                await humans.settled()
                if cut:
                    break
            assert cut, "the kill never landed while AI seats were answering"

            # And on to the end: Alice resigns, and the AI seats play the game out inside that command.
            _, confirm = await humans.slash(alice_id, "risk", "resign", public=False)
            resign = next(c for c in confirm.custom_ids() if c.startswith("risk:resign:"))
            await humans.button(alice_id, resign)
            await fake.wait_until(lambda: read_game(db).status == "finished", BUDGET_S - (time.monotonic() - started),
                                  what="the end of the game")
            final = read_game(db)
            assert final.status == "finished" and final.parse(RiskState).winner not in (None, alice_id)
            replayed, _ = replay(RULESET, logged_record(db))
            assert replayed.digest() == final.parse(RiskState).digest()
        except BaseException:
            print(bot.logs())
            raise
        finally:
            await bot.stop()
        assert integrity(db) == "ok"


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint-in-background"])
async def test_a_stop_signal_closes_the_bot_cleanly(tmp_path: Path, how: signal.Signals) -> None:
    """SIGTERM (Docker, systemd) and Ctrl-C close the bot and it exits with 0, also when it runs as a shell's
    background job, which starts it with SIGINT ignored."""
    async with FakeDiscord(token=TOKEN) as fake:
        bot = BotProcess(bot_env(fake.env(), tmp_path / "bot.sqlite3"), tmp_path)
        await bot.start(background=True)
        await fake.wait_until_identified(timeout=STARTUP_TIMEOUT_S)
        await fake.wait_for(lambda r: r.route == "sync_global", STARTUP_TIMEOUT_S)
        await bot.stop(how)
        assert bot.proc is not None and bot.proc.returncode == 0, bot.logs()
        assert "gamemaster: stopping" in bot.logs()
