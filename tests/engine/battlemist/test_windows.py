"""Cards and spells in their windows: the shared checks and payments (engine/games/battlemist/windows.py)."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.core.models import copier
from engine.games.battlemist import windows
from engine.games.battlemist.pieces import Effects, Stars
from engine.games.battlemist.state import BMState
from tests.engine.battlemist.helpers import position, snapshot

copy = copier(BMState)


def code(err: pytest.ExceptionInfo[RuleError]) -> str:
    return err.value.code


@pytest.mark.rule("BM-ACT-1")
def test_a_card_is_played_only_in_its_window_and_goes_to_the_discards() -> None:
    before = position(hands={1: ["AC02", "AC05"]})
    original = snapshot(before)
    state = copy(before)
    card, events = windows.play(state, 1, "AC02", "movestart")
    assert card.name == "Forced March" and state.hands[1] == ["AC05"] and state.discard == ["AC02"]
    assert [(e.type, e.card) for e in events] == [("card_played", "AC02")]
    assert snapshot(before) == original  # the given position is untouched
    with pytest.raises(RuleError) as err:
        windows.play(copy(before), 1, "AC05", "movestart")
    assert code(err) == "BM_E_CARD_WINDOW" and "W-RALLY" in err.value.message


def test_a_card_not_held_is_refused_before_its_window() -> None:
    with pytest.raises(RuleError) as err:
        windows.play(position(hands={1: []}), 1, "AC05", "movestart")
    assert code(err) == "BM_E_CARD_NOT_IN_HAND" and "Rally the Troops (AC05)" in err.value.message


@pytest.mark.rule("BM-ACT-5")
def test_a_card_may_be_discarded_at_any_time() -> None:
    state = copy(position(hands={1: ["AC04"]}))
    assert [e.type for e in windows.discard(state, 1, "AC04")] == ["card_discarded"]
    assert state.hands[1] == [] and state.discard == ["AC04"]
    with pytest.raises(RuleError) as err:
        windows.discard(state, 1, "AC04")
    assert code(err) == "BM_E_CARD_NOT_IN_HAND"


@pytest.mark.rule("BM-MAG-1", "BM-MAG-2", "BM-STAR-3")
def test_a_spell_spends_unspent_stars_for_good() -> None:
    before = position(stars={1: Stars(owned=3, spent=1), 2: Stars(owned=1)})
    state = copy(before)
    spell, events = windows.cast(state, 1, "SP05", "battlestart", "r1:battle:N05")
    assert spell.name == "Fireball" and state.stars[1] == Stars(owned=3, spent=3) and state.stars[1].power == 0
    assert [(e.type, e.spell, e.cost) for e in events] == [("spell_cast", "SP05", 2)]
    assert before.stars[1] == Stars(owned=3, spent=1)
    with pytest.raises(RuleError) as err:
        windows.cast(state, 1, "SP02", "movestart", "r1:move:1")
    assert code(err) == "BM_E_NOT_ENOUGH_STAR_POWER" and "1 star power; you have 0" in err.value.message


@pytest.mark.rule("BM-SPL-1")
def test_different_spells_in_one_window_but_each_once() -> None:
    state = copy(position(stars={1: Stars(owned=6), 2: Stars(owned=1)}))
    windows.cast(state, 1, "SP05", "battlestart", "r1:battle:N05")
    windows.cast(state, 1, "SP07", "battlestart", "r1:battle:N05")
    with pytest.raises(RuleError) as err:
        windows.cast(state, 1, "SP05", "battlestart", "r1:battle:N05")
    assert code(err) == "BM_E_SPELL_ALREADY_CAST"
    windows.cast(state, 1, "SP06", "battlestart", "r1:battle:N06")  # another battle is another window
    assert state.stars[1].spent == 6 and state.cast[1] == ["r1:battle:N05:SP05", "r1:battle:N05:SP07",
                                                                "r1:battle:N06:SP06"]


@pytest.mark.rule("BM-SPL-2")
def test_a_spell_is_announced_with_its_cost() -> None:
    state = copy(position(stars={1: Stars(owned=2), 2: Stars(owned=1)}))
    _, events = windows.cast(state, 1, "SP08", "individual", "r1:turn:1")
    assert events[0].private_to is None and events[0].spell == "SP08"  # that Far Sight is cast is public


@pytest.mark.rule("BM-MAG-3")
def test_mana_storm_raises_costs_or_forbids_casting() -> None:
    state = copy(position(stars={1: Stars(owned=2), 2: Stars(owned=1)}, effects=Effects(mana_storm="costly")))
    _, events = windows.cast(state, 1, "SP04", "rally", "r1:battle:N05")
    assert events[0].cost == 2 and state.stars[1].power == 0
    forbidden = position(stars={1: Stars(owned=5), 2: Stars(owned=1)}, effects=Effects(mana_storm="none"))
    with pytest.raises(RuleError) as err:
        windows.cast(copy(forbidden), 1, "SP04", "rally", "r1:battle:N05")
    assert code(err) == "BM_E_SPELLS_FORBIDDEN"


def test_spell_checks_run_in_the_validation_order() -> None:
    """BM-VAL-0: existence, then window, then once per window, then cost."""
    poor = position(stars={1: Stars(owned=1, spent=1), 2: Stars(owned=1)}, cast={1: ["r1:battle:N05:SP05"]})
    for spell, window, expected in [("SP99", "battlestart", "BM_E_UNKNOWN_SPELL"),
                                    ("SP05", "rally", "BM_E_SPELL_WINDOW"),
                                    ("SP05", "battlestart", "BM_E_SPELL_ALREADY_CAST"),
                                    ("SP07", "battlestart", "BM_E_NOT_ENOUGH_STAR_POWER")]:
        with pytest.raises(RuleError) as err:
            windows.cast(copy(poor), 1, spell, window, "r1:battle:N05")
        assert code(err) == expected, spell
