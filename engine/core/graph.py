"""A map's links between places, as a data file declares them: checked once, when the file is loaded."""

from __future__ import annotations

from collections.abc import Collection, Iterable


def check_links(links: Iterable[tuple[str, str]], places: Collection[str], kind: str) -> None:
    """Raise ValueError at the first `kind` (edge, link …) that joins a place to itself, names a place that is not
    in `places`, or repeats a pair before it (in either direction)."""
    seen: set[frozenset[str]] = set()
    for a, b in links:
        if a == b:
            raise ValueError(f"{kind} {a}-{b} joins a place to itself")
        if a not in places or b not in places:
            raise ValueError(f"{kind} {a}-{b} names an unknown place")
        pair = frozenset((a, b))
        if pair in seen:
            raise ValueError(f"duplicate {kind} {a}-{b}")
        seen.add(pair)
