"""The core's turn machinery: leaving the game through `Seating.admit`, and the phase gate."""

from __future__ import annotations

from collections.abc import Collection

import pytest

from engine.core.errors import RuleError
from engine.core.models import Action
from engine.core.turns import Gate, Remove, Resign, Seating
from engine.games.risk import RULESET as RISK
from engine.games.wizards_quest import RULESET as WQ
from tests.engine.core.test_players import Table, table


def over_when_nobody_plays(s: Table) -> RuleError | None:
    return None if s.active_ids() else RuleError("E_OVER_HERE")


SEATING: Seating[Table] = Seating(over_when_nobody_plays, not_seated="E_WHO", out="E_GONE")


def admitted(s: Table, action: Action) -> tuple[bool, list[tuple[int, int | None]]]:
    left: list[tuple[int, int | None]] = []
    return SEATING.admit(s, action, lambda pid, by: left.append((pid, by))), left


def code(s: Table, action: Action) -> str:
    with pytest.raises(RuleError) as err:
        admitted(s, action)
    return err.value.code


def test_resign_and_remove_reach_the_leave_hook() -> None:
    s = table("active", "active", "active")
    assert admitted(s, Resign(player=20)) == (True, [(20, None)])
    assert admitted(s, Remove(player=999, target=30)) == (True, [(30, 999)])  # the host need not be seated
    assert admitted(s, Action(type="move", player=10)) == (False, [])


def test_the_checks_and_their_order() -> None:
    s = table("active", "eliminated", "resigned")
    assert code(s, Remove(player=10, target=77)) == "E_NOT_PLAYER_TARGET"
    assert code(s, Remove(player=10, target=20)) == "E_NOT_PLAYER_TARGET"  # only a seat still playing
    assert code(s, Resign(player=77)) == "E_WHO"
    assert code(s, Resign(player=20)) == "E_GONE"
    assert code(s, Action(type="move", player=30)) == "E_GONE"
    nobody = table("eliminated", "resigned")
    assert code(nobody, Remove(player=10, target=77)) == "E_OVER_HERE"  # the game's end comes first
    assert code(nobody, Resign(player=77)) == "E_OVER_HERE"


def test_the_default_codes() -> None:
    plain: Seating[Table] = Seating(over_when_nobody_plays)
    s = table("active", "eliminated")
    for action, expected in ((Resign(player=77), "E_NOT_PLAYER"), (Resign(player=20), "E_ELIMINATED")):
        with pytest.raises(RuleError) as err:
            plain.admit(s, action, lambda pid, by: None)
        assert err.value.code == expected


def test_both_games_take_the_core_actions() -> None:
    for ruleset in (RISK, WQ):
        assert type(ruleset.parse_action({"type": "resign", "player": 1})) is Resign
        assert type(ruleset.parse_action({"type": "remove", "player": 1, "target": 2})) is Remove


def wrong(phase: str, kind: str, allowed: Collection[str]) -> RuleError:
    return RuleError("E_WRONG", phase=phase, kind=kind, allowed=sorted(allowed))


GATE: Gate[str] = Gate({"build": ("buy", "place"), "fight": ("attack",)}, wrong, {"trade": "E_NO_TRADE"})


def test_the_gate_lets_the_phase_actions_through() -> None:
    GATE.check("build", "buy")
    GATE.check("fight", "attack")
    GATE.check("fight", "trade", allowed=("trade",))  # an option can replace the table's entry


def test_the_gate_refuses_with_the_games_errors() -> None:
    with pytest.raises(RuleError) as err:
        GATE.check("fight", "buy")
    assert (err.value.code, err.value.params) == ("E_WRONG", {"phase": "fight", "kind": "buy", "allowed": ["attack"]})
    with pytest.raises(RuleError) as err:
        GATE.check("build", "trade")
    assert err.value.code == "E_NO_TRADE"
    with pytest.raises(RuleError) as err:
        GATE.check("build", "place", allowed=("buy",))
    assert err.value.params["allowed"] == ["buy"]
