"""Persistence behind one protocol (`Store`); SQLite (`SqliteStore`) is the default backend."""

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

__all__ = ["MIGRATIONS", "ActionRow", "ChannelBusy", "Command", "DuplicateInteraction", "GameRow", "GuildFull",
           "HostFull", "PostRow", "SqliteStore", "Store", "StoreError", "StoreUnavailable", "TimerRow",
           "VersionConflict"]
