"""The classic Risk board picture (RISK-DIG-31 … DIG-36, DIG-38): a state and the last turn's events → PNG.

Only public information is drawn: owners, army counts, how many cards each player holds, the deck's size and
the public events. Card identities, missions and secret placement plans are never read.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import pairwise

from PIL import Image, ImageChops, ImageDraw

from engine.core.datanames import name_of
from engine.core.i18n import translate, words
from engine.core.models import Event
from engine.games.risk import events as E
from engine.games.risk.mapdata import RiskMap, classic
from engine.games.risk.names import territory_name
from engine.games.risk.rules import reinforcements
from engine.games.risk.state import NEUTRAL, Phase, RiskPlayer, RiskState
from engine.games.risk.text import losses
from renderer import mapboard
from renderer.draw import (
    DARK_INK,
    LIGHT_INK,
    PLAYER_LOOKS,
    RGB,
    SOLID,
    Canvas,
    Look,
    Palette,
    Piece,
    capitalise,
    differs,
    hex_rgb,
    ink_for,
    make_look,
    pill_mask,
    spread,
    text_box,
    where,
)
from renderer.fonts import Typeface, fit, font
from renderer.geometry import Box, Geometry, TerritoryShape, load
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
)

MAP_Y = BANNER_H
LEGEND_COLUMNS = 4
LEGEND_ROW = 74
LEGEND_PAD = 4
KEY_ROW = 44
"""The row under the legend that explains the arrows, outlines and the moving-in badge."""

LANE: RGB = hex_rgb("#5d7d96")
UNCLAIMED: RGB = hex_rgb("#ece6d8")
CONQUERED: RGB = hex_rgb("#ffc400")
FORTIFIED: RGB = hex_rgb("#ffffff")
ATTACK_ARROW: RGB = hex_rgb("#e0102a")
FORTIFY_ARROW: RGB = hex_rgb("#ffffff")
PLACE_HIGHLIGHT: RGB = hex_rgb("#ffc400")

RIM = 5
"""Width in px of the band inside each territory's border that lights up when it was conquered or fortified."""
SHELF = 11
"""Width in px of the tinted sea around each continent."""
DASH, DASH_GAP, LANE_WIDTH = 9, 6, 3
BADGE_RING = 2
"""A white ring and a dark edge around each army badge, so that it stands out on any fill."""
MIN_LABEL = 10
"""The smallest font size a name on the map shrinks to where the reader's language is longer than the room."""


LOOKS: dict[str, Look] = {c: PLAYER_LOOKS[c] for c in ("red", "blue", "green", "yellow", "black", "pink")}
NEUTRAL_LOOK = make_look("#a09a8e", "N", 0.5)
CONTINENT_TINTS: dict[str, tuple[RGB, RGB]] = {
    # (sea tint around the continent, ink of its outline and label)
    "north_america": (hex_rgb("#ead9ad"), hex_rgb("#7d6224")),
    "south_america": (hex_rgb("#cfe0b6"), hex_rgb("#4e6d2c")),
    "europe": (hex_rgb("#cfd1ec"), hex_rgb("#444b8c")),
    "africa": (hex_rgb("#efcfb6"), hex_rgb("#8c4f27")),
    "asia": (hex_rgb("#bfe1d5"), hex_rgb("#2a6e5c")),
    "australia": (hex_rgb("#e9cbe0"), hex_rgb("#80406f")),
}


