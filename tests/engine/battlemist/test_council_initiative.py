"""Initiative (BM-INI-1 … 3, BM-A-11) and the dice (BM-DIE-1, DIE-3, DIE-4)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import orders as O
from engine.core.errors import RuleError
from engine.core.rng import Rng, RngState
from engine.games.battlemist import initiative as I
from engine.games.battlemist.dice import Rolled, d10, rank_by_rolls
from engine.games.battlemist.pieces import CityMark
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.council_tools import of, run, step
from tests.engine.battlemist.helpers import position, snapshot

FOUR = ("DAQ", "ORC", "DWA", "KHR")
LARGE = {"N05": CityMark(kind="large_city", since=0), "N06": CityMark(kind="large_city", since=0),
         "N07": CityMark(kind="city", since=0)}
HOLDERS = {"N05": {2: {"infantry": 1}}, "N06": {2: {"infantry": 1}}, "N07": {3: {"infantry": 1}},
           "N08": {4: {"infantry": 1}}}


def rolled(dice: list[int], **fields: object) -> tuple[BMState, list]:
    state = position(FOUR, phase=Phase.ECONSTART, dice=dice, **fields)  # type: ignore[arg-type]
    return step(state, I.begin_initiative)


def refused(state: BMState, action: I.InitiativeMod) -> RuleError:
    with pytest.raises(RuleError) as info:
        run(state, I.choose_initiative, action)
    return info.value


@pytest.mark.rule("BM-INI-1", "BM-INI-2")
def test_everyone_rolls_and_the_order_is_descending() -> None:
    state, events = rolled([3, 10, 7, 1])
    assert [(e.player, e.dice, e.purpose) for e in of(events, Rolled)] == [
        (1, [3], "initiative"), (2, [10], "initiative"), (3, [7], "initiative"), (4, [1], "initiative")]
    assert I.initiative_done(state) and state.phase is Phase.INITIATIVE
    assert state.order == [2, 3, 1, 4] and state.active == 2
    assert of(events, I.InitiativeSet)[0].order == [2, 3, 1, 4]


@pytest.mark.rule("BM-INI-1", "BM-SIM-3", "BM-SIM-4")
def test_large_city_owners_choose_privately_and_simultaneously() -> None:
    state, events = rolled([3, 4, 7, 5], troops=HOLDERS, cities=LARGE)
    assert not I.initiative_done(state) and state.initiative is not None
    assert state.initiative.large == {2: 2}
    assert [(d.player, d.kind, d.detail) for d in I.initiative_decisions(state)] == [
        (2, "initiative", {"roll": 4, "k": 2})]
    assert refused(state, I.InitiativeMod(player=2, change=1)).code == "BM_E_INITIATIVE_MOD"
    err = refused(state, I.InitiativeMod(player=3, change=1))
    assert err.code == "BM_E_INITIATIVE_MOD"
    assert err.message == "You may add or subtract exactly 0 (your large cities), or leave the roll."
    draft, events = run(state, I.choose_initiative, I.InitiativeMod(player=2, change=-2, lock=False))
    assert not events and draft.order == state.order and draft.initiative is not None
    assert "orders" not in O.redact(draft.initiative.choices, 3)
    assert O.redact(draft.initiative.choices, 2)["orders"] == -2
    hidden = I.seen_by(draft.initiative, 3)
    assert hidden is not None and hidden.choices.drafts == {} and hidden.rolls == draft.initiative.rolls
    shown = I.seen_by(draft.initiative, 2)
    assert shown is not None and shown.choices.drafts == {2: -2} and I.seen_by(None, 2) is None
    before = snapshot(draft)
    done, events = run(draft, I.choose_initiative, I.InitiativeMod(player=2, change=2))
    assert snapshot(draft) == before
    assert done.order == [3, 2, 4, 1] and done.active == 3 and I.initiative_done(done)
    assert of(events, I.InitiativeSet)[0].modifiers == {2: 2}
    down, _ = run(state, I.choose_initiative, I.InitiativeMod(player=2, change=-2))
    assert down.order == [3, 4, 1, 2]


def test_initiative_locked_and_wrong_phase() -> None:
    troops = {**HOLDERS, "N07": {3: {"infantry": 1}}}
    cities = {**LARGE, "N07": CityMark(kind="large_city", since=0)}
    state, _ = rolled([3, 4, 7, 5], troops=troops, cities=cities)
    state, _ = run(state, I.choose_initiative, I.InitiativeMod(player=2, change=0))
    err = refused(state, I.InitiativeMod(player=2, change=2))
    assert err.code == "BM_E_LOCKED"
    assert [d.player for d in I.initiative_decisions(state)] == [3]
    assert I.timeout_initiative(state, 3) == I.InitiativeMod(player=3, change=0)
    state, _ = run(state, I.HANDLERS[I.InitiativeMod], I.timeout_initiative(state, 3))
    assert state.order == [3, 4, 2, 1]
    assert refused(state, I.InitiativeMod(player=3, change=1)).code == "BM_E_WRONG_PHASE"


@pytest.mark.rule("BM-INI-3", "BM-A-11")
def test_ties_re_roll_unmodified_among_the_tied() -> None:
    state, events = rolled([6, 4, 8, 5, 2, 9], troops=HOLDERS, cities=LARGE)
    state, events = run(state, I.choose_initiative, I.InitiativeMod(player=2, change=2))
    ties = [(e.player, e.dice) for e in of(events, Rolled) if e.purpose == "initiative_tie"]
    assert ties == [(1, [2]), (2, [9])]
    assert state.order == [3, 2, 1, 4]
    again, events = rolled([5, 5, 5, 1, 4, 4, 2, 7, 3])
    ties = [(e.player, e.dice[0]) for e in of(events, Rolled) if e.purpose == "initiative_tie"]
    assert ties == [(1, 4), (2, 4), (3, 2), (1, 7), (2, 3)]
    assert again.order == [1, 2, 3, 4]


@pytest.mark.rule("BM-DIE-1")
def test_every_die_comes_from_the_games_seeded_rng() -> None:
    one = position(FOUR, phase=Phase.ECONSTART, seed=42)
    a, _ = step(one, I.begin_initiative)
    b, _ = step(one, I.begin_initiative)
    assert a.rng == b.rng and a.order == b.order and a.rng != one.rng
    orders = {tuple(step(position(FOUR, phase=Phase.ECONSTART, seed=s), I.begin_initiative)[0].order)
              for s in range(10)}
    assert len(orders) > 1


@pytest.mark.rule("BM-DIE-3")
def test_a_d10_reads_one_to_ten() -> None:
    rng = Rng(RngState.from_seed(3))
    faces = Counter(d10(rng) for _ in range(2000))
    assert set(faces) == set(range(1, 11))


@pytest.mark.rule("BM-DIE-4")
def test_every_roll_is_an_event_with_its_purpose() -> None:
    rng = Rng(RngState(state=1, forced=[4, 4, 4, 9, 2, 2, 1, 3]))
    order, events = rank_by_rolls(rng, [1, 2, 3], "vote_order")
    assert order == [1, 3, 2] and not rng.forced
    assert [(e.player, e.dice[0]) for e in events] == [(1, 4), (2, 4), (3, 4), (1, 9), (2, 2), (3, 2), (2, 1),
                                                       (3, 3)]
    assert all(isinstance(e, Rolled) and e.purpose == "vote_order" and e.private_to is None for e in events)


def test_a_player_who_leaves_drops_out_of_initiative() -> None:
    state, _ = rolled([3, 4, 7, 5], troops=HOLDERS, cities=LARGE)
    gone, events = run(state, lambda s, a, rng: I.leave_initiative(s, 2, rng), I.InitiativeMod(player=2, change=0))
    assert I.initiative_done(gone) and gone.order == [3, 4, 1]
    assert of(events, I.InitiativeSet)[0].rolls == {1: 3, 3: 7, 4: 5}
    other, events = run(state, lambda s, a, rng: I.leave_initiative(s, 1, rng), I.InitiativeMod(player=1, change=0))
    assert not events and other.initiative is not None and 1 not in other.initiative.rolls
    assert I.leave_initiative(gone, 3, Rng(gone.rng)) == []


@pytest.mark.rule("BM-INI-1", "BM-SIM-5", "BM-DIG-19")
def test_an_unlocked_initiative_choice_stands_at_the_deadline() -> None:
    state, _ = rolled([3, 4, 7, 5], troops=HOLDERS, cities=LARGE)
    assert I.timeout_initiative(state, 2) == I.InitiativeMod(player=2, change=0)
    draft, _ = run(state, I.choose_initiative, I.InitiativeMod(player=2, change=2, lock=False))
    assert I.timeout_initiative(draft, 2) == I.InitiativeMod(player=2, change=2)
    done, _ = run(draft, I.choose_initiative, I.timeout_initiative(draft, 2))
    assert done.order == [3, 2, 4, 1]
