"""Drawing straight into a palette ("P") image: exact colours, smooth edges, no quantizing step.

Every colour a board uses is in one fixed palette, together with a few in-between shades for each pair of
colours that meet at an anti-aliased edge (text on a fill, a badge on a territory). A shape is drawn as a
coverage mask, turned into palette indices for its known background and ink, and pasted; the pieces are
cached, so a render is mostly pastes. This is several times faster than drawing in RGB and quantizing, and
the PNG comes out deterministic.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from PIL import Image, ImageChops, ImageDraw

from renderer.fonts import Typeface, font

RGB = tuple[int, int, int]
Piece = tuple[Image.Image, Image.Image]
"""Palette indices ("P") and where to paste them (an "L" mask of 0 or 255)."""

DARK_INK: RGB = (22, 26, 32)
LIGHT_INK: RGB = (255, 255, 255)
STEPS = 2
"""In-between shades per pair of colours: edges get 4 levels of coverage."""
PNG_COMPRESS_LEVEL = 4
"""zlib level 4 encodes a board in 7-9 ms of CPU, 1-3 ms more than level 3, for a file 9-15 % smaller (79 KB
rather than 87 for a busy Risk board, 81 rather than 95 for Wizard's Quest); the default 6 takes 12-13 ms."""
MAX_PNG_BYTES = 100 * 1024
"""A busier picture than that is compressed again at level 6."""
SUPERSAMPLE = 4
"""Shapes are drawn this many times larger, then shrunk, for smooth edges."""


def hex_rgb(code: str) -> RGB:
    code = code.lstrip("#")
    return int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16)


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from a to b."""
    return round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t)


@dataclass(frozen=True)
class Look:
    """How one owner is drawn: a strong colour for badges and swatches, a lighter fill, and a letter."""

    badge: RGB
    fill: RGB
    letter: str


def make_look(badge: str, letter: str, fill_mix: float = 0.38) -> Look:
    """A look from its badge colour; the fill is that colour mixed `fill_mix` of the way to white."""
    strong = hex_rgb(badge)
    return Look(strong, blend(strong, LIGHT_INK, fill_mix), letter)


PLAYER_LOOKS: dict[str, Look] = {
    # Okabe–Ito-inspired shades that still read as the engines' colour names; the letter backs the colour up.
    "red": make_look("#d43d28", "R"),
    "blue": make_look("#0a6fb4", "B"),
    "green": make_look("#009e73", "G"),
    "yellow": make_look("#f2dc3c", "Y", 0.45),
    # "Black" is a near-black indigo badge on a violet fill: a grey fill read as neutral or unclaimed ground.
    "black": Look(hex_rgb("#33214f"), hex_rgb("#7a5cc0"), "K"),
    "pink": make_look("#cc72b0", "P"),
    "orange": make_look("#d97000", "O", 0.3),
}
"""Every player colour of every game, by the engines' colour names."""


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def luminance(c: RGB) -> float:
    """WCAG relative luminance."""

    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@lru_cache(maxsize=256)
def ink_for(background: RGB) -> RGB:
    """Dark or white text, whichever reads better on `background`."""
    return DARK_INK if contrast(background, DARK_INK) >= contrast(background, LIGHT_INK) else LIGHT_INK


