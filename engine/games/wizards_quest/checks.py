"""Legality checks shared by `apply`, the legal-target lists and the AI: each raises RuleError or returns a plan.

They only read the state. The order of the checks inside each function is the spec's WQ-VAL-ORDER.
"""

from __future__ import annotations

from engine.core.datanames import name_of
from engine.core.errors import RuleError
from engine.core.i18n import msg
from engine.games.wizards_quest import board as B
from engine.games.wizards_quest.data import WQData
from engine.games.wizards_quest.names import label, resolve
from engine.games.wizards_quest.state import Attack, Beast, Leader, WQState


def loc(d: WQData, text: str) -> str:
    return resolve(text, d)


def beast_at(s: WQState, target: str) -> Beast | None:
    if s.dragon == target:
        return "dragon"
    if s.mage == target:
        return "mage"
    return None


def _reach(s: WQState, d: WQData, pid: int, source: str, target: str, boat: bool) -> str:
    """The crossing from source to target, or WQ-VAL-23/24: a named boat must cross water (WQ-BOAT-3)."""
    if boat:
        if not s.boats.get(pid):
            raise RuleError("WQ_VAL_24_NONE")
        link = B.crossing(d, source, target, True)
        if link is None and source == target:
            raise RuleError("WQ_VAL_24_HERE", src=label(source, d))
        if link is None:
            raise RuleError("WQ_VAL_24_WATER", src=label(source, d), dst=label(target, d))
        return link
    link = B.crossing(d, source, target, False)
    if link is None:
        waters = d.map.shared_water(source, target)
        if waters:
            raise RuleError("WQ_VAL_23_BOAT", src=label(source, d), dst=label(target, d),
                            water=name_of("wq", "water", waters[0]))
        raise RuleError("WQ_VAL_23", src=label(source, d), dst=label(target, d))
    return link


def _protected(s: WQState, d: WQData, target: str) -> None:
    if B.is_protected(s, d, target):
        r = d.map.region_of[target]
        raise RuleError("WQ_VAL_25", r=r, name=name_of("wq", "region", r))


def _beast_leader(s: WQState, beast: Beast, force_leader: Leader | None) -> None:
    """Only a Hero or Sorcerer force fights the Dragon, only a Sorcerer force the Mage (WQ-BEAST-1)."""
    if beast == "dragon" and force_leader is None:
        raise RuleError("WQ_VAL_28")
    if beast == "mage" and force_leader != "sorcerer":
        raise RuleError("WQ_VAL_29")


def attack_gate(s: WQState, campaign: bool) -> None:
    """Checks 18, 20 and 19 for a new attack."""
    if s.attack is not None:
        raise RuleError("WQ_VAL_18")
    if s.turn.truce:
        raise RuleError("WQ_VAL_20")
    if campaign and s.turn.campaigns < 1:
        raise RuleError("WQ_VAL_19")


def campaign(s: WQState, d: WQData, pid: int, source: str, target: str, leader: Leader | None,
             boat: bool) -> Attack:
    """Validate a campaign declaration (WQ-ATK-2 … ATK-5, ATK-11, FREE-5/6) and return the attack it starts."""
    attack_gate(s, True)
    if s.owner.get(source) != pid:
        raise RuleError("WQ_VAL_21", src=label(source, d))
    if s.owner.get(target) == pid:
        raise RuleError("WQ_VAL_22", dst=label(target, d))
    link = _reach(s, d, pid, source, target, boat)
    beast = beast_at(s, target)
    lone = beast is not None and not B.occupied(s, target)
    if not (lone and beast == "mage"):
        _protected(s, d, target)
    if s.dragon == target and not lone:
        raise RuleError("WQ_VAL_27", dst=label(target, d))
    force_leader = s.leader_at(source)
    if leader is not None:
        at = s.leaders(pid).get(leader)
        if at is None:
            raise RuleError("WQ_VAL_32_ABSENT", leader=msg(f"wq.leader.{leader}"))
        if at != source:
            swapped = force_leader is not None
            if s.pieces(at) == 1 and not swapped:
                raise RuleError("WQ_VAL_32_EMPTY", leader=msg(f"wq.leader.{leader}"), loc=label(at, d))
            force_leader = leader
    if lone:
        assert beast is not None
        _beast_leader(s, beast, force_leader)
    elif B.has_hero(s, target) and force_leader != "hero":
        raise RuleError("WQ_VAL_26", dst=label(target, d))
    return Attack(kind="campaign", source=source, target=target, beast=beast if lone else None,
                  wounds=d.params.wounds[beast] if lone and beast else 0, link=link,  # type: ignore[arg-type]
                  empty_start=not lone and not B.occupied(s, target))


def free(s: WQState, d: WQData, pid: int, source: str, beast: Beast, boat: bool) -> Attack:
    """Validate a free attack on the Dragon or the Mage (WQ-FREE-1 … FREE-7)."""
    attack_gate(s, False)
    if s.owner.get(source) != pid:
        raise RuleError("WQ_VAL_21", src=label(source, d))
    target = s.dragon if beast == "dragon" else s.mage
    if target is None:
        raise RuleError("WQ_VAL_30_ABSENT", beast=msg(f"wq.beast.{beast}"))
    link = "none"
    if target != source:
        if s.owner.get(target) == pid:
            raise RuleError("WQ_VAL_30_ELSEWHERE", beast=msg(f"wq.beast.{beast}"), loc=label(target, d))
        link = _reach(s, d, pid, source, target, boat)
    elif boat:
        _reach(s, d, pid, source, target, boat)  # refused: the force attacks where it stands (WQ-FREE-1, FREE-4)
    if beast == "dragon":
        _protected(s, d, target)
    if not B.occupied(s, target):
        raise RuleError("WQ_VAL_30_ALONE", beast=msg(f"wq.beast.{beast}"), loc=label(target, d))
    _beast_leader(s, beast, s.leader_at(source))
    return Attack(kind="free", source=source, target=target, beast=beast, wounds=d.params.wounds[beast],
                  link=link)  # type: ignore[arg-type]


