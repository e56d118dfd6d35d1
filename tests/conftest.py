"""Shared pytest configuration: make the project importable from any working directory, and PostgreSQL fixtures."""

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.postgres import Server, fresh_database, start_server

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Server | None]:
    """The session's PostgreSQL server, started when a test first asks for it; None when the machine has none."""
    with start_server() as server:
        yield server


@pytest.fixture
async def postgres_url(postgres_server: Server | None) -> AsyncIterator[str]:
    """The URL of a fresh, empty PostgreSQL database, dropped after the test; skips the test without a server."""
    if postgres_server is None:
        pytest.skip("no PostgreSQL server on this machine")
    async with fresh_database(postgres_server) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's stores live: an SQLite file, or a fresh PostgreSQL database (skipped without a server)."""
    if request.param == "sqlite":
        return str(tmp_path / "bot.sqlite3")
    return str(request.getfixturevalue("postgres_url"))
