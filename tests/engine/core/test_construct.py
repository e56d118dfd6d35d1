"""Trusted construction builds the same models as validation; the inlined dice roll the same numbers."""

from __future__ import annotations

from engine.core.construct import copy_model, trusted
from engine.core.models import Decision
from engine.core.rng import Rng, RngState
from engine.games.risk import events as E
from engine.games.risk.state import Interrupt, RiskPlayer


def same(a: object, b: object) -> None:
    assert a == b
    assert repr(a) == repr(b)
    assert a.model_fields_set == b.model_fields_set  # type: ignore[attr-defined]
    assert a.model_dump_json() == b.model_dump_json()  # type: ignore[attr-defined]


def test_trusted_equals_validated() -> None:
    fields = dict(player=1, source="alaska", target="kamchatka", defender=2, attack_dice=[6, 5, 3],
                  defence_dice=[4, 2], attacker_losses=0, defender_losses=2)
    same(trusted(E.Battle, **fields), E.Battle(**fields))
    planned = dict(private_to=3, territory="peru", count=2)
    same(trusted(E.Planned, **planned), E.Planned(**planned))
    same(trusted(Interrupt, kind="occupy", source="a", target="b", dice=3, min=3, max=5, defender=2),
         Interrupt(kind="occupy", source="a", target="b", dice=3, min=3, max=5, defender=2))
    same(trusted(Decision, player=1, kind="attack"), Decision(player=1, kind="attack"))
    same(trusted(RngState, state=7, forced=[1]), RngState(state=7, forced=[1]))


def test_trusted_calls_default_factories_per_instance() -> None:
    first, second = trusted(E.GameWon, player=1, reason="mission"), trusted(E.GameWon, player=1, reason="mission")
    same(first, E.GameWon(player=1, reason="mission"))
    assert first.missions is not second.missions


def test_copy_model_equals_model_copy() -> None:
    player = RiskPlayer(id=1, name="Ada", colour="red")
    same(copy_model(player, status="eliminated"), player.model_copy(update={"status": "eliminated"}))
    assert player.status == "active"


def test_dice_draw_what_die_draws() -> None:
    for state in (RngState(state=0), RngState(state=2**64 - 1), RngState(state=12345, forced=[6, 1])):
        one_by_one, at_once = Rng(state), Rng(state)
        for n in (1, 2, 3, 5, 4):
            assert at_once.dice(n) == [one_by_one.die() for _ in range(n)]
        assert at_once.export() == one_by_one.export()
