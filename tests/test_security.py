"""Security: the token stays secret, .env stays out of git, and every SQL statement takes its values as parameters."""

from __future__ import annotations

import ast
import asyncio
import subprocess
import sys
from pathlib import Path

from bot import Settings
from tests.discord.fakediscord import FakeDiscord
from tests.test_bot import clean_env

ROOT = Path(__file__).resolve().parents[1]
SQL_CALLS = {"execute", "executemany", "execute_fetchall", "_one", "_all", "fetch", "fetchrow", "fetchval"}
"""The calls that run SQL: aiosqlite's and asyncpg's, and the stores' own helpers."""
SAFE_NAMES = {"GAME_COLUMNS", "TIMER_COLUMNS", "ACTION_COLUMNS", "POST_COLUMNS", "number", "len(params)",
              "len(params) - 1"}
"""Values an f-string of SQL may interpolate: fixed column lists, a migration number (an int we count), and the
number of a PostgreSQL placeholder ($n, counted from the parameters we pass)."""


def test_security_dotenv_is_ignored_by_git() -> None:
    done = subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=ROOT)
    assert done.returncode == 0, ".env must be git-ignored"
    tracked = subprocess.run(["git", "ls-files", ".env"], cwd=ROOT, capture_output=True, text=True).stdout
    assert tracked == ""


def test_security_settings_never_show_the_token() -> None:
    settings = Settings(discord_token="super-secret-token-value")
    for text in (repr(settings), str(settings), str(settings.model_dump()), settings.model_dump_json()):
        assert "super-secret-token-value" not in text


def _interpolations(node: ast.AST) -> list[str]:
    """The source of every value an f-string interpolates (empty for a plain string)."""
    if isinstance(node, ast.JoinedStr):
        return [ast.unparse(v.value) for v in node.values if isinstance(v, ast.FormattedValue)]
    return []


def test_security_all_sql_is_parameterized() -> None:
    """No SQL string is built from values: f-strings only splice fixed column lists and SET clauses we build."""
    offenders = []
    for path in [*ROOT.glob("engine/**/*.py"), *ROOT.glob("cogs/**/*.py"), ROOT / "bot.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr in SQL_CALLS and call.args):
                continue
            sql = call.args[0]
            if isinstance(sql, ast.Constant) and isinstance(sql.value, str):
                continue
            parts = _interpolations(sql)
            if isinstance(sql, ast.JoinedStr) and all(p in SAFE_NAMES or p == "', '.join(sets)" for p in parts):
                continue
            if isinstance(sql, ast.Name) and sql.id in ("statement", "sql"):  # migrations' DDL; _one/_all pass-through
                continue
            offenders.append(f"{path.relative_to(ROOT)}:{call.lineno}: {ast.unparse(sql)[:80]}")
    assert not offenders, "SQL built from values:\n" + "\n".join(offenders)


def test_security_set_clauses_name_only_fixed_columns() -> None:
    """`update_game` splices column names into SET; they come from a literal tuple, never from a caller."""
    for store in ("sqlite.py", "postgres.py"):
        source = (ROOT / "engine" / "store" / store).read_text(encoding="utf-8")
        assert 'for column, value in (("lobby", ' in source, store
        assert '("status", status), ("host_id", host_id)):' in source, store


async def test_security_token_never_in_logs_even_at_debug(tmp_path: Path) -> None:
    token = "Mz-a-valid-looking.secret-token"
    async with FakeDiscord(token=token) as fake:
        env = clean_env(**fake.env(), DISCORD_TOKEN=token, DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
                        LOG_LEVEL="DEBUG")
        log = tmp_path / "bot.log"  # a file, not a pipe: DEBUG output would fill a pipe and stall the bot
        with log.open("wb") as out:
            proc = await asyncio.create_subprocess_exec(sys.executable, "bot.py", cwd=ROOT, env=env, stdout=out,
                                                        stderr=asyncio.subprocess.STDOUT)
            try:
                await fake.wait_until_identified(timeout=30)
                await fake.wait_for(lambda r: r.route == "sync_global", 30)
                await fake.wait_until(lambda: "synced" in log.read_text(errors="replace"), 30, what="the ready line")
            finally:
                proc.kill()
                await proc.wait()
    text = log.read_text(errors="replace")
    assert "DEBUG discord.gateway" in text and "ready:" in text  # it did log, verbosely
    assert token not in text
