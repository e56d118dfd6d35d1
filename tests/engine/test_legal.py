"""Legality has one source: in positions that random legal games reach, every button the rules offer is accepted,
and the values autocomplete offers for a field are exactly those `apply` accepts there, the rest of the action
being legal (sound: nothing refused is offered; complete: nothing accepted is left out)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Action, Event, GameState, Seat, to_json
from engine.core.play import play_out
from engine.core.ruleset import Ruleset
from engine.games import get
from engine.games.risk import RiskOptions
from engine.games.risk.mapdata import classic
from engine.games.wizards_quest import RULESET as WQ
from engine.games.wizards_quest.state import WQOptions

RISK_IDS = list(classic().ids)
WQ_IDS = list(WQ.data.map.ids)
EVERY = 3
"""Check every third position of a game (the checks try each candidate value against the rules)."""

Fields = dict[str, dict[str, Any]]
"""Action type → field → how the field is tried: its candidates and the fields it fixes or frees."""


def accepted(ruleset: Ruleset, state: GameState, data: dict[str, Any]) -> bool:
    try:
        ruleset.apply(state, ruleset.parse_action(data))
    except RuleError:
        return False
    return True


def some_accepted(ruleset: Ruleset, state: GameState, data: dict[str, Any], free: str,
                  candidates: Iterable[Any]) -> bool:
    """Some value of the field `free` makes the action legal."""
    return any(accepted(ruleset, state, data | {free: x}) for x in candidates)


def numbers(_state: GameState, _player: int) -> list[int]:
    return list(range(0, 100))


RISK: Fields = {
    "claim": {"territory": {"candidates": RISK_IDS}},
    "place": {"territory": {"candidates": RISK_IDS, "fixed": {"count": 1}}},
    "place_neutral": {"territory": {"candidates": RISK_IDS}},
    "attack": {"source": {"candidates": RISK_IDS, "fixed": {"dice": None, "until": "once", "keep": 1},
                          "free": ("target", RISK_IDS)},
               "target": {"candidates": RISK_IDS, "fixed": {"dice": None, "until": "once", "keep": 1}}},
    "fortify": {"source": {"candidates": RISK_IDS, "fixed": {"count": 1}, "free": ("target", RISK_IDS)},
                "target": {"candidates": RISK_IDS, "fixed": {"count": 1}}},
    "move": {"count": {"candidates": numbers}},
    "defend": {"dice": {"candidates": numbers, "fixed": {"always": False}}},
}
WQ_FIELDS: Fields = {
    "castle": {"castle": {"candidates": WQ_IDS}},
    "claim": {"territory": {"candidates": WQ_IDS}},
    "buy": {"location": {"candidates": WQ_IDS}},
    "attack": {"source": {"candidates": WQ_IDS, "free": ("target", WQ_IDS)},
               "target": {"candidates": WQ_IDS}},
    "free": {"source": {"candidates": WQ_IDS}},
    "aid": {"source": {"candidates": WQ_IDS, "fixed": {"count": 1}}},
    "mage": {"territory": {"candidates": WQ_IDS}},
}
FIELDS = {"risk": RISK, "wizards_quest": WQ_FIELDS}


def check_controls(ruleset: Ruleset, state: GameState, recent: list[Event]) -> int:
    """Every control offered to a seat that must decide is an action the rules accept from it."""
    checked = 0
    for player in dict.fromkeys(d.player for d in ruleset.pending(state)):
        for control in ruleset.controls(state, player, recent):
            for shown in control.options or (control,):
                assert accepted(ruleset, state, shown.action | {"player": player}), (shown, state.seq)
                checked += 1
    return checked


def check_choices(ruleset: Ruleset, fields: Fields, state: GameState, action: Action) -> int:
    """Each field of the action a policy took: the offered values are exactly the accepted ones."""
    data = to_json(action)
    checked = 0
    for name, how in fields.get(data["type"], {}).items():
        base = data | how.get("fixed", {})
        context = {k: v for k, v in base.items() if k not in (name, "type", "player")}
        offered = [c.value for c in ruleset.choices(state, action.player, f"{data['type']}.{name}", **context)]
        candidates = how["candidates"]
        candidates = candidates(state, action.player) if callable(candidates) else candidates
        free = how.get("free")
        legal = {x for x in candidates
                 if (some_accepted(ruleset, state, base | {name: x}, free[0], free[1]) if free
                     else accepted(ruleset, state, base | {name: x}))}
        assert offered == [x for x in candidates if x in offered], f"{name}: offered in the candidates' order"
        assert set(offered) == legal, (data["type"], name, state.seq)
        checked += 1
    return checked


def play_and_check(game: str, options: Any, players: int, seed: int) -> tuple[int, int]:
    ruleset = get(game)
    seats = [Seat(id=100 + k, name=f"P{k}") for k in range(players)]
    state, _ = ruleset.new_game(seats, options, seed)
    policies = {s.id: ruleset.policy("random" if k % 2 else "baseline") for k, s in enumerate(seats)}
    counts = [0, 0]
    recent: list[Event] = []

    def step(before: GameState, action: Action, after: GameState, events: list[Event]) -> None:
        nonlocal recent
        if before.seq % EVERY == 0:
            counts[0] += check_controls(ruleset, before, recent)
            counts[1] += check_choices(ruleset, FIELDS[game], before, action)
        recent = events

    play_out(ruleset, state, policies, seed, max_actions=600, on_step=step)
    return counts[0], counts[1]


@pytest.mark.parametrize(("options", "players", "seed"), [
    (RiskOptions(), 3, 1),
    (RiskOptions(setup="random_deal", defender_dice="choose", fortify_mode="connected"), 4, 2),
    (RiskOptions(mode="two_player", defender_dice="choose"), 2, 3),
    (RiskOptions(mode="secret_mission", setup_placement="bulk_sequential"), 3, 4),
])
def test_risk_offers_only_what_the_rules_accept(options: RiskOptions, players: int, seed: int) -> None:
    controls, choices = play_and_check("risk", options, players, seed)
    assert controls > 10 and choices > 10, (controls, choices)


@pytest.mark.parametrize(("options", "players", "seed"), [
    (WQOptions(), 3, 1), (WQOptions(decoy=True, turn_order="fixed"), 4, 2), (WQOptions(), 2, 3),
])
def test_wizards_quest_offers_only_what_the_rules_accept(options: WQOptions, players: int, seed: int) -> None:
    controls, choices = play_and_check("wizards_quest", options, players, seed)
    assert controls > 10 and choices > 10, (controls, choices)


def test_the_trade_menu_offers_the_cards_of_a_legal_set_only_while_a_trade_is_legal() -> None:
    risk = get("risk")
    seats = [Seat(id=100 + k, name=f"P{k}") for k in range(3)]
    state, _ = risk.new_game(seats, RiskOptions(setup="random_deal"), 5)
    policies = {s.id: risk.policy("baseline") for s in seats}
    tried = 0

    def step(before: GameState, action: Action, after: GameState, events: list[Event]) -> None:
        nonlocal tried
        for seat in seats:
            hand = before.hands.get(seat.id, [])  # type: ignore[attr-defined]
            legal_sets = [c for c in itertools.combinations(hand, 3)
                          if accepted(risk, before, {"type": "trade", "player": seat.id, "cards": list(c)})]
            offered = [c.value for c in risk.choices(before, seat.id, "trade.cards")]
            assert set(offered) == {card for cards in legal_sets for card in cards}, before.seq
            tried += bool(offered)

    play_out(risk, state, policies, 5, max_actions=400, on_step=step)
    assert tried > 3
