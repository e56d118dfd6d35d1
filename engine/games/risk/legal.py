"""Risk's legal values and buttons: what autocomplete offers and which controls a decision shows.

A field is named `<action type>.<field>` (`attack.target`). Its choices are the values the rules accept there for
that player, the rest of the action being legal: whose turn it is and the phase are `apply`'s to refuse, with the
message that says why. Other fields already typed come as context, in the player's own spelling.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.controls import Choice, Control
from engine.core.errors import RuleError
from engine.core.i18n import Msg, msg
from engine.core.models import Event
from engine.games.risk import actions as A
from engine.games.risk import events as E
from engine.games.risk.mapdata import RiskMap
from engine.games.risk.names import matches, names, territory_name
from engine.games.risk.rules import apply, connected, valid_sets
from engine.games.risk.state import NEUTRAL, Phase, RiskState

Context = dict[str, Any]


def _named(board: RiskMap, text: object) -> str | None:
    """The territory a typed option means, if it means exactly one."""
    if not isinstance(text, str) or not text:
        return None
    if text in board.territory:
        return text
    found = matches(text, board)
    return found[0] if len(found) == 1 else None


def territory_choice(board: RiskMap, tid: str) -> Choice:
    """A territory named in the reader's language, found by its name in any language or an alias."""
    t = board.territory[tid]
    return Choice(tid, msg("choice.name", name=territory_name(tid)), (t.id, *t.aliases, *names(board)[tid]))


def card_label(board: RiskMap, card: str) -> Msg:
    """A card as its holder reads it: a wild, or a territory with its symbol."""
    if card in board.wild_cards:
        return msg("risk.card.wild")
    return msg("risk.card.territory", territory=territory_name(card),
               symbol=msg(f"risk.symbol.{board.symbols[card]}"))


def attack_sources(s: RiskState, b: RiskMap, pid: int) -> list[str]:
    """Own territories with an army to spare and an enemy next door (RISK-ATK-2 … ATK-4)."""
    return [t for t in b.ids if s.owner.get(t) == pid and s.armies[t] >= 2
            and any(s.owner.get(n) != pid for n in b.neighbours[t])]


def attack_targets(s: RiskState, b: RiskMap, pid: int, source: str) -> list[str]:
    if s.owner.get(source) != pid or s.armies[source] < 2:
        return []
    return [n for n in b.neighbours[source] if s.owner.get(n) != pid]


def fortify_targets(s: RiskState, b: RiskMap, pid: int, source: str) -> list[str]:
    """Where armies from `source` may go (RISK-FORT-2, FORT-3)."""
    if s.owner.get(source) != pid or s.armies[source] < 2:
        return []
    if s.options.fortify_mode == "adjacent":
        return [n for n in b.neighbours[source] if s.owner.get(n) == pid]
    return [t for t in b.ids if t != source and s.owner.get(t) == pid and connected(s, b, pid, source, t)]


def fortify_sources(s: RiskState, b: RiskMap, pid: int) -> list[str]:
    """Own territories with an army to spare and an own neighbour: every fortify path starts with one."""
    return [t for t in b.ids if s.owner.get(t) == pid and s.armies[t] >= 2
            and any(s.owner.get(n) == pid for n in b.neighbours[t])]


def tradeable(s: RiskState, b: RiskMap, pid: int) -> list[str]:
    """The cards of `pid`'s hand that make a set the rules take now (RISK-CARD-6 … CARD-9, DIG-20): the trade
    menu is the player's only while they may trade. Whether a set may be traded now does not depend on which
    set it is, so one trial of the rules answers for all."""
    sets = valid_sets(b, s.hands.get(pid, []))
    if not sets:
        return []
    try:
        apply(s, A.Trade(player=pid, cards=list(sets[0])), b)
    except RuleError:
        return []
    return [c for c in s.hands[pid] if any(c in cards for cards in sets)]


def move_counts(s: RiskState) -> list[int]:
    """The armies a pending move-in may take (RISK-CONQ-2, CONQ-3)."""
    i = s.interrupt
    return list(range(i.min, i.max + 1)) if i is not None and i.kind == "occupy" else []


