#!/usr/bin/env python3
"""Build data/wizards_quest/geometry.json, the drawing geometry of the proposed Wizard's Quest map (WQ-MAP-5).

The map is the rules' 6 × 6 grid: each region a block of 2 rows × 3 columns, the River and the Lake in a
channel between columns 3 and 4, a land strip south of the Lake, the sea all round. Each castle is cut out of
one territory's corner where its three neighbours meet, so that it touches exactly those three (the fourth
only diagonally, and adjacency is orthogonal). The script paints the shapes, refuses them unless every land
link of the map data is a shared border and nothing else is, bridged and tunnelled locations do not touch,
and each location borders exactly the waters the data says; then it lays out each location's id, badge and
tokens clear of its edges, lays the lanes that boat attacks follow through the Sea, the River and the Lake
with a landing for each location on their shores, and writes the result, validated by
`renderer.geometry.WQGeometry`.

Run from anywhere: python data/wizards_quest/build_geometry.py
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from itertools import pairwise
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.games.wizards_quest.data import WQMap, standard  # noqa: E402
from renderer.draw import arrow_footprint, cover, leave  # noqa: E402
from renderer.geometry import BoatLane, WQGeometry, geometry_path  # noqa: E402

Rect = tuple[int, int, int, int]
"""x0, y0, x1, y1 in map pixels, x1 and y1 exclusive."""

WIDTH = 1600
SEA = 36
"""Open sea round the island."""
CHANNEL = 64
"""Width of the River and Lake channel between columns 3 and 4."""
CELL = ((WIDTH - 2 * SEA - CHANNEL) // 6, 196)
HEIGHT = 2 * SEA + 6 * CELL[1]
CASTLE = (124, 94)
CASTLE_CORNER = {
    # castle: (the territory it is cut from, which corner): the corner where its three neighbours meet
    "C1": ("1.4", "tr"), "C2": ("2.6", "tl"), "C3": ("3.4", "tr"), "C4": ("4.6", "tl"),
    "C5": ("5.4", "tr"), "C6": ("6.6", "tl"), "C7": ("3.3", "bl"), "C8": ("4.4", "tr"),
}
RIVER_END = 0.52
"""The River runs from the north coast to this far down row 4, where the Lake begins."""
LAKE_END = 0.45
"""The Lake reaches this far down row 6; the land strip lies below it."""
LAKE_BAY = (40, 48, 30)
"""The Lake widens into the row-5 territories on both sides: this deep, this far below the row's top and above
its bottom."""
BRIDGE_AT = {"1.6": 0.5, "3.6": 0.26}
"""Where each bridge crosses, as a fraction down its row (above the Lake in row 4)."""
BRIDGE_SIZE = (CHANNEL + 24, 26)

LABEL_SIZE = 22
LABEL = (52, 26)
CASTLE_LABEL = (76, 24)
BADGE = (172, 58)
CASTLE_BADGE = (106, 40)
TOKENS = (98, 30)
TUNNEL = (92, 28)
TAB = (230, 30)
TAB_INSET = 12
"""How far a region tab reaches down into its block (the rest lies over the block above, or the sea)."""
CLEARANCE = 8
"""Marks keep this far from their location's edge, clear of the border and the highlight rim."""
GAP = 4
"""Marks keep this far from each other."""
MIN_CONTACT = 40
"""Pixels of shared border that make a land link visible."""
SEA_LANE = 10
"""The boats' lane round the island runs this far from the picture's edge, outside the region tabs."""
LANE_END = 10
"""The River's and the Lake's lanes stop this far short of the ends of their channel."""
LANDING_STEP = 4
"""Landings tried every this many px along a lane."""
SHORT_APPROACH = 40
"""A boat arrow's last leg shorter than this has a cramped head."""


