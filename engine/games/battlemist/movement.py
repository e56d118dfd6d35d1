"""The active player's movement step (BM-MOV-1 … 10, BM-VAL-2, BM-DIG-12, 13, 25): W-MOVESTART cards and spells,
then move orders that take effect at once and can be withdrawn newest first, then END_MOVE against the stacking
limit.

A rule here takes a working copy of the state (`copier(BMState)`) and replaces the containers it changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from engine.core.errors import RuleError
from engine.core.i18n import Msg, msg
from engine.core.models import Action, Decision, Event
from engine.core.names import normalise
from engine.core.rng import Rng
from engine.games.battlemist import names, windows
from engine.games.battlemist.data import ARMY, MONSTERS, STOPS, ActionCard, EventCard, Spell, Window, load
from engine.games.battlemist.heroes import neighbours
from engine.games.battlemist.phases import TURN, wrong_phase
from engine.games.battlemist.pieces import Troops, UnitKind

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

DISBAND_ORDER: tuple[str, ...] = ("infantry", "archers", "cavalry")
"""Which army units go first when the excess over the stacking limit is disbanded (BM-MOV-10, BM-DIG-19)."""


# ---------------------------------------------------------------- the step's record


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveOrder:
    """`n` units of one kind went along `path` (origin first) and stand in its last region."""

    n: Annotated[int, Field(ge=1)]
    unit: UnitKind
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveStep:
    """One player's movement step: the W-MOVESTART effects in force and the move orders given so far."""

    player: int
    orders: tuple[MoveOrder, ...] = ()
    """Newest last; an order stands until it is undone or END_MOVE confirms the step (BM-MOV-7)."""
    opening: bool = True
    """W-MOVESTART is open: no move order has been given yet (BM-MOV-8)."""
    bonus: dict[str, int] = field(default_factory=dict)
    """Region → extra movement for the units that start the step there (AC02, SP02)."""
    free_terrain: bool = False
    """All the player's units ignore forest and mountain stops (AC03)."""
    free_regions: tuple[str, ...] = ()
    """Units that start the step in these regions ignore forest and mountain stops (SP03)."""
    done: bool = False
    """END_MOVE was confirmed: the step is final."""


# ---------------------------------------------------------------- actions and events


@dataclass(frozen=True, slots=True, kw_only=True)
class MovePlay(Action):
    """Play a W-MOVESTART card (AC02 names a region, AC03 none)."""

    type: Literal["move_play"] = "move_play"
    card: str
    region: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveCast(Action):
    """Cast a W-MOVESTART spell on a region (SP02, SP03)."""

    type: Literal["move_cast"] = "move_cast"
    spell: str
    region: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Move(Action):
    """`/bm move <n> <type> <from> <path…>`: regions by id or name (BM-DIG-12), the path without the origin."""

    type: Literal["move"] = "move"
    n: Annotated[int, Field(ge=1)]
    unit: UnitKind
    origin: str
    path: Annotated[tuple[str, ...], Field(min_length=1)]


@dataclass(frozen=True, slots=True, kw_only=True)
class Undo(Action):
    """Withdraw the newest move order of the step (BM-DIG-25)."""

    type: Literal["undo"] = "undo"


@dataclass(frozen=True, slots=True, kw_only=True)
class EndMove(Action):
    """Confirm the step (`/bm endmove`)."""

    type: Literal["end_move"] = "end_move"
    stand_in: bool = False
    """Set only by `timeout_movement`, never by a player's command: the absent player's stand-in keeps the
    orders given and disbands any excess over the stacking limit (BM-DIG-19, the reference's ruling 26)."""


@dataclass(slots=True, kw_only=True)
class MovementStarted(Event):
    type: Literal["movement_started"] = "movement_started"
    player: int


@dataclass(slots=True, kw_only=True)
class MoveBoost(Event):
    """A W-MOVESTART card or spell took effect: extra movement or free terrain, in one region or everywhere."""

    type: Literal["move_boost"] = "move_boost"
    player: int
    source: str
    region: str | None = None
    move_bonus: int = 0
    free_terrain: bool = False


@dataclass(slots=True, kw_only=True)
class UnitsMoved(Event):
    type: Literal["units_moved"] = "units_moved"
    player: int
    n: int
    unit: str
    path: list[str]
    """Origin first."""


@dataclass(slots=True, kw_only=True)
class MoveUndone(Event):
    """A move order was withdrawn: its units are back where they started."""

    type: Literal["move_undone"] = "move_undone"
    player: int
    n: int
    unit: str
    path: list[str]


