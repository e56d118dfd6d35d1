"""Legal choices for a decision: what autocomplete offers, what the AI and the timeouts pick from.

Every list is worked out with the same checks `apply` uses, so an offered choice is never refused.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Literal

from engine.core.errors import RuleError
from engine.games.wizards_quest import board as B
from engine.games.wizards_quest import checks as C
from engine.games.wizards_quest.data import WQData
from engine.games.wizards_quest.state import Attack, Beast, Leader, WQState

Field = Literal["castle", "claim", "hide", "place", "buy", "attack_source", "attack_target", "free_source",
                "aid_source", "card_target", "march_target", "mage"]


def _ok(check: Callable[[], object]) -> bool:
    try:
        check()
    except RuleError:
        return False
    return True


def reachable(d: WQData, source: str, boat: bool) -> list[str]:
    """Locations an attack from `source` could reach at all: adjacent ones, or with a boat the water-adjacent
    ones (a boat always crosses water, WQ-BOAT-3)."""
    if not boat:
        return list(d.map.neighbours[source])
    return [x for x in d.map.ids if x != source and d.map.shared_water(source, x)]


def campaign_targets(s: WQState, d: WQData, pid: int, source: str, boat: bool = False,
                     leader: Leader | None = None) -> list[str]:
    return [t for t in reachable(d, source, boat) if _ok(lambda t=t: C.campaign(s, d, pid, source, t, leader, boat))]


def campaigns(s: WQState, d: WQData, pid: int, boat: bool = False) -> list[Attack]:
    """Every legal campaign without a leader move, in location order."""
    result: list[Attack] = []
    for source in d.map.ids:
        if s.owner.get(source) != pid:
            continue
        for target in reachable(d, source, boat):
            with suppress(RuleError):
                result.append(C.campaign(s, d, pid, source, target, None, boat))
    return result


def free_attacks(s: WQState, d: WQData, pid: int, boat: bool = False) -> list[Attack]:
    result: list[Attack] = []
    for beast in ("dragon", "mage"):
        for source in d.map.ids:
            if s.owner.get(source) == pid:
                with suppress(RuleError):
                    result.append(C.free(s, d, pid, source, beast, boat))  # type: ignore[arg-type]
    return result


def aid_sources(s: WQState, d: WQData, pid: int) -> list[str]:
    return [x for x in d.map.ids if _ok(lambda x=x: C.aid(s, d, pid, x, 1))] if s.attack else []


def hide_targets(s: WQState, d: WQData, owner: int) -> list[str]:
    taken = {t.location for t in s.treasures}
    return [t for t in d.map.territories if s.owner.get(t) != owner and t not in taken]


def card_targets(s: WQState, d: WQData, pid: int, card: str) -> list[str]:
    """Locations the card may target (for Forced March: the locations it may start from)."""
    target = d.deck.card(card).target
    if target == "orc_location":
        return [x for x in d.map.ids if s.orcs.get(x, 0) > 0]
    if target == "unprotected_territory":
        return [t for t in d.map.territories if not B.is_protected(s, d, t)]
    if target == "territory":
        return list(d.map.territories)
    if target == "march":
        return [x for x in d.map.ids if s.owner.get(x) == pid and s.pieces(x) >= 2
                and len(B.connected_own(s, d, pid, x)) > 1]
    return []


def legal_targets(s: WQState, d: WQData, pid: int, field: Field, *, source: str | None = None,
                  boat: bool = False, leader: Leader | None = None, beast: Beast | None = None,
                  owner: int | None = None, card: str | None = None) -> list[str]:
    """The location ids `pid` may name in `field` of the current decision, in location order."""
    own = [x for x in d.map.ids if s.owner.get(x) == pid]
    if field == "castle":
        return [c for c in d.map.castles if c not in s.owner]
    if field == "claim":
        return [t for t in d.map.territories if not B.occupied(s, t)]
    if field == "hide":
        return hide_targets(s, d, owner if owner is not None else pid)
    if field == "place":
        return own
    if field == "buy":
        return [x for x in own if s.leader_at(x) is None]
    if field == "attack_source":
        return [x for x in own if campaign_targets(s, d, pid, x, boat, leader)]
    if field == "attack_target":
        return campaign_targets(s, d, pid, source, boat, leader) if source else []
    if field == "free_source":
        return [x for x in own if _ok(lambda x=x: C.free(s, d, pid, x, beast or "dragon", boat))]
    if field == "aid_source":
        return aid_sources(s, d, pid)
    if field == "card_target":
        return card_targets(s, d, pid, card) if card else []
    if field == "march_target":
        return [x for x in own if x != source and source is not None and x in B.connected_own(s, d, pid, source)]
    return list(d.map.territories)