class Palette:
    """The fixed palette of a board: its colours plus STEPS shades between each pair that meets at an edge."""

    def __init__(self, colours: Iterable[RGB], pairs: Iterable[tuple[RGB, RGB]]) -> None:
        entries: dict[RGB, None] = dict.fromkeys(colours)
        self._pairs: set[tuple[RGB, RGB]] = set()
        for bg, ink in pairs:
            entries.update(dict.fromkeys((bg, ink)))
            entries.update(dict.fromkeys(blend(bg, ink, k / (STEPS + 1)) for k in range(1, STEPS + 1)))
            self._pairs.add((bg, ink))
        if len(entries) > 256:
            raise ValueError(f"{len(entries)} colours do not fit a 256-colour palette")
        self.colours = list(entries)
        self._index = {c: k for k, c in enumerate(self.colours)}
        self._levels: dict[tuple[RGB, RGB], bytes] = {}
        flat = [v for c in self.colours for v in c]
        self.flat = flat + flat[:3] * (256 - len(self.colours))

    def __getitem__(self, colour: RGB) -> int:
        return self._index[colour]

    def levels(self, bg: RGB, ink: RGB) -> bytes:
        """A translation table from coverage (0–255) to the index of bg, the shades between, or ink."""
        table = self._levels.get((bg, ink))
        if table is None:
            if (bg, ink) not in self._pairs:
                raise KeyError(f"the palette has no shades from {bg} to {ink}")
            shades = [self[bg], *(self[blend(bg, ink, k / (STEPS + 1))] for k in range(1, STEPS + 1)), self[ink]]
            table = self._levels[bg, ink] = bytes(shades[round(v * (STEPS + 1) / 255)] for v in range(256))
        return table

    def piece(self, coverage: Image.Image, bg: RGB, ink: RGB) -> Piece:
        """`ink` over `bg` as palette indices, where `coverage` is not zero."""
        data = coverage.tobytes()
        return (Image.frombytes("P", coverage.size, data.translate(self.levels(bg, ink))),
                Image.frombytes("L", coverage.size, data.translate(SOLID)))


SOLID = bytes([0] + [255] * 255)
"""Coverage → paste mask: everywhere the shape touches."""


