"""The quest deck (BM-QST-2, 8 … 12, BM-SET-8): drawing a new adventure, the card after a completed quest,
rebuilding the deck from its discards, and the first quests of setup."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.core.models import Event
from engine.core.rng import Rng
from engine.games.battlemist.data import load
from engine.games.battlemist.quest_events import ArtifactFound, QuestDeckRebuilt, QuestDrawn, QuestStarted, StarFound

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

STAR = "STAR"
"""A Star of Timorran card of the quest deck."""


def new_quest_deck(rng: Rng) -> list[str]:
    """The 48 quest cards shuffled (BM-QST-10, 11, BM-SET-6): the adventures, the Stars and the unique artifacts."""
    quests = load().quests
    deck = [a.id for a in quests.adventures] + [STAR] * quests.stars + list(quests.artifacts)
    rng.shuffle(deck)
    return deck


def _top(state: BMState, rng: Rng, events: list[Event]) -> str | None:
    """Take the top quest card, first rebuilding an empty deck from the discards (BM-QST-9); None when both
    are empty."""
    deck = state.quest_deck
    if not deck:
        if not state.quest_discard:
            return None
        deck = list(state.quest_discard)
        rng.shuffle(deck)
        state.quest_discard = []
        events.append(QuestDeckRebuilt(cards=len(deck)))
    state.quest_deck = deck[1:]
    return deck[0]


def draw_adventure(state: BMState, pid: int, rng: Rng) -> list[Event]:
    """Start a quest (BM-QST-2): draw until an adventure; the artifact cards drawn on the way go back and the deck
    is shuffled. Without any adventure left in deck or discards the player gets none."""
    events: list[Event] = []
    adventures = load().quests.adventure
    aside: list[str] = []
    found = None
    while found is None:
        card = _top(state, rng, events)
        if card is None:
            break
        if card in adventures:
            found = card
        else:
            aside.append(card)
    if aside:
        deck = [*state.quest_deck, *aside]
        rng.shuffle(deck)
        state.quest_deck = deck
    if found is not None:
        state.quests = {**state.quests, pid: found}
        events += [QuestDrawn(player=pid, adventure=found, returned=aside, private_to=pid),
                   QuestStarted(player=pid)]
    return events


def next_card(state: BMState, pid: int, rng: Rng) -> list[Event]:
    """The card after a completed quest (BM-QST-8): an adventure is the new quest; a Star of Timorran gives a spent
    Star from the pool, or nothing when it is empty (BM-A-21), and is discarded; another artifact is kept face up
    and never returns (BM-ART-1)."""
    events: list[Event] = []
    card = _top(state, rng, events)
    if card is None:
        return events
    if card in load().quests.adventure:
        state.quests = {**state.quests, pid: card}
        return [*events, QuestDrawn(player=pid, adventure=card, private_to=pid), QuestStarted(player=pid)]
    if card == STAR:
        state.quest_discard = [*state.quest_discard, card]
        gained = state.star_pool > 0
        if gained:
            stars = state.stars[pid]
            state.stars = {**state.stars, pid: replace(stars, owned=stars.owned + 1, spent=stars.spent + 1)}
            state.star_pool -= 1
        return [*events, StarFound(player=pid, gained=gained)]
    state.artifacts = {**state.artifacts, pid: [*state.artifacts.get(pid, []), card]}
    return [*events, ArtifactFound(player=pid, artifact=card)]


def first_quests(state: BMState, rng: Rng) -> list[Event]:
    """Setup (BM-SET-8): in seat order each player draws his first quest as BM-QST-2 says."""
    events: list[Event] = []
    for player in state.players:
        events += draw_adventure(state, player.id, rng)
    return events
