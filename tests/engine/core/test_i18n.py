"""The message catalogue: one file per area, merged; a clash of ids is an error, not a silent override."""

from __future__ import annotations

import json
import re
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


def test_plural_categories_follow_each_language() -> None:
    assert [i18n.plural_category("en", n) for n in (0, 1, 2, 1.5)] == ["other", "one", "other", "other"]
    assert [i18n.plural_category("ru", n) for n in (1, 21, 2, 24, 5, 11, 12, 111, 0, 1.5)] == [
        "one", "one", "few", "few", "many", "many", "many", "many", "many", "other"]
    assert {i18n.plural_category("ko", n) for n in (0, 1, 2, 5)} == {"other"}


def test_choices_pick_the_number_and_the_value(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    armies = "{n, plural, =0 {no armies} one {# army} other {# armies}}"
    messages = {"x.armies": f"You have {armies}.", "x.boat": "{how, select, boat {by boat} other {by land}} to {to}",
                "x.nested": "{a, plural, one {# roll{b, plural, =0 {} other {, # lost}}} other {# rolls}}",
                "x.braces": "{{not a param}} {n}"}
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "a.json").write_text(json.dumps(messages))
    (tmp_path / "ru").mkdir()
    (tmp_path / "ru" / "a.json").write_text(json.dumps(
        {"x.armies": "{n, plural, one {# армия} few {# армии} many {# армий} other {# армии}}"}))
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    i18n.catalogue.cache_clear()
    try:
        assert [i18n.translate("x.armies", n=n) for n in (0, 1, 3)] == [
            "You have no armies.", "You have 1 army.", "You have 3 armies."]
        assert [i18n.translate("x.armies", "ru", n=n) for n in (1, 3, 5, 21)] == [
            "1 армия", "3 армии", "5 армий", "21 армия"]
        assert i18n.translate("x.boat", how="boat", to="3.6") == "by boat to 3.6"
        assert i18n.translate("x.boat", how="swim", to="3.6") == "by land to 3.6"
        assert i18n.translate("x.nested", a=1, b=0) == "1 roll"
        assert i18n.translate("x.nested", a=1, b=2) == "1 roll, 2 lost"
        assert i18n.translate("x.braces", n=2.0) == "{not a param} 2"
    finally:
        i18n.catalogue.cache_clear()


def test_typed_text_is_never_a_message_id_or_markup() -> None:
    assert i18n.translate("decision.ping", player="@already_done", what="x") == "@already_done: x."
    assert i18n.translate("decision.ping", player=i18n.msg("already_done"), what="x").startswith("That was already")
    shown = i18n.inert("@everyone **big** <@123> [link](http://x) `code` ||spoiler|| _i_ ~s~")
    assert not re.search(r"(?<!\\)[@*<\[`|_~]", shown), shown  # every markup character is escaped
    assert i18n.inert("# Heading").startswith("\\#") and i18n.inert("> quote").startswith("\\>")
    assert i18n.inert("Eun-ji") == "Eun-ji" and i18n.inert("-x") == "\\-x"


def test_lists_are_joined_in_words() -> None:
    assert i18n.and_list([]) == "" and i18n.and_list(["a"]) == "a"
    assert i18n.and_list(["a", "b"]) == "a and b" and i18n.and_list(["a", "b", "c", "d"]) == "a, b, c and d"


NOUNS = re.compile(r"\{[a-z_]+\} (?:more |own |starting |reward |setup |kingdom )?(armies|men|cards|pieces|campaigns|"
                   r"dice|orcs|deadlines|days|hours|players|territories|actions|games|locations)\b")


def test_no_shipped_message_builds_an_english_plural_from_a_bare_count() -> None:
    for locale in ("en",):
        for key, text in i18n.catalogue(locale).items():
            i18n._parse(text)  # every message parses, and every choice has its `other` branch
            assert not NOUNS.search(text), f"{key}: a count noun must come from a plural choice: {text}"