def defence_dice(s: RiskState, pid: int) -> list[int]:
    """The dice the defender asked may roll: 1, or 2 with two armies (RISK-ATK-9)."""
    i = s.interrupt
    if i is None or i.kind != "defend" or i.defender != pid:
        return []
    return list(range(1, min(2, s.armies[i.target or ""]) + 1))


def _territories(field: str, s: RiskState, b: RiskMap, pid: int, context: Context) -> list[str]:
    if field == "claim.territory" or (field == "place.territory" and s.phase is Phase.SETUP_CLAIM):
        return [t for t in b.ids if t not in s.owner]
    if field == "place.territory":
        return [t for t in b.ids if s.owner.get(t) == pid]
    if field == "place_neutral.territory":
        return [t for t in b.ids if s.owner.get(t) == NEUTRAL]
    if field == "attack.source":
        return attack_sources(s, b, pid)
    if field == "fortify.source":
        return fortify_sources(s, b, pid)
    if field == "trade.bonus":  # the +2 goes to an owned territory shown on a traded card (RISK-CARD-12)
        return [c for c in s.hands.get(pid, []) if s.owner.get(c) == pid]
    source = _named(b, context.get("source"))
    if source is None:
        return []
    return (attack_targets if field == "attack.target" else fortify_targets)(s, b, pid, source)


TERRITORY_FIELDS = frozenset({"claim.territory", "place.territory", "place_neutral.territory", "attack.source",
                              "attack.target", "fortify.source", "fortify.target", "trade.bonus"})


def choices(s: RiskState, b: RiskMap, pid: int, field: str, context: Context) -> list[Choice]:
    """The values `pid` may give in `field`; a card is offered only to its holder."""
    if field in TERRITORY_FIELDS:
        return [territory_choice(b, t) for t in _territories(field, s, b, pid, context)]
    if field == "territory":  # looking a territory up is no action: every one may be named
        return [territory_choice(b, t) for t in b.ids]
    if field == "trade.cards":
        return [Choice(c, card_label(b, c)) for c in tradeable(s, b, pid)]
    numbers: dict[str, Callable[[], list[int]]] = {"move.count": lambda: move_counts(s),
                                                   "defend.dice": lambda: defence_dice(s, pid)}
    if field in numbers:
        return [Choice(n, msg("choice.number", n=n)) for n in numbers[field]()]
    raise KeyError(f"Risk has no field {field!r}")


def front(s: RiskState, recent: Sequence[Event]) -> tuple[str, str] | None:
    """The last attack the player whose turn it is made among `recent` events, as (source, target)."""
    battles = [e for e in recent if isinstance(e, E.Battle) and e.player == s.current]
    return (battles[-1].source, battles[-1].target) if battles else None


def controls(s: RiskState, b: RiskMap, pid: int, recent: Sequence[Event]) -> list[Control]:
    """The buttons of `pid`'s pending decision (RISK-DIG-10, DIG-11): move-in, defence dice, the attack's next
    step, the end of the turn."""
    i = s.interrupt
    if s.phase is Phase.GAME_OVER:
        return []
    if i is not None and i.kind == "occupy" and pid == s.current:
        counts = move_counts(s)
        ends = [counts[0]] if counts[0] == counts[-1] else [counts[0], counts[-1]]
        return [Control({"type": "move", "count": n}, msg("risk.button.move", n=n),
                        "secondary" if n == counts[0] else "primary") for n in ends]
    if i is not None and i.kind == "defend":
        return [Control({"type": "defend", "dice": n}, msg("risk.button.defend", n=n), "primary")
                for n in defence_dice(s, pid)]
    if i is not None or pid != s.current:
        return []
    if s.phase is Phase.FORTIFY:
        return [Control({"type": "end_turn"}, msg("risk.button.end_turn"))]
    last = front(s, recent)
    if s.phase is not Phase.ATTACK or last is None:
        return []
    source, target = last
    again: list[Control] = []
    if target in attack_targets(s, b, pid, source):
        again = [Control({"type": "attack", "source": source, "target": target, "until": "once"},
                         msg("risk.button.again"), "primary"),
                 Control({"type": "attack", "source": source, "target": target, "until": "conquer"},
                         msg("risk.button.blitz"), "danger")]
    return [*again, Control({"type": "end_attack"}, msg("risk.button.stop"))]
