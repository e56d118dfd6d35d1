"""The Wizard's Quest board picture (WQ-DIG-4): a state and the last turn's events → PNG.

Only public information is drawn (WQ-DIG-1, WQ-TRS-1, WQ-TRS-9): owners and counts, leaders, orcs, the Dragon
and the Great Mage, placed treasure markers (as "?" under the decoy variant until the game ends), hand sizes,
boat areas, the deck's size and the public events. Hand contents, the deck order and treasures still held by
their hiders are never read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import pairwise

from PIL import Image, ImageChops, ImageDraw

from engine.core.datanames import name_of
from engine.core.i18n import translate
from engine.core.models import Event
from engine.games.wizards_quest import events as E
from engine.games.wizards_quest.board import base_reinforcement, kingdoms
from engine.games.wizards_quest.data import WQData, standard
from engine.games.wizards_quest.state import Leader, Phase, TreasureKind, WQPlayer, WQState
from engine.games.wizards_quest.text import by_boat
from renderer import mapboard
from renderer.draw import (
    DARK_INK,
    LIGHT_INK,
    PLAYER_LOOKS,
    RGB,
    SOLID,
    SUPERSAMPLE,
    Canvas,
    Look,
    Palette,
    Piece,
    capitalise,
    differs,
    hex_rgb,
    ink_for,
    leave,
    make_look,
    pill_mask,
    text_box,
    where,
)
from renderer.fonts import Typeface, fit, font
from renderer.geometry import Box, WQGeometry, load_wizards_quest
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

MAP_Y = BANNER_H
LEGEND_COLUMNS = 3
LEGEND_ROW = 80
KEY_ROW = 44
"""Each of the two rows under the legend that explain the map's symbols and the last turn's marks."""

WATER: RGB = hex_rgb("#3d86c6")
PLANK: RGB = hex_rgb("#9a6a3c")
PLACE_HIGHLIGHT: RGB = hex_rgb("#ffc400")
ORC: RGB = hex_rgb("#2f4d1c")
ORC_FILL: RGB = hex_rgb("#b3bf8f")
FRENZY: RGB = hex_rgb("#ff3b1f")
DRAGON: RGB = hex_rgb("#a3161a")
MAGE: RGB = hex_rgb("#6f3cc3")
PROTECTED: RGB = hex_rgb("#ffb700")
TUNNEL: RGB = hex_rgb("#5a3e2b")
CAPTURED: RGB = hex_rgb("#ffffff")
"""White, so that a capture's rim never looks like the protected region's gold."""
MARCHED: RGB = hex_rgb("#ffffff")
ATTACK_ARROW: RGB = hex_rgb("#e0102a")
FRENZY_ARROW: RGB = ORC

RIM = 5
"""Width in px of the band inside each location's border that lights up for the last turn's events."""
REGION_EDGE = 2
"""Half-width of the line round each region and along the coasts."""
HALO = 8
"""Width of the protected region's outline."""
RING = 2
"""The white ring between a badge's dark edge and its colour."""
TOKEN_GAP = 4

REGION_LOOKS: dict[int, tuple[RGB, RGB]] = {
    # (the fill of an empty territory, the ink of the region's tab)
    1: (hex_rgb("#e6edf3"), hex_rgb("#3f5f7a")),
    2: (hex_rgb("#e0e8d8"), hex_rgb("#44613a")),
    3: (hex_rgb("#f0e6d2"), hex_rgb("#7a5a2a")),
    4: (hex_rgb("#eaeed2"), hex_rgb("#5f6a22")),
    5: (hex_rgb("#dbe8e5"), hex_rgb("#2f6560")),
    6: (hex_rgb("#f7ead2"), hex_rgb("#8a5a1c")),
}
LOOKS: dict[str, Look] = {c: PLAYER_LOOKS[c] for c in standard().params.colours}
NEUTRAL_LOOK = make_look("#a09a8e", "N", 0.5)
"""A player whose colour the renderer does not know."""
TREASURES: tuple[TreasureKind, ...] = ("crown", "chest", "ring")
FRENZY_SAMPLE = 4
"""The orcs on the key's frenzying stack (its label says 4 orcs)."""


def look_of(state: WQState, pid: int) -> Look:
    player = state.player(pid)
    return LOOKS.get(player.colour, NEUTRAL_LOOK) if player else NEUTRAL_LOOK


