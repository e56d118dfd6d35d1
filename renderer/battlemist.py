"""The Battlemist board picture (BM-DIG-14 … DIG-17): a public view of the state → PNG.

Only public information is drawn (BM-DIG-2): the map, units, heroes and their life, cities, Stars, resources,
artifacts held, hand sizes and the round's events. Hands, quests (and so their targets, BM-DIG-15) and the decks
are never read. The battle log is posted as separate messages (BM-DIG-17): events are not drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFilter

from engine.core.i18n import DEFAULT_LOCALE, translate, words
from engine.core.models import Event
from engine.games.battlemist import council, economy
from engine.games.battlemist import names as N
from engine.games.battlemist.data import RESOURCES, BattlemistData, Region, load
from engine.games.battlemist.pieces import Stars
from engine.games.battlemist.state import BMState, Phase
from renderer import mapboard
from renderer.draw import (
    DARK_INK,
    LIGHT_INK,
    MAX_PNG_BYTES,
    PLAYER_LOOKS,
    RGB,
    SOLID,
    SUPERSAMPLE,
    Canvas,
    Look,
    Palette,
    Piece,
    capitalise,
    contrast,
    differs,
    hex_rgb,
    ink_for,
    make_look,
    pill_mask,
    where,
)
from renderer.fonts import Typeface, fit, font
from renderer.mapboard import (
    BANNER,
    BANNER_H,
    BANNER_MUTED,
    BORDER,
    LEGEND,
    LEGEND_ACTIVE,
    LEGEND_MUTED,
    RULE,
    SEA,
    WIDTH,
    Names,
)

HEX = 86
"""Circumradius of a hex in px (pointy top): a hex is √3·HEX wide and 2·HEX tall."""
MARGIN = 14
SQRT3 = math.sqrt(3)
MAP_Y = BANNER_H
RIM = 6
"""Width of the band inside an occupied homeland's border, in the occupier's colour."""
BORDER_W = 3
NAME_DY = 44
"""Where a hex's name begins, below its top corner."""
BADGE_STEP = 6
"""Badge widths are multiples of this, so that badges of similar texts share their pre-drawn pill."""
GAP = 3
"""Between the marks of a row in a hex, and between its rows."""
HERO_CORNER = 5
LEGEND_ROW = 58
KEY_ROW = 46
PLAYER_CARD = 162
"""Height of each player's card in the side panel; six fill the map's height."""

TERRAIN: dict[str, RGB] = {
    "plains": hex_rgb("#d3e7a0"),
    "forest": hex_rgb("#8fc283"),
    "mountain": hex_rgb("#c9ab8c"),
    "desert": hex_rgb("#f2ddb0"),
}
GRAIN: RGB = hex_rgb("#f0c419")
WOOD: RGB = hex_rgb("#8a5a2b")
IRON: RGB = hex_rgb("#9fb3c4")
RESOURCE_COLOURS: dict[str, RGB] = {"grain": GRAIN, "wood": WOOD, "iron": IRON}
STAR: RGB = hex_rgb("#ffc81e")
SPENT: RGB = hex_rgb("#a7a29a")
HIGHLIGHT: RGB = hex_rgb("#ffc400")
INCOME: RGB = hex_rgb("#2f6e2a")

LOOKS: dict[str, Look] = {**PLAYER_LOOKS, "grey": make_look("#5c636e", "", 0.42)}
"""Race colours (BM-RACE-1) by name; grey is the Dark Lord's."""
NEUTRAL_LOOK = make_look("#a09a8e", "?", 0.5)
"""A seat without a race yet (the draft)."""
UNIT_KEYS = ("infantry", "archers", "cavalry", "monsters")


@cache
def race_looks(locale: str = DEFAULT_LOCALE) -> dict[str, Look]:
    """Each race's look: its colour (BM-RACE-1) and its letter from the catalogue of `locale`."""
    out = {}
    for race in load().rules.races:
        base = LOOKS[race.colour]
        out[race.id] = Look(base.badge, base.fill, translate(f"bm.board.letter.{race.id}", locale))
    return out


def look_of(state: BMState, pid: int | None, locale: str) -> Look:
    player = state.player(pid)
    race = getattr(player, "race", None)
    return race_looks(locale).get(str(race), NEUTRAL_LOOK) if race else NEUTRAL_LOOK


def fill_of(region: Region) -> RGB:
    return race_looks()[region.race].fill if region.race else TERRAIN[region.terrain]