def aid(s: WQState, d: WQData, pid: int, source: str, count: int) -> None:
    """Validate aid into the attacking location (WQ-AID-1 … AID-3)."""
    a = s.attack
    assert a is not None
    if a.kind == "free":
        raise RuleError("WQ_VAL_31")
    ok = s.owner.get(source) == pid and source != a.source and (
        source in d.map.neighbours[a.source] or (a.boat is not None and bool(d.map.shared_water(source, a.source))))
    if not ok:
        raise RuleError("WQ_VAL_33_ADJ", src=label(a.source, d))
    if count < 1:
        raise RuleError("WQ_BAD_NUMBER", field="count")
    if s.men.get(source, 0) < count <= s.pieces(source) and s.leader_at(source) is not None:
        raise RuleError("WQ_VAL_33_LEADER")
    if s.pieces(source) - count < 1:
        raise RuleError("WQ_VAL_33_STAY", loc=label(source, d))


def capture(s: WQState, d: WQData, count: int, leader: bool) -> None:
    """Validate a capture (WQ-CAP-1, WQ-ATK-7)."""
    a = s.attack
    assert a is not None
    have = s.pieces(a.source)
    if a.empty_start and have < 2:
        raise RuleError("WQ_VAL_34", src=label(a.source, d))
    if not 1 <= count <= have - 1:
        raise RuleError("WQ_VAL_36", max=have - 1, src=label(a.source, d), dst=label(a.target, d))
    if leader and s.leader_at(a.source) is None:
        raise RuleError("WQ_VAL_36_LEADER", src=label(a.source, d))


def placement(s: WQState, d: WQData, pid: int, placements: dict[str, int]) -> dict[str, int]:
    """Validate men placed from the pool (WQ-REI-3); returns the placements keyed by location id."""
    resolved: dict[str, int] = {}
    for text, n in placements.items():
        where = loc(d, text)
        if s.owner.get(where) != pid:
            raise RuleError("WQ_VAL_14")
        if n < 1:
            raise RuleError("WQ_BAD_NUMBER", field="count")
        resolved[where] = resolved.get(where, 0) + n
    if not resolved:
        raise RuleError("WQ_BAD_NUMBER", field="count")
    if sum(resolved.values()) > s.pool:
        raise RuleError("WQ_VAL_15", n=s.pool)
    return resolved


def buy(s: WQState, d: WQData, pid: int, leader: Leader, where: str) -> int:
    """Validate buying a leader (WQ-LDR-1/2); returns its cost in men."""
    if s.owner.get(where) != pid:
        raise RuleError("WQ_VAL_14")
    if leader in s.leaders(pid):
        raise RuleError("WQ_VAL_17_ON_BOARD", leader=msg(f"wq.leader.{leader}"))
    cost = 1 if s.turn.champions > 0 and s.phase.value == "reinforce" and not s.todo else d.params.leader_cost
    if s.pool < cost:
        raise RuleError("WQ_VAL_17_COST", leader=msg(f"wq.leader.{leader}"), n=s.pool)
    if s.leader_at(where) is not None:
        raise RuleError("WQ_VAL_17_SHARE")
    return cost


def march(s: WQState, d: WQData, pid: int, source: str, target: str, count: int, leader: Leader | None) -> None:
    """Validate Forced March (WQ-CARD-9)."""
    name = name_of("wq", "card", "forced_march")
    if s.owner.get(source) != pid or s.owner.get(target) != pid or source == target:
        raise RuleError("WQ_VAL_13_MARCH_OWN", card=name)
    if target not in B.connected_own(s, d, pid, source):
        raise RuleError("WQ_VAL_13_MARCH_PATH", card=name, src=label(source, d), dst=label(target, d))
    if count < 0 or count > s.men.get(source, 0):
        raise RuleError("WQ_VAL_13_MARCH_COUNT", card=name, n=s.men.get(source, 0), src=label(source, d))
    if leader is not None and s.leaders(pid).get(leader) != source:
        raise RuleError("WQ_VAL_13_MARCH_LEADER", card=name, leader=msg(f"wq.leader.{leader}"), src=label(source, d))
    moved = count + (1 if leader else 0)
    if moved < 1 or s.pieces(source) - moved < 1:
        raise RuleError("WQ_VAL_13_MARCH_COUNT", card=name, n=s.men.get(source, 0), src=label(source, d))
    if leader is not None and s.leader_at(target) is not None:
        raise RuleError("WQ_VAL_13_MARCH_SHARE", card=name)


def march_possible(s: WQState, d: WQData, pid: int) -> bool:
    """Some Forced March is legal: two connected locations, one with a piece to spare."""
    return any(s.pieces(src) >= 2 and len(B.connected_own(s, d, pid, src)) > 1 for src in s.locations_of(pid))
