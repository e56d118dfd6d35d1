"""Raw SQL in tests that set up or inspect a store's rows by hand, on SQLite or PostgreSQL alike.

Queries are written with SQLite's `?` placeholders; on PostgreSQL they become `$1`, `$2` … A test needs this only
where no store method does what it wants (damaging a row, moving a timer, copying the whole database).
"""

from __future__ import annotations

import re
from typing import Any

from engine.store import Store

_MARK = re.compile(r"\?")


def _dialect(db: Any, sql: str) -> str:
    """`sql` for the connection's database: PostgreSQL numbers its placeholders."""
    if not hasattr(db, "fetch"):  # aiosqlite
        return sql
    count = iter(range(1, sql.count("?") + 1))
    return _MARK.sub(lambda _: f"${next(count)}", sql)


async def execute(store: Store, sql: str, *params: Any) -> None:
    """Run one statement in a transaction of its own."""
    async with store.transaction() as db:  # type: ignore[attr-defined]
        if hasattr(db, "fetch"):
            await db.execute(_dialect(db, sql), *params)
        else:
            await db.execute(sql, params)


async def rows(store: Store, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """The rows of one query, as tuples."""
    async with store.transaction() as db:  # type: ignore[attr-defined]
        if hasattr(db, "fetch"):
            return [tuple(row) for row in await db.fetch(_dialect(db, sql), *params)]
        return [tuple(row) for row in await db.execute_fetchall(sql, params)]