def _palette() -> Palette:
    """Every colour a Battlemist board uses, with shades where two of them meet at a smooth edge."""
    looks = [*race_looks().values(), NEUTRAL_LOOK]
    fills = [*TERRAIN.values(), *(look.fill for look in looks)]
    colours = [SEA, BORDER, RULE, DARK_INK, LIGHT_INK, *(look.badge for look in looks)]
    pairs: list[tuple[RGB, RGB]] = [
        (DARK_INK, LIGHT_INK), (LIGHT_INK, DARK_INK), (BANNER, LIGHT_INK), (BANNER, BANNER_MUTED),
        (LEGEND, DARK_INK), (LEGEND, LEGEND_MUTED), (LEGEND, LEGEND_ACTIVE), (LEGEND_ACTIVE, DARK_INK),
        (LEGEND_ACTIVE, LEGEND_MUTED), (BANNER, HIGHLIGHT), (HIGHLIGHT, DARK_INK), (SEA, DARK_INK), (LEGEND, INCOME),
        (LEGEND_ACTIVE, INCOME),
        *((DARK_INK, c) for c in (GRAIN, WOOD, IRON, STAR, SPENT)),
    ]
    for fill in fills:
        pairs += [(fill, DARK_INK), (fill, ink_for(fill))]
    for look in looks:
        pairs += [(LIGHT_INK, look.badge), (look.badge, ink_for(look.badge)), (BANNER, look.badge),
                  (LEGEND, look.badge), (LEGEND_ACTIVE, look.badge), (DARK_INK, look.badge), (look.badge, LIGHT_INK),
                  (LIGHT_INK, look.badge)]
    return Palette(colours, pairs)


@cache
def palette() -> Palette:
    return _palette()


# --- geometry -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """The hex map's pixels (BM-BRD-7), computed once from the map's axial coordinates."""

    width: int
    height: int
    centres: dict[str, tuple[float, float]]
    """Each region's hex centre, in map pixels."""

    def corners(self, region: str, radius: float = HEX) -> list[tuple[float, float]]:
        cx, cy = self.centres[region]
        return [(cx + radius * math.cos(math.radians(60 * k - 30)), cy + radius * math.sin(math.radians(60 * k - 30)))
                for k in range(6)]


def half_width(dy: float) -> float:
    """Half the width of a pointy-top hex at `dy` px above or below its centre."""
    dy = abs(dy)
    return SQRT3 / 2 * HEX if dy <= HEX / 2 else max(0.0, SQRT3 * (HEX - dy))


Layout = tuple[tuple[str, int, int], ...]
"""Where each region lies: (id, q, r), in region-id order."""


@cache
def fixed_layout() -> Layout:
    """The fixed map "Mennarra-39" (BM-BRD-8)."""
    return tuple(sorted((r.id, r.q, r.r) for r in load().map.regions))


def layout_of(state: BMState) -> Layout:
    """The fixed map, or the tiles where the players laid them in build mode (BM-BRD-3)."""
    if state.build is None:
        return fixed_layout()
    return tuple(sorted((rid, q, r) for rid, (q, r) in state.build.positions.items()))


def _pixels(layout: Layout) -> tuple[list[float], list[float]]:
    """Each hex centre in hex radii (BM-BRD-7): x = √3·(q + r/2), y = 1.5·r."""
    return [SQRT3 * (q + r / 2) for _, q, r in layout], [1.5 * r for _, _, r in layout]


@cache
def map_size() -> tuple[int, int]:
    """The map's area on the picture: the fixed map with a margin round it."""
    xs, ys = _pixels(fixed_layout())
    return (round((max(xs) - min(xs) + SQRT3) * HEX + 2 * MARGIN), round((max(ys) - min(ys) + 2) * HEX + 2 * MARGIN))


def panel_width() -> int:
    """The side panel's width: with the fixed map's area, the house width (WIDTH)."""
    return WIDTH - map_size()[0]


@lru_cache(maxsize=8)
def geometry(layout: Layout | None = None) -> Geometry:
    """The hexes of `layout` (the fixed map by default), centred in the map's area; a built map that sprawls
    beyond the fixed map's size gets a map area as large as it needs (the picture grows with it)."""
    tiles = layout or fixed_layout()
    xs, ys = _pixels(tiles)
    fixed_w, fixed_h = map_size()
    width = max(fixed_w, round((max(xs) - min(xs) + SQRT3) * HEX + 2 * MARGIN))
    height = max(fixed_h, round((max(ys) - min(ys) + 2) * HEX + 2 * MARGIN))
    x0 = width / 2 - (min(xs) + max(xs)) / 2 * HEX
    y0 = height / 2 - (min(ys) + max(ys)) / 2 * HEX
    return Geometry(width, height, {rid: (x0 + x * HEX, y0 + y * HEX)
                                    for (rid, _, _), x, y in zip(tiles, xs, ys, strict=True)})


@cache
def index_of() -> dict[str, int]:
    """Each region's value in the index image, 1-based in region-id order."""
    return {rid: k for k, rid in enumerate(load().map.ids, start=1)}


class Layers(mapboard.Layers):
    """The shared layers, and the side panel's background."""

    def __init__(self, regions: int) -> None:
        super().__init__(regions)
        self.panel = self.take()


