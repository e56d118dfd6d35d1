"""The core's JSON edge (from_json, to_json, json_text) and the state copier the rules use at every action."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic import ValidationError

from engine.core.errors import first_problem
from engine.core.models import Seat, copier, from_json, json_text, to_json
from engine.games.risk import RULESET as RISK
from engine.games.risk import actions as A
from engine.games.risk.state import Interrupt, Phase, RiskOptions, RiskState


def started() -> RiskState:
    seats = [Seat(id=k, name=f"P{k}") for k in (1, 2, 3)]
    state, _ = RISK.new_game(seats, RiskOptions(), 5)
    assert isinstance(state, RiskState)
    return state


def test_a_copy_is_equal_and_shallow() -> None:
    s = started()
    n = copier(RiskState)(s)
    assert n == s and n is not s
    assert n.owner is s.owner and n.players is s.players, "a shallow copy: the rules copy what they change"
    n.turn = 7
    assert s.turn == 0


def test_json_keeps_the_declaration_order_and_round_trips() -> None:
    s = started()
    data = to_json(s)
    assert list(data)[:4] == ["schema_version", "game", "rng", "seq"], "the base fields come first"
    assert list(data)[4:6] == ["options", "players"]
    assert all(isinstance(k, str) for k in data["setup_left"]), "int keys are written as JSON strings"
    back = from_json(RiskState, data)
    assert back == s and isinstance(back.phase, Phase) and set(back.setup_left) == set(s.setup_left)
    assert json_text(back) == json_text(s)


def problem(call: Callable[[], object]) -> tuple[str, str]:
    with pytest.raises(ValidationError) as caught:
        call()
    return first_problem(caught.value)


def test_validation_at_the_edge_words_problems_as_the_formats_do() -> None:
    assert problem(lambda: RISK.parse_action({"type": "end_turn", "player": 1, "extra": 2})) == \
        ("end_turn.extra", "Extra inputs are not permitted")
    assert problem(lambda: from_json(RiskState, {**to_json(started()), "interrupt": 3})) == \
        ("interrupt", "Input should be a valid dictionary or instance of Interrupt")
    with pytest.raises(ValidationError, match="greater than or equal to 0"):
        from_json(RiskState, {**to_json(started()), "rng": {"state": -1}})
    with pytest.raises(ValidationError, match="kind"):
        from_json(Interrupt, {"kind": "nonsense"})
    assert RISK.parse_action({"type": "end_turn", "player": 1}) == A.EndTurn(player=1)