def _palette() -> Palette:
    """Every colour a Wizard's Quest board uses, with shades where two of them meet at a smooth edge."""
    looks = [*LOOKS.values(), NEUTRAL_LOOK]
    fills = [look.fill for look in looks] + [ORC_FILL] + [tint for tint, _ in REGION_LOOKS.values()]
    colours = [SEA, WATER, BORDER, PLANK, RULE, PROTECTED, CAPTURED, MARCHED, ATTACK_ARROW, FRENZY_ARROW, DRAGON,
               MAGE, DARK_INK, LIGHT_INK]
    pairs: list[tuple[RGB, RGB]] = [
        (DARK_INK, LIGHT_INK), (LIGHT_INK, ORC), (ORC, LIGHT_INK), (DARK_INK, FRENZY),
        (FRENZY, ORC), (DARK_INK, DRAGON), (DRAGON, LIGHT_INK), (DARK_INK, MAGE), (MAGE, LIGHT_INK),
        (DARK_INK, TUNNEL), (TUNNEL, LIGHT_INK), (WATER, LIGHT_INK), (SEA, BORDER), (DARK_INK, PROTECTED),
        (PROTECTED, DARK_INK), (BANNER, LIGHT_INK), (BANNER, BANNER_MUTED), (BANNER, PLACE_HIGHLIGHT),
        (PLACE_HIGHLIGHT, DARK_INK), (LEGEND, DARK_INK), (LEGEND, LEGEND_MUTED), (LEGEND, LEGEND_ACTIVE),
        (LEGEND_ACTIVE, DARK_INK), (LEGEND_ACTIVE, LEGEND_MUTED), (LIGHT_INK, DARK_INK),
    ]
    for fill in fills:
        pairs += [(fill, DARK_INK), (fill, ink_for(fill))]
    for look in looks:
        pairs += [(LIGHT_INK, look.badge), (look.badge, ink_for(look.badge)), (BANNER, look.badge),
                  (LEGEND, look.badge), (LEGEND_ACTIVE, look.badge), (DARK_INK, look.badge), (look.badge, LIGHT_INK),
                  (look.badge, DARK_INK)]
    for _, ink in REGION_LOOKS.values():
        pairs += [(DARK_INK, ink), (ink, LIGHT_INK)]
    return Palette(colours, pairs)


class Layers(mapboard.Layers):
    """The shared layers, and the island's: water areas and bridge planks."""

    def __init__(self, locations: int) -> None:
        super().__init__(locations)
        self.water = self.take()
        self.plank = self.take()


Board = mapboard.Board[WQData, WQGeometry, Layers]


def _base_map(d: WQData, g: WQGeometry, layers: Layers) -> Image.Image:
    """The map's layer values: location fills and rims, borders, thick region edges and coasts, water, bridges."""
    idx = g.index_image()
    water = where(idx, lambda v: v in WQGeometry.WATER_VALUES.values())
    land = ImageChops.subtract(where(idx, bool), water)
    region_lut = [0] * 256
    for loc, place in g.locations.items():
        region_lut[place.index] = d.map.region_of[loc]
    regions = idx.point(region_lut)
    out = idx.copy()
    out.paste(layers.sea, mask=where(idx, lambda v: v == 0))
    out.paste(layers.water, mask=water)
    out.paste(idx.point(lambda v: v - 1 + layers.rim if v else 0), mask=ImageChops.multiply(differs(idx, RIM), land))
    out.paste(layers.border, mask=differs(idx, 1))
    out.paste(layers.border, mask=differs(regions, REGION_EDGE))
    pen = ImageDraw.Draw(out)
    for bridge in g.bridges:
        b = bridge.box
        pen.rectangle((b.x0, b.y0, b.x1 - 1, b.y1 - 1), fill=layers.plank, outline=layers.border, width=2)
        for x in range(b.x0 + 10, b.x1 - 4, 10):
            pen.line((x, b.y0 + 2, x, b.y1 - 3), fill=layers.border, width=1)
    return out


@cache
def board() -> Board:
    d = standard()
    g = load_wizards_quest()
    layers = Layers(len(g.locations))
    frame = mapboard.Frame(WIDTH, BANNER_H, g.height, LEGEND_ROW, 2 * KEY_ROW)
    palette = _palette()
    lut = mapboard.frame_lut(palette, layers, BANNER, LEGEND, RULE)
    lut[layers.sea], lut[layers.water], lut[layers.border] = palette[SEA], palette[WATER], palette[BORDER]
    lut[layers.plank] = palette[PLANK]
    base = mapboard.framed(frame, layers, _base_map(d, g, layers), 2)
    return Board(d, g, layers, frame, base, lut, palette)


@dataclass
class LastTurn:
    """What the public events of the last turn ask to highlight: arrows, captures, where the beasts went."""

    attacks: list[tuple[str, str]] = field(default_factory=list)
    by_boat: set[tuple[str, str]] = field(default_factory=set)
    """Attacks that crossed water on a Boat Privilege: drawn along the water."""
    frenzies: list[tuple[str, str]] = field(default_factory=list)
    marches: list[tuple[str, str]] = field(default_factory=list)
    captured: set[str] = field(default_factory=set)
    dragon: set[str] = field(default_factory=set)
    mage: set[str] = field(default_factory=set)
    last_battle: E.Battle | None = None

    @classmethod
    def of(cls, events: Sequence[Event], d: WQData) -> LastTurn:
        last = cls()
        for e in events:
            if e.private_to is not None:
                continue
            if (isinstance(e, E.AttackDeclared | E.Battle) and e.source != e.target
                    and (e.source, e.target) not in last.attacks):
                last.attacks.append((e.source, e.target))
                if isinstance(e, E.AttackDeclared) and by_boat(e, d):
                    last.by_boat.add((e.source, e.target))
            if isinstance(e, E.Battle):
                last.last_battle = e
            elif isinstance(e, E.Captured):
                last.captured.add(e.target)
            elif isinstance(e, E.Frenzy):
                last.frenzies.append((e.source, e.target))
                if e.captured:
                    last.captured.add(e.target)
            elif isinstance(e, E.Marched):
                last.marches.append((e.source, e.target))
            elif isinstance(e, E.DragonLanded):
                last.dragon.add(e.territory)
            elif isinstance(e, E.MageMoved):
                last.mage.add(e.territory)
        return last

    def rim(self, loc: str) -> RGB | None:
        """The highlight colour of a location's rim, if the last turn touched it."""
        if loc in self.captured:
            return CAPTURED
        if loc in self.dragon:
            return DRAGON
        if loc in self.mage:
            return MAGE
        return None