def _palette() -> Palette:
    """Every colour a Risk board uses, with shades for the edges where two of them meet."""
    looks = [*LOOKS.values(), NEUTRAL_LOOK]
    colours = [SEA, LANE, BORDER, RULE, UNCLAIMED, CONQUERED, FORTIFIED, ATTACK_ARROW, DARK_INK, LIGHT_INK]
    pairs: list[tuple[RGB, RGB]] = [(UNCLAIMED, DARK_INK), (DARK_INK, LIGHT_INK), (BANNER, LIGHT_INK),
                                    (BANNER, BANNER_MUTED), (BANNER, PLACE_HIGHLIGHT), (PLACE_HIGHLIGHT, DARK_INK),
                                    (LEGEND, DARK_INK), (LEGEND, LEGEND_MUTED), (LEGEND, LEGEND_ACTIVE),
                                    (LEGEND_ACTIVE, DARK_INK), (LIGHT_INK, DARK_INK)]
    for look in looks:
        pairs += [(look.fill, ink_for(look.fill)), (look.fill, DARK_INK), (LIGHT_INK, look.badge),
                  (look.badge, ink_for(look.badge)), (BANNER, look.badge), (LEGEND, look.badge),
                  (LEGEND_ACTIVE, look.badge), (DARK_INK, look.badge), (look.badge, LIGHT_INK)]
    for tint, ink in CONTINENT_TINTS.values():
        pairs += [(SEA, ink), (tint, ink), (LEGEND, tint), (LEGEND_ACTIVE, tint)]
        colours.append(tint)
    return Palette(colours, pairs)


class Layers(mapboard.Layers):
    """The shared layers, and Risk's: continent borders, coasts and shelves per continent, sea lanes."""

    def __init__(self, territories: int, continents: int) -> None:
        super().__init__(territories)
        self.continent_border = self.take()
        self.coast = self.take(continents)
        self.shelf = self.take(continents)
        self.lane = self.take()


Board = mapboard.Board[RiskMap, Geometry, Layers]


def _base_map(board: RiskMap, g: Geometry, layers: Layers) -> Image.Image:
    """The map's layer values: fills, rims, borders, coasts, continent tints and sea lanes."""
    idx = g.index_image()
    continent_no = {c.id: k for k, c in enumerate(board.continents, start=1)}
    lut = [0] * 256
    for tid, shape in g.territories.items():
        lut[shape.index] = continent_no[board.territory[tid].continent]
    cont = idx.point(lut)
    land = where(idx, bool)
    edge = differs(idx, 1)
    coast = ImageChops.multiply(edge, where(spread(idx, 1, False), lambda v: v == 0))
    continent_edge = ImageChops.multiply(differs(cont, 2), where(spread(idx, 2, False), bool))
    rim = ImageChops.multiply(differs(idx, RIM), land)
    grown = spread(cont, SHELF, True)
    shelf = ImageChops.multiply(where(grown, bool), ImageChops.invert(land))

    out = idx.copy()
    out.paste(idx.point(lambda v: v - 1 + layers.rim if v else 0), mask=rim)
    out.paste(grown.point(lambda c: c - 1 + layers.shelf if c else 0), mask=shelf)
    pen = ImageDraw.Draw(out)
    for lane in g.sea_links:
        for segment in lane.segments:
            _dashes(pen, segment, layers.lane)
    out.paste(layers.border, mask=ImageChops.subtract(ImageChops.multiply(edge, land), continent_edge))
    out.paste(layers.continent_border, mask=continent_edge)
    out.paste(grown.point(lambda c: c - 1 + layers.coast if c else 0), mask=coast)
    return out


def _dashes(pen: ImageDraw.ImageDraw, segment: tuple[int, int, int, int], value: int) -> None:
    x0, y0, x1, y1 = segment
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    at = 0.0
    while at < length:
        end = min(at + DASH, length)
        pen.line((x0 + ux * at, y0 + uy * at, x0 + ux * end, y0 + uy * end), fill=value, width=LANE_WIDTH)
        at = end + DASH_GAP


@cache
def board() -> Board:
    m = classic()
    g = load("risk")
    layers = Layers(len(g.territories), len(m.continents))
    frame = mapboard.Frame(WIDTH, BANNER_H, g.height, LEGEND_ROW, LEGEND_PAD + KEY_ROW)
    palette = _palette()
    lut = mapboard.frame_lut(palette, layers, BANNER, LEGEND, RULE)
    lut[layers.border] = lut[layers.continent_border] = palette[BORDER]
    for k, c in enumerate(m.continents):
        tint, ink = CONTINENT_TINTS[c.id]
        lut[layers.coast + k], lut[layers.shelf + k] = palette[ink], palette[tint]
    lut[layers.sea], lut[layers.lane] = palette[SEA], palette[LANE]
    base = mapboard.framed(frame, layers, _base_map(m, g, layers), 2)
    return Board(m, g, layers, frame, base, lut, palette)


