"""A map's links are checked once, when its data file is loaded."""

from __future__ import annotations

import pytest

from engine.core.graph import check_links

PLACES = {"a", "b", "c"}


def test_links_between_known_places_pass() -> None:
    check_links([("a", "b"), ("b", "c")], PLACES, "edge")


@pytest.mark.parametrize(("links", "problem"), [
    ([("a", "a")], "edge a-a joins a place to itself"),
    ([("a", "z")], "edge a-z names an unknown place"),
    ([("a", "b"), ("b", "a")], "duplicate edge b-a"),
])
def test_a_bad_link_is_named(links: list[tuple[str, str]], problem: str) -> None:
    with pytest.raises(ValueError, match=f"^{problem}$"):
        check_links(links, PLACES, "edge")
