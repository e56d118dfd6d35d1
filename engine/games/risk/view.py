"""What a seat or a spectator may see of a Risk state (RISK-DIG-2 … DIG-8, DIG-38)."""

from __future__ import annotations

from dataclasses import replace

from engine.core.orders import redact
from engine.core.views import HIDDEN, SEALED, hands_seen, hidden, own
from engine.games.risk.state import Phase, RiskState


def view(s: RiskState, viewer: int | None) -> RiskState:
    """`s` with what `viewer` may not see replaced: the others' hands by placeholders, the deck by as many, the
    dice by the sealed ones; the others' missions (until the game is over), plans and standing defence removed."""
    return replace(s, rng=SEALED, deck=hidden(s.deck), hands=hands_seen(s.hands, viewer),
                   missions=dict(s.missions) if s.phase is Phase.GAME_OVER else own(s.missions, viewer),
                   plans=plans_seen(s, viewer), standing_defence=own(s.standing_defence, viewer))


def plans_seen(s: RiskState, viewer: int | None) -> dict[int, dict[str, int]]:
    """The viewer's own plan; of the others', only that one is locked (a placeholder of its size), so that the
    pending list still tells who is missing without telling where anyone plans to go or how far they got."""
    book = redact(s.plan_book(), viewer)
    seen = {pid: {HIDDEN: s.setup_left.get(pid, 0)} for pid in book["locked"] if pid != viewer}
    if "orders" in book:
        seen[viewer] = dict(book["orders"])
    return seen