@dataclass(slots=True, kw_only=True)
class UnitsDisbanded(Event):
    """Army units over the stacking limit that no move could take away were disbanded (BM-MOV-10)."""

    type: Literal["units_disbanded"] = "units_disbanded"
    player: int
    region: str
    units: dict[str, int]


@dataclass(slots=True, kw_only=True)
class MovementEnded(Event):
    type: Literal["movement_ended"] = "movement_ended"
    player: int


# ---------------------------------------------------------------- regions: names (adjacency: heroes.neighbours)


def resolve_region(text: str) -> str:
    """The id of the region typed as `text`: its id in any case or its name in any of the bot's languages
    (BM-DIG-12); BM_E_UNKNOWN_REGION otherwise. A void hex resolves too, so that a path into it is told
    BM_E_VOID_HEX."""
    typed = text.strip().upper()
    if typed in load().map.by_id:
        return typed
    found = names.region_by_name(text)
    if found is None:
        raise RuleError("BM_E_UNKNOWN_REGION", x=text)
    return found


UNIT_NAMES: dict[str, UnitKind] = {
    "inf": "infantry", "infantry": "infantry", "arch": "archers", "archer": "archers", "archers": "archers",
    "cav": "cavalry", "cavalry": "cavalry", "giant": "giant", "giants": "giant", "firebreather": "firebreather",
    "firebreathers": "firebreather", "dragon": "dragon", "dragons": "dragon"}
"""How a unit type may be typed in `/bm move` (`2 cav`, BM-DIG-12), besides its name in any of the bot's
languages."""


def resolve_unit(text: str) -> UnitKind | None:
    """The unit type typed as `text`, or None."""
    return UNIT_NAMES.get(normalise(text)) or names.unit_by_name(text)


def unit_label(unit: str) -> Msg:
    return msg(f"bm.movement.unit.{unit}")


# ---------------------------------------------------------------- the rules of a path


def allowance(state: BMState, pid: int, unit: str, origin: str) -> int:
    """How far units of `unit` that start the step in `origin` may move (BM-MOV-1): the race card or monster
    value, 1 under Blizzard (EV6), plus the W-MOVESTART bonus of the origin (AC02, SP02)."""
    data = load()
    blizzard = data.cards.card["EV6"]
    if state.effects.blizzard and isinstance(blizzard, EventCard) and blizzard.movement is not None:
        base = blizzard.movement
    elif unit in MONSTERS:
        base = data.rules.monsters[unit].move
    else:
        base = data.rules.race[state.race(pid)].units[unit].move
    step = state.movement
    return base + (step.bonus.get(origin, 0) if step is not None else 0)


def stops_here(state: BMState, pid: int, unit: str, origin: str, region: str) -> RuleError | None:
    """Why units entering `region` must stop there (BM-MOV-3 enemy units, then BM-MOV-2 terrain), or None.

    Only units of other players stop a unit (BM-MOV-9); heroes never do (BM-HER-4). Homelands, plains and
    deserts never stop (BM-MOV-4). Terrain stops are waived for a race's own terrain (BM-RACE-3, army units),
    a flying monster (BM-MON-6) and the free terrain of AC03 and SP03 (card text beats rule text, BM-ACT-2)."""
    others = [p for p in state.present(region) if p != pid]
    if others:
        return RuleError("BM_E_MUST_STOP_ENEMY", region=names.region(region), race=names.race(state.race(others[0])))
    terrain = load().map.by_id[region].terrain
    if terrain in STOPS and not _free_terrain(state, pid, unit, origin, terrain):
        return RuleError("BM_E_MUST_STOP_TERRAIN", region=names.region(region), terrain=names.terrain(terrain))
    return None


def _free_terrain(state: BMState, pid: int, unit: str, origin: str, terrain: str) -> bool:
    data = load().rules
    if unit in MONSTERS:
        if data.monsters[unit].flies:
            return True
    elif data.ability(state.race(pid), "ignores") == terrain:
        return True
    step = state.movement
    return step is not None and (step.free_terrain or origin in step.free_regions)


