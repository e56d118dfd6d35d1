#!/usr/bin/env python3
"""Build data/risk/geometry.json, the drawing geometry of the classic Risk board.

The world is authored below as a character grid: one code letter per territory, "." for sea, one cell is
20 × 20 px. The script smooths the grid into a 1600 × 800 index mask, checks that the drawn borders match
the map data's land edges exactly (and that sea-linked territories do not touch), lays out each territory's
name label and army badge inside it, places the continent labels and the dashed sea lanes, finds for every
link where the last turn's arrow goes (clear of every label and badge, either way round), and writes the
result, validated by `renderer.geometry.Geometry`.

Run from anywhere: python data/risk/build_geometry.py
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.games.risk.mapdata import RiskMap, classic  # noqa: E402
from renderer.draw import ArrowShape, along, arrow_footprint, cover  # noqa: E402
from renderer.fonts import font  # noqa: E402
from renderer.geometry import Geometry, geometry_path  # noqa: E402
from renderer.risk import BADGE_RING  # noqa: E402

GRID = (
    "................................................................................",
    "..........nnnnnnnnnnnn....gggggg...IIII....SSS................sss..yyyy..kkkk...",
    "...aaaaannnnnnnnnnnnnnn..ggggggg..IIIIII..SSSSS...UUUU.......sssssyyyyyykkkkkk..",
    "..aaaaaannnnnnnnnnnnnnn..ggggggg..IIIIII..SSSSS..UUUUUUuuuu..sssssyyyyyykkkkkk..",
    "..aaaaaannnnnnnnnnnnnnn...ggggg...IIIIII..SSSSSS.UUUUUUuuuuuusssssyyyyyykkkkkk..",
    "..aaaaaannnnnnnnnnnnnnn....ggg.....IIII...SSSSSS.UUUUUUuuuuuusssssyyyyyykkkkkk..",
    "..aaaaabbbbbboooooo.........g..............SSSSSSUUUUUUuuuuuusssssiiiiikkkkkkk..",
    "..aaaaabbbbbboooooo........................SSSSSSUUUUUUuuuuuusssssiiiiikkkkkkk..",
    "..aaaaabbbbbbooooooo.qqqqqq.......BBBB.....SSSSSSUUUUUUuuuuuusssssiiiiikkkkkkk..",
    "....aabbbbbbbooooooo.qqqqqq......BBBBB......SSSS.UUUUUUuuuuuusssssiiiiikkkkkkk..",
    ".....bbbbbbbboooooooqqqqqqqq.....BBBBB..NNNNNNNNNUUUUUUuuuuuusssssiiiiikkkkkkk..",
    ".....bbbbbbbboooooooqqqqqqqq.....BBBBB..NNNNNNNNNUUUUUUuuuuuusssssmmmmmmkkkkkk..",
    ".....bbbbbbbboooooooqqqqqqqq.....BBBBB..NNNNNNNNNUUUUUUuuuuuusssssmmmmmm...kkk..",
    "....wwwwwwwwwwooooooqqqqqqq.......BBB...NNNNNNNNNUUUUUUuuuuuusssssmmmmmm........",
    "....wwwwwwwwwweeeeeeeeeeee.............WWWWWEEEEEUUUUUUuuuuuusssssmmmmmm........",
    "....wwwwwwwwwweeeeeeeeeeee............WWWWWWEEEEEEUUUUUuuuuuuhhhhhhhhhhhh..jjjj.",
    "....wwwwwwwwwweeeeeeeeeeee...........WWWWWWWEEEEEEEUUUfffffffhhhhhhhhhhhh..jjjj.",
    ".....wwwwwwwwweeeeeeeeeee............WWWWWWWEEEEEEEEUUfffffffhhhhhhhhhhhh..jjjj.",
    "......wwwwwwwweeeeeeeeee..............WWWWWEEEEEEEddddfffffffhhhhhhhhhhhh..jjjj.",
    "......cccccccceeeeeeee...........................dddddfffffffhhhhhhhhhhhh..jjjj.",
    "......cccccccccceeee............................ddddddfffffffhhhhhhhhhhhh..jjj..",
    ".......cccccccccc................FFFFFFFFFFYYYYYYddddddddlllllllhhhhhhhh........",
    "........cccccccccc..............FFFFFFFFFFFYYYYYYdddddddddllllllltttttt.........",
    "..........ccccccccc.............FFFFFFFFFFFYYYYYY...ddddddllllllltttttt.........",
    ".............ccccccc............FFFFFFFFFFFYYYYY.....ddddd.llllllttttt..........",
    "................cccc.............FFFFFFFFFFFHHHHH.....ddd...llll.ttttt..........",
    "................vvvvvvvvvv........FFFFFFFFFFHHHHHH................ttt...........",
    "...............vvvvvvvvvvvvv.......FFFFFFFFFHHHHHHH......................GGGG...",
    "...............vvvvvvvvvvvvvv.......FFFFFFFHHHHHHHH.....................GGGGGG..",
    "...............ppppppzzzzzzzzzz......FFFFFHHHHHHHH..............DDDDD..GGGGGGGG.",
    "...............ppppppzzzzzzzzzzz......CCCCCCHHHHH..............DDDDDD..GGGGGGGG.",
    "...............ppppppzzzzzzzzzzz......CCCCCCHHHH...............DDDDDD...GGGGGG..",
    "................pppppzzzzzzzzzz.......CCCCCCHHH....MMMM.........DDDDD...........",
    "................pppppzzzzzzzzz.........CCCCCHHH...MMMMMM........................",
    ".................pppppzzzzzz...........ZZZZZZZZZ..MMMMMM.................QQQQ...",
    ".................rrrrrrrrrr............ZZZZZZZZZ..MMMMMM........AAAAAAAAQQQQQQQ.",
    "..................rrrrrrrr..............ZZZZZZZ...MMMMMM.......AAAAAAAAAQQQQQQQ.",
    "..................rrrrrrr................ZZZZZ.....MMMM........AAAAAAAAAQQQQQQQ.",
    "...................rrrrr..................ZZZ...................AAAAAAA.QQQQQQ..",
    "................................................................................",
)

CODES = {
    "a": "alaska", "n": "northwest_territory", "g": "greenland", "b": "alberta", "o": "ontario", "q": "quebec",
    "w": "western_united_states", "e": "eastern_united_states", "c": "central_america",
    "v": "venezuela", "p": "peru", "z": "brazil", "r": "argentina",
    "I": "iceland", "S": "scandinavia", "B": "great_britain", "N": "northern_europe", "W": "western_europe",
    "E": "southern_europe", "U": "ukraine",
    "F": "north_africa", "Y": "egypt", "H": "east_africa", "C": "congo", "Z": "south_africa", "M": "madagascar",
    "u": "ural", "s": "siberia", "y": "yakutsk", "k": "kamchatka", "i": "irkutsk", "m": "mongolia", "j": "japan",
    "f": "afghanistan", "h": "china", "d": "middle_east", "l": "india", "t": "siam",
    "D": "indonesia", "G": "new_guinea", "A": "western_australia", "Q": "eastern_australia",
}
SEA = "."
Rect = tuple[int, int, int, int]
"""x0, y0, x1, y1 in map pixels, x1 and y1 exclusive."""
CELL = 20
BLUR = 12.0
"""Gaussian blur radius (px) applied to each upscaled territory before taking the strongest: rounds the cells."""

LABEL_SIZE = 15
LINE_HEIGHT = 18
BADGE = (62, 34)
GAP = 3
"""Pixels between a label and its badge."""
MIN_CLEARANCE = 7
"""A label or badge keeps at least this far from its territory's edge (the border and highlight rim)."""
CLEARANCE_CAP = 22
"""More clearance than this is not preferred over being near the territory's centre."""
MIN_CONTACT = 20
"""Pixels of shared border that make a land edge visible."""
LANE_OVERLAP = 3
"""Sea lanes reach this far onto the land at each end, so that they visibly touch the coast."""
MIN_LANE = 24
"""The shortest sea lane (px) that still shows as dashes."""
CONTINENT_LABEL_SIZE = 18
CONTINENT_LABEL_PAD = 6
CONTINENT_LABEL_SEA = 14
"""Continent labels keep this far from land, clear of the tinted sea the renderer draws along coasts."""
CONTINENT_LABELS = {
    "north_america": (100, 520),
    "south_america": (150, 690),
    "europe": (690, 330),
    "africa": (720, 724),
    "asia": (1530, 470),
    "australia": (1230, 724),
}
"""Where each continent's name-and-bonus label is wanted; it goes to the nearest open sea."""
ARROW_MARGIN = 3
"""Pixels between an arrow (outline included) and any label or badge."""
ARROW_LENGTHS = (84, 76, 68, 60, 52, 44, 36, 30)
"""Lengths tried for the arrow across a shared border, the longest first."""
ARROW_TURNS = (0, 10, -10, 20, -20, 30, -30, 45, -45, 60, -60)
"""Degrees tried away from the direction straight across the border."""


