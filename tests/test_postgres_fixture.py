"""The PostgreSQL test fixtures: a fresh, empty, isolated database per test, or a skip without a server."""

from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from tests import postgres
from tests.postgres import Server, fresh_database, start_server

TABLES = (
    "SELECT table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')"
)


async def test_postgres_url_is_a_fresh_empty_database(postgres_url: str) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT current_database()") == urlsplit(postgres_url).path.lstrip("/")
        assert await connection.fetch(TABLES) == []
    finally:
        await connection.close()


async def test_fresh_databases_are_distinct_and_isolated(postgres_server: Server, postgres_url: str) -> None:
    async with fresh_database(postgres_server) as other_url:
        assert other_url != postgres_url
        first, other = await asyncpg.connect(postgres_url), await asyncpg.connect(other_url)
        try:
            await first.execute("CREATE TABLE game (id integer PRIMARY KEY)")
            assert [row["table_name"] for row in await first.fetch(TABLES)] == ["game"]
            assert await other.fetch(TABLES) == []
            names = [await connection.fetchval("SELECT current_database()") for connection in (first, other)]
            assert names[0] != names[1]
        finally:
            await first.close()
            await other.close()


async def test_a_fresh_database_is_dropped_afterwards_even_with_connections_open(
    postgres_server: Server, postgres_url: str
) -> None:
    async with fresh_database(postgres_server) as url:
        name = urlsplit(url).path.lstrip("/")
        left_open = await asyncpg.connect(url)
    left_open.terminate()
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT count(*) FROM pg_database WHERE datname = $1", name) == 0
    finally:
        await connection.close()


def test_test_database_url_names_the_server_to_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_DATABASE_URL", "postgresql://gm:secret@db.example:5433/gm_tests?sslmode=disable")
    with start_server() as server:
        assert server == Server("postgresql://gm:secret@db.example:5433/gm_tests?sslmode=disable")
        assert server.database_url("test_1") == "postgresql://gm:secret@db.example:5433/test_1?sslmode=disable"


def test_no_server_binaries_mean_no_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("TEST_DATABASE_URL", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(postgres, "DEBIAN_ROOT", tmp_path)
    with start_server() as server:
        assert server is None


def test_the_binaries_on_path_come_first_then_debian_s_newest(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def install(bindir: Path, *names: str) -> Path:
        bindir.mkdir(parents=True)
        for name in names:
            (bindir / name).write_text("#!/bin/sh\n")
            (bindir / name).chmod(0o755)
        return bindir

    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    monkeypatch.setattr(postgres, "DEBIAN_ROOT", tmp_path / "lib")
    install(tmp_path / "lib/9.6/bin", *postgres.BINARIES)
    newest = install(tmp_path / "lib/15/bin", *postgres.BINARIES)
    install(tmp_path / "lib/16/bin", "pg_ctl")  # only a client's leftovers: no initdb
    assert postgres.find_binaries() == newest
    on_path = install(tmp_path / "bin", *postgres.BINARIES)
    monkeypatch.setenv("PATH", str(on_path))
    assert postgres.find_binaries() == on_path