def check_path(state: BMState, pid: int, unit: str, origin: str, path: Sequence[str]) -> None:
    """Walk `path` (region ids after `origin`) region by region and raise its first violation (BM-VAL-2): the
    hex exists in this game (BM-MOV-5) and is adjacent, then the unit should have stopped at the previous
    region (enemy, then terrain), then the movement allowance, then Blizzard's closed mountains (EV6 B)."""
    reach = allowance(state, pid, unit, origin)
    closed = state.effects.blizzard == "no_mountains"
    board = load().map
    prev = origin
    for steps, here in enumerate(path, 1):
        if here not in state.regions:
            raise RuleError("BM_E_VOID_HEX", x=here)
        if here not in neighbours(state, prev):
            raise RuleError("BM_E_NOT_ADJACENT", a=names.region(prev), b=names.region(here))
        if steps > 1:
            stop = stops_here(state, pid, unit, origin, prev)
            if stop is not None:
                raise stop
        if steps > reach:
            raise RuleError("BM_E_MOVE_TOO_FAR", type=unit_label(unit), n=reach)
        if closed and board.by_id[here].terrain == "mountain":
            raise RuleError("BM_E_BLIZZARD_MOUNTAIN", region=names.region(here))
        prev = here


def next_hops(state: BMState, pid: int, unit: str, origin: str, path: Sequence[str] = ()) -> list[str]:
    """The regions that may follow the partial `path` from `origin` (autocomplete, BM-DIG-13): adjacent and
    legal by `check_path`; none if the partial path is itself illegal."""
    try:
        check_path(state, pid, unit, origin, path)
    except RuleError:
        return []
    last = path[-1] if path else origin
    hops = []
    for region in neighbours(state, last):
        try:
            check_path(state, pid, unit, origin, [*path, region])
        except RuleError:
            continue
        hops.append(region)
    return hops


def origins(state: BMState, pid: int, unit: str | None = None) -> list[str]:
    """The regions holding units of `pid` (of `unit`, if given) that may still move this step, in region-id
    order (autocomplete of `<from>`)."""
    kinds = [unit] if unit else [*ARMY, *MONSTERS]
    return sorted(r for r, here in state.troops.items()
                  if pid in here and any(unmoved(state, pid, r, k) for k in kinds))


def reachable(state: BMState, pid: int, unit: str, origin: str) -> set[str]:
    """Every region a legal path from `origin` can end in (the origin itself excluded).

    Whether a unit must stop in a region depends only on that region, so the fewest steps decide."""
    reach = allowance(state, pid, unit, origin)
    closed = state.effects.blizzard == "no_mountains"
    board = load().map
    seen = {origin: 0}
    frontier = [origin]
    while frontier:
        nxt = []
        for here in frontier:
            if seen[here] >= reach or (here != origin and stops_here(state, pid, unit, origin, here)):
                continue
            for region in neighbours(state, here):
                if region not in seen and not (closed and board.by_id[region].terrain == "mountain"):
                    seen[region] = seen[here] + 1
                    nxt.append(region)
        frontier = nxt
    return set(seen) - {origin}


def unmoved(state: BMState, pid: int, region: str, unit: str) -> int:
    """`pid`'s units of `unit` in `region` that have not moved this step: those that started it there."""
    here = state.units(region, pid).get(unit)
    step = state.movement
    if step is None:
        return here
    return here - sum(o.n for o in step.orders if o.unit == unit and o.path[-1] == region)


# ---------------------------------------------------------------- the stacking limit


def over_limit(state: BMState, pid: int) -> dict[str, int]:
    """Region → how many army units of `pid` exceed the stacking limit there (BM-MOV-6; monsters and heroes do
    not count, BM-MON-7), in region-id order."""
    limit = load().rules.stack_limit
    excess = {r: here[pid].army() - limit for r, here in state.troops.items() if pid in here}
    return {r: n for r, n in sorted(excess.items()) if n > 0}


def started_within_limit(state: BMState, pid: int) -> bool:
    """Whether every region held at most the stacking limit of `pid`'s army units when the step began, so that
    taking orders back can always meet it again (BM-MOV-7). Play never begins a step otherwise (BM-REC-3, Raise
    the Dead respect the limit)."""
    step = state.movement
    army = {r: here[pid].army() for r, here in state.troops.items() if pid in here}
    for order in step.orders if step is not None else ():
        if order.unit in ARMY:
            army[order.path[-1]] -= order.n
            army[order.path[0]] = army.get(order.path[0], 0) + order.n
    limit = load().rules.stack_limit
    return all(n <= limit for n in army.values())


