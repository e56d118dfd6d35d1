"""The shipped catalogues: every language has every message, with the parameters its callers give and the plural
forms its grammar needs."""

from __future__ import annotations

import json
import re

import pytest

from engine.core import datanames, i18n

OTHERS = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT_LOCALE]


def _files(language: str) -> dict[str, dict[str, str]]:
    return {path.name: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted((i18n.LOCALES_DIR / language).glob("*.json"))}


def _plain(shape: dict[str, str | frozenset[str]]) -> dict[str, str]:
    """A message's parameters with a plural's branches left out (each language has its own)."""
    return {name: kind if isinstance(kind, str) else "plural" for name, kind in shape.items()}


@pytest.mark.parametrize("language", OTHERS)
def test_every_file_and_message_of_english_is_translated(language: str) -> None:
    english, translated = _files("en"), _files(language)
    assert sorted(translated) == sorted(english), f"{language}: catalogue files differ from English's"
    for name, messages in english.items():
        missing = sorted(messages.keys() - translated[name].keys())
        extra = sorted(translated[name].keys() - messages.keys())
        assert not missing, f"{language}/{name}: not translated: {missing[:10]}"
        assert not extra, f"{language}/{name}: not in English: {extra[:10]}"


@pytest.mark.parametrize("language", OTHERS)
def test_translations_take_the_same_parameters(language: str) -> None:
    english = i18n.catalogue("en")
    wrong = [key for key, text in i18n.catalogue(language).items()
             if key in english and _plain(i18n.shape(text)) != _plain(i18n.shape(english[key]))]
    assert not wrong, f"{language}: parameters differ from English in {wrong[:10]}"


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_plurals_offer_the_forms_of_their_language(language: str) -> None:
    needed = set(i18n.PLURAL_FORMS[language])
    for key, text in i18n.catalogue(language).items():
        for name, kind in i18n.shape(text).items():
            if isinstance(kind, frozenset):
                categories = {branch for branch in kind if not branch.startswith("=")}
                assert categories <= needed, f"{language} {key}: {name} has forms {sorted(categories - needed)}"
                assert needed - {"other"} <= categories or categories == {"other"}, (
                    f"{language} {key}: {name} lacks forms {sorted(needed - categories)}")


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_messages_keep_their_markup_and_mentions_balanced(language: str) -> None:
    for key, text in i18n.catalogue(language).items():
        assert text.strip(), f"{language} {key} is empty"
        assert text.count("`") % 2 == 0, f"{language} {key}: unbalanced code span"
        assert text.count("**") % 2 == 0, f"{language} {key}: unbalanced bold"
        assert not re.search(r"<@!?&?\d", text), f"{language} {key}: a fixed mention"


def test_the_plural_check_can_fail() -> None:
    shape = i18n.shape("{n, plural, one {# армия} other {# армии}}")
    assert shape == {"n": frozenset({"one", "other"})}
    assert not set(i18n.PLURAL_FORMS["ru"]) - {"other"} <= {"one"}


def test_plural_forms_agree_with_the_categories_numbers_fall_in() -> None:
    for language, forms in i18n.PLURAL_FORMS.items():
        assert {i18n.plural_category(language, n) for n in [*range(0, 200), 1.5]} == set(forms)


def test_the_english_names_are_the_data_files_names() -> None:
    """The data stays the source of the English names: after a data change, `python -m engine.core.datanames`."""
    for file, build in datanames.CATALOGUES.items():
        assert _files("en")[file] == build(), f"en/{file} differs from the data: run python -m engine.core.datanames"
