"""Colour distances for the palette tests: CIELAB (D65) and the CIE76 colour difference."""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import combinations

from renderer.draw import RGB

DISTINCT = 20.0
"""ΔE76 between two colours that a player tells apart at a glance, even on a small screen."""
VIVID = 20.0
"""The CIELAB chroma above which a colour reads as a hue rather than as a grey."""


def lab(c: RGB) -> tuple[float, float, float]:
    def linear(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in c)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: RGB, b: RGB) -> float:
    return math.dist(lab(a), lab(b))


def chroma(c: RGB) -> float:
    _, a, b = lab(c)
    return math.hypot(a, b)


def problems(players: dict[str, RGB], grounds: dict[str, RGB]) -> list[str]:
    """Why these player colours could be mistaken for one another, for grey, or for the unowned ground."""
    found = [f"{name} {c} is greyish (chroma {chroma(c):.0f})" for name, c in players.items() if chroma(c) < VIVID]
    pairs: Iterable[tuple[tuple[str, RGB], tuple[str, RGB]]] = [
        *combinations(players.items(), 2), *((p, g) for p in players.items() for g in grounds.items())]
    found += [f"{a} and {b} differ by ΔE {delta_e(ca, cb):.0f}" for (a, ca), (b, cb) in pairs
              if delta_e(ca, cb) < DISTINCT]
    return found
