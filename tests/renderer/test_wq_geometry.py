"""The Wizard's Quest board geometry (data/wizards_quest/geometry.json) agrees with the map data."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from engine.games.wizards_quest.data import standard
from renderer.geometry import Box, WQGeometry, load_wizards_quest

MAP = standard().map
BUILDER = Path(__file__).resolve().parents[2] / "data" / "wizards_quest" / "build_geometry.py"


@pytest.fixture(scope="module")
def builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wq_build_geometry", BUILDER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def geometry() -> WQGeometry:
    return load_wizards_quest()


@pytest.fixture(scope="module")
def mask(geometry: WQGeometry) -> Image.Image:
    return geometry.index_image()


def rows(img: Image.Image) -> list[bytes]:
    data = img.tobytes()
    return [data[y * img.width:(y + 1) * img.width] for y in range(img.height)]


def values(mask: Image.Image, box: Box) -> set[int]:
    return {v for v, n in enumerate(mask.crop((box.x0, box.y0, box.x1, box.y1)).histogram()) if n}


def test_every_location_has_a_shape_in_location_order(geometry: WQGeometry, mask: Image.Image) -> None:
    assert list(geometry.locations) == list(MAP.ids)
    assert [p.index for p in geometry.locations.values()] == list(range(1, 45))
    assert geometry.width == 1600
    counts = mask.histogram()
    assert all(counts[k] > 8000 for k in range(1, 45)), "a location is drawn too small to read"
    assert set(geometry.regions) == {"1", "2", "3", "4", "5", "6"}


def test_the_stored_picture_passes_the_builders_check(builder: ModuleType, mask: Image.Image) -> None:
    """WQ-MAP-3/4: land links share a border, bridged and tunnelled locations do not touch, shores match."""
    builder.check(MAP, rows(mask))


def test_the_builder_refuses_a_castle_that_touches_the_wrong_territories(builder: ModuleType,
                                                                         geometry: WQGeometry) -> None:
    c1 = geometry.locations["C1"]
    host = geometry.locations["1.4"].rects[0]
    moved = Box(x0=host.x0, y0=host.y0, x1=host.x0 + c1.bbox.x1 - c1.bbox.x0, y1=host.y0 + c1.bbox.y1 - c1.bbox.y0)
    locations = geometry.locations | {"C1": c1.model_copy(update={"rects": [moved]})}
    bad = geometry.model_copy(update={"locations": locations})
    with pytest.raises(SystemExit, match=re.escape("1.5–C1 is a land link")):
        builder.check(MAP, rows(bad.index_image()))


def test_the_builder_refuses_a_bridge_whose_banks_touch(builder: ModuleType, geometry: WQGeometry) -> None:
    """Filling the river under the 1.6–2.4 bridge with land joins the banks: a bridge link must not touch."""
    river = geometry.water["river"][0]
    bridge = next(b for b in geometry.bridges if b.a == "1.6").box
    mid = (river.x0 + river.x1) // 2
    painted = geometry.index_image()
    painted.paste(geometry.locations["1.6"].index, (river.x0, bridge.y0, mid, bridge.y1))
    painted.paste(geometry.locations["2.4"].index, (mid, bridge.y0, river.x1, bridge.y1))
    with pytest.raises(SystemExit, match=re.escape("1.6–2.4 is a bridge link, yet they touch")):
        builder.check(MAP, rows(painted))


def test_marks_lie_inside_their_location_clear_of_its_edge(geometry: WQGeometry, mask: Image.Image) -> None:
    for loc, place in geometry.locations.items():
        for box in place.marks():
            grown = Box(x0=box.x0 - 8, y0=box.y0 - 8, x1=box.x1 + 8, y1=box.y1 + 8)
            assert values(mask, grown) == {place.index}, f"{loc}: {box} leaves the location"
        x, y = place.fill_at
        assert values(mask, Box(x0=x - 6, y0=y - 6, x1=x + 7, y1=y + 7)) == {place.index}, loc
        assert not any(b.overlaps(Box(x0=x - 2, y0=y - 2, x1=x + 3, y1=y + 3)) for b in place.marks()), loc
        assert (place.tokens is None) == (loc in MAP.castles), "territories have room for the Dragon, Mage, treasure"
    assert {loc for loc, p in geometry.locations.items() if p.tunnel} == {"1.2", "6.5"}


def test_bridges_cross_the_river_between_their_banks(geometry: WQGeometry, mask: Image.Image) -> None:
    assert {(b.a, b.b) for b in geometry.bridges} == {("1.6", "2.4"), ("3.6", "4.4")}
    for b in geometry.bridges:
        left, right = b.box.x0 - 1, b.box.x1
        y = (b.box.y0 + b.box.y1) // 2
        assert mask.getpixel((left, y)) == geometry.locations[b.a].index
        assert mask.getpixel((right, y)) == geometry.locations[b.b].index
        assert values(mask, Box(x0=b.box.x0 + 14, y0=b.box.y0, x1=b.box.x1 - 14, y1=b.box.y1)) == {
            WQGeometry.WATER_VALUES["river"]}


@pytest.mark.rule("WQ-BOAT-3")
def test_every_shore_location_has_a_landing_on_each_water_it_borders(geometry: WQGeometry, mask: Image.Image) -> None:
    """Boat attacks follow a lane through the water: a loop round the island, and the River's and the Lake's
    channels; each lane lies in its water, and each location on a shore puts out from its own landing."""
    value = {"sea": 0} | WQGeometry.WATER_VALUES
    assert set(geometry.boats) == {w.id for w in MAP.water}
    for water, lane in geometry.boats.items():
        assert set(lane.landings) == {loc for loc in MAP.ids if water in MAP.waters_of[loc]}, water
        for at in range(0, int(lane.length), 8):
            x, y = lane.point(at)
            assert mask.getpixel((round(x), round(y))) == value[water], (water, at)
