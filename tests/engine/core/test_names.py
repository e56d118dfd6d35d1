"""One way to compare what a player typed with the names of things, for every game and autocomplete."""

from __future__ import annotations

import pytest

from engine.core.names import normalise


@pytest.mark.parametrize("typed", ["Great Britain & Ireland", "great_britain_ireland", "GREAT-BRITAIN, IRELAND",
                                   "  great   britain &ireland "])
def test_spellings_of_one_name_are_one(typed: str) -> None:
    assert normalise(typed) == "great britain ireland"


def test_apostrophes_and_colons_separate_words() -> None:
    assert normalise("Wizard’s Quest: 1.2") == normalise("wizard's quest 1 2") == "wizard s quest 1 2"
