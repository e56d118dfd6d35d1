"""The message catalogue: one file per area, merged; a clash of ids is an error, not a silent override."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import i18n


def test_catalogue_merges_every_file_of_a_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "a.json").write_text(json.dumps({"x.one": "One {n}"}))
    (tmp_path / "en" / "b.json").write_text(json.dumps({"x.two": "Two"}))
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    i18n.catalogue.cache_clear()
    try:
        assert i18n.translate("x.one", n=3) == "One 3"
        assert i18n.translate("x.two") == "Two"
        assert i18n.translate("x.three") == "x.three"
    finally:
        i18n.catalogue.cache_clear()


def test_catalogue_refuses_an_id_defined_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "a.json").write_text(json.dumps({"x.one": "One"}))
    (tmp_path / "en" / "b.json").write_text(json.dumps({"x.one": "Uno"}))
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    i18n.catalogue.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"x\.one"):
            i18n.catalogue("en")
    finally:
        i18n.catalogue.cache_clear()


def test_shipped_catalogue_loads() -> None:
    assert i18n.translate("E_NOT_OWNED", territory="Ontario", owner="Ann") != "E_NOT_OWNED"
