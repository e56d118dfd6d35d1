"""Pure questions about a Wizard's Quest position: protection, kingdoms, links, defence ranges."""

from __future__ import annotations

from engine.games.wizards_quest.data import WQData
from engine.games.wizards_quest.state import Attack, Leader, WQState


def protected_region(s: WQState, d: WQData) -> int | None:
    """The Mage's region, closed to every attack (WQ-PROT-1); None before his first move."""
    return d.map.region_of[s.mage] if s.mage is not None else None


def is_protected(s: WQState, d: WQData, loc: str) -> bool:
    return s.mage is not None and d.map.region_of[loc] == d.map.region_of[s.mage]


def occupied(s: WQState, loc: str) -> bool:
    """Held by a player or by orcs; the Dragon and the Mage never occupy (WQ-DEF-1)."""
    return loc in s.owner or s.orcs.get(loc, 0) > 0


def occupant(s: WQState, loc: str) -> int | None:
    """The holding player, 0 for orcs, None when empty."""
    if loc in s.owner:
        return s.owner[loc]
    return 0 if s.orcs.get(loc, 0) > 0 else None


def has_hero(s: WQState, loc: str) -> bool:
    return s.leader_at(loc) == "hero"


def connected_own(s: WQState, d: WQData, pid: int, start: str) -> set[str]:
    """`pid`'s locations reachable from `start` through their own locations by any link (WQ-KING-1)."""
    seen = {start}
    frontier = [start]
    while frontier:
        loc = frontier.pop()
        for n in d.map.neighbours[loc]:
            if n not in seen and s.owner.get(n) == pid:
                seen.add(n)
                frontier.append(n)
    return seen


def kingdoms(s: WQState, d: WQData, pid: int) -> list[list[str]]:
    """Each maximal connected group of `pid`'s locations that holds a castle, in location order (WQ-KING-1)."""
    own = [loc for loc in d.map.ids if s.owner.get(loc) == pid]
    seen: set[str] = set()
    result: list[list[str]] = []
    for loc in own:
        if loc in seen:
            continue
        group = connected_own(s, d, pid, loc)
        seen |= group
        if any(g in d.map.castles for g in group):
            result.append(sorted(group, key=d.map.order.__getitem__))
    return result


def base_reinforcement(s: WQState, d: WQData, pid: int, famine: bool) -> int:
    """max(minimum, kingdom locations), or half of them without the minimum under Famine (WQ-REI-1, CARD-14)."""
    size = sum(len(k) for k in kingdoms(s, d, pid))
    return size // 2 if famine else max(d.params.min_reinforcement, size)


def crossing(d: WQData, source: str, target: str, boat: bool) -> str | None:
    """How an attack gets from source to target: "water" with a boat, which must cross water even between
    adjacent locations (WQ-BOAT-3), else the link's kind; None if it can't."""
    if boat:
        return "water" if source != target and d.map.shared_water(source, target) else None
    return d.map.link_kind.get((source, target))


def defence(s: WQState, d: WQData, a: Attack, attacker_leader: Leader | None) -> int:
    """The defender range D of the next battle, all modifiers applied and clamped (WQ-CMB-2 … CMB-4)."""
    p = d.params
    m = p.modifiers
    if a.beast is not None:
        value = p.defence.dragon if a.beast == "dragon" else p.defence.mage
    elif a.target in s.owner and not s.rebels_at(a.target):
        value = p.defence.player + (m.defender_leader if s.leader_at(a.target) else 0)
    else:
        value = p.defence.orcs
    if a.target in d.map.castles:
        value += m.castle
    if a.link == "bridge":
        value += m.bridge
    elif a.link == "tunnel":
        value += m.tunnel
    if attacker_leader is not None:
        value += m.attacker_leader
    if a.blessed:
        value += m.blessed_arms
    low, high = p.d_clamp
    return min(high, max(low, value))


def orc_defence(s: WQState, d: WQData, source: str, target: str) -> int:
    """D for an orc frenzy: a player force, castle, link and defending leader modifiers (WQ-ORC-5)."""
    m = d.params.modifiers
    value = d.params.defence.player + (m.defender_leader if s.leader_at(target) else 0)
    if target in d.map.castles:
        value += m.castle
    kind = d.map.link_kind[(source, target)]
    value += m.bridge if kind == "bridge" else m.tunnel if kind == "tunnel" else 0
    low, high = d.params.d_clamp
    return min(high, max(low, value))
