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
    """Every message of `locale`: the union of `data/locales/<locale>/*.json` (one file per game or area)."""
    merged: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / locale).glob("*.json")):
        part = json.loads(path.read_text(encoding="utf-8"))
        clash = merged.keys() & part.keys()
        if clash:
            raise ValueError(f"{path}: message ids defined twice: {sorted(clash)}")
        merged.update(part)
    return merged


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def translate(key: str, locale: str = DEFAULT_LOCALE, **params: Any) -> str:
    """Render message `key` in `locale`, falling back to English, then to the key itself.

    A parameter written "@other.key" is itself a message and is translated in the same locale;
    a list parameter is translated item by item and joined with commas.
    """
    template = catalogue(locale).get(key) or catalogue(DEFAULT_LOCALE).get(key) or key
    values = {name: _value(value, locale) for name, value in params.items()}
    return string.Formatter().vformat(template, (), _Lenient(values))


def _value(value: Any, locale: str) -> Any:
    if isinstance(value, str) and value.startswith("@"):
        return translate(value[1:], locale)
    if isinstance(value, list | tuple):
        return ", ".join(str(_value(v, locale)) for v in value)
    return value


def plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many
