"""Build mode, "Build Mennarra" [OPT] (BM-BRD-3, BM-BLD-1 … 11, BM-A-7, A-27, A-33, A-34): the players lay the
tiles on axial hexes around the centre. Each tile keeps its region id (terrain and yield carry over); where it
lies is in `BuildState.positions`, and adjacency follows the positions (board.neighbours)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from engine.core.errors import RuleError
from engine.core.i18n import Msg, msg
from engine.core.models import Action, Event
from engine.core.players import seat_cycle
from engine.core.rng import Rng
from engine.games.battlemist.board import Hex, adjacency, around
from engine.games.battlemist.data import load
from engine.games.battlemist.dice import first_by_rolls
from engine.games.battlemist.phases import wrong_phase

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

CENTRE: tuple[Hex, Hex, Hex] = ((0, 0), (1, 0), (0, 1))
"""The three starting hexes, mutually adjacent (BM-BLD-7)."""
RELAXED_ALIGNMENT = 1
"""BM-BLD-5's first relaxation: the same-alignment distance drops to the general one."""
ANY_SPOT = 2
"""BM-BLD-5's second relaxation: any hex beside the map."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildState:
    """The board as built: every placed tile's hex and the links they give; during construction also the tiles
    still to place (public), the peninsula tips (BM-BLD-1), the placing order and whose turn it is."""

    positions: dict[str, Hex] = field(default_factory=dict)
    adjacency: dict[str, list[str]] = field(default_factory=dict)
    tiles: dict[int, list[str]] = field(default_factory=dict)
    """Each player's neutral tiles still to place."""
    homes: list[int] = field(default_factory=list)
    """The players whose homeland is still to place (BM-BLD-2)."""
    tips: list[str] = field(default_factory=list)
    """Tiles placed touching only one other: no later tile may touch only one of them (BM-BLD-1)."""
    order: list[int] = field(default_factory=list)
    """Clockwise from the first placer (BM-BLD-9, BLD-10)."""
    turn: int | None = None
    """Who places now; None once construction has ended (BM-BLD-11)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceTile(Action):
    """Lay `tile` (one of your neutral tiles, or your homeland `H-<race>`) on hex (q, r)."""

    type: Literal["place_tile"] = "place_tile"
    tile: str
    q: int
    r: int


@dataclass(slots=True, kw_only=True)
class TilesDealt(Event):
    """The centre tiles laid, the first placer's roll decided (the dice are `Rolled` events) and the deal."""

    type: Literal["tiles_dealt"] = "tiles_dealt"
    centre: dict[str, Hex]
    order: list[int]
    tiles: dict[int, list[str]]


@dataclass(slots=True, kw_only=True)
class TilePlaced(Event):
    type: Literal["tile_placed"] = "tile_placed"
    player: int
    tile: str
    q: int
    r: int


@dataclass(slots=True, kw_only=True)
class PlacerSkipped(Event):
    """A player with tiles but no legal placement misses this turn (BM-BLD-10)."""

    type: Literal["placer_skipped"] = "placer_skipped"
    player: int


def begin_build(state: BMState, rng: Rng) -> list[Event]:
    """Start construction: shuffle the 33 neutral tiles (BM-BLD-6), lay 3 in the centre (BLD-7), roll for the
    first placer (BLD-9), deal the other 30 round-robin from him (BLD-8, BM-A-33). Leaves phase BUILD."""
    from engine.games.battlemist.state import Phase

    tiles = list(load().map.neutral)
    rng.shuffle(tiles)
    centre = dict(zip(tiles[:3], CENTRE, strict=True))
    ids = [p.id for p in state.players]
    first, events = first_by_rolls(rng, ids, "build_order")
    order = seat_cycle(ids, first)
    dealt = {pid: tiles[3 + k::len(order)] for k, pid in enumerate(order)}
    state.phase = Phase.BUILD
    state.regions = sorted(centre)
    state.build = BuildState(positions=centre, adjacency=adjacency(centre), tiles=dealt, homes=list(ids),
                             order=order, turn=order[0])
    return [*events, TilesDealt(centre=centre, order=order, tiles=dealt)]


