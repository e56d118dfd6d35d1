"""Drawing geometry of a board (data/<game>/geometry.json), validated by pydantic when loaded.

The build script (data/risk/build_geometry.py) writes it once; renders only read it.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import ClassVar

from PIL import Image
from pydantic import BaseModel, ConfigDict, model_validator

DATA_DIR = Path(__file__).resolve().parents[1] / "data"


class Box(BaseModel):
    """A rectangle in map pixels; x1 and y1 are exclusive."""

    model_config = ConfigDict(frozen=True)

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def overlaps(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def within(self, width: int, height: int) -> bool:
        return 0 <= self.x0 < self.x1 <= width and 0 <= self.y0 < self.y1 <= height


def check_boxes(boxes: list[tuple[str, Box]], width: int, height: int) -> None:
    """Refuse a layout where a named box leaves the picture or two boxes overlap."""
    for name, box in boxes:
        if not box.within(width, height):
            raise ValueError(f"{name} lies outside the map")
    for k, (name, box) in enumerate(boxes):
        for other, box2 in boxes[k + 1:]:
            if box.overlaps(box2):
                raise ValueError(f"{name} overlaps {other}")


class Label(BaseModel):
    """A territory's name, broken into lines, centred in `box`."""

    lines: list[str]
    box: Box


class TerritoryShape(BaseModel):
    index: int
    """The territory's value in the mask (1-based, in the map data's table order)."""
    centroid: tuple[float, float]
    bbox: Box
    label: Label
    badge: Box
    """The space reserved for the army badge; the badge is drawn centred in it."""
    clearance: int
    """Pixels between the label or badge and the territory's edge, at the least."""


class ContinentLabel(BaseModel):
    box: Box


class SeaLink(BaseModel):
    """A dashed sea lane; a link across the map's edge has one segment per side."""

    a: str
    b: str
    segments: list[tuple[int, int, int, int]]
    wraps: bool = False


Segment = tuple[tuple[float, float], tuple[float, float]]


class Arrow(BaseModel):
    """Where the last turn's arrow between two linked territories goes, from a towards b: across their border,
    or along their sea lane (one piece per side of the map's edge); clear of every label and badge, whichever
    way it points."""

    a: str
    b: str
    segments: list[tuple[int, int, int, int]]


class Geometry(BaseModel):
    map: str
    width: int
    height: int
    label_size: int
    """Pixel size of the bold font the territory labels were laid out with."""
    line_height: int
    badge_size: tuple[int, int]
    continent_label_size: int
    territories: dict[str, TerritoryShape]
    continents: dict[str, ContinentLabel]
    sea_links: list[SeaLink]
    arrows: list[Arrow]
    mask: list[list[int]]
    """The index mask, one run-length row per pixel row: value, count, value, count … (0 is sea)."""

    @model_validator(mode="after")
    def _check(self) -> Geometry:
        if len(self.mask) != self.height:
            raise ValueError(f"mask has {len(self.mask)} rows, expected {self.height}")
        for y, row in enumerate(self.mask):
            if len(row) % 2 or sum(row[1::2]) != self.width:
                raise ValueError(f"mask row {y} does not cover the width")
        indices = sorted(t.index for t in self.territories.values())
        if indices != list(range(1, len(indices) + 1)):
            raise ValueError("territory indices must be 1 … n")
        boxes: list[tuple[str, Box]] = []
        for tid, t in self.territories.items():
            boxes += [(f"{tid} label", t.label.box), (f"{tid} badge", t.badge)]
        boxes += [(f"{cid} label", c.box) for cid, c in self.continents.items()]
        check_boxes(boxes, self.width, self.height)
        return self

    def arrow(self, source: str, target: str) -> list[Segment]:
        """The pieces of the arrow from source to target, in drawing order; the head goes on the last."""
        for arrow in self.arrows:
            pieces = [((x0, y0), (x1, y1)) for x0, y0, x1, y1 in arrow.segments]
            if (arrow.a, arrow.b) == (source, target):
                return pieces
            if (arrow.b, arrow.a) == (source, target):
                return [(q, p) for p, q in reversed(pieces)]
        raise KeyError(f"no arrow between {source} and {target}")

    def index_image(self) -> Image.Image:
        """The mask as an "L" image: 0 for sea, a territory's index on its pixels."""
        data = bytearray()
        for row in self.mask:
            for value, count in zip(row[::2], row[1::2], strict=True):
                data += bytes((value,)) * count
        return Image.frombytes("L", (self.width, self.height), bytes(data))


def geometry_path(game: str) -> Path:
    return DATA_DIR / game / "geometry.json"


@cache
def load(game: str = "risk") -> Geometry:
    return Geometry.model_validate_json(geometry_path(game).read_text(encoding="utf-8"))


