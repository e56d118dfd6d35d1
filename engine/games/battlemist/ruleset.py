"""Battlemist as one ruleset: setup, `apply`, the pending decisions of every step, the stand-in's action and the
views. (The package registers it once its bot commands exist; see docs/adding-a-game.md.)"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Annotated, Any, TypeVar, Union

from pydantic import Field, TypeAdapter

from engine.core.events import PlayerLeft
from engine.core.models import Action, Decision, Event, Seat, copier
from engine.core.orders import Orders
from engine.core.rng import Rng
from engine.core.turns import Remove, Resign
from engine.core.views import SEALED, hands_seen, hidden
from engine.games.battlemist import combat, council, economy, initiative, movement, quest, rules, setup, upkeep
from engine.games.battlemist.data import load
from engine.games.battlemist.state import BMOptions, BMState, Phase

T = TypeVar("T")
copy = copier(BMState)


def _subclasses(base: type) -> list[type]:
    found: list[type] = []
    for sub in base.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def _union(base: type, extra: Sequence[type] = ()) -> TypeAdapter[Any]:
    """A discriminated union of every concrete class of `base` the Battlemist modules define (by `type`)."""
    kinds = [c for c in _subclasses(base) if c.__module__.startswith("engine.games.battlemist")
             and "type" in getattr(c, "__dataclass_fields__", {})
             and getattr(sys.modules[c.__module__], c.__name__, None) is c]  # not the class a slots dataclass replaced
    kinds += extra
    by_type: dict[str, type] = {}
    for kind in kinds:
        name = rules.type_of(kind)
        if by_type.setdefault(name, kind) is not kind:
            raise TypeError(f"{kind.__qualname__} and {by_type[name].__qualname__} share the type {name!r}")
    return TypeAdapter(Annotated[Union[tuple(by_type.values())], Field(discriminator="type")])  # noqa: UP007


ACTION_ADAPTER = _union(Action, [Resign, Remove])
EVENT_ADAPTER = _union(Event, [PlayerLeft])
REACTIONS = frozenset({"casualties", "reroll", "rally_pick", "window_battlestart", "window_rally", "trade_offer",
                       "bm_duel_window"})
"""Decisions a player answers during another player's turn (BM-RND-4): a missed one does not count as absence."""


def new_game(seats: Sequence[Seat], options: BMOptions, seed: int) -> tuple[BMState, list[Event]]:
    """Setup (§3), then everything automatic up to the first decision: the first quests and round 1's Council."""
    state, events = setup.new_game(load(), seats, options, seed)
    rng = Rng(state.rng)
    events += rules.advance(state, rng)
    state.rng = rng.export()
    return state, events


def pending(state: BMState) -> list[Decision]:
    """Who must decide what now, by phase; several seats at once in the simultaneous steps (BM-SIM-1)."""
    phase = state.phase
    if phase in (Phase.DRAFT, Phase.BUILD):
        return setup.setup_decisions(state)
    if phase is Phase.COUNCIL:
        return council.council_decisions(state)
    if phase in (Phase.ECONSTART, Phase.ORDERS, Phase.UPKEEP):
        return upkeep.pending(state)
    if phase is Phase.INITIATIVE:
        return initiative.initiative_decisions(state)
    if phase is Phase.QUEST:
        return quest.pending_quest(state)
    if phase is Phase.MOVEMENT:
        return movement.pending_movement(state)
    if phase is Phase.COMBAT:
        return combat.pending(state)
    return []


def timeout_action(state: BMState, player: int) -> Action:
    """What an absent player's stand-in plays for his pending decision (BM-DIG-19, BM-SIM-5)."""
    decision = next((d for d in pending(state) if d.player == player), None)
    if decision is None:
        raise ValueError(f"seat {player} has no decision pending")
    if decision.kind == "trade_offer":
        return economy.timeout_trade(state, player, int(decision.detail["offer"]))
    phase = state.phase
    if phase in (Phase.DRAFT, Phase.BUILD):
        return setup.timeout_setup(state, player)
    if phase is Phase.COUNCIL:
        return council.timeout_council(state, player)
    if phase is Phase.ECONSTART:
        return economy.timeout_econstart(state, player)
    if phase is Phase.ORDERS:
        return economy.timeout_economy(state, player)
    if phase is Phase.UPKEEP:
        return upkeep.timeout_upkeep(state, player)
    if phase is Phase.INITIATIVE:
        return initiative.timeout_initiative(state, player)
    if phase is Phase.QUEST:
        return quest.timeout_quest(state, player)
    if phase is Phase.MOVEMENT:
        return movement.timeout_movement(state, player)
    return combat.timeout_combat(state, player)


def _own(book: Orders[T] | None, viewer: int | None) -> Orders[T] | None:
    """An orders book with only the viewer's draft (BM-SIM-4, BM-DIG-1)."""
    if book is None:
        return None
    return replace(book, drafts={p: d for p, d in book.drafts.items() if p == viewer})


def view(state: BMState, viewer: int | None) -> BMState:
    """`state` as `viewer` (None: a spectator) may see it: the others' hands, current quests, unlocked drafts and
    what their Spies saw, the decks' order, the face-down discards and the dice are hidden (BM-DIG-1, DIG-2,
    DIG-5)."""
    seen = copy(state)
    seen.rng = SEALED
    seen.deck = hidden(state.deck)
    seen.discard = hidden(state.discard)
    seen.quest_deck = hidden(state.quest_deck)
    seen.quest_discard = hidden(state.quest_discard)
    seen.hands = hands_seen(state.hands, viewer)
    seen.quests = {p: q if p == viewer else hidden([q])[0] for p, q in state.quests.items()}
    seen.sightings = {p: s for p, s in state.sightings.items() if p == viewer}
    eco = state.economy
    if eco is not None:
        seen.economy = replace(eco, start=_own(eco.start, viewer), orders=_own(eco.orders, viewer),
                               upkeep=_own(eco.upkeep, viewer))
    seen.council = council.seen_by(state.council, viewer)
    seen.initiative = initiative.seen_by(state.initiative, viewer)
    return seen


def winners(state: BMState) -> list[int] | None:
    return list(state.winners) if state.phase is Phase.GAME_OVER and state.winners is not None else None


def ranking(state: BMState) -> list[int]:
    """The winners, then by the victory order (BM-VIC-2): Stars, large cities, controlled regions (the homeland
    counted, as for the victory itself)."""
    won = set(state.winners or [])
    return [p.id for p in sorted(state.players, key=lambda p: (
        p.id not in won, p.status != "active", -state.stars[p.id].owned, -state.large_cities(p.id),
        -council.regions_held(state, p.id)))]