def _homelands(build: BuildState) -> dict[str, Hex]:
    return {t: spot for t, spot in build.positions.items() if t.startswith("H-")}


def _steps(positions: dict[str, Hex], start: Hex) -> dict[Hex, int]:
    """Fewest steps from `start` through placed hexes only (BM-BLD-4, BM-A-7)."""
    placed = set(positions.values())
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for here in frontier:
            for n in around(here):
                if n in placed and n not in seen:
                    seen[n] = seen[here] + 1
                    nxt.append(n)
        frontier = nxt
    return seen


def problem(build: BuildState, tile: str, spot: Hex, relax: int = 0) -> Msg | None:
    """Why `tile` may not lie on `spot` (a reason for BM_E_BUILD_PLACEMENT), or None: the hex is free and
    beside the map, no peninsula grows (BM-BLD-1), and a homeland keeps its distances (BLD-3, relaxed by
    BLD-5)."""
    if spot in build.positions.values():
        return msg("bm.build.reason.taken")
    at = {s: t for t, s in build.positions.items()}
    touching = [at[n] for n in around(spot) if n in at]
    if not touching:
        return msg("bm.build.reason.not_adjacent")
    if relax >= ANY_SPOT:
        return None
    if len(touching) == 1 and touching[0] in build.tips:
        return msg("bm.build.reason.peninsula", tile=touching[0])
    if tile.startswith("H-"):
        return _too_close(build, tile, spot, relax)
    return None


def _too_close(build: BuildState, tile: str, spot: Hex, relax: int) -> Msg | None:
    rules = load().rules
    steps = _steps({**build.positions, tile: spot}, spot)
    mine = rules.race[tile[2:]].alignment
    for other, there in sorted(_homelands(build).items()):
        apart = steps[there]
        if apart < 2:
            return msg("bm.build.reason.homeland_near", other=other)
        if relax < RELAXED_ALIGNMENT and rules.race[other[2:]].alignment == mine and apart < 4:
            return msg("bm.build.reason.homeland_alignment", other=other)
    return None


def frontier(build: BuildState) -> list[Hex]:
    """The empty hexes beside the map, in a fixed order."""
    taken = set(build.positions.values())
    return sorted({n for spot in taken for n in around(spot)} - taken)


def relaxation(build: BuildState, pid: int, home: str) -> int:
    """How far BM-BLD-5 relaxes BM-BLD-3 for `pid` now: only when his homeland is his last tile and it has no
    legal hex (BM-A-34)."""
    if build.tiles.get(pid) or pid not in build.homes:
        return 0
    for relax in (0, RELAXED_ALIGNMENT):
        if any(problem(build, home, spot, relax) is None for spot in frontier(build)):
            return relax
    return ANY_SPOT


def neutral_spots(build: BuildState) -> list[Hex]:
    """The hexes where a neutral tile may lie now (they are all alike in geometry, BM-A-27)."""
    return [spot for spot in frontier(build) if problem(build, "", spot) is None]


def home_spots(build: BuildState, pid: int, home: str) -> list[Hex]:
    """The hexes where `pid` may lay his homeland now, if he still holds it (BM-BLD-3, BLD-5)."""
    if pid not in build.homes:
        return []
    relax = relaxation(build, pid, home)
    return [spot for spot in frontier(build) if problem(build, home, spot, relax) is None]


def legal(build: BuildState, pid: int, home: str) -> list[tuple[str, Hex]]:
    """Every (tile, hex) `pid` may place now: any of his neutral tiles, and his homeland if he still holds it."""
    held = build.tiles.get(pid, [])
    spots = neutral_spots(build) if held else []
    return [(tile, spot) for spot in spots for tile in held] + [(home, s) for s in home_spots(build, pid, home)]