Board = mapboard.Board[BattlemistData, Geometry, Layers]


def _base_map(g: Geometry, layers: Layers) -> Image.Image:
    """The map's layer values: every hex's fill and rim (a hex not in the game is coloured as sea when drawn, and
    the outlines are drawn per game), and the side panel right of the map."""
    idx = Image.new("L", (g.width + panel_width(), g.height), 0)
    pen = ImageDraw.Draw(idx)
    for rid in g.centres:
        pen.polygon(g.corners(rid), fill=index_of()[rid])
    out = idx.copy()
    out.paste(idx.point(lambda v: v - 1 + layers.rim if v else 0), mask=Image.composite(
        differs(idx, RIM), Image.new("L", idx.size), where(idx, bool)))
    out.paste(layers.panel, (g.width, 0, g.width + panel_width(), g.height))
    out.paste(layers.rule, (g.width, 0, g.width + 2, g.height))
    return out


def board(layout: Layout | None = None) -> Board:
    """The pre-drawn picture of a layout (the fixed map by default), built once: its hexes (on the fixed map all
    39), the frame and the panel."""
    return _board(layout or fixed_layout())


@lru_cache(maxsize=4)
def _board(layout: Layout) -> Board:
    g = geometry(layout)
    layers = Layers(len(load().map.ids))
    frame = mapboard.Frame(g.width + panel_width(), BANNER_H, g.height, LEGEND_ROW, KEY_ROW)
    p = palette()
    lut = mapboard.frame_lut(p, layers, BANNER, LEGEND, RULE)
    lut[layers.sea], lut[layers.panel] = p[SEA], p[LEGEND]
    base = mapboard.framed(frame, layers, _base_map(g, layers), 1)
    return mapboard.Board(load(), g, layers, frame, base, lut, p)


# --- pieces -----------------------------------------------------------------------------------------------------


def _shape(kind: str, size: int) -> Image.Image:
    """The coverage of an icon: grain, wood, iron, a Star, a city or a large city."""
    s = SUPERSAMPLE
    n = size * s
    img = Image.new("L", (n, n))
    pen = ImageDraw.Draw(img)

    def at(x: float, y: float) -> tuple[float, float]:
        return x * n, y * n

    if kind == "grain":
        pen.rectangle((*at(0.46, 0.35), *at(0.54, 0.97)), fill=255)
        for k in range(3):
            y = 0.12 + k * 0.22
            pen.ellipse((*at(0.16, y + 0.02), *at(0.48, y + 0.24)), fill=255)
            pen.ellipse((*at(0.52, y + 0.02), *at(0.84, y + 0.24)), fill=255)
        pen.ellipse((*at(0.38, 0.0), *at(0.62, 0.26)), fill=255)
    elif kind == "wood":
        pen.polygon([at(0.5, 0.02), at(0.9, 0.72), at(0.1, 0.72)], fill=255)
        pen.rectangle((*at(0.4, 0.7), *at(0.6, 0.98)), fill=255)
    elif kind == "iron":
        pen.polygon([at(0.26, 0.28), at(0.74, 0.28), at(0.96, 0.78), at(0.04, 0.78)], fill=255)
    elif kind == "star":
        points = [at(0.5 + (0.5 if k % 2 == 0 else 0.21) * math.sin(math.pi * k / 5),
                     0.54 - (0.5 if k % 2 == 0 else 0.21) * math.cos(math.pi * k / 5)) for k in range(10)]
        pen.polygon(points, fill=255)
    elif kind == "city":
        pen.polygon([at(0.12, 0.45), at(0.5, 0.1), at(0.88, 0.45), at(0.88, 0.95), at(0.12, 0.95)], fill=255)
        pen.rectangle((*at(0.4, 0.6), *at(0.6, 0.95)), fill=0)
    else:  # large city: a keep between two towers, crenellated
        for x0, x1, top in ((0.04, 0.32, 0.2), (0.68, 0.96, 0.2), (0.3, 0.7, 0.38)):
            pen.rectangle((*at(x0, top + 0.1), *at(x1, 0.95)), fill=255)
            width = (x1 - x0) / 3
            pen.rectangle((*at(x0, top), *at(x0 + width, top + 0.12)), fill=255)
            pen.rectangle((*at(x1 - width, top), *at(x1, top + 0.12)), fill=255)
        pen.rectangle((*at(0.42, 0.66), *at(0.58, 0.95)), fill=0)
    return img.resize((size, size), Image.Resampling.BOX)


ICON_INK: dict[str, RGB] = {**RESOURCE_COLOURS, "star": STAR, "spent": SPENT, "city": LIGHT_INK,
                            "large_city": LIGHT_INK}