def capturing(state: WQState) -> str | None:
    """The location the attacker has emptied (or found empty) and must now capture (WQ-CAP-1)."""
    if state.attack is None or not any(todo.kind == "capture" for todo in state.todo):
        return None
    return state.attack.target


def fill_of(state: WQState, d: WQData, loc: str) -> RGB:
    """An owner's fill (the attacker's for a location being captured), the orcs' fill, or the region's tint
    when nobody holds the location."""
    if loc == capturing(state):
        return look_of(state, state.current).fill
    if loc in state.owner:
        return look_of(state, state.owner[loc]).fill
    if state.orcs.get(loc, 0) > 0:
        return ORC_FILL
    return REGION_LOOKS[d.map.region_of[loc]][0]


def protected(state: WQState, d: WQData) -> int | None:
    return d.map.region_of[state.mage] if state.mage is not None else None


def render(state: WQState, events: Sequence[Event] = (), *, locale: str = "en",
           away: frozenset[int] = frozenset()) -> bytes:
    """The board as PNG bytes: pure and synchronous; the same state and events always give the same bytes."""
    return draw(state, events, locale=locale, away=away).png()


def draw(state: WQState, events: Sequence[Event] = (), *, locale: str = "en",
         away: frozenset[int] = frozenset()) -> Canvas:
    """The board drawn on its palette canvas, before it is encoded."""
    b = board()
    last = LastTurn.of(events, b.data)
    names = Names(state.players, "wq.board.unnamed", locale)
    canvas = _recolour(b, state, last, -(-len(state.players) // LEGEND_COLUMNS))
    _halo(canvas, b, state)
    _water_labels(canvas, b, locale)
    for source, target in last.marches:
        _arrow(canvas, b, source, target, MARCHED, DARK_INK)
    for source, target in last.frenzies:
        _arrow(canvas, b, source, target, FRENZY_ARROW, LIGHT_INK)
    for source, target in last.attacks:
        if (source, target) in last.by_boat:
            _boat_arrow(canvas, b, source, target)
        else:
            _arrow(canvas, b, source, target, ATTACK_ARROW, LIGHT_INK)
    _tabs(canvas, b, state, locale)
    _locations(canvas, b, state, locale)
    _banner(canvas, b, state, last, names, locale)
    _legend(canvas, b, state, names, locale, away)
    _key(canvas, b, state, locale)
    return canvas


def _recolour(b: Board, state: WQState, last: LastTurn, legend_rows: int) -> Canvas:
    areas = []
    for loc, place in b.geometry.locations.items():
        fill = fill_of(state, b.data, loc)
        areas.append((place.index, fill, last.rim(loc) or fill))
    return mapboard.recolour(b, areas, legend_rows)


def _on_map(box: Box) -> tuple[int, int, int, int]:
    return box.x0, box.y0 + MAP_Y, box.x1, box.y1 + MAP_Y


def _halo(canvas: Canvas, b: Board, state: WQState) -> None:
    """A thick golden outline round the Great Mage's protected region (WQ-PROT-1)."""
    region = protected(state, b.data)
    if region is None:
        return
    x0, y0, x1, y1 = _on_map(b.geometry.regions[str(region)].box)
    h = HALO // 2
    for box in ((x0 - h, y0 - h, x1 + h, y0 + h), (x0 - h, y1 - h, x1 + h, y1 + h),
                (x0 - h, y0 - h, x0 + h, y1 + h), (x1 - h, y0 - h, x1 + h, y1 + h)):
        canvas.rect(box, PROTECTED)


def _water_labels(canvas: Canvas, b: Board, locale: str) -> None:
    f = font(15, bold=True)
    river, lake = b.geometry.water["river"][0], b.geometry.water["lake"][1]
    cx = (river.x0 + river.x1) / 2
    for fraction in (0.2, 0.68):
        canvas.text((cx, MAP_Y + river.y0 + (river.y1 - river.y0) * fraction), translate("wq.board.river", locale),
                    f, LIGHT_INK, WATER)
    canvas.text((cx, MAP_Y + (lake.y0 + lake.y1) / 2), translate("wq.board.lake", locale), f, LIGHT_INK, WATER)
    canvas.text((30, MAP_Y + 26), translate("wq.board.sea", locale), f, BORDER, SEA, anchor="lm")


def _arrow(canvas: Canvas, b: Board, source: str, target: str, core: RGB, outline: RGB) -> None:
    """An arrow from the edge of the source's badge to the edge of the target's, so that its head shows."""
    g = b.geometry.locations
    s, t = _on_map(g[source].badge), _on_map(g[target].badge)
    canvas.arrow([leave(s, _centre(t)), leave(t, _centre(s))], core, outline)


def boat_route(b: Board, source: str, target: str) -> list[tuple[float, float]]:
    """A boat attack's way on the picture: out of the source's badge to its landing, along the lane of the water
    the two share (the shortest, if they share more than one), in from the target's landing to its badge."""
    g = b.geometry
    s, t = _on_map(g.locations[source].badge), _on_map(g.locations[target].badge)
    routes = []
    for water in b.data.map.shared_water(source, target):
        lane = [(x, y + MAP_Y) for x, y in g.boats[water].route(source, target)]
        path = [leave(s, lane[0]), *lane, leave(t, lane[-1])]
        routes.append((sum(math.dist(p, q) for p, q in pairwise(path)), path))
    return min(routes)[1]


def _boat_arrow(canvas: Canvas, b: Board, source: str, target: str) -> None:
    canvas.arrow(boat_route(b, source, target), ATTACK_ARROW, LIGHT_INK)


def _centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _tabs(canvas: Canvas, b: Board, state: WQState, locale: str) -> None:
    """Each region's number and name on a tab astride its top edge; the protected one golden."""
    shielded = protected(state, b.data)
    f = font(17, bold=True)
    for region in b.data.map.regions:
        x0, y0, x1, y1 = _on_map(b.geometry.regions[str(region.id)].tab)
        is_protected = region.id == shielded
        colour = PROTECTED if is_protected else REGION_LOOKS[region.id][1]
        key = "wq.board.tab.protected" if is_protected else "wq.board.tab"
        label = translate(key, locale, r=region.id, name=name_of("wq", "region", region.id))
        canvas.rect((x0 + 4, y0, x1 - 4, y1), DARK_INK)
        canvas.rect((x0, y0 + 4, x1, y1 - 4), DARK_INK)
        canvas.pill((x0 + 2, y0 + 2, x1 - 2, y1 - 2), colour, DARK_INK, radius=6)
        ink = ink_for(colour)
        canvas.text(((x0 + x1) / 2, (y0 + y1) / 2 + 1), fit(label, f, x1 - x0 - 16), f, ink, colour)


def _locations(canvas: Canvas, b: Board, state: WQState, locale: str) -> None:
    d, g = b.data, b.geometry
    f = font(g.label_size, bold=True)
    castle_font = font(18, bold=True)
    decoy = state.options.decoy and state.phase is not Phase.GAME_OVER
    markers = {t.location: t for t in state.treasures if t.location is not None}
    tunnel = next(link for link in d.map.links if link.kind == "tunnel")
    for loc, place in g.locations.items():
        fill = fill_of(state, d, loc)
        ink = ink_for(fill)
        x0, y0, _, y1 = _on_map(place.label)
        if loc in d.map.castles:
            keep = _keep(b.palette, fill, ink)
            canvas.paste(keep, (x0, y0 + 1))
            canvas.text((x0 + keep[0].width + 6, (y0 + y1) / 2), loc, castle_font, ink, fill, anchor="lm")
        else:
            canvas.text((x0 + 2, (y0 + y1) / 2), loc, f, ink, fill, anchor="lm")
        _occupant(canvas, b, state, loc, place.badge, fill, locale)
        if place.tunnel is not None:
            other = tunnel.b if loc == tunnel.a else tunnel.a
            _tunnel_mouth(canvas, _on_map(place.tunnel), other, fill, locale)
        if place.tokens is None:
            continue
        tokens: list[Piece] = []
        size = place.tokens.y1 - place.tokens.y0
        if state.dragon == loc:
            tokens.append(_token(b.palette, "dragon", DRAGON, fill, size, _dragon_letter(locale)))
        if state.mage == loc:
            tokens.append(_token(b.palette, "mage", MAGE, fill, size))
        treasure = markers.get(loc)
        if treasure is not None:
            kind = "decoy" if decoy else treasure.kind
            tokens.append(_token(b.palette, kind, look_of(state, treasure.owner).badge, fill, size))
        tx0, ty0, tx1, _ = _on_map(place.tokens)
        width = sum(t[0].width for t in tokens) + TOKEN_GAP * (len(tokens) - 1)
        x = round((tx0 + tx1 - width) / 2)
        for piece in tokens:
            canvas.paste(piece, (x, ty0))
            x += piece[0].width + TOKEN_GAP


def _occupant(canvas: Canvas, b: Board, state: WQState, loc: str, box: Box, fill: RGB, locale: str) -> None:
    """The holder's badge (letter and men) with a leader's disc beside it, a leader alone with no men (the disc
    inside the badge, no count), the attacker's hollow badge on a location being captured, or the orcs'."""
    castle = loc in b.data.map.castles
    x0, y0, x1, y1 = _on_map(box)
    h = y1 - y0
    pill_w = 66 if castle else 120
    disc = None
    if loc == capturing(state):
        look = look_of(state, state.current)
        piece = _badge(b.palette, look, translate("wq.board.capturing", locale, n=1), look.letter, fill, pill_w, h,
                       True)
    elif loc in state.owner:
        look = look_of(state, state.owner[loc])
        leader = state.leader_at(loc)
        men = state.men.get(loc, 0)
        if leader and not men:
            piece = _leader_alone(b.palette, look, _leader_letter(leader, locale), fill, pill_w, h)
        else:
            piece = _badge(b.palette, look, str(men), look.letter, fill, pill_w, h)
            size = h * 4 // 5
            disc = _badge(b.palette, look, _leader_letter(leader, locale), "", fill, size, size) if leader else None
    elif state.orcs.get(loc, 0) > 0:
        orcs = state.orcs[loc]
        word = translate("wq.board.orcs", locale, n=orcs)  # the noun beside the count, in the count's plural
        piece = _orc_badge(b.palette, orcs, word, orcs >= b.data.params.frenzy_at, fill, pill_w, h, castle)
    else:
        return
    width = pill_w + (disc[0].width + 4 if disc else 0)
    x = round((x0 + x1 - width) / 2)
    canvas.paste(piece, (x, y0))
    if disc:
        canvas.paste(disc, (x + pill_w + 4, y0 + (h - disc[0].height) // 2))


def _layered(palette: Palette, size: tuple[int, int], bg: RGB, layers: Sequence[tuple[Image.Image, RGB, int]],
             texts: Sequence[tuple[str, Typeface, tuple[float, float], RGB]] = ()) -> Piece:
    """Nested shapes (a coverage mask, its colour and its inset), each inside the one before, then text on the
    innermost colour; pasted where the outermost shape covers."""
    img = Image.new("P", size, palette[bg])
    under = bg
    for mask, colour, inset in layers:
        piece = palette.piece(mask, under, colour)
        img.paste(piece[0], (inset, inset), piece[1])
        under = colour
    canvas = Canvas(img, palette)
    for text, f, xy, ink in texts:
        canvas.text(xy, text, f, ink, under)
    outer = layers[0][0]
    return img, Image.frombytes("L", outer.size, outer.tobytes().translate(SOLID))


def _rings(w: int, h: int, radius: int | None, middle: RGB, inner: RGB,
           ring: int = RING) -> list[tuple[Image.Image, RGB, int]]:
    """A dark edge, a ring `ring` px wide and the inner colour, as rounded rectangles."""

    def shape(inset: int) -> Image.Image:
        r = (h - 2 * inset) // 2 if radius is None else max(2, radius - inset)
        return pill_mask(w - 2 * inset, h - 2 * inset, r)

    return [(shape(0), DARK_INK, 0), (shape(1), middle, 1), (shape(1 + ring), inner, 1 + ring)]


def _leader_letter(leader: Leader, locale: str) -> str:
    """The letter on a leader's disc."""
    return translate(f"wq.board.letter.{leader}", locale)


def _dragon_letter(locale: str) -> str:
    """The letter on the Dragon's token."""
    return translate("wq.board.letter.dragon", locale)


@lru_cache(maxsize=1024)
def _badge(palette: Palette, look: Look, count: str, letter: str, bg: RGB, w: int, h: int,
           hollow: bool = False) -> Piece:
    """A player's badge: the owner's letter and a count (or a leader's letter alone, on a disc); a hollow one (men
    about to capture) has a thick ring of the owner's colour round a white middle, and dark ink."""
    rings = _rings(w, h, None, look.badge, LIGHT_INK, RING + 1) if hollow else _rings(w, h, None, LIGHT_INK,
                                                                                       look.badge)
    ink = ink_for(rings[-1][1])
    size = 38 if h >= 50 else 24
    if letter:
        texts = [(letter, font(size // 2, bold=True), (10 + size / 4, h / 2 + 1), ink),
                 (count, font(size if len(count) < 3 else size * 3 // 4, bold=True),
                  ((14 + size / 2 + w) / 2, h / 2 + 1), ink)]
    else:
        texts = [(count, font(size * 3 // 4, bold=True), (w / 2, h / 2 + 1), ink)]
    return _layered(palette, (w, h), bg, rings, [t for t in texts if t[0]])


@lru_cache(maxsize=64)
def _leader_alone(palette: Palette, look: Look, leader: str, bg: RGB, w: int, h: int) -> Piece:
    """A location held by a leader and no men: the owner's letter, and the leader's disc where the count goes
    (pasted on a copy: the plain badge is cached, shared by every leader's letter in every language)."""
    badge, mask = _badge(palette, look, "", look.letter, bg, w, h)
    img = badge.copy()
    size = h - 2 * (2 + RING)
    disc = _badge(palette, look, leader, "", look.badge, size, size)
    centre = (14 + (38 if h >= 50 else 24) / 2 + w) / 2
    img.paste(disc[0], (round(centre - size / 2), (h - size) // 2), disc[1])
    return img, mask


@lru_cache(maxsize=256)
def _orc_badge(palette: Palette, orcs: int, word: str, frenzy: bool, bg: RGB, w: int, h: int, small: bool) -> Piece:
    """The orcs' count on dark green; a red ring when the stack is ready to frenzy (WQ-ORC-3)."""
    size = 24 if small else 38
    count_font, word_font = font(size, bold=True), font(12 if small else 17, bold=True)
    cw, ww = count_font.getlength(str(orcs)), word_font.getlength(word)
    left = (w - cw - ww - 4) / 2
    texts = [(str(orcs), count_font, (left + cw / 2, h / 2 + 1), LIGHT_INK),
             (word, word_font, (left + cw + 4 + ww / 2, h / 2 + 2), LIGHT_INK)]
    return _layered(palette, (w, h), bg, _rings(w, h, None, FRENZY if frenzy else LIGHT_INK, ORC), texts)


def _glyph(kind: str, size: int) -> Image.Image:
    """A treasure's outline shape (crown, chest, ring), drawn large and shrunk for smooth edges."""
    s = SUPERSAMPLE
    n = size * s
    img = Image.new("L", (n, n))
    pen = ImageDraw.Draw(img)

    def at(x: float, y: float) -> tuple[float, float]:
        return x * n, y * n

    if kind == "crown":
        pen.polygon([at(0.12, 0.78), at(0.12, 0.3), at(0.32, 0.52), at(0.5, 0.2), at(0.68, 0.52), at(0.88, 0.3),
                     at(0.88, 0.78)], fill=255)
    elif kind == "chest":
        pen.rounded_rectangle((*at(0.12, 0.25), *at(0.88, 0.8)), radius=n // 8, fill=255)
        pen.rectangle((*at(0.12, 0.45), *at(0.88, 0.5)), fill=0)
        pen.rectangle((*at(0.44, 0.4), *at(0.56, 0.58)), fill=0)
    else:
        pen.ellipse((*at(0.18, 0.28), *at(0.82, 0.9)), fill=255)
        pen.ellipse((*at(0.32, 0.42), *at(0.68, 0.78)), fill=0)
        pen.polygon([at(0.5, 0.08), at(0.64, 0.22), at(0.5, 0.34), at(0.36, 0.22)], fill=255)
    return img.resize((size, size), Image.Resampling.BOX)


@lru_cache(maxsize=256)
def _token(palette: Palette, kind: str, colour: RGB, bg: RGB, size: int, letter: str = "") -> Piece:
    """A round token: the Dragon (its `letter`), the Great Mage (a star), or a treasure's glyph in its owner's
    colour."""
    ink = ink_for(colour)
    if kind == "dragon":
        layers = _rings(size, size, 7, colour, colour)[:2]
        return _layered(palette, (size, size), bg, layers,
                        [(letter, font(size * 2 // 3, bold=True), (size / 2, size / 2 + 1), LIGHT_INK)])
    if kind == "mage":
        layers = _rings(size, size, None, colour, colour)[:2]
        return _layered(palette, (size, size), bg, layers,
                        [("★", font(size * 2 // 3, bold=True), (size / 2, size / 2 + 1), LIGHT_INK)])
    layers = _rings(size, size, None, LIGHT_INK, colour)
    if kind == "decoy":
        return _layered(palette, (size, size), bg, layers,
                        [("?", font(size * 2 // 3, bold=True), (size / 2, size / 2 + 1), ink)])
    img, mask = _layered(palette, (size, size), bg, layers)
    inner = size - 2 * (1 + RING)
    glyph = palette.piece(_glyph(kind, inner - 6), colour, ink)
    img.paste(glyph[0], (1 + RING + 3, 1 + RING + 3), glyph[1])
    return img, mask


@lru_cache(maxsize=64)
def _keep(palette: Palette, bg: RGB, ink: RGB) -> Piece:
    """A small castle keep: a crenellated tower with a gate."""
    s = SUPERSAMPLE
    w, h = 22, 22
    img = Image.new("L", (w * s, h * s))
    pen = ImageDraw.Draw(img)
    pen.rectangle((2 * s, 6 * s, 20 * s, 22 * s), fill=255)
    for x in (2, 9, 16):
        pen.rectangle((x * s, 1 * s, (x + 4) * s, 6 * s), fill=255)
    pen.rounded_rectangle((8 * s, 13 * s, 14 * s, 22 * s), radius=3 * s, fill=0)
    return palette.piece(img.resize((w, h), Image.Resampling.BOX), bg, ink)


def _tunnel_mouth(canvas: Canvas, box: tuple[int, int, int, int], other: str, bg: RGB, locale: str) -> None:
    """A Great Tunnel mouth: "T" and the far mouth's id (WQ-MAP-3)."""
    x0, y0, x1, y1 = box
    canvas.pill(box, DARK_INK, bg)
    canvas.pill((x0 + 2, y0 + 2, x1 - 2, y1 - 2), TUNNEL, DARK_INK)
    canvas.text(((x0 + x1) / 2, (y0 + y1) / 2 + 1), translate("wq.board.tunnel_mouth", locale, other=other),
                font(16, bold=True), LIGHT_INK, TUNNEL)


def _banner(canvas: Canvas, b: Board, state: WQState, last: LastTurn, names: Names, locale: str) -> None:
    """Round, active player and step; men to place; turn order, deck, protection and the last battle."""
    title = font(26, bold=True)
    y1, y2 = 30, 66
    over = state.phase is Phase.GAME_OVER
    if over:
        heading = translate("wq.board.game_over", locale)
    elif state.round:
        heading = translate("wq.board.round", locale, round=state.round)
    else:
        heading = translate("wq.board.setup", locale)
    x = canvas.text((24, y1), heading, title, LIGHT_INK, BANNER, anchor="lm")[2] + 22
    if over:
        winners = state.winners or []
        for pid in winners:
            x = canvas.swatch((x, y1), look_of(state, pid), 30, BANNER) + 10
        shown = (translate("wq.board.winner", locale, player=", ".join(names(p) for p in winners)) if winners
                 else translate("wq.board.no_winner", locale))
        canvas.text((x, y1), fit(shown, title, WIDTH - x - 24), title, LIGHT_INK, BANNER, anchor="lm")
    else:
        x = canvas.swatch((x, y1), look_of(state, state.current), 30, BANNER) + 10
        x = canvas.text((x, y1), fit(names(state.current), title, 560), title, LIGHT_INK, BANNER, anchor="lm")[2]
        step = capitalise(translate(f"wq.step.{state.phase.value}", locale))
        canvas.text((x + 18, y1), "· " + step, font(24), BANNER_MUTED, BANNER, anchor="lm")
    if state.pool and not over:
        label = translate("wq.board.to_place", locale, n=state.pool)
        f = font(20, bold=True)
        bx0, _, bx1, _ = text_box(label, f, (WIDTH - 24, y1), anchor="rm")
        canvas.pill((bx0 - 14, y1 - 18, bx1 + 14, y1 + 18), PLACE_HIGHLIGHT, BANNER)
        canvas.text((WIDTH - 24, y1), label, f, DARK_INK, PLACE_HIGHLIGHT, anchor="rm")
    region = protected(state, b.data)
    details = [
        translate("wq.board.order", locale, order=", ".join(names(p) for p in state.order if state.player(p))),
    ] if state.order else []
    details += [
        translate("wq.board.deck", locale, deck=len(state.deck), discard=len(state.discard)),
        translate("wq.board.protected", locale, r=region, name=name_of("wq", "region", region)) if region
        else translate("wq.board.unprotected", locale),
    ]
    small = font(17)
    battle = ""
    if last.last_battle is not None:
        e = last.last_battle
        battle = translate("wq.board.last_battle." + ("won" if e.attacker_won else "lost"), locale,
                           source=e.source, target=e.target, roll=e.roll, d=e.d)
        canvas.text((WIDTH - 24, y2), battle, font(17, bold=True), LIGHT_INK, BANNER, anchor="rm")
    room = WIDTH - 48 - (font(17, bold=True).getlength(battle) + 30 if battle else 0)
    canvas.text((24, y2), fit("   ·   ".join(details), small, room), small, BANNER_MUTED, BANNER, anchor="lm")


def _legend(canvas: Canvas, b: Board, state: WQState, names: Names, locale: str, away: frozenset[int]) -> None:
    """Per player: colour, letter and name, treasures retrieved; locations, men, cards, boats; leaders and
    the next reinforcement, or why they are out."""
    top = MAP_Y + b.geometry.height + 2
    slot_w = WIDTH // LEGEND_COLUMNS
    name_font, small = font(19, bold=True), font(15)
    over = state.phase is Phase.GAME_OVER
    for k, player in enumerate(state.players):
        x = (k % LEGEND_COLUMNS) * slot_w
        y = top + (k // LEGEND_COLUMNS) * LEGEND_ROW
        out = player.status != "active"
        bg = LEGEND
        if player.id == state.current and not over:
            bg = LEGEND_ACTIVE
            canvas.pill((x + 6, y + 3, x + slot_w - 6, y + LEGEND_ROW - 1), bg, LEGEND, radius=10)
        text_x = canvas.swatch((x + 16, y + 23), look_of(state, player.id), 30, bg) + 10
        right = x + slot_w - 14
        treasures_x = _retrieved(canvas, b, state, player, (right, y + 23), bg, locale)
        ink = LEGEND_MUTED if out else DARK_INK
        shown = fit(names(player.id), name_font, treasures_x - 10 - text_x)
        x0, _, x1, _ = canvas.text((text_x, y + 23), shown, name_font, ink, bg, anchor="lm")
        if out:
            canvas.rect((x0, y + 23, x1, y + 25), ink)
        held = state.locations_of(player.id)
        stats = translate("wq.board.stats", locale, locations=len(held), men=sum(state.men.get(loc, 0) for loc in held),
                          cards=len(state.hands.get(player.id, [])), boats=len(state.boats.get(player.id, [])))
        canvas.text((text_x, y + 46), fit(stats, small, right - text_x), small, ink, bg, anchor="lm")
        outlook = translate("board.away", locale) if player.id in away and not out else _outlook(b, state, player,
                                                                                                    locale)
        canvas.text((text_x, y + 67), fit(outlook, small, right - text_x), small, ink, bg, anchor="lm")


def _outlook(b: Board, state: WQState, player: WQPlayer, locale: str) -> str:
    """Leaders on the board, then the next reinforcement (men left to deploy in setup); or why they are out."""
    if player.status != "active":
        return translate("wq.board.eliminated", locale)
    if state.winners and player.id in state.winners:
        return translate("wq.board.won", locale)
    off = translate("wq.board.off_board", locale)
    leaders = translate("wq.board.leaders", locale, hero=state.hero.get(player.id, off),
                        sorcerer=state.sorcerer.get(player.id, off))
    if state.phase is Phase.GAME_OVER:
        return leaders
    if state.round == 0:
        note = translate("wq.board.setup_left", locale, n=state.setup_left.get(player.id, 0))
    else:
        size = sum(len(k) for k in kingdoms(state, b.data, player.id))
        note = translate("wq.board.next_turn", locale, n=max(size, base_reinforcement(state, b.data, player.id, False)))
    return f"{leaders} · {note}"


def _retrieved(canvas: Canvas, b: Board, state: WQState, player: WQPlayer, xy: tuple[int, int], bg: RGB,
               locale: str) -> int:
    """The player's three treasures, right-aligned at xy: in their colour once retrieved, greyed until then,
    and the count; returns the left edge."""
    got = state.retrieved.get(player.id, [])
    f = font(17, bold=True)
    label = translate("wq.board.treasures", locale, n=len(got))
    x = canvas.text(xy, label, f, DARK_INK, bg, anchor="rm")[0] - 8
    size = 26
    for kind in reversed(TREASURES):
        colour = look_of(state, player.id).badge if kind in got else LEGEND_MUTED
        piece = _token(b.palette, kind, colour, bg, size) if kind in got else _faded(b.palette, kind, bg, size)
        x -= size
        canvas.paste(piece, (x, xy[1] - size // 2))
        x -= 4
    return x


@lru_cache(maxsize=16)
def _faded(palette: Palette, kind: str, bg: RGB, size: int) -> Piece:
    """A treasure not yet retrieved: its glyph in grey on the legend."""
    return palette.piece(_glyph(kind, size), bg, LEGEND_MUTED)


def _key(canvas: Canvas, b: Board, state: WQState, locale: str) -> None:
    """The map's symbols explained on two rows under the legend: the pieces and markers, then the last turn's
    arrows and outlines and the badge of a capture in progress."""
    rows = -(-len(state.players) // LEGEND_COLUMNS)
    top = MAP_Y + b.geometry.height + 2 + rows * LEGEND_ROW
    f = font(15)
    sample = LOOKS["blue"]

    def label(x: int, y: int, key: str, **params: object) -> int:
        return canvas.text((x, y), translate(f"wq.board.key.{key}", locale, **params), f, DARK_INK, LEGEND,
                           anchor="lm")[2] + 22

    y = top + KEY_ROW // 2
    x = 24
    entries: list[tuple[Piece, str]] = [
        (_token(b.palette, "dragon", DRAGON, LEGEND, 26, _dragon_letter(locale)), "dragon"),
        (_token(b.palette, "mage", MAGE, LEGEND, 26), "mage"),
        (_badge(b.palette, sample, _leader_letter("hero", locale), "", LEGEND, 26, 26), "hero"),
        (_badge(b.palette, sample, _leader_letter("sorcerer", locale), "", LEGEND, 26, 26), "sorcerer"),
        (_leader_alone(b.palette, sample, _leader_letter("hero", locale), LEGEND, 66, 32), "leader_alone"),
        (_orc_badge(b.palette, FRENZY_SAMPLE, translate("wq.board.orcs", locale, n=FRENZY_SAMPLE), True, LEGEND, 66,
                    26, True), "frenzy"),
    ]
    if state.options.decoy and state.phase is not Phase.GAME_OVER:
        entries.append((_token(b.palette, "decoy", sample.badge, LEGEND, 26), "decoy"))
    else:
        entries += [(_token(b.palette, kind, sample.badge, LEGEND, 26), "") for kind in TREASURES[:-1]]
        entries.append((_token(b.palette, TREASURES[-1], sample.badge, LEGEND, 26), "treasures"))
    for piece, key in entries:
        canvas.paste(piece, (x, y - piece[0].height // 2))
        x += piece[0].width + 6
        if key:
            x = label(x, y, key)
    tunnel = next(link for link in b.data.map.links if link.kind == "tunnel")
    mouth = b.geometry.locations[tunnel.a].tunnel
    assert mouth is not None
    w, h = mouth.x1 - mouth.x0, mouth.y1 - mouth.y0
    _tunnel_mouth(canvas, (x, y - h // 2, x + w, y - h // 2 + h), tunnel.b, LEGEND, locale)
    label(x + w + 6, y, "tunnel", a=tunnel.a, b=tunnel.b)

    y = top + KEY_ROW + KEY_ROW // 2
    x = canvas.text((24, y), translate("wq.board.key.last_turn", locale), f, DARK_INK, LEGEND, anchor="lm")[2] + 12
    for core, outline, key in ((ATTACK_ARROW, LIGHT_INK, "attack"), (FRENZY_ARROW, LIGHT_INK, "frenzy_arrow"),
                               (MARCHED, DARK_INK, "march")):
        canvas.arrow([(x + 2, y), (x + 44, y)], core, outline)
        x = label(x + 54, y, key)
    canvas.rect((x, y - 13, x + 56, y + 13), WATER)
    canvas.arrow([(x + 6, y + 9), (x + 14, y - 4), (x + 42, y - 4), (x + 50, y + 9)], ATTACK_ARROW, LIGHT_INK)
    x = label(x + 62, y, "boat")
    for rim, key in ((CAPTURED, "captured"), (DRAGON, "dragon_landed"), (MAGE, "mage_arrived")):
        canvas.rect((x, y - 13, x + 26, y + 13), BORDER)
        canvas.rect((x + 2, y - 11, x + 24, y + 11), rim)
        canvas.rect((x + 7, y - 6, x + 19, y + 6), REGION_LOOKS[1][0])
        x = label(x + 32, y, key)
    piece = _badge(b.palette, sample, translate("wq.board.capturing", locale, n=1), sample.letter, LEGEND, 66, 32,
                   True)
    canvas.paste(piece, (x + 10, y - piece[0].height // 2))
    label(x + 10 + piece[0].width + 6, y, "capturing", n=1)