class Place(BaseModel):
    """One Wizard's Quest location: its shape as rectangles and the boxes its marks are drawn in."""

    index: int
    """The location's value in the painted index image (1-based, in location order)."""
    rects: list[Box]
    label: Box
    """The location id (and a castle's keep)."""
    badge: Box
    """The occupant's badge, with room on its right for a leader's disc."""
    tokens: Box | None = None
    """Territories only: the Dragon, the Great Mage and a treasure marker, side by side."""
    tunnel: Box | None = None
    """A tunnel mouth's marker."""
    fill_at: tuple[int, int]
    """A pixel of plain fill: clear of the marks, the bridges, the border and the highlight rim."""

    @property
    def bbox(self) -> Box:
        return Box(x0=min(r.x0 for r in self.rects), y0=min(r.y0 for r in self.rects),
                   x1=max(r.x1 for r in self.rects), y1=max(r.y1 for r in self.rects))

    def marks(self) -> list[Box]:
        return [b for b in (self.label, self.badge, self.tokens, self.tunnel) if b is not None]


class Bridge(BaseModel):
    a: str
    b: str
    box: Box
    """The planks, across the river."""


class RegionShape(BaseModel):
    box: Box
    """The region's block of territories."""
    tab: Box
    """Its name tab, astride the block's top edge."""


Point = tuple[float, float]


class BoatLane(BaseModel):
    """The line that boat attacks follow through one body of water, and where each location on its shore puts
    out; the build script keeps each landing's way to its location's badge within the location and the water."""

    points: list[tuple[int, int]]
    closed: bool = False
    """A loop (the sea round the island): a route goes the shorter way round."""
    landings: dict[str, int]
    """Each shore location's landing, as a distance along the lane from its first point."""

    def _ring(self) -> tuple[list[tuple[int, int]], list[float]]:
        ring = self.points + self.points[:1] if self.closed else self.points
        marks = [0.0]
        for (x0, y0), (x1, y1) in pairwise(ring):
            marks.append(marks[-1] + math.dist((x0, y0), (x1, y1)))
        return ring, marks

    @property
    def length(self) -> float:
        return self._ring()[1][-1]

    def point(self, at: float) -> Point:
        """The point `at` px along the lane (taken round the loop for a closed lane)."""
        ring, marks = self._ring()
        if self.closed:
            at %= marks[-1]
        k = max(0, min(bisect_right(marks, at) - 1, len(ring) - 2))
        (x0, y0), (x1, y1) = ring[k], ring[k + 1]
        t = (at - marks[k]) / ((marks[k + 1] - marks[k]) or 1.0)
        return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t

    def route(self, a: str, b: str) -> list[Point]:
        """From a's landing to b's along the lane, through the lane's corners on the way."""
        _, marks = self._ring()
        start, end = self.landings[a], self.landings[b]
        corners = marks[1:-1]
        if self.closed:
            total = marks[-1]
            ahead = (end - start) % total
            end = start + ahead if ahead <= total / 2 else start + ahead - total
            corners = [m + k * total for m in marks[:-1] for k in (-1, 0, 1)]
        low, high = sorted((start, end))
        between = sorted((m for m in corners if low < m < high), reverse=end < start)
        return [self.point(v) for v in (start, *between, end)]


class WQGeometry(BaseModel):
    """The Wizard's Quest board (data/wizards_quest/geometry.json): rectangles over an open sea."""

    map: str
    width: int
    height: int
    label_size: int
    locations: dict[str, Place]
    water: dict[str, list[Box]]
    """River and lake rectangles; the sea is every pixel that is neither land nor other water."""
    bridges: list[Bridge]
    regions: dict[str, RegionShape]
    boats: dict[str, BoatLane]
    """The lane of each body of water ("sea", "river", "lake") that boat attacks follow."""

    WATER_VALUES: ClassVar[dict[str, int]] = {"river": 250, "lake": 251}
    """Index-image values of the inland waters (0 is the sea)."""

    @model_validator(mode="after")
    def _check(self) -> WQGeometry:
        indices = sorted(p.index for p in self.locations.values())
        if indices != list(range(1, len(indices) + 1)):
            raise ValueError("location indices must be 1 … n")
        boxes = [(f"{loc} {k}", box) for loc, p in self.locations.items() for k, box in enumerate(p.marks())]
        boxes += [(f"region {r} tab", shape.tab) for r, shape in self.regions.items()]
        boxes += [(f"bridge {b.a}-{b.b}", b.box) for b in self.bridges]
        check_boxes(boxes, self.width, self.height)
        return self

    def index_image(self) -> Image.Image:
        """Sea 0, each location's index on its rectangles, inland waters their WATER_VALUES.

        Rectangles are painted in location order, then the waters: a castle cut out of a territory's corner and
        a lake reaching into territories simply cover what lies below."""
        img = Image.new("L", (self.width, self.height), 0)
        for loc in self.locations.values():
            for r in loc.rects:
                img.paste(loc.index, (r.x0, r.y0, r.x1, r.y1))
        for water, rects in self.water.items():
            for r in rects:
                img.paste(self.WATER_VALUES[water], (r.x0, r.y0, r.x1, r.y1))
        return img


@cache
def load_wizards_quest() -> WQGeometry:
    return WQGeometry.model_validate_json(geometry_path("wizards_quest").read_text(encoding="utf-8"))
