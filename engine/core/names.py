"""How what a player typed is compared with the names of places, cards and units, in every game and in autocomplete."""

from __future__ import annotations

import re

_SEPARATORS = re.compile(r"[\s_\-.,:&'’]+")


def normalise(text: str) -> str:
    """`text` in lower case, with spaces, underscores, dashes and punctuation each one space: `Great Britain &
    Ireland`, `great_britain_ireland` and `great-britain, ireland` are one spelling."""
    return _SEPARATORS.sub(" ", text.strip().lower()).strip()