@lru_cache(maxsize=4096)
def text_mask(text: str, f: Typeface, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage and where its top-left corner lies relative to the anchor point."""
    return f.mask(text, anchor)


def text_box(s: str, f: Typeface, xy: tuple[float, float], anchor: str = "mm") -> tuple[int, int, int, int]:
    """The box `s` covers when drawn at `xy`."""
    mask, dx, dy = text_mask(s, f, anchor)
    x, y = round(xy[0]) + dx, round(xy[1]) + dy
    return x, y, x + mask.width, y + mask.height


@lru_cache(maxsize=256)
def pill_mask(width: int, height: int, radius: int) -> Image.Image:
    """The coverage of a rounded rectangle, with smooth edges."""
    s = SUPERSAMPLE
    big = Image.new("L", (width * s, height * s))
    ImageDraw.Draw(big).rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius * s, fill=255)
    return big.resize((width, height), Image.Resampling.BOX)


@lru_cache(maxsize=4096)
def _text_piece(palette: Palette, s: str, f: Typeface, ink: RGB, bg: RGB, anchor: str) -> tuple[Piece, int, int]:
    mask, dx, dy = text_mask(s, f, anchor)
    return palette.piece(mask, bg, ink), dx, dy


@lru_cache(maxsize=1024)
def _pill_piece(palette: Palette, w: int, h: int, radius: int, colour: RGB, bg: RGB) -> Piece:
    return palette.piece(pill_mask(w, h, radius), bg, colour)


Point = tuple[float, float]


class Canvas:
    """A palette image and its palette, with the few drawing operations the boards need."""

    def __init__(self, img: Image.Image, palette: Palette) -> None:
        self.img = img
        self.palette = palette

    def paste(self, piece: Piece, xy: tuple[int, int]) -> None:
        self.img.paste(piece[0], xy, piece[1])

    def text(self, xy: tuple[float, float], s: str, f: Typeface, ink: RGB, bg: RGB,
             anchor: str = "mm") -> tuple[int, int, int, int]:
        """Draw `s` on a known background (Pillow anchor semantics); return the box it covers."""
        piece, dx, dy = _text_piece(self.palette, s, f, ink, bg, anchor)
        x, y = round(xy[0]) + dx, round(xy[1]) + dy
        if s:
            self.paste(piece, (x, y))
        return x, y, x + piece[0].width, y + piece[0].height

    def pill(self, box: tuple[int, int, int, int], colour: RGB, bg: RGB, radius: int | None = None) -> None:
        """A rounded rectangle (fully rounded ends unless `radius` is given) on a known background."""
        x0, y0, x1, y1 = box
        w, h = x1 - x0, y1 - y0
        self.paste(_pill_piece(self.palette, w, h, h // 2 if radius is None else radius, colour, bg), (x0, y0))

    def rect(self, box: tuple[int, int, int, int], colour: RGB) -> None:
        self.img.paste(self.palette[colour], box)

    def polygon(self, points: Sequence[tuple[float, float]], colour: RGB) -> None:
        """A filled polygon over whatever lies below; its edge is not smoothed."""
        ImageDraw.Draw(self.img).polygon(list(points), fill=self.palette[colour])

    def swatch(self, xy: tuple[float, float], look: Look, size: int, bg: RGB) -> int:
        """A rounded square of the owner's colour with their letter, left-centred at xy; returns its right edge."""
        x, y = round(xy[0]), round(xy[1] - size / 2)
        self.pill((x, y, x + size, y + size), look.badge, bg, radius=size // 4)
        self.text((x + size / 2, y + size / 2 + 1), look.letter, font(size * 5 // 8, bold=True),
                  ink_for(look.badge), look.badge)
        return x + size

    def arrow(self, points: Sequence[Point], core: RGB, outline: RGB, *, head: bool = True) -> None:
        """A thick outlined arrow along the polyline `points`, its head at the last point unless `head` is off."""
        pen = ImageDraw.Draw(self.img)
        for colour, (polygons, joints, radius) in ((outline, arrow_footprint(points, head)),
                                                   (core, arrow_shape(points, ARROW_CORE, ARROW_HEAD, (0, 0), head))):
            for x, y in joints:
                pen.ellipse((x - radius, y - radius, x + radius, y + radius), fill=self.palette[colour])
            for polygon in polygons:
                self.polygon(polygon, colour)

    def png(self) -> bytes:
        data = self._encode(PNG_COMPRESS_LEVEL)
        return data if len(data) <= MAX_PNG_BYTES else self._encode(6)

    def _encode(self, level: int) -> bytes:
        buffer = io.BytesIO()
        self.img.save(buffer, "PNG", compress_level=level)
        return buffer.getvalue()


ARROW_CORE = 6
"""Width of an arrow's shaft; the outline adds ARROW_EDGE on each side."""
ARROW_EDGE = 2
ARROW_HEAD = 20
"""Length of the head; it is HEAD_FLARE times as wide as the shaft on each side."""
HEAD_FLARE = 1.3
ARROW_OVERSHOOT = 3
"""How far the outline reaches beyond the tip."""


ArrowShape = tuple[list[list[Point]], list[Point], float]
"""An arrow's polygons (one per segment, the head on the last) and its joints, discs of the given radius."""


def arrow_shape(points: Sequence[Point], width: float, head_length: float, extend: tuple[float, float],
                head: bool) -> ArrowShape:
    """An arrow `width` wide along `points`, reaching `extend` px beyond its first and last points."""
    path = [along(points[0], points[1], -extend[0]), *points[1:-1], along(points[-1], points[-2], -extend[1])]
    last = len(path) - 2
    polygons = [arrow_outline(a, b, width, head_length if k == last and head else 0)
                for k, (a, b) in enumerate(pairwise(path))]
    return polygons, path[1:-1], width / 2


def arrow_footprint(points: Sequence[Point], head: bool = True) -> ArrowShape:
    """What an arrow covers, its outline included: the renderer draws the outline, then the core inside."""
    return arrow_shape(points, ARROW_CORE + 2 * ARROW_EDGE, ARROW_HEAD + 2 * ARROW_EDGE,
                       (ARROW_EDGE, ARROW_OVERSHOOT), head)


def cover(shapes: Sequence[ArrowShape]) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """The pixels the arrows cover, drawn as the canvas draws them, as an "L" mask, and the box it fills."""
    points = [pt for polygons, joints, _ in shapes for pt in [*(v for poly in polygons for v in poly), *joints]]
    margin = ARROW_CORE + 2 * ARROW_EDGE
    box = (math.floor(min(x for x, _ in points)) - margin, math.floor(min(y for _, y in points)) - margin,
           math.ceil(max(x for x, _ in points)) + margin, math.ceil(max(y for _, y in points)) + margin)
    img = Image.new("L", (box[2] - box[0], box[3] - box[1]))
    pen = ImageDraw.Draw(img)
    for polygons, joints, r in shapes:
        for x, y in joints:
            pen.ellipse((x - box[0] - r, y - box[1] - r, x - box[0] + r, y - box[1] + r), fill=255)
        for polygon in polygons:
            pen.polygon([(x - box[0], y - box[1]) for x, y in polygon], fill=255)
    return img, box


def leave(box: tuple[float, float, float, float], towards: Point, margin: float = 6) -> Point:
    """Where the line from the box's centre towards a point leaves the box, `margin` px further on (at most
    half way there): where an arrow starts or ends so that a badge in the box stays clear."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    dx, dy = towards[0] - cx, towards[1] - cy
    length = math.hypot(dx, dy) or 1.0
    half_w, half_h = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    t = min(half_w / abs(dx) if dx else math.inf, half_h / abs(dy) if dy else math.inf)
    t = min(t + margin / length, 0.5)
    return cx + dx * t, cy + dy * t


def along(p: Point, q: Point, distance: float) -> Point:
    """The point `distance` px from p towards q (away from q when negative)."""
    length = math.dist(p, q) or 1.0
    return p[0] + (q[0] - p[0]) * distance / length, p[1] + (q[1] - p[1]) * distance / length


def arrow_outline(p: Point, q: Point, width: float, head: float) -> list[Point]:
    """The polygon of an arrow from p to q (the tip) with a shaft `width` wide and a head `head` long."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    w, hw = width / 2, width * HEAD_FLARE
    if head <= 0:
        return [(p[0] + nx * w, p[1] + ny * w), (q[0] + nx * w, q[1] + ny * w), (q[0] - nx * w, q[1] - ny * w),
                (p[0] - nx * w, p[1] - ny * w)]
    head = min(head, length * 0.6)
    bx, by = q[0] - ux * head, q[1] - uy * head
    return [
        (p[0] + nx * w, p[1] + ny * w), (bx + nx * w, by + ny * w), (bx + nx * hw, by + ny * hw), q,
        (bx - nx * hw, by - ny * hw), (bx - nx * w, by - ny * w), (p[0] - nx * w, p[1] - ny * w),
    ]


def spread(img: Image.Image, radius: int, grow: bool) -> Image.Image:
    """Max (grow) or min over each (2r+1)² square, from shifted copies: far faster than Pillow's rank filter."""
    pick, pad = (ImageChops.lighter, 0) if grow else (ImageChops.darker, 255)
    for axis in (0, 1):
        out = img
        for d in (*range(-radius, 0), *range(1, radius + 1)):
            moved = Image.new("L", img.size, pad)
            moved.paste(img, (d, 0) if axis == 0 else (0, d))
            out = pick(out, moved)
        img = out
    return img


def where(img: Image.Image, test: Callable[[int], bool]) -> Image.Image:
    """A paste mask: 255 where `test` holds for the pixel's value, else 0."""
    return img.point(lambda v: 255 if test(v) else 0)


def differs(img: Image.Image, radius: int) -> Image.Image:
    """Where the (2r+1)² square around a pixel holds more than one value."""
    return where(ImageChops.difference(spread(img, radius, True), spread(img, radius, False)), bool)
