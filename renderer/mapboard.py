"""What every map board shares: the layer values of its pre-drawn picture, the frame around the map (banner,
legend, key), the recolouring of each render, and players' names made drawable."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from PIL import Image

from engine.core.i18n import translate
from renderer.draw import RGB, Canvas, Palette, hex_rgb
from renderer.fonts import clean, font

D = TypeVar("D")
G = TypeVar("G")
L = TypeVar("L", bound="Layers")

WIDTH = 1600
BANNER_H = 86
SEA: RGB = hex_rgb("#cfe3ee")
BORDER: RGB = hex_rgb("#2f3640")
BANNER: RGB = hex_rgb("#1f2633")
BANNER_MUTED: RGB = hex_rgb("#b9c3d1")
LEGEND: RGB = hex_rgb("#f4f1ea")
LEGEND_ACTIVE: RGB = hex_rgb("#e3ddcf")
LEGEND_MUTED: RGB = hex_rgb("#8a8578")
RULE: RGB = hex_rgb("#9aa3ad")
"""The house style of every board: its width, the banner over the map, the legend under it, the sea."""


class Layers:
    """The values of the pre-drawn base picture ("L"), which each render maps to palette indices.

    0 is the sea; each of the `areas` (territories, locations) has a fill and a rim value; then the border, the
    banner, the legend and the rule under the map. A game takes further values with `take`.
    """

    def __init__(self, areas: int) -> None:
        self.sea = 0
        self.fill = 1
        self.rim = 1 + areas
        self.border = 1 + 2 * areas
        self._next = self.border + 1
        self.banner = self.take()
        self.legend = self.take()
        self.rule = self.take()

    def take(self, count: int = 1) -> int:
        """The first of `count` new consecutive values."""
        first = self._next
        self._next += count
        if self._next > 256:
            raise ValueError("a board picture has at most 256 layer values")
        return first


@dataclass(frozen=True)
class Frame:
    """The picture's fixed sizes: the banner above the map, then the rule, the legend and the key below it."""

    width: int
    banner: int
    map_height: int
    legend_row: int
    below: int
    """Space under the legend's rows (the key, padding)."""

    @property
    def map_y(self) -> int:
        return self.banner

    @property
    def legend_y(self) -> int:
        """Where the legend begins, under the map and its two-pixel rule."""
        return self.banner + self.map_height + 2

    def height(self, legend_rows: int) -> int:
        return self.legend_y + legend_rows * self.legend_row + self.below


@dataclass(frozen=True)
class Board(Generic[D, G, L]):
    """Everything about the picture that never changes, built once per process."""

    data: D
    geometry: G
    layers: L
    frame: Frame
    base: Image.Image
    """The whole picture as layer values: sea, areas, rims, borders and the frame."""
    lut: list[int]
    """Palette index of each layer value; a render overrides the fills and rims."""
    palette: Palette


def framed(frame: Frame, layers: Layers, map_values: Image.Image, legend_rows: int) -> Image.Image:
    """The base picture with room for `legend_rows`: the banner, the map's layer values, the rule and the legend."""
    height = frame.height(legend_rows)
    canvas = Image.new("L", (frame.width, height), layers.banner)
    canvas.paste(layers.legend, (0, frame.legend_y - 2, frame.width, height))
    canvas.paste(map_values, (0, frame.map_y))
    canvas.paste(layers.rule, (0, frame.legend_y - 2, frame.width, frame.legend_y))
    return Image.frombytes("P", canvas.size, canvas.tobytes())


def frame_lut(palette: Palette, layers: Layers, banner: RGB, legend: RGB, rule: RGB) -> list[int]:
    """A LUT with the frame's colours set; the game sets its map's."""
    lut = [0] * 256
    lut[layers.banner], lut[layers.legend], lut[layers.rule] = palette[banner], palette[legend], palette[rule]
    return lut


def recolour(board: Board[D, G, L], areas: Iterable[tuple[int, RGB, RGB]], legend_rows: int) -> Canvas:
    """The base picture with each area (its index, fill and rim) coloured, cropped to the legend's rows."""
    lut = list(board.lut)
    p = board.palette
    fill, rim = board.layers.fill, board.layers.rim
    for index, area_fill, area_rim in areas:
        lut[fill + index - 1] = p[area_fill]
        lut[rim + index - 1] = p[area_rim]
    img = board.base.point(lut)
    height = board.frame.height(legend_rows)
    if height < img.height:
        img = img.crop((0, 0, board.frame.width, height))
    img.putpalette(p.flat)
    return Canvas(img, p)


class Player(Protocol):
    id: int
    name: str


class Names:
    """Players' names made drawable: glyphs the font lacks dropped, an empty result replaced by `unnamed`."""

    def __init__(self, players: Sequence[Player], unnamed: str, locale: str) -> None:
        f = font(19, bold=True)
        self.locale = locale
        self.names = {p.id: clean(p.name, f) or translate(unnamed, locale, n=k)
                      for k, p in enumerate(players, start=1)}

    def __call__(self, pid: int) -> str:
        return self.names.get(pid, "?")