def movable(state: BMState, pid: int, region: str) -> int:
    """How many army units further move orders could take out of `region` into regions with room for them.

    A maximum flow from the unmoved units, by type, to the regions each type can reach, computed as its minimum
    cut: for every set S of types, the units of the other types plus the room in the regions S can reach."""
    limit = load().rules.stack_limit
    supply = {k: unmoved(state, pid, region, k) for k in ARMY}
    kinds = [k for k in ARMY if supply[k]]
    reach = {k: reachable(state, pid, k, region) for k in kinds}
    best = sum(supply.values())
    for size in range(1, len(kinds) + 1):
        for cut in combinations(kinds, size):
            ends = set().union(*(reach[k] for k in cut))
            room = sum(max(0, limit - state.units(r, pid).army()) for r in ends)
            best = min(best, room + sum(supply[k] for k in kinds if k not in cut))
    return best


def default_disband(state: BMState, pid: int, region: str, excess: int) -> dict[str, int]:
    """The excess to disband when the player names none: infantry first, then archers, then cavalry."""
    here = state.units(region, pid)
    chosen: dict[str, int] = {}
    for kind in DISBAND_ORDER:
        take = min(excess, here.get(kind))
        if take:
            chosen[kind] = take
            excess -= take
    return chosen


# ---------------------------------------------------------------- handlers


def _step(state: BMState, pid: int) -> MoveStep:
    """The open movement step of `pid`, checked in the BM-VAL-0 order (the reference's ruling 3): his own step
    after END_MOVE, or his combat step, is BM_E_MOVEMENT_DONE; anyone else's individual turn
    BM_E_NOT_YOUR_TURN; any other step (his quest step too) BM_E_WRONG_PHASE."""
    step = state.movement
    if state.active == pid and (state.phase == "combat" or (
            state.phase == "movement" and step is not None and step.done)):
        raise RuleError("BM_E_MOVEMENT_DONE")
    if state.phase in TURN and state.active != pid:
        raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(state.active))
    if state.phase != "movement" or step is None:
        raise wrong_phase(state.phase)
    return step


def _window(step: MoveStep) -> Window | None:
    """W-MOVESTART until the first move order (BM-MOV-8); then no window of this step (W-INDIVIDUAL, open all
    turn long, has its own actions in windows.py)."""
    return "movestart" if step.opening else None


def _target(state: BMState, text: str | None) -> str:
    """The region a card or spell is aimed at: typed, and part of this game."""
    region = resolve_region(text or "")
    if region not in state.regions:
        raise RuleError("BM_E_VOID_HEX", x=region)
    return region


def begin_movement(state: BMState, rng: Rng) -> list[Event]:
    """Open the movement step of `state.active` (after his quest step): phase MOVEMENT, W-MOVESTART open."""
    from engine.games.battlemist.state import Phase  # state.py imports MoveStep from here: not at module level

    assert state.active is not None
    state.phase = Phase.MOVEMENT
    state.movement = MoveStep(player=state.active)
    return [MovementStarted(player=state.active)]


def aimed(effect: ActionCard | Spell) -> bool:
    """Whether a card or spell acts on one chosen region (AC02, SP02, SP03)."""
    return bool(effect.move_bonus) or effect.free_terrain == "region"


def move_play(state: BMState, action: MovePlay, rng: Rng) -> list[Event]:
    """AC02 Forced March (+1 movement from a region) or AC03 Pathfinders (no terrain stops this step)."""
    step = _step(state, action.player)
    card, events = windows.play(state, action.player, action.card, _window(step))
    region = _target(state, action.region) if aimed(card) else None
    return events + _boost(state, action.player, card.id, region, card.move_bonus, card.free_terrain)


def move_cast(state: BMState, action: MoveCast, rng: Rng) -> list[Event]:
    """SP02 Swift Winds (+1 movement from a region) or SP03 Pathfinding (no terrain stops from a region)."""
    step = _step(state, action.player)
    scope = f"r{state.round}:move:{action.player}"
    spell, events = windows.cast(state, action.player, action.spell, _window(step), scope)
    region = _target(state, action.region) if aimed(spell) else None
    return events + _boost(state, action.player, spell.id, region, spell.move_bonus, spell.free_terrain)


def _boost(state: BMState, pid: int, source: str, region: str | None, bonus: int | None,
           free: Literal["all", "region"] | None) -> list[Event]:
    step = state.movement
    assert step is not None
    if bonus and region is not None:
        step = replace(step, bonus={**step.bonus, region: step.bonus.get(region, 0) + bonus})
    if free == "all":
        step = replace(step, free_terrain=True)
    elif free == "region" and region is not None:
        step = replace(step, free_regions=(*step.free_regions, region))
    state.movement = step
    return [MoveBoost(player=pid, source=source, region=region, move_bonus=bonus or 0, free_terrain=bool(free))]


