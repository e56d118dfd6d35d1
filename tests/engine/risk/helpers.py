"""Builders for Risk positions in scenario tests, and assertions on actions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.core.errors import RuleError
from engine.core.models import Action, Event, Seat, from_json, to_json
from engine.games.risk import RULESET, RiskOptions, RiskState
from engine.games.risk.mapdata import classic
from engine.games.risk.state import NEUTRAL, Interrupt, Phase
from tests.engine.checks import applied, refused

BOARD = classic()
IDS = BOARD.ids
P1, P2, P3, P4, P5, P6 = 101, 102, 103, 104, 105, 106
PLAYERS = (P1, P2, P3, P4, P5, P6)

__all__ = ["BOARD", "IDS", "NEUTRAL", "P1", "P2", "P3", "P4", "P5", "P6", "Interrupt", "Phase"]


def seats(n: int) -> list[Seat]:
    return [Seat(id=PLAYERS[i], name=f"Player{i + 1}") for i in range(n)]


def new(n: int = 3, seed: int = 1, **options: Any) -> RiskState:
    """A fresh game straight after setup began (first-player roll done)."""
    state, _ = RULESET.new_game(seats(n), RiskOptions(**options), seed)
    assert isinstance(state, RiskState)
    return state


def new_with_events(n: int = 3, seed: int = 1, **options: Any) -> tuple[RiskState, list[Event]]:
    state, events = RULESET.new_game(seats(n), RiskOptions(**options), seed)
    assert isinstance(state, RiskState)
    return state, events


def position(
    n: int = 3,
    *,
    owner: dict[str, int] | None = None,
    armies: dict[str, int] | None = None,
    default_armies: int = 3,
    phase: Phase = Phase.REINFORCE,
    current: int = P1,
    pool: int = 0,
    hands: dict[int, list[str]] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    sets_traded: int = 0,
    missions: dict[int, str] | None = None,
    interrupt: Interrupt | None = None,
    conquered: bool = False,
    card_bonus_taken: bool = False,
    turn: int = 1,
    eliminated: tuple[int, ...] = (),
    resigned: tuple[int, ...] = (),
    seed: int = 7,
    **options: Any,
) -> RiskState:
    """A play-phase position. Unlisted territories are dealt round-robin (P1, P2, …) in table order.

    `owner`/`armies` override single territories; every other territory gets `default_armies`.
    The deck defaults to every card not in a hand or the discard, in table order (top first).
    """
    players = list(PLAYERS[:n])
    if options.get("mode") == "two_player":
        players = list(PLAYERS[:2])
    own = {t: players[k % len(players)] for k, t in enumerate(IDS)}
    own.update(owner or {})
    arm = {t: default_armies for t in IDS}
    arm.update(armies or {})
    hand = {p: [] for p in players}
    hand.update(hands or {})
    held = {c for cards in hand.values() for c in cards} | set(discard or [])
    if deck is None:
        deck = [c for c in [*IDS, *BOARD.wild_cards] if c not in held]
    base = new(len(players), seed=seed, **options)
    status = {p: "eliminated" for p in eliminated} | {p: "resigned" for p in resigned}
    state = replace(base, players=[replace(p, status=status.get(p.id, "active")) for p in base.players],
                    phase=phase,
                    turn=turn,
                    current=current,
                    first_player=players[0],
                    owner=own,
                    armies=arm,
                    setup_left={},
                    hands=hand,
                    deck=list(deck),
                    discard=list(discard or []),
                    sets_traded=sets_traded,
                    missions=dict(missions or {}),
                    pool=pool,
                    conquered_this_turn=conquered,
                    card_bonus_taken=card_bonus_taken,
                    interrupt=interrupt)
    return from_json(RiskState, to_json(state))


def action(kind: str, player: int, **fields: Any) -> Action:
    return RULESET.parse_action({"type": kind, "player": player, **fields})


def play(
    state: RiskState, act: Action | tuple[Any, ...], dice: list[int] | None = None
) -> tuple[RiskState, list[Event]]:
    """Apply an action (an Action or a tuple (kind, player, {fields})), checking the input is not mutated."""
    return applied(RULESET, state, act, dice)


def rejects(state: RiskState, act: Action | tuple[Any, ...], code: str, dice: list[int] | None = None) -> RuleError:
    """Assert that the action is refused with `code` and that the state is unchanged."""
    return refused(RULESET, state, act, code, dice)


def of_type(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]


def on_board(s: RiskState, pid: int) -> int:
    """Armies a player (or Neutral) has on the board."""
    return sum(s.armies[t] for t, o in s.owner.items() if o == pid)


def drive(s: RiskState, stop: Callable[[RiskState], bool]) -> tuple[RiskState, list[Event], list[int]]:
    """Play the skip-mode actions for whoever must decide until `stop`; returns the actors in order."""
    events: list[Event] = []
    actors: list[int] = []
    while not stop(s):
        who = RULESET.pending(s)[0].player
        s, evs = play(s, RULESET.timeout_action(s, who))
        events += evs
        actors.append(who)
    return s, events, actors
