"""Legal choices for a decision: what autocomplete offers, what the AI and the timeouts pick from, and the buttons
a decision shows.

Every list is worked out with the same checks `apply` uses, so an offered choice is never refused. For `choices`
a field is named `<action type>.<field>` (`attack.target`); its values are those the rules accept there for that
player, the rest of the action being legal (whose turn it is and the step are `apply`'s to refuse). Other fields
already typed come as context, in the player's own spelling.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Literal

from engine.core.controls import Choice, Control, Style
from engine.core.datanames import name_of
from engine.core.errors import RuleError
from engine.core.i18n import Msg, in_every_language, msg
from engine.games.wizards_quest import board as B
from engine.games.wizards_quest import checks as C
from engine.games.wizards_quest.data import WQData
from engine.games.wizards_quest.names import label, matches
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
    return list(d.map.across_water[source])


def campaign_targets(s: WQState, d: WQData, pid: int, source: str, boat: bool = False,
                     leader: Leader | None = None) -> list[str]:
    return [t for t in reachable(d, source, boat) if _ok(lambda t=t: C.campaign(s, d, pid, source, t, leader, boat))]


def campaigns(s: WQState, d: WQData, pid: int, boat: bool = False) -> list[Attack]:
    """Every legal campaign without a leader move, in location order.

    The AI asks at every step of its turn, so the pairs that the first checks refuse are not tried one by one:
    no pair passes a closed attack gate (checks 18 to 20), and none aims at the player's own location (check 22).
    """
    result: list[Attack] = []
    if not _ok(lambda: C.attack_gate(s, True)):
        return result
    owner = s.owner
    for source in d.map.ids:
        if owner.get(source) != pid:
            continue
        for target in reachable(d, source, boat):
            if owner.get(target) != pid:
                with suppress(RuleError):
                    result.append(C.campaign(s, d, pid, source, target, None, boat))
    return result


def free_attacks(s: WQState, d: WQData, pid: int, boat: bool = False) -> list[Attack]:
    """Every legal free attack, the Dragon's first; a closed attack gate or an absent beast refuses them all.

    A force attacks a beast where it stands or across one crossing (checks 23/24, which go both ways), so only
    the beast's location and those it reaches are tried.
    """
    result: list[Attack] = []
    if not _ok(lambda: C.attack_gate(s, False)):
        return result
    for beast in ("dragon", "mage"):
        lair = s.dragon if beast == "dragon" else s.mage
        if lair is None:
            continue
        near = {lair, *reachable(d, lair, boat)}
        for source in d.map.ids:
            if source in near and s.owner.get(source) == pid:
                with suppress(RuleError):
                    result.append(C.free(s, d, pid, source, beast, boat))  # type: ignore[arg-type]
    return result


def aid_sources(s: WQState, d: WQData, pid: int) -> list[str]:
    """Where aid may come from: the player's own locations that pass the aid checks (none in a free attack)."""
    if s.attack is None or s.attack.kind == "free":
        return []
    return [x for x in d.map.ids if s.owner.get(x) == pid and _ok(lambda x=x: C.aid(s, d, pid, x, 1))]


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


SAFE_ROLL = 3
"""The "roll until done" button that keeps a reserve stops once the attacking force drops below this many."""
TREASURE_VALUE = re.compile(r"(\d+):(crown|chest|ring|decoy)")
"""A treasure as a `hide.treasure` choice names it: `owner:kind`."""
LOCATION_FIELDS: dict[str, Field] = {
    "castle.castle": "castle", "claim.territory": "claim", "hide.territory": "hide", "place.location": "place",
    "buy.location": "buy", "attack.source": "attack_source", "attack.target": "attack_target",
    "free.source": "free_source", "aid.source": "aid_source", "play.location": "card_target",
    "play.to": "march_target", "mage.territory": "mage",
}
"""Each action field that names a location, and the list of `legal_targets` that answers it."""


def located(d: WQData, text: object) -> str | None:
    """The location a typed option means, if it means exactly one."""
    if not isinstance(text, str) or not text:
        return None
    found = matches(text, d)
    return found[0] if len(found) == 1 else None


def treasure(value: object) -> tuple[int, str] | None:
    """(owner, kind) of a `hide.treasure` value."""
    match = TREASURE_VALUE.fullmatch(value.strip()) if isinstance(value, str) else None
    return (int(match[1]), match[2]) if match else None


def card_label(d: WQData, card: str) -> Msg:
    """A card as players read it: name, effect, and whether it carries a Boat Privilege."""
    kind = d.deck.card(card)
    return msg("wq.card.line", name=name_of("wq", "card", kind.code), effect=msg(f"wq.card.{kind.code}"),
               boat=msg("wq.card.boat") if d.deck.has_boat(card) else "")


def hiding(s: WQState, pid: int) -> list[Choice]:
    """The treasures `pid` still has to hide (WQ-SET-7); the value is `owner:kind`."""
    return [Choice(f"{t.owner}:{t.kind}", msg("wq.text.treasure", owner=s.name(t.owner),
                                               kind=msg(f"wq.treasure.{t.kind}")))
            for t in s.treasures if t.hider == pid and t.location is None]


