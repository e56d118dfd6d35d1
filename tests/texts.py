"""Finding the bot's messages in what it said, in any language."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.core import i18n
from engine.core.i18n import catalogue


def fragment(key: str, language: str = "en") -> str:
    """The longest stretch of a message without a placeholder or a quoted command (which is sent as a mention): it
    identifies the message in any reply."""
    return max(re.split(r"\{[^}]*\}|`/[^`]*`", catalogue(language)[key]), key=len).strip()


@contextmanager
def stub_catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stubs: Mapping[str, Mapping[str, str]],
                    shipped: Iterable[str] = i18n.LANGUAGES) -> Iterator[None]:
    """Read the catalogues from a copy in `tmp_path`: the `shipped` languages' files, where `stubs` (language →
    messages) replace the messages they name; a message neither has reads English. Forgotten on leaving."""
    for language in shipped:
        shutil.copytree(i18n.LOCALES_DIR / language, tmp_path / language)
    for language, messages in stubs.items():
        (tmp_path / language).mkdir(exist_ok=True)
        for path in (tmp_path / language).glob("*.json"):
            kept = {k: v for k, v in json.loads(path.read_text(encoding="utf-8")).items() if k not in messages}
            path.write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")
        (tmp_path / language / "zz_stub.json").write_text(json.dumps(messages, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    i18n.catalogue.cache_clear()
    try:
        yield
    finally:
        i18n.catalogue.cache_clear()