def check_grid(board: RiskMap) -> None:
    if set(CODES.values()) != set(board.ids) or len(CODES) != len(board.ids):
        raise SystemExit("CODES must name every territory once")
    if len(GRID) * CELL != 800 or any(len(row) * CELL != 1600 for row in GRID):
        raise SystemExit("the grid must be 80 × 40 cells")
    unknown = set("".join(GRID)) - set(CODES) - {SEA}
    if unknown:
        raise SystemExit(f"unknown grid codes: {sorted(unknown)}")
    missing = set(CODES) - set("".join(GRID))
    if missing:
        raise SystemExit(f"territories missing from the grid: {sorted(missing)}")


def smooth(board: RiskMap) -> Image.Image:
    """The index mask: each pixel takes the code whose blurred, upscaled cells are strongest there."""
    width, height = len(GRID[0]) * CELL, len(GRID) * CELL
    index = {code: board.ids.index(tid) + 1 for code, tid in CODES.items()} | {SEA: 0}
    best = Image.new("L", (width, height), 0)
    mask = Image.new("L", (width, height), 0)
    for code, value in index.items():
        cells = Image.new("L", (len(GRID[0]), len(GRID)))
        cells.putdata([255 if ch == code else 0 for row in GRID for ch in row])
        strength = cells.resize((width, height), Image.Resampling.BILINEAR).filter(ImageFilter.GaussianBlur(BLUR))
        stronger = ImageChops.subtract(strength, best).point(lambda v: 255 if v else 0)
        mask.paste(value, mask=stronger)
        best = ImageChops.lighter(best, strength)
    return mask


