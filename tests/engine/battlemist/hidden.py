"""Battlemist's secrets for the views test (tests/engine/test_views.py): the others' current quests, what their
Spies saw, the quest deck's order and the face-down discards."""

from __future__ import annotations

import random
from typing import Any

from engine.core.models import Event, GameState
from engine.games.battlemist import BMState
from engine.games.battlemist.data import load
from engine.games.battlemist.windows import CardPlayed, SpellCast

ADVENTURES = sorted(load().quests.adventure)
EVENT_CARDS = {c.id for c in load().cards.events}


def scramble_bm(s: GameState, viewer: int | None, rng: random.Random) -> dict[str, Any]:
    """Another adventure for every quest but the viewer's, the others' sightings forgotten, and the quest deck and
    both discards reshuffled."""
    assert isinstance(s, BMState)
    quests = {p: q if p == viewer else ADVENTURES[(ADVENTURES.index(q) + 1) % len(ADVENTURES)]
              for p, q in s.quests.items()}
    shuffled = {name: rng.sample(getattr(s, name), len(getattr(s, name)))
                for name in ("quest_deck", "quest_discard", "discard")}
    sightings = {p: seen for p, seen in s.sightings.items() if p == viewer}
    return {"quests": quests, "sightings": sightings, **shuffled}


def revealed(event: Event) -> set[str]:
    """The cards an event shows by design: one played, a spell cast, a Council event; copies of an action card may
    still be in hands."""
    if isinstance(event, CardPlayed):
        return {event.card}
    if isinstance(event, SpellCast):
        return {event.spell}
    card = getattr(event, "card", None)
    return {card} if card in EVENT_CARDS else set()  # an event card is public once drawn (BM-DIG-2)


SECRETS: dict[str, Any] = {
    "options": [{"round_cap": 3}, {"round_cap": 3, "board": "build", "races": "draft", "player_trades": True}],
    "prepare": lambda s: s, "scramble": scramble_bm, "words": lambda s: set(), "revealed": revealed}
