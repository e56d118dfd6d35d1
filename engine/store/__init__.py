"""Persistence behind one protocol (`Store`); SQLite (`SqliteStore`) is the default backend, PostgreSQL
(`PostgresStore`) the one several bot processes can share."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.store.base import (
    ActionRow,
    ChannelBusy,
    Command,
    DuplicateInteraction,
    GameRow,
    GuildFull,
    HostFull,
    PostRow,
    Store,
    StoreError,
    StoreUnavailable,
    TimerRow,
    VersionConflict,
)
from engine.store.sqlite import MIGRATIONS, SqliteStore

if TYPE_CHECKING:
    from engine.store.postgres import PostgresStore

__all__ = ["MIGRATIONS", "ActionRow", "ChannelBusy", "Command", "DuplicateInteraction", "GameRow", "GuildFull",
           "HostFull", "PostRow", "PostgresStore", "SqliteStore", "Store", "StoreError", "StoreUnavailable",
           "TimerRow", "VersionConflict", "open_store"]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


async def open_store(url_or_path: str | Path, clock: Callable[[], float] = time.time) -> Store:
    """The store at `url_or_path`: PostgreSQL for a postgresql:// or postgres:// URL, else the SQLite file at that
    path (or sqlite:///path)."""
    location = str(url_or_path)
    if location.startswith(POSTGRES_SCHEMES):
        from engine.store.postgres import PostgresStore

        return await PostgresStore.open(location, clock)
    return await SqliteStore.open(location.removeprefix(SQLITE_SCHEME), clock)


def __getattr__(name: str) -> Any:
    """`PostgresStore`, imported when first asked for: a bot on SQLite never loads asyncpg."""
    if name == "PostgresStore":
        from engine.store.postgres import PostgresStore

        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
