"""Finding the bot's messages in what it said, in any language."""

from __future__ import annotations

import re

from engine.core.i18n import catalogue


def fragment(key: str, language: str = "en") -> str:
    """The longest placeholder-free stretch of a message: it identifies the message in any reply."""
    return max(re.split(r"\{[^}]*\}", catalogue(language)[key]), key=len).strip()
