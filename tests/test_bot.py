"""bot.py as a user runs it: no token, a bad token, and a clean start against the fake Discord."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from aiohttp import web
from discord.voice_client import VoiceClient

import bot
from tests.discord.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD", "SHARD_"))}
    return {**env, **extra}


def test_without_a_token_it_explains_and_plays_the_demo(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "bot.py", "--out", str(tmp_path / "demo"), "--players", "3"], cwd=ROOT,
                          env=clean_env(DISCORD_TOKEN="", PYTHONWARNINGS="default"), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "No valid Discord bot token was found" in done.stderr
    assert "developers/applications" in done.stderr
    assert (tmp_path / "demo" / "record.json").exists()
    assert "audioop" not in done.stderr, "no warning about discord.py's voice, even where warnings show"


async def test_a_bad_token_gets_a_clear_message_not_a_traceback(tmp_path: Path) -> None:
    async with FakeDiscord(token="the-right-token") as fake:
        env = clean_env(**fake.env(), DISCORD_TOKEN="a-wrong-token", DATABASE_PATH=str(tmp_path / "bot.sqlite3"))
        proc = await asyncio.create_subprocess_exec(sys.executable, "bot.py", cwd=ROOT, env=env,
                                                    stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await asyncio.wait_for(proc.communicate(), 60)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    text = err.decode()
    assert proc.returncode == 2
    assert "No valid Discord bot token was found" in text
    assert "Traceback" not in text
    assert "a-wrong-token" not in text, "the token never appears in output"


def closed_port() -> int:
    """A local port nothing listens on (the system just handed it out and it was closed again)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_discord_gets_one_line_not_a_traceback(tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{closed_port()}/api/v10"
    env = clean_env(DISCORD_TOKEN="abc", DISCORD_API_BASE=base, DATABASE_PATH=str(tmp_path / "bot.sqlite3"))
    done = subprocess.run([sys.executable, "bot.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert f"could not reach Discord at {base}: Cannot connect to host 127.0.0.1" in done.stderr


def test_the_demo_plays_two_player_risk_with_its_option(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "bot.py", "--demo", "--out", str(tmp_path), "--players", "2",
                           "--option", "mode=two_player", "--seed", "6"], cwd=ROOT, env=clean_env(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "record.json").read_text(encoding="utf-8"))
    assert record["options"]["mode"] == "two_player" and len(record["seats"]) == 2


@pytest.mark.parametrize(("args", "line"), [
    (["--players", "3", "--option", "mode=two_player"], "--players 3: Risk with --option mode=two_player takes 2"),
    (["--players", "2"], "--players 2: Risk with default options takes 3–6 players"),
    (["--option", "mode=blitz"], "--option mode=blitz: Input should be 'standard', 'secret_mission' or 'two_player'"),
    (["--option", "fog"], "argument --option: expected NAME=VALUE, e.g. mode=two_player, not 'fog'"),
    (["--game", "wizards_quest", "--players", "1"], "--players 1: Wizard's Quest with default options takes 2–6"),
])
def test_the_demo_refuses_what_its_game_does_not_take_in_one_line(
        args: list[str], line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        bot.main(["--demo", "--out", str(tmp_path), *args])
    assert info.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]  # after argparse's usage line
    assert last.split(": error: ", 1)[1].startswith(line), last
    assert not (tmp_path / "record.json").exists()


def test_help_shows_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        bot.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert info.value.code == 0
    for default in ("(default: risk)", "(default: 4)", "(default: 3)", "(default: out/demo)", "(default: baseline)"):
        assert default in out
    assert "--option NAME=VALUE" in out


async def test_an_error_status_at_start_up_gets_one_line_not_a_traceback(tmp_path: Path) -> None:
    async def refuse(request: web.Request) -> web.Response:
        return web.json_response({"message": "Bad Request", "code": 0}, status=400)

    app = web.Application()
    app.router.add_route("*", "/{path:.*}", refuse)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10"
    env = clean_env(DISCORD_TOKEN="abc", DISCORD_API_BASE=base, DATABASE_PATH=str(tmp_path / "bot.sqlite3"))
    try:
        proc = await asyncio.create_subprocess_exec(sys.executable, "bot.py", cwd=ROOT, env=env,
                                                    stderr=asyncio.subprocess.PIPE)
        _, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        await runner.cleanup()
    text = err.decode()
    assert proc.returncode == 1
    assert "Traceback" not in text
    assert f"Discord refused the bot's start-up at {base}: 400 Bad Request" in text


def test_the_bot_logs_nothing_about_voice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          caplog: pytest.LogCaptureFixture) -> None:
    """discord.Client warns once per process that voice libraries are missing; the bot has no voice."""
    monkeypatch.setattr(VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.INFO, logger="discord"):
        bot.GameMasterBot(bot.Settings(database_path=tmp_path / "bot.sqlite3"))
        logging.getLogger("discord.client").warning("another warning")
    messages = [r.getMessage() for r in caplog.records if r.name == "discord.client"]
    assert messages == ["another warning"], "only those two warnings are silenced"


def test_shard_settings_come_from_the_environment_and_make_a_sharded_bot(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "1, 3")
    settings = bot.Settings(database_path=tmp_path / "bot.sqlite3")
    assert (settings.shard_count, settings.shard_ids) == (4, [1, 3])
    sharded = bot.make_bot(settings)
    assert isinstance(sharded, bot.ShardedGameMasterBot) and isinstance(sharded, bot.commands.AutoShardedBot)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])
    plain = bot.make_bot(bot.Settings(database_path=tmp_path / "bot.sqlite3", shard_count=None, shard_ids=None))
    assert type(plain) is bot.GameMasterBot


def test_the_store_is_postgresql_when_a_database_url_is_set(tmp_path: Path) -> None:
    url = "postgresql://gm:secret@db:5432/gamemaster"
    assert bot.Settings(database_path=tmp_path / "x.sqlite3", database_url=url).store_location() == url
    assert bot.Settings(database_path=tmp_path / "x.sqlite3", database_url=None).store_location() == \
        tmp_path / "x.sqlite3"
    assert "secret" not in repr(bot.Settings(database_url=url)), "the password never shows in a log"


@pytest.mark.parametrize(("env", "says"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "distinct shards from 0 to 1"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "distinct shards from 0 to 1"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
])
def test_wrong_shard_settings_get_one_line_not_a_traceback(tmp_path: Path, env: dict[str, str], says: str) -> None:
    done = subprocess.run([sys.executable, "bot.py"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env=clean_env(DISCORD_TOKEN="abc", DATABASE_PATH=str(tmp_path / "bot.sqlite3"), **env))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "configuration" in done.stderr and says in done.stderr, done.stderr
