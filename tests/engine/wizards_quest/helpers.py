"""Builders for Wizard's Quest positions in scenario tests, and assertions on actions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core.errors import RuleError
from engine.core.models import Action, Event, Seat, from_json, to_json
from engine.games.wizards_quest import RULESET, WQOptions, WQState
from engine.games.wizards_quest.state import Attack, Phase, Todo, Treasure, Turn
from tests.engine.checks import applied, refused

DATA = RULESET.data
MAP = DATA.map
P1, P2, P3, P4, P5, P6 = 101, 102, 103, 104, 105, 106
PLAYERS = (P1, P2, P3, P4, P5, P6)
HOMES = ("6.6", "5.4", "2.3", "C5", "C6", "C2", "4.6", "6.3")
"""Home locations of the players in built positions."""

__all__ = ["DATA", "MAP", "P1", "P2", "P3", "P4", "P5", "P6", "Attack", "Phase", "Todo", "Treasure", "Turn"]


def seats(n: int) -> list[Seat]:
    return [Seat(id=PLAYERS[i], name=f"Player{i + 1}") for i in range(n)]


def new(n: int = 3, seed: int = 1, **options: Any) -> WQState:
    state, _ = RULESET.new_game(seats(n), WQOptions(**options), seed)
    assert isinstance(state, WQState)
    return state


def position(
    n: int = 3,
    *,
    owner: dict[str, int] | None = None,
    men: dict[str, int] | None = None,
    orcs: dict[str, int] | None = None,
    hero: dict[int, str] | None = None,
    sorcerer: dict[int, str] | None = None,
    dragon: str | None = None,
    mage: str | None = None,
    treasures: list[Treasure] | None = None,
    retrieved: dict[int, list[str]] | None = None,
    phase: Phase = Phase.ATTACK,
    current: int = P1,
    turn: Turn | None = None,
    pool: int = 0,
    hands: dict[int, list[str]] | None = None,
    boats: dict[int, list[str]] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    attack: Attack | None = None,
    todo: list[Todo] | None = None,
    order: list[int] | None = None,
    round: int = 1,
    eliminated: tuple[int, ...] = (),
    homes: bool = True,
    seed: int = 7,
    **options: Any,
) -> WQState:
    """A play position. Listed locations get `men` (default 3 men); every other location is empty.

    With `homes`, every active player also gets 3 men in a free home location (HOMES), far from the action,
    so that nobody is eliminated by accident.
    The deck defaults to every card not in a hand, boat area or the discard, in data order.
    """
    players = list(PLAYERS[:n])
    own = dict(owner or {})
    free = iter(h for h in HOMES if h not in own and h not in (orcs or {}))
    for pid in players:
        if pid not in eliminated and (homes or pid not in own.values()):
            own[next(free)] = pid
    count = {loc: 3 for loc in own}
    count.update(men or {})
    count = {loc: c for loc, c in count.items() if c > 0}
    hand = {p: [] for p in players}
    hand.update(hands or {})
    boat = {p: [] for p in players}
    boat.update(boats or {})
    used = {c for cards in [*hand.values(), *boat.values()] for c in cards} | set(discard or [])
    if deck is None:
        deck = [c for c in DATA.deck.instances if c not in used]
    base = new(n, seed=seed, **options)
    state = replace(base, players=[replace(p, status="eliminated" if p.id in eliminated else "active")
                    for p in base.players],
                    phase=phase, round=round, current=current, order=order or players,
                    owner=own, men=count, orcs=dict(orcs or {}), hero=dict(hero or {}),
                    sorcerer=dict(sorcerer or {}), dragon=dragon, mage=mage, treasures=list(treasures or []),
                    retrieved={p: list((retrieved or {}).get(p, [])) for p in players}, pool=pool, setup_left={},
                    deck=list(deck), discard=list(discard or []), hands=hand, boats=boat,
                    turn=turn or Turn(), attack=attack, todo=list(todo or []))
    return from_json(WQState, to_json(state))


def action(kind: str, player: int, **fields: Any) -> Action:
    return RULESET.parse_action({"type": kind, "player": player, **fields})


def play(state: WQState, act: Action | tuple[Any, ...], dice: list[int] | None = None,
         all_dice: bool = True) -> tuple[WQState, list[Event]]:
    """Apply an action (an Action or a tuple (kind, player, {fields})), checking the input is not mutated.

    With `all_dice`, every forced die must have been used: a scenario lists exactly the dice it needs.
    """
    new_state, events = applied(RULESET, state, act, dice)
    if dice is not None and all_dice:
        assert new_state.rng.forced == [], f"dice left unused: {new_state.rng.forced}"
    return new_state, events


def rejects(state: WQState, act: Action | tuple[Any, ...], code: str, dice: list[int] | None = None) -> RuleError:
    """Assert that the action is refused with `code`, a complete message, and an unchanged state."""
    return refused(RULESET, state, act, code, dice)


def of_type(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]
