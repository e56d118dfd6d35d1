"""One translation function for every player-facing string, keyed by message id."""

from __future__ import annotations

import json
import string
from functools import cache
from pathlib import Path
from typing import Any

LOCALES_DIR = Path(__file__).resolve().parents[2] / "data" / "locales"
DEFAULT_LOCALE = "en"


@cache
def catalogue(locale: str) -> dict[str, str]:
    path = LOCALES_DIR / f"{locale}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def translate(key: str, locale: str = DEFAULT_LOCALE, **params: Any) -> str:
    """Render message `key` in `locale`, falling back to English, then to the key itself."""
    template = catalogue(locale).get(key) or catalogue(DEFAULT_LOCALE).get(key) or key
    return string.Formatter().vformat(template, (), _Lenient(params))


def plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many
