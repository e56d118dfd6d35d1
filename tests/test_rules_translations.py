"""The Battlemist rules reference in German, Russian and Korean: `/bm rules` shows each reader the paragraph
that defines a rule in their language, so every translation defines every rule the English does, once, and keeps
the English's paragraphs (the command finds a rule by splitting the file at blank lines)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"
DEFINED = re.compile(r"\*\*(BM-[A-Z]+-\d+)\*\*")


def paragraphs(text: str) -> list[str]:
    return [p for p in text.split("\n\n") if p.strip()]


@pytest.mark.parametrize("language", ["de", "ru", "ko"])
def test_a_translation_defines_every_rule_once_in_the_same_paragraphs(language: str) -> None:
    english = (RULES / "battlemist.md").read_text(encoding="utf-8")
    translated = (RULES / language / "battlemist.md").read_text(encoding="utf-8")
    assert sorted(DEFINED.findall(translated)) == sorted(DEFINED.findall(english))
    assert len(set(DEFINED.findall(translated))) == len(DEFINED.findall(translated)), "a rule defined twice"
    pairs = list(zip(paragraphs(english), paragraphs(translated), strict=True))
    assert all(DEFINED.findall(en) == DEFINED.findall(tr) for en, tr in pairs), "a rule moved to another paragraph"