def runs(mask: Image.Image) -> list[list[int]]:
    width, height = mask.size
    data = mask.tobytes()
    rows = []
    for y in range(height):
        row = data[y * width:(y + 1) * width]
        out: list[int] = []
        start = 0
        for x in range(1, width + 1):
            if x == width or row[x] != row[start]:
                out += [row[start], x - start]
                start = x
        rows.append(out)
    return rows


def pixels(mask: Image.Image) -> list[bytes]:
    width, height = mask.size
    data = mask.tobytes()
    return [data[y * width:(y + 1) * width] for y in range(height)]


def contacts(rows: list[bytes]) -> dict[frozenset[int], int]:
    """Length of shared border for every pair of touching values (4-neighbourhood)."""
    found: dict[frozenset[int], int] = {}
    for y, row in enumerate(rows):
        below = rows[y + 1] if y + 1 < len(rows) else row
        for a, b in pairwise(row):
            if a != b:
                pair = frozenset((a, b))
                found[pair] = found.get(pair, 0) + 1
        for a, b in zip(row, below, strict=True):
            if a != b:
                pair = frozenset((a, b))
                found[pair] = found.get(pair, 0) + 1
    return found


def check_borders(board: RiskMap, rows: list[bytes]) -> None:
    """Territories touch exactly when the map data has a land edge between them."""
    touching = contacts(rows)
    name = {k + 1: tid for k, tid in enumerate(board.ids)}
    problems = []
    for e in board.edges:
        pair = frozenset((board.ids.index(e.a) + 1, board.ids.index(e.b) + 1))
        length = touching.pop(pair, 0)
        if e.sea and length:
            problems.append(f"{e.a}–{e.b} is a sea link but they touch ({length} px)")
        elif not e.sea and length < MIN_CONTACT:
            problems.append(f"{e.a}–{e.b} is a land edge but they share only {length} px")
    for pair, length in touching.items():
        if 0 not in pair:
            a, b = sorted(name[v] for v in pair)
            problems.append(f"{a}–{b} touch ({length} px) without an edge")
    if problems:
        raise SystemExit("borders do not match the map data:\n  " + "\n  ".join(problems))


def check_connected(mask: Image.Image, count: int, names: list[str]) -> None:
    for value in range(1, count + 1):
        own = mask.point(lambda v, value=value: 255 if v == value else 0)
        box = own.getbbox()
        assert box is not None
        part = own.crop(box)
        seed = next((x, 0) for x in range(part.width) if part.getpixel((x, 0)) == 255)
        ImageDraw.floodfill(part, seed, 128)
        if part.histogram()[255]:
            raise SystemExit(f"{names[value - 1]} is drawn in more than one piece")


