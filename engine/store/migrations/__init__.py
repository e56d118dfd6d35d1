"""The numbered schema migrations, one folder per SQL dialect: `<dialect>/NNNN_name.sql`, applied in order.

A file's lines that start with `--` say what it is for; the rest is its statements, separated by `;`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent


@cache
def load(dialect: str) -> tuple[str, ...]:
    """The dialect's migrations in order, without their comment lines; migration N is the (N-1)-th."""
    files = sorted((HERE / dialect).glob("[0-9][0-9][0-9][0-9]_*.sql"))
    numbers = [int(f.name[:4]) for f in files]
    if numbers != list(range(1, len(files) + 1)):
        raise RuntimeError(f"the {dialect} migrations are not numbered 1 to {len(files)}: {numbers}")
    return tuple("\n".join(line for line in f.read_text(encoding="utf-8").splitlines()
                           if not line.lstrip().startswith("--")) for f in files)


def statements(migration: str) -> list[str]:
    """A migration's statements, one by one."""
    return [s.strip() for s in migration.split(";") if s.strip()]