@lru_cache(maxsize=256)
def icon(kind: str, bg: RGB, size: int) -> Piece:
    """An icon in its colour inside a dark outline, on a known background."""
    p = palette()
    inner = _shape("star" if kind == "spent" else kind, size - 2)
    shape = Image.new("L", (size, size))
    shape.paste(inner, (1, 1))
    outline = shape.filter(ImageFilter.MaxFilter(3))
    img = Image.new("P", (size, size), p[bg])
    outer = p.piece(outline, bg, DARK_INK)
    img.paste(outer[0], (0, 0), outer[1])
    core = p.piece(shape, DARK_INK, ICON_INK[kind])
    img.paste(core[0], (0, 0), core[1])
    return img, outer[1]


@lru_cache(maxsize=1024)
def badge(look: Look, text: str, bg: RGB, height: int, size: int, corner: int | None = None) -> Piece:
    """A race's pill (a rounded box with `corner`): dark edge, white ring, the race colour, its letter on a white
    disc and `text`."""
    f = font(size, bold=True)
    disc = height - 8
    start = disc + 10 if look.letter else 8
    step = BADGE_STEP
    width = -(-(round(f.getlength(text)) + start + 8) // step) * step
    blank, mask = _blank(look, bg, width, height, height // 2 if corner is None else corner)
    img = blank.copy()
    canvas = Canvas(img, palette())
    canvas.text(((start + width - 8) / 2, height / 2 + 1), text, f, ink_for(look.badge), look.badge)
    return img, mask


@lru_cache(maxsize=1024)
def _blank(look: Look, bg: RGB, width: int, height: int, corner: int) -> Piece:
    """A badge without its text: the rings and the race letter, in the race's colour on white (dark where that
    colour is too light to read on white, the Elves' yellow)."""
    p = palette()
    img = Image.new("P", (width, height), p[bg])
    under = bg
    for inset, colour in ((0, DARK_INK), (1, LIGHT_INK), (3, look.badge)):
        piece = p.piece(pill_mask(width - 2 * inset, height - 2 * inset, max(1, corner - inset)), under, colour)
        img.paste(piece[0], (inset, inset), piece[1])
        under = colour
    if look.letter:
        disc = height - 8
        piece = p.piece(pill_mask(disc, disc, disc // 2), look.badge, LIGHT_INK)
        img.paste(piece[0], (4, 4), piece[1])
        ink = look.badge if contrast(look.badge, LIGHT_INK) >= 3 else DARK_INK
        Canvas(img, p).text((4 + disc / 2, height / 2 + 1), look.letter, font(height * 3 // 5, bold=True), ink,
                            LIGHT_INK)
    mask = pill_mask(width, height, corner)
    return img, Image.frombytes("L", mask.size, mask.tobytes().translate(SOLID))


def hero_token(look: Look, text: str, bg: RGB, size: Sizes) -> Piece:
    """A hero: his number and life on a small box of his owner's colour, square-cornered to tell it from a unit
    badge, without the race letter (room)."""
    return badge(Look(look.badge, look.fill, ""), text, bg, size.hero, size.hero_font, HERO_CORNER)


# --- texts ------------------------------------------------------------------------------------------------------


def units_text(counts: dict[str, int], locale: str) -> str:
    """`I3 A1 C2 M1`: infantry, archers, cavalry and monsters, the kinds present only."""
    by_key = {"infantry": counts.get("infantry", 0), "archers": counts.get("archers", 0),
              "cavalry": counts.get("cavalry", 0),
              "monsters": counts.get("giant", 0) + counts.get("firebreather", 0) + counts.get("dragon", 0)}
    return " ".join(translate(f"bm.board.units.{k}", locale, n=by_key[k]) for k in UNIT_KEYS if by_key[k])


def wrap(text: str, face: Typeface, widths: Sequence[float]) -> list[str]:
    """`text` broken into at most len(widths) lines, line k at most widths[k] px; the last one shortened with an
    ellipsis."""
    words = text.split()
    lines: list[str] = []
    for k, width in enumerate(widths):
        if not words:
            break
        if k == len(widths) - 1:
            lines.append(fit(" ".join(words), face, width))
            break
        take = len(words)
        while take > 1 and face.getlength(" ".join(words[:take])) > width:
            take -= 1
        lines.append(" ".join(words[:take]))
        words = words[take:]
    return lines


def yields(state: BMState, region: Region) -> dict[str, int]:
    """What a region yields this round (the economy's own figure: doubled with a city, BM-BRD-2, undoubled when
    sabotaged); a homeland its race card's."""
    if region.race:
        return dict(load().rules.race[region.race].homeland_yield)
    return {r: v for r, v in economy.region_income(state, region.id).items() if v}


def income(state: BMState, pid: int) -> dict[str, int]:
    """The income preview (BM-ECO-1, the economy's harvest figure); nothing for a seat still drafting its race."""
    if getattr(state.player(pid), "race", None) is None:
        return dict.fromkeys(RESOURCES, 0)
    return economy.income(state, pid)


def current(state: BMState) -> int | None:
    """Whose turn it is: the active player, or the one laying a tile in build mode; nobody once the game is over."""
    if state.phase is Phase.GAME_OVER:
        return None
    if state.phase is Phase.BUILD and state.build is not None:
        return state.build.turn
    return state.active


ECONOMY_PHASES = frozenset({Phase.ECONSTART, Phase.ORDERS, Phase.UPKEEP})


def phase_name(state: BMState, locale: str) -> str:
    """The phase, and the step within it where the phase's record says (the economy's, the Council's vote)."""
    name = capitalise(translate(f"bm.board.phase.{state.phase.value}", locale))
    if state.council is not None and state.phase is Phase.COUNCIL:
        step = translate("bm.board.step.vote", locale, event=N.card(state.council.card))
    elif state.economy is not None and state.phase in ECONOMY_PHASES:  # its record outlives them, to the upkeep
        step = translate(f"bm.board.step.{state.economy.step}", locale)
    else:
        return name
    return translate("bm.board.phase_step", locale, phase=name, step=step)


# --- drawing ----------------------------------------------------------------------------------------------------


def render(state: BMState, events: Sequence[Event] = (), *, locale: str = "en",
           away: frozenset[int] = frozenset()) -> bytes:
    """The board as PNG bytes: pure and synchronous; the same state always gives the same bytes."""
    return draw(state, events, locale=locale, away=away).png()


def draw(state: BMState, events: Sequence[Event] = (), *, locale: str = "en",
         away: frozenset[int] = frozenset()) -> Canvas:
    """The board drawn on its palette canvas, before it is encoded; `events` are not drawn (BM-DIG-17)."""
    layout = layout_of(state)
    b = board(layout)
    names = Names(state.players, "bm.board.unnamed", locale)
    rims = tuple(sorted((rid, look_of(state, pid, locale).badge) for rid, pid in state.occupied.items()))
    canvas = BoardCanvas(_map_picture(layout, frozenset(state.regions), rims, locale).copy(), b.palette)
    for rid in load().map.ids:
        if rid in state.regions and rid in b.geometry.centres:
            _region(canvas, b.geometry, state, load().map.by_id[rid], names, locale)
    _banner(canvas, b.frame.width, state, names, locale)
    _panel(canvas, b, state, names, locale, away)
    _legend(canvas, b, state, names, locale)
    return canvas


class BoardCanvas(Canvas):
    """The board's canvas: encoded as every board is, and once more at zlib's best level if it is still too big
    (a board crowded past any likely game: slow, ~110 ms, but within the size limit more often)."""

    def png(self) -> bytes:
        data = super().png()
        return data if len(data) <= MAX_PNG_BYTES else self._encode(9)


@lru_cache(maxsize=8)
def _map_picture(layout: Layout, regions: frozenset[str], rims: tuple[tuple[str, RGB], ...],
                 locale: str) -> Image.Image:
    """What a game's picture keeps from one render to the next: the pre-drawn picture in the map's colours (a
    region not in the game as sea, BM-BRD-1; an occupied homeland's rim in its occupier's colour, BM-HOM-1), the
    hexes' outlines, ids and names, and the key."""
    b = board(layout)
    g = b.geometry
    regions = regions & g.centres.keys()
    areas = []
    rim_of = dict(rims)
    for rid, k in index_of().items():
        fill = fill_of(load().map.by_id[rid]) if rid in regions else SEA
        areas.append((k, fill, rim_of.get(rid, fill)))
    canvas = mapboard.recolour(b, areas, 1)
    pen = ImageDraw.Draw(canvas.img)
    ink = canvas.palette[BORDER]
    for rid in sorted(regions):
        corners = [(x, y + MAP_Y) for x, y in g.corners(rid)]
        pen.line([*corners, corners[0]], fill=ink, width=BORDER_W, joint="curve")
    for rid in sorted(regions):
        _label(canvas, g, load().map.by_id[rid], rid in rim_of, locale)
    _key(canvas, b, locale)
    return canvas.img


@cache
def name_lines(rid: str, locale: str) -> tuple[str, ...]:
    """The lines of a hex's name in `locale`, each as wide as the hex allows where it goes."""
    dy = NAME_DY - HEX
    return tuple(wrap(label(load().map.by_id[rid], locale), font(14),
                      [2 * half_width(dy) - 14, 2 * half_width(dy + 15) - 14]))


def _label(canvas: Canvas, g: Geometry, region: Region, occupied: bool, locale: str) -> None:
    """A hex's id and name (BM-DIG-14); an occupied homeland's occupation mark takes the place of its name."""
    cx, cy = g.centres[region.id]
    cy += MAP_Y
    fill = fill_of(region)
    ink = ink_for(fill)
    canvas.text((cx, cy - HEX + 24), region.id, font(21, bold=True), ink, fill)
    for k, line in enumerate(() if occupied else name_lines(region.id, locale)):
        canvas.text((cx, cy - HEX + NAME_DY + 15 * k), line, font(14), ink, fill)


def _row(canvas: Canvas, pieces: Sequence[Piece], centre: tuple[float, float]) -> None:
    """Pieces side by side, the row centred at `centre`."""
    x = round(centre[0] - _width(pieces) / 2)
    for piece in pieces:
        canvas.paste(piece, (x, round(centre[1] - piece[0].height / 2)))
        x += piece[0].width + GAP


def label(region: Region, locale: str) -> str:
    """The name written in a hex; a homeland's without its "Homeland: " (its id and its colour say so)."""
    name = words(N.region_name(region.id), locale)
    return name.split(": ", 1)[-1] if region.race else name


@dataclass(frozen=True)
class Sizes:
    """Heights and font sizes of a hex's marks; a crowded hex takes the compact ones."""

    badge: int
    badge_font: int
    hero: int
    hero_font: int
    star: int


ROOMY = Sizes(28, 19, 22, 14, 18)
COMPACT = Sizes(21, 14, 19, 12, 15)
LOWEST = HEX - 24
"""How far below a hex's centre its marks may reach."""


def _region(canvas: Canvas, g: Geometry, state: BMState, region: Region, names: Names, locale: str) -> None:
    """Under a hex's name: its yield and city, then its Stars and occupation (a homeland), badges and heroes."""
    cx, cy = g.centres[region.id]
    cy += MAP_Y
    fill = fill_of(region)
    y = cy - HEX + NAME_DY + 15 * len(name_lines(region.id, locale)) + 7
    _yield_row(canvas, state, region, (cx, y), fill)
    if region.id in state.occupied:
        _occupation(canvas, state, region, (cx, cy - HEX + NAME_DY + 3), fill, names, locale)
    y += 15
    rows = _marks(state, region, fill, names, locale, y - cy, ROOMY)
    if not _fits(rows, y - cy):
        rows = _marks(state, region, fill, names, locale, y - cy, COMPACT)
    for pieces in rows:
        height = max(p[0].height for p in pieces)
        _row(canvas, pieces, (cx, y + height / 2))
        y += height + GAP


def _marks(state: BMState, region: Region, fill: RGB, names: Names, locale: str, top: float,
           size: Sizes) -> list[list[Piece]]:
    """What stands in a region, row by row: a homeland's Star chips, a badge per race present (BM-DIG-14),
    each hero beside the first badge with room for him, else on a row of his own; the rows start `top` px below the
    hex's centre."""
    rows: list[list[Piece]] = []
    owner = state.seat_of_race(region.race) if region.race else None
    stars = state.stars.get(owner) if owner is not None else None
    if stars and stars.owned:
        rows.append([icon("star" if k < stars.power else "spent", fill, size.star) for k in range(stars.owned)])
    units = [[badge(look_of(state, pid, locale), text, fill, size.badge, size.badge_font)]
             for pid in state.present(region.id)
             if (text := units_text(state.units(region.id, pid).counts(), locale))]
    heroes = [hero_token(look_of(state, h.owner, locale), translate("bm.board.hero", locale, n=h.number, life=h.life),
                         fill, size) for h in state.heroes if h.region == region.id]
    first = len(rows)
    rows += units
    for piece in heroes:
        joined = next((row for k, row in enumerate(rows[first:], first)
                       if _width([*row, piece]) <= _room(top + _height(rows[:k + 1]))), None)
        if joined is None:
            rows.append([piece])
        else:
            joined.append(piece)
    return rows


def _occupation(canvas: Canvas, state: BMState, region: Region, at: tuple[float, float], fill: RGB,
                names: Names, locale: str) -> None:
    """"Occupied: X" on the occupier's colour and letter, where the homeland's name would be (BM-DIG-14, BM-HOM-1);
    just "Occupied" when X's name does not fit."""
    by = state.occupied[region.id]
    f = font(13, bold=True)
    look = look_of(state, by, locale)
    room = 2 * half_width(NAME_DY + 3 - HEX) - 36 - (18 if look.letter else 0)
    text = translate("bm.board.occupied_by", locale, player=names(by))
    if f.getlength(text) > room:
        text = translate("bm.board.occupied", locale)
    _row(canvas, [badge(look, text, fill, 20, 13)], at)


def _height(rows: Sequence[Sequence[Piece]]) -> int:
    return sum(max(p[0].height for p in row) + GAP for row in rows)


def _room(bottom: float) -> float:
    """How wide a row of marks may be whose lower edge is `bottom` px below the hex's centre."""
    return 2 * half_width(bottom) - 12


def _fits(rows: Sequence[Sequence[Piece]], top: float) -> bool:
    """Whether the rows, from `top` px below the hex's centre, stay inside the hex."""
    bottom = top
    for row in rows:
        bottom += max(p[0].height for p in row) + GAP
        if bottom > LOWEST or _width(row) > _room(bottom):
            return False
    return True


def _width(pieces: Sequence[Piece]) -> int:
    return sum(p[0].width for p in pieces) + GAP * (len(pieces) - 1)


def _yield_row(canvas: Canvas, state: BMState, region: Region, at: tuple[float, float], fill: RGB) -> None:
    """The yield icon(s) and value(s), doubled with a city, then the city's icon (BM-DIG-14)."""
    f = font(17, bold=True)
    ink = ink_for(fill)
    parts = [(icon(r, fill, 20), str(v)) for r, v in yields(state, region).items()]
    city = state.cities.get(region.id)
    if city is not None:
        parts.append((icon(city.kind, fill, 24), ""))
    widths = [p[0].width + (4 + f.getlength(t) if t else 0) for p, t in parts]
    x = at[0] - (sum(widths) + 8 * (len(widths) - 1)) / 2
    for (piece, text), width in zip(parts, widths, strict=True):
        canvas.paste(piece, (round(x), round(at[1] - piece[0].height / 2)))
        if text:
            canvas.text((x + piece[0].width + 3, at[1] + 1), text, f, ink, fill, anchor="lm")
        x += width + 8


def _banner(canvas: Canvas, width: int, state: BMState, names: Names, locale: str) -> None:
    """The round, the phase and the active player; the Star pool and this round's events."""
    title = font(26, bold=True)
    y1, y2 = 30, 66
    over = state.phase is Phase.GAME_OVER
    if over:
        heading = translate("bm.board.game_over", locale)
    elif state.round:
        heading = translate("bm.board.round", locale, round=state.round)
    else:
        heading = translate("bm.board.setup", locale)
    x = canvas.text((24, y1), heading, title, LIGHT_INK, BANNER, anchor="lm")[2] + 18
    if over:
        winners = state.winners or []
        together = ", ".join(names(p) for p in winners)
        shown = (translate("bm.board.winner", locale, n=len(winners), player=together) if winners
                 else translate("bm.board.no_winner", locale))
        canvas.text((x, y1), fit(shown, title, width - x - 24), title, HIGHLIGHT, BANNER, anchor="lm")
    else:
        x = canvas.text((x, y1), "· " + phase_name(state, locale), font(24), BANNER_MUTED, BANNER, anchor="lm")[2]
        turn = current(state)
        if turn is not None and state.player(turn):
            x = canvas.text((x + 18, y1), translate("bm.board.active", locale), font(24), BANNER_MUTED, BANNER,
                            anchor="lm")[2] + 10
            x = canvas.swatch((x, y1), look_of(state, turn, locale), 30, BANNER) + 10
            canvas.text((x, y1), fit(names(turn), title, width - x - 24), title, LIGHT_INK, BANNER,
                        anchor="lm")
    details = [translate("bm.board.star_pool", locale, n=state.star_pool)]
    if state.events:
        details.append(translate("bm.board.events", locale, events=[N.card(e) for e in state.events]))
    small = font(17)
    canvas.text((24, y2), fit("   ·   ".join(details), small, width - 48), small, BANNER_MUTED, BANNER, anchor="lm")


def _panel(canvas: Canvas, b: Board, state: BMState, names: Names, locale: str, away: frozenset[int]) -> None:
    """BM-DIG-16: per player, resources and the income preview, votes, hand size, regions, heroes and artifacts."""
    x0, x1 = b.geometry.width + 2, b.frame.width
    name_font, small = font(20, bold=True), font(16)
    rows = (26, 62, 92, 118, 144)
    for k, player in enumerate(state.players):
        y = MAP_Y + k * PLAYER_CARD
        bg = LEGEND
        if player.id == current(state):
            bg = LEGEND_ACTIVE
            canvas.pill((x0 + 6, y + 5, x1 - 6, y + PLAYER_CARD - 3), bg, LEGEND, radius=10)
        elif k:
            canvas.rect((x0 + 14, y, x1 - 14, y + 1), RULE)
        left, right = x0 + 18, x1 - 18
        x = canvas.swatch((left, y + rows[0]), look_of(state, player.id, locale), 30, bg) + 10
        ink = LEGEND_MUTED if player.status != "active" else DARK_INK
        race = getattr(player, "race", None)
        race_name = words(N.race(race), locale) if race else translate("bm.board.no_race", locale)
        tail = translate("board.away", locale) if player.id in away else race_name
        x = canvas.text((x, y + rows[0]), fit(names(player.id), name_font, 200), name_font, ink, bg,
                        anchor="lm")[2] + 12
        canvas.text((x, y + rows[0] + 1), fit(tail, small, right - x), small, LEGEND_MUTED, bg, anchor="lm")
        _economy(canvas, state, player.id, (left, y + rows[1]), bg, locale)
        stats = translate("bm.board.stats", locale, votes=council.votes_of(state, player.id),
                          cards=len(state.hands.get(player.id, [])), regions=len(state.controlled(player.id)))
        heroes = [translate("bm.board.hero_at", locale, n=h.number, life=h.life, region=h.region)
                  for h in state.heroes_of(player.id)]
        held = [words(N.card(a), locale) for a in state.artifacts.get(player.id, [])]
        none = translate("bm.board.none", locale)
        for line, row in ((stats, rows[2]),
                          (translate("bm.board.heroes", locale, heroes=", ".join(heroes) or none), rows[3]),
                          (translate("bm.board.artifacts", locale, artifacts=", ".join(held) or none), rows[4])):
            canvas.text((left, y + row), fit(line, small, right - left), small, ink, bg, anchor="lm")


def _economy(canvas: Canvas, state: BMState, pid: int, at: tuple[int, int], bg: RGB, locale: str) -> None:
    """Each resource's icon, the amount in stock and, muted, the income preview (BM-DIG-16)."""
    x, y = at
    x = canvas.text((x, y), translate("bm.board.stock", locale), font(16), DARK_INK, bg, anchor="lm")[2] + 12
    stock = state.stock.get(pid)
    coming = income(state, pid)
    amount, extra = font(20, bold=True), font(16, bold=True)
    for r in RESOURCES:
        canvas.paste(icon(r, bg, 22), (x, y - 11))
        x = canvas.text((x + 26, y + 1), str(stock.get(r) if stock else 0), amount, DARK_INK, bg, anchor="lm")[2]
        plus = translate("bm.board.income_of", locale, n=coming[r])
        x = canvas.text((x + 5, y + 1), plus, extra, INCOME, bg, anchor="lm")[2] + 18


def _legend(canvas: Canvas, b: Board, state: BMState, names: Names, locale: str) -> None:
    """The turn-order track (this round's initiative order, or seat order before it is rolled), the active player
    highlighted, each with his Stars: unspent of owned."""
    y = b.frame.legend_y + LEGEND_ROW // 2
    f, bold = font(17, bold=True), font(18, bold=True)
    x = canvas.text((24, y), translate("bm.board.order", locale), bold, DARK_INK, LEGEND, anchor="lm")[2] + 14
    order = [pid for pid in (state.order or [p.id for p in state.players]) if state.player(pid)]
    slot = min(320, (b.frame.width - x - 16) // max(1, len(order)))
    for k, pid in enumerate(order):
        sx = x + k * slot
        bg = LEGEND
        if pid == current(state):
            bg = LEGEND_ACTIVE
            canvas.pill((sx, y - 22, sx + slot - 8, y + 22), bg, LEGEND, radius=10)
        tx = canvas.text((sx + 10, y), translate("bm.board.place", locale, n=k + 1), bold, DARK_INK, bg,
                         anchor="lm")[2] + 6
        tx = canvas.swatch((tx, y), look_of(state, pid, locale), 26, bg) + 8
        stars = state.stars.get(pid) or Stars()
        count = translate("bm.board.stars", locale, power=stars.power, owned=stars.owned)
        room = sx + slot - 18 - f.getlength(count) - 32 - tx
        tx = canvas.text((tx, y), fit(names(pid), bold, room), bold, DARK_INK, bg, anchor="lm")[2] + 10
        canvas.paste(icon("star", bg, 18), (tx, y - 9))
        canvas.text((tx + 22, y), count, f, DARK_INK, bg, anchor="lm")


def _key(canvas: Canvas, b: Board, locale: str) -> None:
    """The map's symbols explained under the legend."""
    y = b.frame.legend_y + LEGEND_ROW + KEY_ROW // 2 - 4
    f = font(15)
    x = 24.0
    sample = race_looks(locale)["DAQ"]
    entries: list[tuple[Piece, str]] = [
        (badge(sample, units_text({"infantry": 3, "archers": 1, "cavalry": 2, "giant": 1}, locale), LEGEND,
               ROOMY.badge, ROOMY.badge_font), "units"),
        (hero_token(sample, translate("bm.board.hero", locale, n=1, life=5), LEGEND, ROOMY), "hero"),
        *((icon(r, LEGEND, 20), r) for r in RESOURCES),
        (icon("city", LEGEND, 24), "city"), (icon("large_city", LEGEND, 24), "large_city"),
        (icon("star", LEGEND, 17), "star"), (icon("spent", LEGEND, 17), "spent"),
    ]
    for piece, key in entries:
        canvas.paste(piece, (round(x), y - piece[0].height // 2))
        x = canvas.text((x + piece[0].width + 6, y), translate(f"bm.board.key.{key}", locale), f, DARK_INK, LEGEND,
                        anchor="lm")[2] + 20