@dataclass(frozen=True)
class LastTurn:
    """What the public events of the last turn ask to highlight (RISK-DIG-36)."""

    attacks: list[tuple[str, str]]
    fortifies: list[tuple[str, str]]
    conquered: set[str]
    fortified: set[str]
    last_battle: E.Battle | None

    @classmethod
    def of(cls, events: Sequence[Event]) -> LastTurn:
        attacks: list[tuple[str, str]] = []
        fortifies: list[tuple[str, str]] = []
        conquered: set[str] = set()
        last: E.Battle | None = None
        for e in events:
            if e.private_to is not None:
                continue
            if isinstance(e, E.Battle):
                last = e
                if (e.source, e.target) not in attacks:
                    attacks.append((e.source, e.target))
            elif isinstance(e, E.Conquered):
                conquered.add(e.target)
            elif isinstance(e, E.Moved) and e.kind == "fortify":
                fortifies.append((e.source, e.target))
        return cls(attacks, fortifies, conquered, {t for _, t in fortifies}, last)


class Names(mapboard.Names):
    """Players' names made drawable, and Neutral's."""

    def __init__(self, state: RiskState, locale: str) -> None:
        super().__init__(state.players, "risk.board.unnamed", locale)

    def __call__(self, pid: int | None) -> str:
        if pid == NEUTRAL or pid is None:
            return translate("risk.board.neutral", self.locale)
        return super().__call__(pid)


def look_of(state: RiskState, pid: int | None) -> Look | None:
    """The look of a territory's owner; None while unclaimed."""
    if pid is None:
        return None
    player = state.player(pid)
    if player is None:
        return NEUTRAL_LOOK
    return LOOKS.get(player.colour, NEUTRAL_LOOK)


def fill_of(state: RiskState, tid: str) -> RGB:
    look = look_of(state, state.owner.get(tid))
    return look.fill if look else UNCLAIMED


def render(state: RiskState, events: Sequence[Event] = (), *, locale: str = "en",
           away: frozenset[int] = frozenset()) -> bytes:
    """The board as PNG bytes: pure and synchronous; the same state and events always give the same bytes."""
    return draw(state, events, locale=locale, away=away).png()


