"""Drawing geometry of a board (data/<game>/geometry.json), validated by pydantic when loaded.

The build script (data/risk/build_geometry.py) writes it once; renders only read it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

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
        for name, box in boxes:
            if not box.within(self.width, self.height):
                raise ValueError(f"{name} lies outside the map")
        for k, (name, box) in enumerate(boxes):
            for other, box2 in boxes[k + 1:]:
                if box.overlaps(box2):
                    raise ValueError(f"{name} overlaps {other}")
        return self

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