def _context(s: WQState, d: WQData, pid: int, field: str, context: dict[str, Any]) -> dict[str, Any] | None:
    """`legal_targets`' arguments from the typed context; None when what it needs is missing or unknown."""
    leader = context.get("leader") if context.get("leader") in ("hero", "sorcerer") else None
    boat = context.get("boat") is True
    if field == "hide.territory":
        chosen = treasure(context.get("treasure"))
        return {"owner": chosen[0] if chosen else None}
    if field == "attack.source":
        return {"boat": boat, "leader": leader}
    if field == "attack.target":
        source = located(d, context.get("source"))
        return None if source is None else {"source": source, "boat": boat, "leader": leader}
    if field == "free.source":
        beast = context.get("beast") if context.get("beast") in ("dragon", "mage") else None
        return {"beast": beast, "boat": boat}
    if field == "play.location":
        card = context.get("card")
        return {"card": card} if card in s.hands.get(pid, []) else None  # a card is offered only to its holder
    if field == "play.to":
        source = located(d, context.get("location"))
        return None if source is None else {"source": source}
    return {}


def _spellings(d: WQData, loc: str) -> tuple[str, ...]:
    """What else a player may type for a location: a castle's name in every language."""
    return in_every_language(name_of("wq", "castle", loc)) if loc in d.map.castle_name else ()


def choices(s: WQState, d: WQData, pid: int, field: str, context: dict[str, Any]) -> list[Choice]:
    """The values `pid` may give in `field`."""
    if field in LOCATION_FIELDS:
        given = _context(s, d, pid, field, context)
        if given is None:
            return []
        return [Choice(x, msg("choice.name", name=label(x, d)), _spellings(d, x))
                for x in legal_targets(s, d, pid, LOCATION_FIELDS[field], **given)]
    if field == "play.card":
        return [Choice(c, card_label(d, c), in_every_language(name_of("wq", "card", d.deck.card(c).code)))
                for c in s.hands.get(pid, [])]
    if field == "hide.treasure":
        return hiding(s, pid)
    raise KeyError(f"Wizard's Quest has no field {field!r}")


def aid_options(s: WQState, d: WQData, pid: int) -> tuple[Control, ...]:
    """Aid from each neighbouring location with every man that may go (WQ-AID-1)."""
    spare = {x: min(s.men.get(x, 0), s.pieces(x) - 1) for x in aid_sources(s, d, pid)}
    return tuple(Control({"type": "aid", "source": x, "count": n}, msg("wq.aid.option", loc=label(x, d), n=n))
                 for x, n in spare.items() if n > 0)


def controls(s: WQState, d: WQData, pid: int, kind: str) -> list[Control]:
    """The buttons of `pid`'s pending decision of `kind` (WQ-DIG-3): the petition step, the attack's battles,
    capture, the beasts' outcomes, the end of the turn, and the aid menu."""
    found: list[Control] = []

    def button(action: dict[str, Any], key: str, style: Style = "secondary", **params: Any) -> None:
        found.append(Control(action, msg(f"wq.button.{key}", **params), style))

    a = s.attack
    if kind == "petition":
        if not s.turn.drawn and (s.deck or s.discard):
            button({"type": "draw"}, "draw", "primary")
        button({"type": "done"}, "done")
    elif kind == "battle" and a is not None:
        button({"type": "roll"}, "roll", "primary")
        button({"type": "roll", "times": 3}, "roll3")
        button({"type": "roll", "times": 0}, "rollall", "danger")
        if a.kind == "campaign":
            button({"type": "roll", "times": 0, "until_below": SAFE_ROLL}, "rollsafe", n=SAFE_ROLL - 1)
        if a.battles == 0:
            button({"type": "cancel"}, "cancel")
        else:
            button({"type": "stop"}, "stop")
    elif kind == "capture" and a is not None:
        most = s.pieces(a.source) - 1
        if most >= 1:
            button({"type": "capture", "count": 1}, "capture", "primary", n=1)
        if most > 1:
            button({"type": "capture", "count": most}, "capture", "primary", n=most)
        if most >= 1 and s.leader_at(a.source) is not None:
            button({"type": "capture", "count": most, "leader": True}, "capture_leader", n=most)
        if a.empty_start:
            button({"type": "cancel"}, "cancel")
    elif kind == "region":
        for r in d.map.regions:
            button({"type": "region", "region": r.id}, "region", r=r.id, name=name_of("wq", "region", r.id))
    elif kind == "ring":
        button({"type": "mage"}, "ring_decline")
    elif kind == "attack":
        button({"type": "end"}, "end")
    if a is not None and a.kind == "campaign" and kind in ("battle", "capture") and (a.empty_start or kind == "battle"):
        options = aid_options(s, d, pid)
        if options:
            found.append(Control({"type": "aid"}, msg("wq.aid.placeholder"), options=options))
    return found