class Region:
    """One territory's pixels around its bounding box, with an integral image for O(1) box tests."""

    def __init__(self, rows: list[bytes], value: int, bbox: Rect) -> None:
        self.x0, self.y0, x1, y1 = bbox
        w = x1 - self.x0
        self.sums = [[0] * (w + 1)]
        for y in range(self.y0, y1):
            line = rows[y][self.x0:x1]
            acc, prev, out = 0, self.sums[-1], [0]
            for x, v in enumerate(line):
                acc += v == value
                out.append(prev[x + 1] + acc)
            self.sums.append(out)
        self.w, self.h = w, y1 - self.y0

    def inside(self, box: Rect, margin: int) -> bool:
        x0, y0 = box[0] - margin - self.x0, box[1] - margin - self.y0
        x1, y1 = box[2] + margin - self.x0, box[3] + margin - self.y0
        if x0 < 0 or y0 < 0 or x1 > self.w or y1 > self.h:
            return False
        s = self.sums
        return s[y1][x1] - s[y0][x1] - s[y1][x0] + s[y0][x0] == (x1 - x0) * (y1 - y0)

    def clearance(self, boxes: list[Rect]) -> int:
        """The largest margin (up to the cap) by which every box stays inside, or -1."""
        best = -1
        low, high = 0, CLEARANCE_CAP
        while low <= high:
            mid = (low + high) // 2
            if all(self.inside(b, mid) for b in boxes):
                best, low = mid, mid + 1
            else:
                high = mid - 1
        return best


def label_variants(name: str) -> Iterator[list[str]]:
    """The name on one line, and on two lines split at the most balanced space."""
    yield [name]
    words = name.split()
    if len(words) > 1:
        f = font(LABEL_SIZE, bold=True)
        splits = [[" ".join(words[:k]), " ".join(words[k:])] for k in range(1, len(words))]
        yield min(splits, key=lambda lines: max(f.getlength(line) for line in lines))


class Arrangement:
    """A label and a badge side by side or stacked, as offsets from the block's top-left corner."""

    def __init__(self, preference: float, label: Rect, badge: Rect) -> None:
        self.preference = preference
        self.label, self.badge = label, badge
        self.width = max(label[0] + label[2], badge[0] + badge[2])
        self.height = max(label[1] + label[3], badge[1] + badge[3])

    def boxes(self, x: int, y: int) -> list[Rect]:
        return [(x + ox, y + oy, x + ox + w, y + oy + h) for ox, oy, w, h in (self.label, self.badge)]