def draw(state: RiskState, events: Sequence[Event] = (), *, locale: str = "en",
         away: frozenset[int] = frozenset()) -> Canvas:
    """The board drawn on its palette canvas, before it is encoded."""
    b = board()
    last = LastTurn.of(events)
    names = Names(state, locale)
    entries: list[RiskPlayer | None] = list(state.players)
    if NEUTRAL in state.owner.values():
        entries.append(None)
    canvas = _recolour(b, state, last, -(-len(entries) // LEGEND_COLUMNS))
    _continent_labels(canvas, b, locale)
    attacked = {frozenset(pair) for pair in last.attacks}
    for source, target in last.fortifies:
        for a, c in pairwise(_path(b, state, source, target)):
            if frozenset((a, c)) not in attacked:  # an attack arrow already marks that link, either way
                _arrow(canvas, b, a, c, FORTIFY_ARROW, DARK_INK)
    for source, target in last.attacks:
        _arrow(canvas, b, source, target, ATTACK_ARROW, LIGHT_INK)
    _names(canvas, b, state, locale)
    _badges(canvas, b, state, locale)
    _banner(canvas, b, state, last, names, locale)
    _legend(canvas, b, state, entries, names, locale, away)
    _key(canvas, b, -(-len(entries) // LEGEND_COLUMNS), locale)
    return canvas


def _recolour(b: Board, state: RiskState, last: LastTurn, legend_rows: int) -> Canvas:
    """The base picture with each territory in its owner's fill, highlight rims where the last turn says, and
    room for the legend's rows."""
    areas = []
    for tid, shape in b.geometry.territories.items():
        fill = fill_of(state, tid)
        areas.append((shape.index, fill, CONQUERED if tid in last.conquered else FORTIFIED if tid in last.fortified
                      else fill))
    return mapboard.recolour(b, areas, legend_rows)


def _at(box: Box) -> tuple[float, float]:
    """A map box's centre on the picture."""
    x, y = box.centre
    return x, y + MAP_Y


def _continent_labels(canvas: Canvas, b: Board, locale: str) -> None:
    """Each continent's name and bonus in its box of open sea, smaller where the reader's language is longer."""
    for c in b.data.continents:
        box = b.geometry.continents[c.id].box
        text = f"{words(name_of('risk', 'continent', c.id), locale)} +{c.bonus}"
        size = b.geometry.continent_label_size
        while size > MIN_LABEL and font(size, bold=True).getlength(text) > box.x1 - box.x0:
            size -= 1
        canvas.text(_at(box), text, font(size, bold=True), CONTINENT_TINTS[c.id][1], SEA)


def _names(canvas: Canvas, b: Board, state: RiskState, locale: str) -> None:
    g = b.geometry
    for tid in g.territories:
        fill = fill_of(state, tid)
        lines, size, box = _label(tid, words(territory_name(tid), locale))
        f = font(size, bold=True)
        line_h = g.line_height * size / g.label_size
        top = box.y0 + (box.y1 - box.y0 - len(lines) * line_h) / 2
        cx = (box.x0 + box.x1) / 2
        for k, line in enumerate(lines):
            canvas.text((cx, MAP_Y + top + line_h * (k + 0.5)), line, f, ink_for(fill), fill)


@lru_cache(maxsize=512)
def _label(tid: str, name: str) -> tuple[tuple[str, ...], int, Box]:
    """A territory's name as lines, their font size and the box they are centred in: the geometry's layout of
    the data's (English) name, else the largest on one or two lines that fits the room around the label box (at
    the smallest size, a name too long for the room runs over it rather than lose letters)."""
    b = board()
    g = b.geometry
    shape = g.territories[tid]
    if name == b.data.territory[tid].name:
        return tuple(shape.label.lines), g.label_size, shape.label.box
    room = _room(shape)
    width, height = room.x1 - room.x0, room.y1 - room.y0
    variants = _line_variants(name, font(g.label_size, bold=True))
    for size in range(g.label_size, MIN_LABEL - 1, -1):
        f = font(size, bold=True)
        for lines in variants:
            if len(lines) * g.line_height * size / g.label_size <= height and max(map(f.getlength, lines)) <= width:
                return lines, size, room
    two_lines_fit = 2 * g.line_height * MIN_LABEL / g.label_size <= height
    return variants[-1] if two_lines_fit else variants[0], MIN_LABEL, room


def _room(shape: TerritoryShape) -> Box:
    """The label box grown as far as the territory allows (clear of its rim), but not towards the badge."""
    label, badge = shape.label.box, shape.badge
    grow = max(0, shape.clearance - RIM - 1)
    beside = badge.y0 < label.y1 and label.y0 < badge.y1
    return Box(x0=label.x0 - (0 if beside and badge.x1 <= label.x0 else grow),
               y0=label.y0 - (0 if not beside and badge.y1 <= label.y0 else grow),
               x1=label.x1 + (0 if beside and badge.x0 >= label.x1 else grow),
               y1=label.y1 + (0 if not beside and badge.y0 >= label.y1 else grow))


def _line_variants(name: str, f: Typeface) -> list[tuple[str, ...]]:
    """The name on one line, then on two, split at the most balanced space or hyphen."""
    splits = [(name[:k].rstrip(), name[k:].lstrip()) for k in range(1, len(name))
              if name[k - 1] == "-" or (name[k] == " " and name[k - 1] != " ")]
    best = min(splits, key=lambda lines: max(map(f.getlength, lines)), default=None)
    return [(name,)] if best is None else [(name,), best]


def moving_in(state: RiskState) -> tuple[str, int] | None:
    """The conquered territory whose move-in is still to be chosen, and the fewest armies that must move in."""
    i = state.interrupt
    if i is None or i.kind != "occupy" or i.target is None:
        return None
    return i.target, i.min


def _badges(canvas: Canvas, b: Board, state: RiskState, locale: str) -> None:
    """Each owned territory's army count on a pill of the owner's colour, with the owner's letter; a conquered
    territory awaiting its move-in shows the armies that must move in, on a hollow pill."""
    pending = moving_in(state)
    w, h = b.geometry.badge_size
    for tid, shape in b.geometry.territories.items():
        look = look_of(state, state.owner.get(tid))
        if look is None:
            continue
        if pending is not None and pending[0] == tid:
            piece = _badge(b.palette, look, translate("risk.board.moving_in", locale, n=pending[1]), w, h, look.fill,
                           True)
        else:
            piece = _badge(b.palette, look, str(state.armies.get(tid, 0)), w, h, look.fill, False)
        canvas.paste(piece, (shape.badge.x0 - BADGE_RING, shape.badge.y0 - BADGE_RING + MAP_Y))


@lru_cache(maxsize=1024)
def _badge(palette: Palette, look: Look, count: str, w: int, h: int, bg: RGB, hollow: bool) -> Piece:
    """An army badge on `bg`: dark edge, white ring, the owner's colour, letter and count; a hollow one (armies
    about to move in) has a ring of the owner's colour round a white middle, and dark ink."""
    r = BADGE_RING
    outer = pill_mask(w + 2 * r, h + 2 * r, h // 2 + r)
    indices = Image.new("P", outer.size, palette[bg])
    inner = Canvas(indices, palette)
    inner.paste(palette.piece(outer, bg, DARK_INK), (0, 0))
    ring, middle = (look.badge, LIGHT_INK) if hollow else (LIGHT_INK, look.badge)
    inner.pill((1, 1, w + 2 * r - 1, h + 2 * r - 1), ring, DARK_INK)
    inset = r + 2 if hollow else r
    inner.pill((inset, inset, w + 2 * r - inset, h + 2 * r - inset), middle, ring)
    ink = ink_for(middle)
    cy = r + h / 2
    inner.text((r + 10, cy), look.letter, font(13, bold=True), ink, middle, anchor="lm")
    size = {1: 26, 2: 26, 3: 20}.get(len(count), 16)
    inner.text((r + 21 + (w - 25) / 2, cy + 1), count, font(size, bold=True), ink, middle)
    return indices, Image.frombytes("L", outer.size, outer.tobytes().translate(SOLID))


def _path(b: Board, state: RiskState, source: str, target: str) -> list[str]:
    """The territories a fortify moved through, link by link: the shortest chain of the mover's territories (a
    connected fortify may cross several), or of any, if they have changed hands since."""
    mover = state.owner.get(target)
    for ours in (True, False):
        came: dict[str, str] = {source: source}
        queue = deque([source])
        while queue:
            here = queue.popleft()
            if here == target:
                path = [here]
                while path[-1] != source:
                    path.append(came[path[-1]])
                return path[::-1]
            for there in b.data.neighbours[here]:
                if there not in came and (not ours or there == target or state.owner.get(there) == mover):
                    came[there] = here
                    queue.append(there)
    return [source, target]


def _arrow(canvas: Canvas, b: Board, source: str, target: str, core: RGB, outline: RGB) -> None:
    """The arrow the geometry keeps between the two, clear of every label and badge: across their border, along
    their sea lane, or off both edges of the map for a lane that wraps."""
    pieces = b.geometry.arrow(source, target)
    for k, (p, q) in enumerate(pieces):
        canvas.arrow([(p[0], p[1] + MAP_Y), (q[0], q[1] + MAP_Y)], core, outline, head=k == len(pieces) - 1)


def _banner(canvas: Canvas, b: Board, state: RiskState, last: LastTurn, names: Names, locale: str) -> None:
    """Turn, active player and phase; armies to place; sets traded, next set, deck, mode and fortify rule."""
    title = font(26, bold=True)
    y1, y2 = 30, 66
    over = state.phase is Phase.GAME_OVER
    if over:
        heading = translate("risk.phase.game_over", locale)
    elif state.turn:
        heading = translate("risk.board.turn", locale, turn=state.turn)
    else:
        heading = translate("risk.board.setup", locale)
    x = canvas.text((24, y1), capitalise(heading), title, LIGHT_INK, BANNER, anchor="lm")[2] + 22
    who = state.winner if over else state.current
    player = state.player(who) if who is not None else None
    if player is not None:
        x = canvas.swatch((x, y1), look_of(state, player.id) or NEUTRAL_LOOK, 30, BANNER) + 10
        shown = names(player.id)
        if over:
            shown = translate("risk.board.winner", locale, player=shown)
        x = canvas.text((x, y1), fit(shown, title, 560), title, LIGHT_INK, BANNER, anchor="lm")[2] + 18
    if not over:
        phase = capitalise(translate(f"risk.phase.{state.phase.value}", locale))
        canvas.text((x, y1), "· " + phase, font(24), BANNER_MUTED, BANNER, anchor="lm")
    to_place = _to_place(state)
    if to_place:
        label = translate("risk.board.to_place", locale, n=to_place)
        f = font(20, bold=True)
        x0, _, x1, _ = text_box(label, f, (WIDTH - 24, y1), anchor="rm")
        canvas.pill((x0 - 14, y1 - 18, x1 + 14, y1 + 18), PLACE_HIGHLIGHT, BANNER)
        canvas.text((WIDTH - 24, y1), label, f, DARK_INK, PLACE_HIGHLIGHT, anchor="rm")
    details = [
        translate("risk.board.sets", locale, n=state.sets_traded, value=b.data.trade_value(state.sets_traded + 1)),
        translate("risk.board.deck", locale, n=len(state.deck)),
        translate(f"risk.board.mode.{state.options.mode}", locale),
        translate(f"risk.board.fortify.{state.options.fortify_mode}", locale),
    ]
    canvas.text((24, y2), "   ·   ".join(details), font(17), BANNER_MUTED, BANNER, anchor="lm")
    if last.last_battle is not None:
        e = last.last_battle
        battle = translate("risk.board.last_battle", locale, source=territory_name(e.source),
                           target=territory_name(e.target), attack="-".join(map(str, e.attack_dice)),
                           defence="-".join(map(str, e.defence_dice)), a=e.attacker_losses, d=e.defender_losses,
                           result=losses(e.attacker_losses, e.defender_losses))
        canvas.text((WIDTH - 24, y2), battle, font(17, bold=True), LIGHT_INK, BANNER, anchor="rm")


def _to_place(state: RiskState) -> int:
    if state.phase in (Phase.SETUP_PLACE, Phase.SETUP_PLACE_2P, Phase.SETUP_CLAIM):
        return state.setup_left.get(state.current, 0)
    return state.pool


def _reinforcements(b: Board, state: RiskState, pid: int) -> int:
    """Next turn's armies before cards, by the rules' own count."""
    base, held = reinforcements(b.data, state, pid)
    return base + sum(b.data.continent[c].bonus for c in held)


def _legend(canvas: Canvas, b: Board, state: RiskState, entries: list[RiskPlayer | None], names: Names,
            locale: str, away: frozenset[int]) -> None:
    """Per player (and Neutral): colour, letter and name; territories, armies, cards; next reinforcement and
    continents held, or why they are out."""
    top = MAP_Y + b.geometry.height + 2
    slot_w = WIDTH // LEGEND_COLUMNS
    name_font, small = font(19, bold=True), font(15)
    for k, player in enumerate(entries):
        x = (k % LEGEND_COLUMNS) * slot_w
        y = top + (k // LEGEND_COLUMNS) * LEGEND_ROW
        pid = player.id if player else NEUTRAL
        out = player is not None and player.status != "active"
        bg = LEGEND
        if player is not None and pid == state.current and state.phase is not Phase.GAME_OVER:
            bg = LEGEND_ACTIVE
            canvas.pill((x + 6, y + 3, x + slot_w - 6, y + LEGEND_ROW - 1), bg, LEGEND, radius=10)
        text_x = canvas.swatch((x + 16, y + 23), look_of(state, pid) or NEUTRAL_LOOK, 30, bg) + 10
        room = x + slot_w - 12 - text_x
        ink = LEGEND_MUTED if out else DARK_INK
        x0, _, x1, _ = canvas.text((text_x, y + 23), fit(names(pid), name_font, room), name_font, ink, bg, anchor="lm")
        if out:
            canvas.rect((x0, y + 23, x1, y + 25), ink)
        owned = state.territories_of(pid)
        stats = translate("risk.board.stats", locale, territories=len(owned),
                          armies=sum(state.armies.get(t, 0) for t in owned), cards=len(state.hands.get(pid, [])))
        canvas.text((text_x, y + 45), fit(stats, small, room), small, ink, bg, anchor="lm")
        if player is not None and out:
            canvas.text((text_x, y + 63), translate(f"risk.board.{player.status}", locale), small, ink, bg, anchor="lm")
        elif player is not None and pid in away:
            canvas.text((text_x, y + 63), fit(translate("board.away", locale), small, room), small, ink, bg,
                        anchor="lm")
        elif player is not None:
            _outlook(canvas, b, state, pid, (text_x, y + 63), x + slot_w - 12, bg, locale)


def _outlook(canvas: Canvas, b: Board, state: RiskState, pid: int, xy: tuple[int, int], right: int, bg: RGB,
             locale: str) -> None:
    """Next turn's reinforcement (or armies left to place during setup), then the continents held as chips."""
    x = xy[0]
    if state.phase in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.SETUP_PLACE_2P):
        note = translate("risk.board.setup_left", locale, n=state.setup_left.get(pid, 0))
    elif state.phase is Phase.GAME_OVER:
        note = ""
    else:
        note = translate("risk.board.next_turn", locale, n=_reinforcements(b, state, pid))
    if note:
        x = canvas.text(xy, note, font(15), DARK_INK, bg, anchor="lm")[2] + 10
    chip = font(13, bold=True)
    for c in b.data.continents:
        if all(state.owner.get(t) == pid for t in b.data.members[c.id]):
            tint, ink = CONTINENT_TINTS[c.id]
            short = translate(f"risk.board.short.{c.id}", locale)
            x1 = text_box(short, chip, (x + 6, xy[1]), anchor="lm")[2]
            if x1 + 6 > right:
                break
            canvas.pill((x, xy[1] - 9, x1 + 6, xy[1] + 9), tint, bg, radius=6)
            canvas.text((x + 6, xy[1]), short, chip, ink, tint, anchor="lm")
            x = x1 + 11


def _key(canvas: Canvas, b: Board, legend_rows: int, locale: str) -> None:
    """The marks of the last turn, explained on one row under the legend: the attack and fortify arrows, the
    conquered and fortified outlines, and the badge of armies waiting to move in."""
    y = b.frame.height(legend_rows) - KEY_ROW // 2
    f = font(15)
    x = canvas.text((24, y), translate("risk.board.key.last_turn", locale), f, DARK_INK, LEGEND, anchor="lm")[2] + 12
    sample = LOOKS["blue"]
    for core, outline, key in ((ATTACK_ARROW, LIGHT_INK, "attack"), (FORTIFY_ARROW, DARK_INK, "fortify")):
        canvas.arrow([(x + 2, y), (x + 44, y)], core, outline)
        x = canvas.text((x + 54, y), translate(f"risk.board.key.{key}", locale), f, DARK_INK, LEGEND,
                        anchor="lm")[2] + 22
    for rim, key in ((CONQUERED, "conquered"), (FORTIFIED, "fortified")):
        canvas.rect((x, y - 13, x + 26, y + 13), BORDER)
        canvas.rect((x + 2, y - 11, x + 24, y + 11), rim)
        canvas.rect((x + 2 + RIM, y - 11 + RIM, x + 24 - RIM, y + 11 - RIM), sample.fill)
        x = canvas.text((x + 32, y), translate(f"risk.board.key.{key}", locale), f, DARK_INK, LEGEND,
                        anchor="lm")[2] + 22
    w, h = b.geometry.badge_size
    piece = _badge(b.palette, sample, translate("risk.board.moving_in", locale, n=3), w, h, LEGEND, True)
    x += 18
    canvas.paste(piece, (x, y - piece[0].height // 2))
    canvas.text((x + piece[0].width + 8, y), translate("risk.board.key.moving_in", locale, n=3), f, DARK_INK, LEGEND,
                anchor="lm")
