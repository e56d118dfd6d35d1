"""The board geometry in data/risk/geometry.json: shapes, labels, badges and sea lanes agree with the map."""

from __future__ import annotations

import math
from itertools import combinations, pairwise

import pytest
from PIL import Image

from engine.games.risk.mapdata import classic
from renderer import risk
from renderer.draw import text_box
from renderer.fonts import font
from renderer.geometry import Box, Geometry, load

BOARD = classic()


@pytest.fixture(scope="module")
def geometry() -> Geometry:
    return load("risk")


@pytest.fixture(scope="module")
def mask(geometry: Geometry) -> Image.Image:
    return geometry.index_image()


def territory_values(mask: Image.Image, box: Box) -> set[int]:
    """The mask values under a box (one value: the box lies inside a single territory, or the sea)."""
    return {v for v, n in enumerate(mask.crop((box.x0, box.y0, box.x1, box.y1)).histogram()) if n}


def test_every_territory_has_a_shape_in_table_order(geometry: Geometry, mask: Image.Image) -> None:
    assert list(geometry.territories) == BOARD.ids
    assert [t.index for t in geometry.territories.values()] == list(range(1, 43))
    assert mask.size == (geometry.width, geometry.height) and geometry.width >= 1600
    counts = mask.histogram()
    assert all(counts[k] > 5000 for k in range(1, 43)), "a territory is drawn too small to read"
    assert not any(counts[43:]), "the mask holds values that are no territory"


def test_labels_and_badges_lie_inside_their_territory_with_clearance(geometry: Geometry, mask: Image.Image) -> None:
    for tid, shape in geometry.territories.items():
        m = shape.clearance
        assert m >= 7, tid
        for box in (shape.label.box, shape.badge):
            grown = Box(x0=box.x0 - m, y0=box.y0 - m, x1=box.x1 + m, y1=box.y1 + m)
            assert grown.within(geometry.width, geometry.height), tid
            assert territory_values(mask, grown) == {shape.index}, f"{tid}: {box} leaves the territory"


def test_no_label_or_badge_overlaps_another(geometry: Geometry) -> None:
    boxes = [(f"{tid} label", s.label.box) for tid, s in geometry.territories.items()]
    boxes += [(f"{tid} badge", s.badge) for tid, s in geometry.territories.items()]
    boxes += [(f"{cid} continent label", c.box) for cid, c in geometry.continents.items()]
    for (a, box_a), (b, box_b) in combinations(boxes, 2):
        assert not box_a.overlaps(box_b), f"{a} overlaps {b}"


@pytest.mark.rule("RISK-DIG-33")
def test_continent_labels_sit_in_open_sea_clear_of_the_coastal_tint(geometry: Geometry, mask: Image.Image) -> None:
    assert set(geometry.continents) == {c.id for c in BOARD.continents}
    m = risk.SHELF + 2
    for cid, c in geometry.continents.items():
        box = c.box
        assert territory_values(mask, Box(x0=box.x0 - m, y0=box.y0 - m, x1=box.x1 + m, y1=box.y1 + m)) == {0}, cid


def test_labels_name_the_territory_and_the_drawn_text_fits_the_box(geometry: Geometry) -> None:
    f = font(geometry.label_size, bold=True)
    for tid, shape in geometry.territories.items():
        box = shape.label.box
        assert " ".join(shape.label.lines) == BOARD.territory[tid].name
        assert box.y1 - box.y0 == geometry.line_height * len(shape.label.lines)
        for k, line in enumerate(shape.label.lines):
            x0, y0, x1, y1 = text_box(line, f, ((box.x0 + box.x1) / 2, box.y0 + geometry.line_height * (k + 0.5)))
            assert box.x0 <= x0 and x1 <= box.x1 and box.y0 <= y0 and y1 <= box.y1, (tid, line)


def test_badges_have_the_reserved_size(geometry: Geometry) -> None:
    w, h = geometry.badge_size
    for tid, shape in geometry.territories.items():
        assert (shape.badge.x1 - shape.badge.x0, shape.badge.y1 - shape.badge.y0) == (w, h), tid


def test_touching_territories_are_exactly_the_land_edges(mask: Image.Image) -> None:
    width, height = mask.size
    data = mask.tobytes()
    touching: set[frozenset[int]] = set()
    for y in range(0, height - 1):
        row, below = data[y * width:(y + 1) * width], data[(y + 1) * width:(y + 2) * width]
        touching.update(frozenset(p) for p in pairwise(row) if p[0] != p[1] and 0 not in p)
        touching.update(frozenset(p) for p in zip(row, below, strict=True) if p[0] != p[1] and 0 not in p)
    index = {tid: k for k, tid in enumerate(BOARD.ids, start=1)}
    land = {frozenset((index[e.a], index[e.b])) for e in BOARD.edges if not e.sea}
    assert touching == land


@pytest.mark.rule("RISK-DIG-33")
def test_every_sea_link_is_a_dashed_lane_and_alaska_kamchatka_wraps(geometry: Geometry) -> None:
    sea = {frozenset((e.a, e.b)) for e in BOARD.edges if e.sea}
    assert {frozenset((lane.a, lane.b)) for lane in geometry.sea_links} == sea
    wrapping = [lane for lane in geometry.sea_links if lane.wraps]
    assert [{lane.a, lane.b} for lane in wrapping] == [{"alaska", "kamchatka"}]
    ends = sorted(x1 for _, _, x1, _ in wrapping[0].segments)
    assert ends == [0, geometry.width - 1], "the Alaska–Kamchatka lane must run off both edges"


@pytest.mark.rule("RISK-DIG-36")
def test_every_link_has_an_arrow_from_one_territory_into_the_other(geometry: Geometry, mask: Image.Image) -> None:
    """Across the shared border for neighbours; along the lane (from the coast or a little inland) for a sea link."""
    index = {tid: k for k, tid in enumerate(BOARD.ids, start=1)}
    assert sorted((a.a, a.b) for a in geometry.arrows) == sorted((e.a, e.b) for e in BOARD.edges)
    for e in BOARD.edges:
        pieces = geometry.arrow(e.a, e.b)
        assert geometry.arrow(e.b, e.a) == [(q, p) for p, q in reversed(pieces)]
        start, end = pieces[0][0], pieces[-1][1]
        if e.sea:
            assert mask.getpixel(start) in (index[e.a], 0) and mask.getpixel(end) in (index[e.b], 0), (e.a, e.b)
        else:
            assert mask.getpixel(start) == index[e.a] and mask.getpixel(end) == index[e.b], (e.a, e.b)
            assert math.dist(start, end) >= 28, f"the arrow {e.a} → {e.b} is too short to read"