def arrangements(lines: list[str]) -> Iterator[Arrangement]:
    """The label above the badge (preferred), below it, left of it or right of it."""
    f = font(LABEL_SIZE, bold=True)
    lw = math.ceil(max(f.getlength(line) for line in lines)) + 2
    lh = LINE_HEIGHT * len(lines)
    bw, bh = BADGE
    preference = 2.0 - 0.5 * (len(lines) - 1)
    width, height = max(lw, bw), max(lh, bh)
    yield Arrangement(preference, ((width - lw) // 2, 0, lw, lh), ((width - bw) // 2, lh + GAP, bw, bh))
    yield Arrangement(preference - 2, ((width - lw) // 2, bh + GAP, lw, lh), ((width - bw) // 2, 0, bw, bh))
    yield Arrangement(preference - 2, (0, (height - lh) // 2, lw, lh), (lw + GAP + 2, (height - bh) // 2, bw, bh))
    yield Arrangement(preference - 2, (bw + GAP + 2, (height - lh) // 2, lw, lh), (0, (height - bh) // 2, bw, bh))


def place(region: Region, arrangement: Arrangement, centroid: tuple[float, float]) -> tuple[float, int, int, int]:
    """(score, clearance, x, y) of the best spot for the block: clear of the edge, near the centre."""

    def score(x: int, y: int) -> tuple[float, int, int, int]:
        margin = region.clearance(arrangement.boxes(x, y))
        distance = math.hypot(x + arrangement.width / 2 - centroid[0], y + arrangement.height / 2 - centroid[1])
        return margin + arrangement.preference - 0.04 * distance, margin, x, y

    coarse = max(
        (score(x, y) for y in range(region.y0, region.y0 + region.h - arrangement.height, 6)
         for x in range(region.x0, region.x0 + region.w - arrangement.width, 6)),
        default=(-math.inf, -1, 0, 0),
    )
    _, _, x0, y0 = coarse
    fine = [score(x, y) for y in range(y0 - 8, y0 + 9) for x in range(x0 - 8, x0 + 9)]
    return max((s for s in fine if s[1] >= MIN_CLEARANCE), default=(-math.inf, -1, 0, 0))


def layout(region: Region, name: str, centroid: tuple[float, float]) -> tuple[list[str], Rect, Rect, int]:
    """(label lines, label box, badge box, clearance) for the best placement over every arrangement."""
    best: tuple[float, int, list[str], list[Rect]] | None = None
    for lines in label_variants(name):
        for arrangement in arrangements(lines):
            value, margin, x, y = place(region, arrangement, centroid)
            if value > -math.inf and (best is None or value > best[0]):
                best = (value, margin, lines, arrangement.boxes(x, y))
    if best is None:
        raise SystemExit(f"no room for the label and badge of {name}")
    _, margin, lines, (label_box, badge_box) = best
    return lines, label_box, badge_box, margin


def box_json(box: Rect) -> dict[str, int]:
    return dict(zip(("x0", "y0", "x1", "y1"), box, strict=True))


def coasts(rows: list[bytes]) -> dict[int, list[tuple[int, int]]]:
    """Each territory's pixels that have sea beside them."""
    found: dict[int, list[tuple[int, int]]] = {}
    height, width = len(rows), len(rows[0])
    for y, row in enumerate(rows):
        above, below = rows[max(y - 1, 0)], rows[min(y + 1, height - 1)]
        for x, v in enumerate(row):
            if v and 0 in (row[max(x - 1, 0)], row[min(x + 1, width - 1)], above[x], below[x]):
                found.setdefault(v, []).append((x, y))
    return found


def facing(rows: list[bytes], a: int, b: int, centres: dict[int, tuple[float, float]]) -> tuple[tuple[int, int], ...]:
    """Where the line between the two territories' centres leaves a and reaches b, if it crosses only sea."""
    (x0, y0), (x1, y1) = centres[a], centres[b]
    steps = int(math.dist((x0, y0), (x1, y1)))
    line = [(round(x0 + (x1 - x0) * k / steps), round(y0 + (y1 - y0) * k / steps)) for k in range(steps + 1)]
    values = [rows[y][x] for x, y in line]
    leave = max(k for k, v in enumerate(values) if v == a)
    reach = min(k for k, v in enumerate(values) if v == b)
    if leave < reach and all(v == 0 for v in values[leave + 1:reach]):
        return line[leave], line[reach]
    return ()


def closest(rows: list[bytes], a: int, b: int, shore: dict[int, list[tuple[int, int]]]) -> tuple[tuple[int, int], ...]:
    """The nearest coast points of a and b whose straight lane crosses no other territory."""

    def clear(pq: tuple[tuple[int, int], tuple[int, int]]) -> bool:
        return lane_clear(rows, a, b, lane(*pq))

    coarse = sorted(((p, q) for p in shore[a][::5] for q in shore[b][::5]), key=lambda pq: math.dist(*pq))
    p, q = next(pq for pq in coarse if clear(pq))
    near = [(p2, q2) for p2 in shore[a] if math.dist(p2, p) <= 10 for q2 in shore[b] if math.dist(q2, q) <= 10]
    return min((pq for pq in near if clear(pq)), key=lambda pq: math.dist(*pq))


def extend(p: tuple[int, int], q: tuple[int, int], by: float) -> tuple[int, int]:
    """The point `by` px beyond p, away from q."""
    length = math.dist(p, q) or 1.0
    return round(p[0] + (p[0] - q[0]) * by / length), round(p[1] + (p[1] - q[1]) * by / length)


def lane(p: tuple[int, int], q: tuple[int, int]) -> Rect:
    """The segment from coast p to coast q, reaching a little onto the land at both ends."""
    return (*extend(p, q, LANE_OVERLAP), *extend(q, p, LANE_OVERLAP))


def lane_clear(rows: list[bytes], a: int, b: int, seg: Rect) -> bool:
    """Whether the segment runs over sea and the two linked territories only."""
    x0, y0, x1, y1 = seg
    steps = max(1, int(math.dist((x0, y0), (x1, y1)) / 2))
    return all(
        rows[min(round(y0 + (y1 - y0) * k / steps), len(rows) - 1)][min(round(x0 + (x1 - x0) * k / steps),
                                                                        len(rows[0]) - 1)] in (0, a, b)
        for k in range(steps + 1)
    )


def sea_links(board: RiskMap, rows: list[bytes], width: int, centres: dict[int, tuple[float, float]]) -> list[dict]:
    """Dashed lanes: along the line between the centres where that crosses open sea, else at the narrowest."""
    shore = coasts(rows)
    links = []
    for e in board.edges:
        if not e.sea:
            continue
        a, b = board.ids.index(e.a) + 1, board.ids.index(e.b) + 1
        west, east = shore[a], shore[b]
        wraps = abs(min(x for x, _ in west) - max(x for x, _ in east)) > width / 2
        if wraps:
            if min(x for x, _ in west) > min(x for x, _ in east):
                west, east = east, west
            p = min(west, key=lambda c: (c[0], c[1]))
            q = max(east, key=lambda c: (c[0], -c[1]))
            segments = [(*extend(p, (0, p[1]), LANE_OVERLAP), 0, p[1]),
                        (*extend(q, (width - 1, q[1]), LANE_OVERLAP), width - 1, q[1])]
        else:
            ends = facing(rows, a, b, centres)
            if not ends or math.dist(*ends) < MIN_LANE or not lane_clear(rows, a, b, lane(*ends)):
                ends = closest(rows, a, b, shore)
            if math.dist(*ends) < MIN_LANE:
                raise SystemExit(f"{e.a}–{e.b}: the sea between them is too narrow to show the lane")
            segments = [lane(*ends)]
        if not all(lane_clear(rows, a, b, seg) for seg in segments):
            raise SystemExit(f"the sea lane {e.a}–{e.b} crosses another territory")
        links.append({"a": e.a, "b": e.b, "segments": segments, "wraps": wraps})
    return links


def crosses(box: Rect, seg: Rect) -> bool:
    x0, y0, x1, y1 = seg
    steps = max(1, int(math.dist((x0, y0), (x1, y1)) / 2))
    return any(
        box[0] <= x0 + (x1 - x0) * k / steps <= box[2] and box[1] <= y0 + (y1 - y0) * k / steps <= box[3]
        for k in range(steps + 1)
    )


def continent_labels(board: RiskMap, rows: list[bytes], lanes: list[dict]) -> dict[str, dict]:
    """Each continent's label in open sea, as near its wanted spot as the coasts and sea lanes allow."""
    f = font(CONTINENT_LABEL_SIZE, bold=True)
    sea = Region(rows, 0, (0, 0, len(rows[0]), len(rows)))
    segments = [seg for lane in lanes for seg in lane["segments"]]
    out = {}
    for c in board.continents:
        cx, cy = CONTINENT_LABELS[c.id]
        w = math.ceil(f.getlength(f"{c.name} +{c.bonus}")) + 2 * CONTINENT_LABEL_PAD
        h = CONTINENT_LABEL_SIZE + 2 * CONTINENT_LABEL_PAD
        spots = sorted(
            ((cx + dx, cy + dy) for dx in range(-200, 201, 4) for dy in range(-120, 121, 4)),
            key=lambda p: math.dist(p, (cx, cy)),
        )
        for x, y in spots:
            box = (x - w // 2, y - h // 2, x - w // 2 + w, y - h // 2 + h)
            if sea.inside(box, CONTINENT_LABEL_SEA) and not any(crosses(box, seg) for seg in segments):
                out[c.id] = {"box": box_json(box)}
                break
        else:
            raise SystemExit(f"no open sea for the {c.name} label near {cx, cy}")
    return out


Point = tuple[float, float]


class Keepout:
    """The labels and badges (grown by the margin) that an arrow must not touch, and the mask it may cross."""

    def __init__(self, mask: Image.Image, boxes: list[Rect]) -> None:
        self.mask = mask
        self.boxes = Image.new("L", mask.size)
        pen = ImageDraw.Draw(self.boxes)
        for x0, y0, x1, y1 in boxes:
            m = ARROW_MARGIN
            pen.rectangle((x0 - m, y0 - m, x1 - 1 + m, y1 - 1 + m), fill=255)

    def clear(self, shapes: list[ArrowShape], allowed: set[int]) -> bool:
        """Whether the arrows keep off every label and badge, and cross only the `allowed` mask values (and the
        picture's edge)."""
        img, box = cover(shapes)
        if ImageChops.multiply(img, self.boxes.crop(box)).getbbox() is not None:
            return False
        met = self.mask.crop(box).histogram(mask=img)
        return all(not n or v in allowed for v, n in enumerate(met))


def both_ways(p: Point, q: Point, heads: tuple[bool, bool]) -> list[ArrowShape]:
    """The arrow from p to q and the one back, each with its head where `heads` says."""
    return [arrow_footprint([p, q], heads[1]), arrow_footprint([q, p], heads[0])]


def value_at(rows: list[bytes], at: Point) -> int:
    """The mask value at a point, or -1 off the map."""
    x, y = round(at[0]), round(at[1])
    if 0 <= y < len(rows) and 0 <= x < len(rows[0]):
        return rows[y][x]
    return -1


def runs_along(rows: list[bytes], p: Point, q: Point) -> list[int]:
    """The mask values met from p to q, without repeats."""
    steps = max(1, int(math.dist(p, q)))
    met: list[int] = []
    for k in range(steps + 1):
        v = value_at(rows, (p[0] + (q[0] - p[0]) * k / steps, p[1] + (q[1] - p[1]) * k / steps))
        if not met or met[-1] != v:
            met.append(v)
    return met


def border(rows: list[bytes], a: int, b: int, bbox: Rect) -> list[tuple[int, int, Point]]:
    """The pixels of a (inside its bounding box) that touch b, each with the direction from a into b there."""
    found = []
    for y in range(max(1, bbox[1]), min(len(rows) - 1, bbox[3])):
        row = rows[y]
        for x in range(max(1, bbox[0]), min(len(row) - 1, bbox[2])):
            if row[x] != a:
                continue
            dx = (row[x + 1] == b) - (row[x - 1] == b)
            dy = (rows[y + 1][x] == b) - (rows[y - 1][x] == b)
            if dx or dy:
                found.append((x, y, (float(dx), float(dy))))
    return found


def crossing_arrow(rows: list[bytes], a: int, b: int, bbox: Rect, keepout: Keepout) -> tuple[Point, Point]:
    """The longest arrow across the border of a and b that starts in a, ends in b, crosses the border once and
    keeps clear of every label and badge, preferring one straight across the middle of the border."""
    edge = border(rows, a, b, bbox)
    middle = (sum(x for x, _, _ in edge) / len(edge), sum(y for _, y, _ in edge) / len(edge))
    for length in ARROW_LENGTHS:
        options = []
        for x, y, _ in edge[:: max(1, len(edge) // 40)]:
            near = [(dx, dy) for ex, ey, (dx, dy) in edge if abs(ex - x) <= 12 and abs(ey - y) <= 12]
            normal = math.atan2(sum(d[1] for d in near), sum(d[0] for d in near))
            for turn in ARROW_TURNS:
                angle = normal + math.radians(turn)
                ux, uy = math.cos(angle), math.sin(angle)
                p = (x + 0.5 - ux * length / 2, y + 0.5 - uy * length / 2)
                q = (x + 0.5 + ux * length / 2, y + 0.5 + uy * length / 2)
                if runs_along(rows, p, q) == [a, b] and keepout.clear(both_ways(p, q, (True, True)), {a, b, 0}):
                    options.append((-abs(turn) - 0.5 * math.dist((x, y), middle), p, q))
        if options:
            _, p, q = max(options)
            return p, q
    raise SystemExit(f"no room for an arrow between territories {a} and {b}")


def lane_arrow(rows: list[bytes], a: int, b: int, segment: Rect, keepout: Keepout,
               heads: tuple[bool, bool]) -> tuple[Point, Point]:
    """The sea lane's segment, reaching as far onto its territories as the labels and badges allow, or stopping
    short of the coast where they are close (only its land end moves when the other lies at the map's edge)."""
    x0, y0, x1, y1 = segment
    p0, q0 = (float(x0), float(y0)), (float(x1), float(y1))
    reach = range(-32, 41, 4)
    options = []
    for ea in reach if heads[0] else (0,):
        for eb in reach if heads[1] else (0,):
            p, q = along(p0, q0, -ea), along(q0, p0, -eb)
            if math.dist(p, q) < MIN_LANE:
                continue
            if (heads[0] and ea > 0 and value_at(rows, p) != a) or (heads[1] and eb > 0 and value_at(rows, q) != b):
                continue
            if keepout.clear(both_ways(p, q, heads), {a, b, 0}):
                options.append((ea + eb, p, q))
    if not options:
        raise SystemExit(f"no room for an arrow along the sea lane {segment}")
    _, p, q = max(options)
    return p, q


def arrows(board: RiskMap, mask: Image.Image, rows: list[bytes], territories: dict[str, dict],
           continents: dict[str, dict], lanes: list[dict]) -> list[dict]:
    """For every pair of linked territories, where the last turn's arrow between them goes: across their
    border, or along their sea lane, clear of every label and badge whichever way it points."""
    boxes = [tuple(t["label"]["box"].values()) for t in territories.values()]
    boxes += [tuple(v + d for v, d in zip(t["badge"].values(), (-BADGE_RING, -BADGE_RING, BADGE_RING, BADGE_RING),
                                          strict=True)) for t in territories.values()]
    boxes += [tuple(c["box"].values()) for c in continents.values()]
    keepout = Keepout(mask, boxes)  # type: ignore[arg-type]
    by_pair = {frozenset((lane["a"], lane["b"])): lane for lane in lanes}
    out = []
    for e in board.edges:
        a, b = territories[e.a]["index"], territories[e.b]["index"]
        if not e.sea:
            bbox = tuple(territories[e.a]["bbox"].values())
            p, q = crossing_arrow(rows, a, b, bbox, keepout)  # type: ignore[arg-type]
            segments = [(p, q)]
        else:
            lane = by_pair[frozenset((e.a, e.b))]
            if not lane["wraps"]:
                start, end = lane["segments"][0][:2], lane["segments"][0][2:]
                segment = lane["segments"][0] if value_at(rows, start) == a else (*end, *start)
                segments = [lane_arrow(rows, a, b, segment, keepout, (True, True))]
            else:  # across the map's edge: from a to the edge, then from the other edge to b
                leaving, arriving = sorted(lane["segments"], key=lambda seg: value_at(rows, seg[:2]) != a)
                out_p, out_q = lane_arrow(rows, a, -1, leaving, keepout, (True, False))
                in_q, in_p = lane_arrow(rows, b, -1, arriving, keepout, (True, False))
                segments = [(out_p, out_q), (in_p, in_q)]
        out.append({"a": e.a, "b": e.b, "segments": [tuple(round(v) for pt in seg for v in pt) for seg in segments]})
    return out


def build() -> Geometry:
    board = classic()
    check_grid(board)
    mask = smooth(board)
    width, height = mask.size
    rows = pixels(mask)
    check_borders(board, rows)
    check_connected(mask, len(board.ids), board.ids)
    rle = runs(mask)
    area: dict[int, int] = {}
    sx: dict[int, float] = {}
    sy: dict[int, float] = {}
    for y, row in enumerate(rle):
        x = 0
        for value, count in zip(row[::2], row[1::2], strict=True):
            area[value] = area.get(value, 0) + count
            sx[value] = sx.get(value, 0) + count * (x + (count - 1) / 2)
            sy[value] = sy.get(value, 0) + count * y
            x += count
    territories = {}
    for k, tid in enumerate(board.ids, start=1):
        bbox = mask.point(lambda v, k=k: 255 if v == k else 0).getbbox()
        assert bbox is not None
        centroid = (round(sx[k] / area[k], 1), round(sy[k] / area[k], 1))
        lines, label_box, badge_box, margin = layout(Region(rows, k, bbox), board.territory[tid].name, centroid)
        territories[tid] = {
            "index": k, "centroid": centroid, "bbox": box_json(bbox),
            "label": {"lines": lines, "box": box_json(label_box)}, "badge": box_json(badge_box),
            "clearance": margin,
        }
    centres = {shape["index"]: shape["centroid"] for shape in territories.values()}
    lanes = sea_links(board, rows, width, centres)
    continents = continent_labels(board, rows, lanes)
    data = {
        "map": "classic", "width": width, "height": height, "label_size": LABEL_SIZE, "line_height": LINE_HEIGHT,
        "badge_size": BADGE, "continent_label_size": CONTINENT_LABEL_SIZE, "territories": territories,
        "continents": continents, "sea_links": lanes,
        "arrows": arrows(board, mask, rows, territories, continents, lanes), "mask": rle,
    }
    return Geometry.model_validate(data)


def write(geometry: Geometry, path: Path) -> None:
    """JSON with one line per territory, sea lane and mask row, so that diffs stay readable."""

    def compact(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    lines = []
    for key, value in geometry.model_dump(mode="json").items():
        if isinstance(value, dict) and value:
            inner = ",\n".join(f"  {compact(k)}: {compact(v)}" for k, v in value.items())
            lines.append(f' "{key}": {{\n{inner}\n }}')
        elif isinstance(value, list) and value and isinstance(value[0], dict | list):
            inner = ",\n".join(f"  {compact(v)}" for v in value)
            lines.append(f' "{key}": [\n{inner}\n ]')
        else:
            lines.append(f" {compact(key)}: {compact(value)}")
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def main() -> None:
    geometry = build()
    path = geometry_path("risk")
    write(geometry, path)
    print(f"wrote {path.relative_to(ROOT)}: {geometry.width} × {geometry.height}, {len(geometry.territories)} "
          f"territories, {len(geometry.sea_links)} sea lanes, {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
