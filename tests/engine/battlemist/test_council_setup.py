"""Setup: races (BM-SET-1 … 5), decks (SET-6, SET-7), Stars (SET-9), stock (SET-10), deployment (SET-11) and the
void homelands of absent races (BM-BRD-1)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.errors import RuleError
from engine.core.models import Seat, from_json, to_json
from engine.games.battlemist import council as C
from engine.games.battlemist import initiative as I
from engine.games.battlemist import setup as S
from engine.games.battlemist.board import neighbours
from engine.games.battlemist.pieces import CityMark
from engine.games.battlemist.state import BMOptions, BMState, Phase
from tests.engine.battlemist.council_tools import of, run, seats, step
from tests.engine.battlemist.helpers import DATA, position, snapshot

DRAFT = BMOptions(races="draft")


def fits(races: list[str], n: int) -> bool:
    """Whether some order of the BM-SET-1 columns gives every seat a race its column allows."""
    columns = DATA.rules.seating[str(n)]

    def place(k: int, free: list[list[str]]) -> bool:
        if k == len(races):
            return True
        return any(races[k] in col and place(k + 1, free[:i] + free[i + 1:]) for i, col in enumerate(free))

    return len(set(races)) == n and place(0, list(columns))


@pytest.mark.rule("BM-SET-1")
def test_allowed_races_by_player_count() -> None:
    assert S.allowed(DATA, 2, 0) == ["DRK", "ORC"] and S.allowed(DATA, 2, 1) == ["ELF", "DAQ"]
    assert S.allowed(DATA, 4, 2) == ["DWA"] and S.allowed(DATA, 4, 3) == ["KHR"]
    assert S.allowed(DATA, 5, 0) == ["DRK"] and S.allowed(DATA, 5, 4) == ["DWA", "KHR"]
    assert len(S.allowed(DATA, 6, 5)) == 6
    for n in range(2, 7):
        for seed in range(30):
            state, _ = S.new_game(DATA, seats(n), BMOptions(), seed)
            races = [p.race for p in state.players]
            assert fits(races, n), (n, seed, races)
    state, _ = S.new_game(DATA, seats(4), BMOptions(), 0)
    assert {"DWA", "KHR"} <= {p.race for p in state.players}


@pytest.mark.rule("BM-SET-2")
def test_races_are_random_by_default() -> None:
    assert BMOptions().races == "random"
    seen = {tuple(p.race for p in S.new_game(DATA, seats(6), BMOptions(), seed)[0].players) for seed in range(10)}
    assert len(seen) > 1
    state, _ = S.new_game(DATA, seats(3), BMOptions(), 4)
    assert all(p.race is not None and p.colour == DATA.rules.race[p.race].colour for p in state.players)
    again, _ = S.new_game(DATA, seats(3), BMOptions(), 4)
    assert [p.race for p in again.players] == [p.race for p in state.players]


@pytest.mark.rule("BM-SET-3")
def test_two_to_six_players_one_race_each() -> None:
    for n in (1, 7):
        with pytest.raises(RuleError) as info:
            S.new_game(DATA, seats(n), BMOptions(), 1)
        assert info.value.code == "E_PLAYER_COUNT"
    with pytest.raises(RuleError) as info:
        S.new_game(DATA, [Seat(id=1, name="A"), Seat(id=1, name="B")], BMOptions(), 1)
    assert info.value.code == "E_ALREADY_JOINED"
    for n in range(2, 7):
        state, _ = S.new_game(DATA, seats(n), BMOptions(), n)
        assert len({p.race for p in state.players}) == n


@pytest.mark.rule("BM-SET-4")
def test_every_race_ability_is_announced() -> None:
    _, events = S.new_game(DATA, seats(3), BMOptions(), 2)
    [announced] = of(events, S.RacesAnnounced)
    assert [c.player for c in announced.races] == [1, 2, 3]
    for card in announced.races:
        assert card.abilities == DATA.rules.race[card.race].abilities and len(card.abilities) == 2


@pytest.mark.rule("BM-SET-5")
def test_draft_in_join_order() -> None:
    state, events = S.new_game(DATA, seats(3), DRAFT, 1)
    assert state.phase is Phase.DRAFT and not events and all(p.race is None for p in state.players)
    assert S.setup_decisions(state)[0].player == 1
    assert S.setup_decisions(state)[0].detail == {"races": ["DRK", "ORC"]}
    with pytest.raises(RuleError) as info:
        run(state, S.pick_race, S.PickRace(player=2, race="ELF"))
    assert info.value.code == "BM_E_NOT_YOUR_TURN"
    with pytest.raises(RuleError) as info:
        run(state, S.pick_race, S.PickRace(player=1, race="ELF"))
    assert info.value.code == "BM_E_RACE_NOT_ALLOWED"
    assert info.value.message == "ELF is not available to seat 1 with 3 players."
    before = snapshot(state)
    state2, events = run(state, S.pick_race, S.PickRace(player=1, race="ORC"))
    assert snapshot(state) == before
    assert state2.players[0].race == "ORC" and state2.players[0].colour == "green"
    assert of(events, S.RacePicked)[0].race == "ORC"
    state3, _ = run(state2, S.pick_race, S.PickRace(player=2, race="DAQ"))
    assert S.free_races(state3, 3) == ["DWA", "KHR"]
    state4, events = run(state3, S.pick_race, S.PickRace(player=3, race="KHR"))
    assert state4.phase is Phase.COUNCIL and state4.round == 0 and of(events, S.SetupFinished)
    with pytest.raises(RuleError) as info:
        run(state4, S.pick_race, S.PickRace(player=3, race="DWA"))
    assert info.value.code == "BM_E_WRONG_PHASE"


@pytest.mark.rule("BM-SET-5")
def test_draft_race_taken_and_check_order() -> None:
    state, _ = S.new_game(DATA, seats(6), DRAFT, 1)
    state, _ = run(state, S.pick_race, S.PickRace(player=1, race="ELF"))
    with pytest.raises(RuleError) as info:
        run(state, S.pick_race, S.PickRace(player=2, race="ELF"))
    assert info.value.code == "BM_E_RACE_NOT_ALLOWED"
    with pytest.raises(RuleError) as info:
        run(state, S.pick_race, S.PickRace(player=3, race="ELF"))
    assert info.value.code == "BM_E_NOT_YOUR_TURN"


@pytest.mark.rule("BM-SET-5")
def test_draft_timeout_picks_a_random_allowed_race() -> None:
    picks = set()
    for seed in range(12):
        state, _ = S.new_game(DATA, seats(5), DRAFT, seed)
        for pid in range(1, 6):
            action = S.timeout_setup(state, pid)
            assert isinstance(action, S.PickRace) and action.race in S.free_races(state, pid)
            assert S.timeout_setup(state, pid) == action
            if pid == 5:
                picks.add(action.race)
            state, _ = run(state, S.pick_race, action)
        assert state.phase is Phase.COUNCIL
    assert picks == {"DWA", "KHR"}


@pytest.mark.rule("BM-SET-6")
def test_decks_are_shuffled_separately() -> None:
    state, _ = S.new_game(DATA, seats(3), BMOptions(), 1)
    other, _ = S.new_game(DATA, seats(3), BMOptions(), 2)
    assert Counter(state.deck) == Counter(S.action_deck(DATA, 3)) and state.deck != other.deck
    assert state.deck != S.action_deck(DATA, 3)
    counts = Counter(state.quest_deck)
    assert counts["STAR"] == 12 and sum(1 for c in counts if c.startswith("QA")) == 30
    assert {c for c in counts if c.startswith("AR")} == {f"AR{k}" for k in range(1, 7)}
    assert len(state.quest_deck) == 48 and state.quest_deck != other.quest_deck
    assert state.quests == {}


@pytest.mark.rule("BM-SET-7", "BM-A-23")
def test_no_events_with_two_players() -> None:
    two, _ = S.new_game(DATA, seats(2), BMOptions(), 1)
    assert len(two.deck) == 69 and not [c for c in two.deck if c.startswith("EV")]
    three, _ = S.new_game(DATA, seats(3), BMOptions(), 1)
    assert len(three.deck) == 81 and len([c for c in three.deck if c.startswith("EV")]) == 12


@pytest.mark.rule("BM-SET-9")
def test_star_pool() -> None:
    state, _ = S.new_game(DATA, seats(4), BMOptions(), 1)
    assert all(s.owned == 1 and s.spent == 0 for s in state.stars.values())
    assert state.star_pool == 21


@pytest.mark.rule("BM-SET-10")
def test_starting_stock() -> None:
    state, _ = S.new_game(DATA, seats(6), BMOptions(), 1)
    for p in state.players:
        start = DATA.rules.race[p.race].start
        assert state.stock[p.id].grain == start["grain"] and state.stock[p.id].iron == start["iron"]
    dwarves = next(p.id for p in state.players if p.race == "DWA")
    assert (state.stock[dwarves].grain, state.stock[dwarves].wood, state.stock[dwarves].iron) == (6, 5, 8)


@pytest.mark.rule("BM-SET-11")
def test_deployment_and_round_one() -> None:
    state, _ = S.new_game(DATA, seats(3), BMOptions(), 1)
    assert state.phase is Phase.COUNCIL and state.round == 0
    for p in state.players:
        home = state.homeland(p.id)
        assert state.troops[home] == {p.id: state.units(home, p.id)}
        assert state.units(home, p.id).counts() == {"infantry": 2}
        [hero] = state.heroes_of(p.id)
        assert (hero.number, hero.region, hero.life) == (1, home, 5)
    assert len(state.troops) == 3 and len(state.heroes) == 3


@pytest.mark.rule("BM-BRD-1")
def test_absent_homelands_are_void() -> None:
    state, _ = S.new_game(DATA, seats(2), BMOptions(), 1)
    present = {f"H-{p.race}" for p in state.players}
    assert len(state.regions) == 35
    assert {r for r in state.regions if r.startswith("H-")} == present
    absent = {f"H-{r}" for r in DATA.rules.race} - present
    for region in state.regions:
        assert not set(neighbours(state, region)) & absent
    corner = next(iter(absent))
    assert neighbours(state, corner) == ()
    full, _ = S.new_game(DATA, seats(6), BMOptions(), 1)
    assert len(full.regions) == 39


def test_positions_of_this_area_survive_json() -> None:
    built, _ = S.new_game(DATA, seats(4), BMOptions(board="build"), 3)
    vote = position(("DAQ", "ORC", "DWA"), phase=Phase.COUNCIL, events=["EV2"], dice=[9, 8, 7],
                    troops={"N05": {1: {"infantry": 8, "archers": 1}}})
    vote, _ = step(vote, C.open_vote)
    for pid in (1, 2, 3):
        vote, _ = run(vote, C.vote, C.Vote(player=pid, commit=True))
    vote, _ = run(vote, C.choose_plague, C.PlagueLosses(player=1, removals={"N05": {"infantry": 2}}, lock=False))
    ini = position(("DAQ", "ORC"), phase=Phase.ECONSTART, cities={"N05": CityMark(kind="large_city", since=0)},
                   troops={"N05": {1: {"infantry": 1}}})
    ini, _ = step(ini, I.begin_initiative)
    for state in (built, vote, ini):
        again = from_json(BMState, to_json(state))
        assert to_json(again) == to_json(state) and again.build == state.build
        assert again.council == state.council and again.initiative == state.initiative