def move(state: BMState, action: Move, rng: Rng) -> list[Event]:
    """A move order, carried out at once (BM-MOV-1, BM-MON-4): the units, then each unit once per step, then
    the path (BM-VAL-2)."""
    pid = action.player
    step = _step(state, pid)
    origin = resolve_region(action.origin)
    path = [resolve_region(r) for r in action.path]
    have = state.units(origin, pid).get(action.unit)
    if have < action.n:
        raise RuleError("BM_E_UNIT_NOT_FOUND", n=have, type=unit_label(action.unit), region=names.region(origin))
    if unmoved(state, pid, origin, action.unit) < action.n:
        raise RuleError("BM_E_UNIT_ALREADY_MOVED")
    check_path(state, pid, action.unit, origin, path)
    _shift(state, pid, action.unit, action.n, origin, path[-1])
    order = MoveOrder(n=action.n, unit=action.unit, path=(origin, *path))
    state.movement = replace(step, orders=(*step.orders, order), opening=False)
    return [UnitsMoved(player=pid, n=action.n, unit=action.unit, path=[origin, *path])]


def undo(state: BMState, action: Undo, rng: Rng) -> list[Event]:
    """Withdraw the newest move order (BM-DIG-25, BM-MOV-7); W-MOVESTART does not open again."""
    step = _step(state, action.player)
    if not step.orders:
        raise RuleError("BM_E_NOTHING_TO_UNDO")
    order = step.orders[-1]
    _shift(state, action.player, order.unit, order.n, order.path[-1], order.path[0])
    state.movement = replace(step, orders=step.orders[:-1])
    return [MoveUndone(player=action.player, n=order.n, unit=order.unit, path=list(order.path))]


def end_move(state: BMState, action: EndMove, rng: Rng) -> list[Event]:
    """Confirm the step (BM-MOV-6, BM-MOV-10): refused while a region holds more army units than the stacking
    limit and a change of orders could still lower that: taking orders back, or a move out of it; an excess no
    legal move is left for is disbanded (DISBAND_ORDER), and so is every excess the stand-in leaves
    (BM-DIG-19)."""
    pid = action.player
    step = _step(state, pid)
    excess = over_limit(state, pid)
    if not action.stand_in:
        within = started_within_limit(state, pid)
        for region in excess:
            if within or movable(state, pid, region):
                raise RuleError("BM_E_STACK_LIMIT", region=names.region(region), n=state.units(region, pid).army())
    events: list[Event] = []
    for region, n in excess.items():
        units = default_disband(state, pid, region, n)
        for kind, v in units.items():
            _remove(state, pid, region, kind, v)
        events.append(UnitsDisbanded(player=pid, region=region, units=units))
    state.movement = replace(step, done=True)
    return [*events, MovementEnded(player=pid)]


def _shift(state: BMState, pid: int, unit: str, n: int, origin: str, dest: str) -> None:
    if origin != dest:
        _remove(state, pid, origin, unit, n)
        _put(state, pid, dest, state.units(dest, pid).plus(unit, n))


def _remove(state: BMState, pid: int, region: str, unit: str, n: int) -> None:
    _put(state, pid, region, state.units(region, pid).plus(unit, -n))


def _put(state: BMState, pid: int, region: str, troops: Troops) -> None:
    """Set `pid`'s troops in `region` in new containers; no entry for a player (or region) left empty."""
    here = {p: t for p, t in state.troops.get(region, {}).items() if p != pid}
    if troops.total():
        here[pid] = troops
    rest = {r: h for r, h in state.troops.items() if r != region}
    state.troops = {**rest, region: here} if here else rest


# ---------------------------------------------------------------- decisions and timeouts


def pending_movement(state: BMState) -> list[Decision]:
    """The active player's open movement step: move orders, undo or END_MOVE (and W-MOVESTART while open)."""
    step = state.movement
    if step is None or step.done or state.active != step.player:
        return []
    detail = {"window": "movestart" if step.opening else None, "orders": len(step.orders),
              "over_limit": over_limit(state, step.player)}
    return [Decision(player=step.player, kind="move", detail=detail)]


def timeout_movement(state: BMState, pid: int) -> Action:
    """The absent player's stand-in (BM-DIG-19): no further moves; END_MOVE, keeping the orders given and
    disbanding any excess over the stacking limit, infantry first, then archers, then cavalry."""
    return EndMove(player=pid, stand_in=True)


HANDLERS: dict[str, Callable[[BMState, Any, Rng], list[Event]]] = {
    "move_play": move_play, "move_cast": move_cast, "move": move, "undo": undo, "end_move": end_move}
"""The movement step's actions by type, for the game's one `apply`."""