def cell(loc: str) -> Rect:
    """A territory's grid cell (WQ-MAP-5: region r, territory t → row 2⌊(r−1)/2⌋+⌊(t−1)/3⌋, column …)."""
    r, t = (int(v) for v in loc.split("."))
    row = 2 * ((r - 1) // 2) + (t - 1) // 3
    col = 3 * ((r - 1) % 2) + (t - 1) % 3
    x0 = SEA + col * CELL[0] + (CHANNEL if col >= 3 else 0)
    y0 = SEA + row * CELL[1]
    return x0, y0, x0 + CELL[0], y0 + CELL[1]


def row_top(row: int) -> int:
    return SEA + (row - 1) * CELL[1]


def channel() -> tuple[int, int]:
    x0 = SEA + 3 * CELL[0]
    return x0, x0 + CHANNEL


def castle_rect(host: str, corner: str) -> Rect:
    x0, y0, x1, y1 = cell(host)
    w, h = CASTLE
    left = x0 if corner[1] == "l" else x1 - w
    top = y0 if corner[0] == "t" else y1 - h
    return left, top, left + w, top + h


def shapes(m: WQMap) -> tuple[dict[str, list[Rect]], dict[str, list[Rect]]]:
    """Each location's rectangles (castles painted over their host's corner) and the River's and Lake's."""
    cx0, cx1 = channel()
    mid = (cx0 + cx1) // 2
    lake_top = row_top(4) + round(CELL[1] * RIVER_END)
    lake_bottom = row_top(6) + round(CELL[1] * LAKE_END)
    rects: dict[str, list[Rect]] = {t: [cell(t)] for t in m.territories}
    rects["5.6"].append((cx0, lake_bottom, mid, HEIGHT - SEA))
    rects["6.4"].append((mid, lake_bottom, cx1, HEIGHT - SEA))
    for castle in m.castles:
        rects[castle] = [castle_rect(*CASTLE_CORNER[castle])]
    bay_w, bay_top, bay_bottom = LAKE_BAY
    water = {
        "river": [(cx0, SEA, cx1, lake_top)],
        "lake": [(cx0, lake_top, cx1, lake_bottom),
                 (cx0 - bay_w, row_top(5) + bay_top, cx1 + bay_w, row_top(6) - bay_bottom)],
    }
    return rects, water


def paint(rects: dict[str, list[Rect]], water: dict[str, list[Rect]], ids: tuple[str, ...]) -> list[bytes]:
    """The index image as rows of bytes, painted the way `WQGeometry.index_image` paints it."""
    img = bytearray(WIDTH * HEIGHT)
    layers = [(k, rects[loc]) for k, loc in enumerate(ids, start=1)]
    layers += [(WQGeometry.WATER_VALUES[w], boxes) for w, boxes in water.items()]
    for value, boxes in layers:
        for x0, y0, x1, y1 in boxes:
            for y in range(y0, y1):
                img[y * WIDTH + x0:y * WIDTH + x1] = bytes((value,)) * (x1 - x0)
    return [bytes(img[y * WIDTH:(y + 1) * WIDTH]) for y in range(HEIGHT)]


def contacts(rows: list[bytes]) -> Counter[frozenset[int]]:
    """Length of shared border for every pair of touching values (4-neighbourhood)."""
    found: Counter[frozenset[int]] = Counter()
    for y, row in enumerate(rows):
        below = rows[y + 1] if y + 1 < len(rows) else row
        found.update(frozenset(p) for p in pairwise(row) if p[0] != p[1])
        found.update(frozenset(p) for p in zip(row, below, strict=True) if p[0] != p[1])
    return found


def check(m: WQMap, rows: list[bytes]) -> None:
    """Refuse a picture whose borders or shores disagree with the map data."""
    value = {loc: k for k, loc in enumerate(m.ids, start=1)}
    name = {k: loc for loc, k in value.items()}
    waters = {0: "sea"} | {v: w for w, v in WQGeometry.WATER_VALUES.items()}
    touching = contacts(rows)
    problems = []
    for link in m.links:
        length = touching.get(frozenset((value[link.a], value[link.b])), 0)
        if link.kind == "land" and length < MIN_CONTACT:
            problems.append(f"{link.a}–{link.b} is a land link but they share only {length} px")
        elif link.kind != "land" and length:
            problems.append(f"{link.a}–{link.b} is a {link.kind} link, yet they touch ({length} px)")
    linked = {frozenset((value[link.a], value[link.b])) for link in m.links}
    for pair, length in touching.items():
        if all(v in name for v in pair) and pair not in linked:
            a, b = sorted(name[v] for v in pair)
            problems.append(f"{a}–{b} touch ({length} px) without a link")
    for loc, k in value.items():
        drawn = {waters[v] for pair in touching for v in pair if k in pair and v in waters}
        wanted = set(m.waters_of[loc])
        if drawn != wanted:
            problems.append(f"{loc} borders {sorted(drawn) or 'no water'}, the data says {sorted(wanted) or 'none'}")
    if problems:
        raise SystemExit("the picture does not match the map data:\n  " + "\n  ".join(problems))


class Area:
    """One location's pixels, with an integral image for O(1) "is this box inside, with margin" tests."""

    def __init__(self, rows: list[bytes], value: int, bbox: Rect) -> None:
        self.x0, self.y0, x1, y1 = bbox
        self.w, self.h = x1 - self.x0, y1 - self.y0
        self.sums = [[0] * (self.w + 1)]
        for y in range(self.y0, y1):
            acc, prev, out = 0, self.sums[-1], [0]
            for x, v in enumerate(rows[y][self.x0:x1]):
                acc += v == value
                out.append(prev[x + 1] + acc)
            self.sums.append(out)

    def inside(self, box: Rect, margin: int) -> bool:
        x0, y0 = box[0] - margin - self.x0, box[1] - margin - self.y0
        x1, y1 = box[2] + margin - self.x0, box[3] + margin - self.y0
        if x0 < 0 or y0 < 0 or x1 > self.w or y1 > self.h:
            return False
        s = self.sums
        return s[y1][x1] - s[y0][x1] - s[y1][x0] + s[y0][x0] == (x1 - x0) * (y1 - y0)


def overlaps(a: Rect, b: Rect, gap: int) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def place(area: Area, size: tuple[int, int], want: tuple[float, float], taken: list[Rect], what: str) -> Rect:
    """The box of `size` nearest the wanted centre that lies inside with clearance and clear of `taken`."""
    w, h = size
    spots = [(x, y) for y in range(area.y0, area.y0 + area.h - h + 1, 2)
             for x in range(area.x0, area.x0 + area.w - w + 1, 2)]
    spots.sort(key=lambda p: (math.dist((p[0] + w / 2, p[1] + h / 2), want), p))
    for x, y in spots:
        box = (x, y, x + w, y + h)
        if area.inside(box, CLEARANCE) and not any(overlaps(box, t, GAP) for t in taken):
            return box
    raise SystemExit(f"no room for the {what}")


def tabs(m: WQMap) -> dict[int, Rect]:
    """Each region's name tab, centred over its block's middle column and astride the block's top edge."""
    out = {}
    for r in m.regions:
        x0, y0, x1, _ = cell(r.territories[1])
        cx = (x0 + x1) // 2
        out[r.id] = (cx - TAB[0] // 2, y0 + TAB_INSET - TAB[1], cx + TAB[0] // 2, y0 + TAB_INSET)
    return out


def layout(m: WQMap, rects: dict[str, list[Rect]], rows: list[bytes], obstacles: list[Rect]) -> dict[str, dict]:
    """Each location's id, badge, tokens, tunnel marker and a plain-fill pixel, inside it, apart and clear of the
    obstacles (region tabs, bridges)."""
    tunnel = next(link for link in m.links if link.kind == "tunnel")
    out = {}
    for k, loc in enumerate(m.ids, start=1):
        boxes = rects[loc]
        bbox = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        area = Area(rows, k, bbox)
        x0, y0, x1, y1 = cell(loc) if loc in m.territories else bbox
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        taken = list(obstacles)
        castle = loc in m.castles
        if castle:
            label = place(area, CASTLE_LABEL, (cx, y0), taken, f"{loc} id")
        else:  # the top corner that no castle takes, the left one if both are free
            label = min((math.dist(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), c), b)
                        for c in ((x0, y0), (x1, y0)) for b in [place(area, LABEL, c, taken, f"{loc} id")])[1]
        taken.append(label)
        entry: dict[str, object] = {"index": k, "rects": [box_json(b) for b in boxes], "label": box_json(label)}
        if loc in (tunnel.a, tunnel.b):
            mouth = place(area, TUNNEL, (x1, y0), taken, f"{loc} tunnel mouth")
            taken.append(mouth)
            entry["tunnel"] = box_json(mouth)
        badge = place(area, CASTLE_BADGE if castle else BADGE, (cx, cy + (10 if castle else -6)), taken, f"{loc} badge")
        taken.append(badge)
        entry["badge"] = box_json(badge)
        if not castle:
            tokens = place(area, TOKENS, (cx, y1), taken, f"{loc} tokens")
            taken.append(tokens)
            entry["tokens"] = box_json(tokens)
        plain = place(area, (2, 2), (x0, (y0 + y1) / 2), taken, f"{loc} plain fill")
        entry["fill_at"] = (plain[0], plain[1])
        out[loc] = entry
    return out


def lanes(water: dict[str, list[Rect]]) -> dict[str, tuple[list[tuple[int, int]], bool]]:
    """Each body of water's lane: a loop round the island through the open sea, and the River's and the Lake's
    channel down its middle."""
    out = {"sea": ([(SEA_LANE, SEA_LANE), (WIDTH - SEA_LANE, SEA_LANE), (WIDTH - SEA_LANE, HEIGHT - SEA_LANE),
                    (SEA_LANE, HEIGHT - SEA_LANE)], True)}
    for name, boxes in water.items():
        x0, y0, x1, y1 = boxes[0]
        mid = (x0 + x1) // 2
        out[name] = ([(mid, y0 + LANE_END), (mid, y1 - LANE_END)], False)
    return out


def landing(lane: BoatLane, badge: Rect, allowed: set[int], mask: Image.Image, marks: Image.Image, what: str) -> int:
    """Where on the lane a location's boats put out: the nearest point whose leg to the badge crosses only the
    location and the water, and as little of any mark (ids, badges, tokens, tabs, bridges) as can be."""
    best: tuple[float, int] | None = None
    centre = ((badge[0] + badge[2]) / 2, (badge[1] + badge[3]) / 2)
    for at in range(0, int(lane.length), LANDING_STEP):
        shore = lane.point(at)
        if math.dist(shore, centre) > 400:
            continue
        end = leave(badge, shore)
        covered, box = cover([arrow_footprint([shore, end]), arrow_footprint([end, shore], head=False)])
        met = mask.crop(box).histogram(mask=covered)
        if any(n and v not in allowed for v, n in enumerate(met)):
            continue
        overlap = ImageChops.multiply(covered, marks.crop(box)).histogram()[255]
        length = math.dist(shore, end)
        score = length + 4 * overlap + 3 * max(0.0, SHORT_APPROACH - length)
        if best is None or score < best[0]:
            best = (score, at)
    if best is None:
        raise SystemExit(f"no way from {what} to its water")
    return best[1]


def boats(m: WQMap, water: dict[str, list[Rect]], rows: list[bytes], locations: dict[str, dict],
          obstacles: list[Rect]) -> dict[str, dict]:
    """Each body of water's lane, with a landing for every location on its shore."""
    mask = Image.frombytes("L", (WIDTH, HEIGHT), b"".join(rows))
    marks = Image.new("L", mask.size)
    pen = ImageDraw.Draw(marks)
    kinds = ("label", "badge", "tokens", "tunnel")
    boxes = [tuple(entry[kind].values()) for entry in locations.values() for kind in kinds if kind in entry]
    for x0, y0, x1, y1 in [*obstacles, *boxes]:
        pen.rectangle((x0, y0, x1 - 1, y1 - 1), fill=255)
    values = {"sea": 0} | WQGeometry.WATER_VALUES
    out = {}
    for name, (points, closed) in lanes(water).items():
        lane = BoatLane(points=points, closed=closed, landings={})
        shore = [loc for loc in m.ids if name in m.waters_of[loc]]
        lane.landings = {loc: landing(lane, tuple(locations[loc]["badge"].values()),  # type: ignore[arg-type]
                                      {locations[loc]["index"], values[name]}, mask, marks, f"{loc} ({name})")
                         for loc in shore}
        out[name] = lane.model_dump()
    return out


def bridges(m: WQMap) -> list[dict]:
    cx0, cx1 = channel()
    out = []
    for link in m.links:
        if link.kind == "bridge":
            west = min(link.a, link.b)
            y = round(cell(west)[1] + CELL[1] * BRIDGE_AT[west])
            w, h = BRIDGE_SIZE
            mid = (cx0 + cx1) // 2
            out.append({"a": link.a, "b": link.b,
                        "box": box_json((mid - w // 2, y - h // 2, mid - w // 2 + w, y - h // 2 + h))})
    return out


def box_json(box: Rect) -> dict[str, int]:
    return dict(zip(("x0", "y0", "x1", "y1"), box, strict=True))


def build() -> WQGeometry:
    m = standard().map
    rects, water = shapes(m)
    rows = paint(rects, water, m.ids)
    check(m, rows)
    tab = tabs(m)
    planks = bridges(m)
    regions = {}
    for r in m.regions:
        first, last = cell(r.territories[0]), cell(r.territories[-1])
        regions[str(r.id)] = {"box": box_json((first[0], first[1], last[2], last[3])), "tab": box_json(tab[r.id])}
    obstacles = [*tab.values(), *(tuple(b["box"].values()) for b in planks)]
    locations = layout(m, rects, rows, obstacles)
    data = {
        "map": m.name, "width": WIDTH, "height": HEIGHT, "label_size": LABEL_SIZE, "locations": locations,
        "water": {w: [box_json(b) for b in boxes] for w, boxes in water.items()},
        "bridges": planks, "regions": regions, "boats": boats(m, water, rows, locations, obstacles),
    }
    geometry = WQGeometry.model_validate(data)
    if geometry.index_image().tobytes() != b"".join(rows):
        raise SystemExit("the renderer would paint the map differently from the checked picture")
    return geometry


def write(geometry: WQGeometry, path: Path) -> None:
    """JSON with one line per location, water, bridge and region, so that diffs stay readable."""

    def compact(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    lines = []
    for key, value in geometry.model_dump(mode="json").items():
        if isinstance(value, dict) and value:
            inner = ",\n".join(f"  {compact(k)}: {compact(v)}" for k, v in value.items())
            lines.append(f' "{key}": {{\n{inner}\n }}')
        elif isinstance(value, list) and value:
            inner = ",\n".join(f"  {compact(v)}" for v in value)
            lines.append(f' "{key}": [\n{inner}\n ]')
        else:
            lines.append(f" {compact(key)}: {compact(value)}")
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def main() -> None:
    geometry = build()
    path = geometry_path("wizards_quest")
    write(geometry, path)
    print(f"wrote {path.relative_to(ROOT)}: {geometry.width} × {geometry.height}, {len(geometry.locations)} "
          f"locations, {len(geometry.bridges)} bridges, {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