def can_place(build: BuildState, pid: int, home: str) -> bool:
    """Whether `pid` has any legal placement; neutral tiles first, as they need no distance check."""
    if build.tiles.get(pid) and any(problem(build, "", spot) is None for spot in frontier(build)):
        return True
    return bool(home_spots(build, pid, home))


def check_place(state: BMState, action: PlaceTile) -> None:
    """BM-VAL-0 order: phase, turn, the tile held, then the hex."""
    from engine.games.battlemist.state import Phase

    build = state.build
    if state.phase is not Phase.BUILD or build is None or build.turn is None:
        raise wrong_phase(state.phase, "place_tile")
    if action.player != build.turn:
        raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(build.turn))
    home = state.homeland(action.player)
    if action.tile not in build.tiles.get(action.player, []) and not (
            action.tile == home and action.player in build.homes):
        raise RuleError("BM_E_TILE_NOT_HELD", tile=action.tile)
    relax = relaxation(build, action.player, home) if action.tile == home else 0
    reason = problem(build, action.tile, (action.q, action.r), relax)
    if reason is not None:
        raise RuleError("BM_E_BUILD_PLACEMENT", reason=reason)


def lay(state: BMState, action: PlaceTile) -> list[Event]:
    """Put the checked tile down and pass the turn clockwise, skipping players without a legal placement
    (BM-BLD-10); the turn is None once every tile lies (BM-BLD-11)."""
    build = state.build
    assert build is not None
    spot = (action.q, action.r)
    placed = set(build.positions.values())
    touching = [n for n in around(spot) if n in placed]
    positions = {**build.positions, action.tile: spot}
    held = build.tiles.get(action.player, [])
    build = replace(build, positions=positions, adjacency=adjacency(positions),
                    tiles={**build.tiles, action.player: [t for t in held if t != action.tile]},
                    homes=[p for p in build.homes if not (p == action.player and action.tile.startswith("H-"))],
                    tips=[*build.tips, action.tile] if len(touching) == 1 else build.tips)
    events: list[Event] = [TilePlaced(player=action.player, tile=action.tile, q=action.q, r=action.r)]
    build, skipped = next_placer(state, build, action.player)
    events += skipped
    state.build = build
    state.regions = sorted(positions)
    return events


def _holds(build: BuildState, pid: int) -> bool:
    return bool(build.tiles.get(pid)) or pid in build.homes


def next_placer(state: BMState, build: BuildState, after: int) -> tuple[BuildState, list[Event]]:
    """The next player clockwise after `after` who holds a tile and can lay one; those who hold tiles but have
    no legal hex are skipped (BM-BLD-10). Construction ends (turn None, BM-BLD-11) when nobody can lay one:
    with the colours dropped (BM-A-27) that is when every tile lies, since a neutral tile always fits beside
    two tiles and a last homeland relaxes to any hex (BM-BLD-5)."""
    events: list[Event] = []
    k = build.order.index(after)
    for step in range(1, len(build.order) + 1):
        pid = build.order[(k + step) % len(build.order)]
        if not _holds(build, pid):
            continue
        if can_place(build, pid, state.homeland(pid)):
            return replace(build, turn=pid), events
        events.append(PlacerSkipped(player=pid))
    return replace(build, turn=None, tiles={}, homes=[], tips=[]), events


def timeout_build(state: BMState, pid: int) -> PlaceTile:
    """The stand-in's tile (BM-DIG-19): a legal placement picked by the seeded RNG, a neutral tile before his
    homeland. The pick reads the game's Rng without advancing it, so the same position always gives it."""
    build = state.build
    assert build is not None
    held = build.tiles.get(pid, [])
    spots = neutral_spots(build) if held else []
    pool = [(tile, spot) for spot in spots for tile in held] or [
        (state.homeland(pid), spot) for spot in home_spots(build, pid, state.homeland(pid))]
    tile, (q, r) = pool[Rng(state.rng).below(len(pool))]
    return PlaceTile(player=pid, tile=tile, q=q, r=r)
