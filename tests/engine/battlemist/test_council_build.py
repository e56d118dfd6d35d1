"""Build mode, "Build Mennarra" [OPT] (BM-BRD-3, BM-BLD-1 … 11, BM-A-7, A-27, A-33, A-34)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.errors import RuleError
from engine.games.battlemist import build as B
from engine.games.battlemist import setup as S
from engine.games.battlemist.board import around, hex_of, neighbours
from engine.games.battlemist.dice import Rolled
from engine.games.battlemist.state import BMOptions, BMState, Phase
from tests.engine.battlemist.council_tools import of, run, seats, step
from tests.engine.battlemist.helpers import DATA, position, snapshot

BUILD = BMOptions(board="build")


def built(races: tuple[str, ...], positions: dict[str, tuple[int, int]], *, tiles: dict[int, list[str]],
          homes: list[int], turn: int, tips: list[str] | None = None) -> BMState:
    """A construction in progress: `positions` laid, each player's tiles still to place."""
    state = position(races, phase=Phase.BUILD, round=0)
    order = [p.id for p in state.players]
    state.build = B.BuildState(positions=positions, adjacency=B.adjacency(positions), tiles=tiles, homes=homes,
                               tips=tips or [], order=order, turn=turn)
    state.regions = sorted(positions)
    return state


def place(state: BMState, pid: int, tile: str, q: int, r: int) -> tuple[BMState, list]:
    return run(state, S.place_tile, B.PlaceTile(player=pid, tile=tile, q=q, r=r))


def refused(state: BMState, pid: int, tile: str, q: int, r: int) -> RuleError:
    with pytest.raises(RuleError) as info:
        place(state, pid, tile, q, r)
    return info.value


def finish(state: BMState) -> BMState:
    while state.phase is Phase.BUILD:
        [decision] = S.setup_decisions(state)
        action = S.timeout_setup(state, decision.player)
        state, _ = run(state, S.HANDLERS[type(action)], action)
    return state


CENTRE = {"N01": (0, 0), "N02": (1, 0), "N03": (0, 1)}


@pytest.mark.rule("BM-BRD-3", "BM-BLD-6", "BM-BLD-7")
def test_construction_starts_with_three_shuffled_tiles_in_the_centre() -> None:
    state, events = S.new_game(DATA, seats(3), BUILD, 1)
    assert state.phase is Phase.BUILD and state.build is not None
    build = state.build
    assert len(build.positions) == 3 and set(build.positions.values()) == set(B.CENTRE)
    for tile in build.positions:
        assert len(build.adjacency[tile]) == 2
    dealt = [t for tiles in build.tiles.values() for t in tiles]
    assert sorted([*build.positions, *dealt]) == sorted(DATA.map.neutral)
    other, _ = S.new_game(DATA, seats(3), BUILD, 2)
    assert other.build is not None and other.build.tiles != build.tiles
    assert of(events, B.TilesDealt) and state.regions == sorted(build.positions)
    assert not state.troops


@pytest.mark.rule("BM-BLD-9", "BM-BLD-8", "BM-A-33")
def test_highest_roll_places_first_and_the_deal_starts_with_him() -> None:
    state = position(("DAQ", "ORC", "DWA", "KHR"), phase=Phase.DRAFT, round=0, dice=[4, 9, 9, 2, 3, 8])
    state, events = step(state, B.begin_build)
    rolls = [(e.player, e.dice[0]) for e in of(events, Rolled)]
    assert rolls == [(1, 4), (2, 9), (3, 9), (4, 2), (2, 3), (3, 8)]
    assert all(e.purpose == "build_order" for e in of(events, Rolled))
    build = state.build
    assert build is not None and build.order == [3, 4, 1, 2] and build.turn == 3
    assert {pid: len(t) for pid, t in build.tiles.items()} == {3: 8, 4: 8, 1: 7, 2: 7}
    three = position(("DAQ", "ORC", "DWA"), phase=Phase.DRAFT, round=0, dice=[1, 2, 3])
    three, _ = step(three, B.begin_build)
    assert three.build is not None and three.build.order == [3, 1, 2]
    assert {len(t) for t in three.build.tiles.values()} == {10}


@pytest.mark.rule("BM-BLD-10")
def test_one_tile_per_turn_clockwise() -> None:
    state = built(("DAQ", "ORC"), CENTRE, tiles={1: ["N04", "N05"], 2: ["N06"]}, homes=[1, 2], turn=1)
    err = refused(state, 2, "N06", 1, -1)
    assert err.code == "BM_E_NOT_YOUR_TURN"
    before = snapshot(state)
    after, events = place(state, 1, "N04", 1, -1)
    assert snapshot(state) == before
    assert after.build is not None and after.build.positions["N04"] == (1, -1) and after.build.turn == 2
    assert after.build.tiles[1] == ["N05"] and "N04" in after.regions
    assert of(events, B.TilePlaced)[0].tile == "N04"
    assert refused(after, 2, "N05", 2, -1).code == "BM_E_TILE_NOT_HELD"


@pytest.mark.rule("BM-BLD-10")
def test_a_player_without_a_legal_placement_is_skipped() -> None:
    state = built(("DAQ", "ORC", "DWA"), {"N01": (0, 0)}, tiles={1: [], 2: ["N02"], 3: []}, homes=[3], turn=1,
                  tips=["N01"])
    assert state.build is not None
    assert B.legal(state.build, 2, "H-ORC") == []
    build, events = B.next_placer(state, state.build, 1)
    assert [e.player for e in of(events, B.PlacerSkipped)] == [2] and build.turn == 3


@pytest.mark.rule("BM-BLD-1")
def test_no_peninsulas() -> None:
    state = built(("DAQ", "ORC"), CENTRE, tiles={1: ["N04", "N05"], 2: ["N06", "N07"]}, homes=[], turn=1)
    state, _ = place(state, 1, "N04", 2, 0)
    assert state.build is not None and state.build.tips == ["N04"]
    err = refused(state, 2, "N06", 3, 0)
    assert err.code == "BM_E_BUILD_PLACEMENT"
    assert err.message == ("Illegal tile placement: it would touch only N04, which already touches the map on "
                           "one side only.")
    state, _ = place(state, 2, "N06", 2, -1)
    assert state.build is not None and state.build.tips == ["N04"]
    assert refused(state, 1, "N05", 5, 5).message == "Illegal tile placement: the tile must touch the map."
    assert refused(state, 1, "N05", 0, 0).message == "Illegal tile placement: that hex already holds a tile."


@pytest.mark.rule("BM-BLD-2")
def test_homeland_instead_of_a_neutral_tile_and_before_the_end() -> None:
    state = built(("DAQ", "ORC"), CENTRE, tiles={1: ["N04"], 2: ["N05"]}, homes=[1, 2], turn=1)
    state, _ = place(state, 1, "H-DAQ", 1, -1)
    assert state.build is not None and state.build.homes == [2] and state.build.tiles[1] == ["N04"]
    assert "H-DAQ" in state.regions
    assert refused(state, 2, "H-DAQ", 2, -1).code == "BM_E_TILE_NOT_HELD"
    state, _ = place(state, 2, "N05", -1, 1)
    state, _ = place(state, 1, "N04", 1, 1)
    assert state.phase is Phase.BUILD and state.build is not None and state.build.turn == 2
    assert S.setup_decisions(state)[0].detail == {"tiles": [], "homeland": True}
    state, _ = place(state, 2, "H-ORC", -2, 1)
    assert state.phase is Phase.COUNCIL


@pytest.mark.rule("BM-BLD-3")
def test_homeland_distances_at_placement() -> None:
    positions = {**CENTRE, "H-DAQ": (1, -1)}
    state = built(("DAQ", "ELF", "ORC"), positions, tiles={1: [], 2: ["N04"], 3: ["N05"]}, homes=[2, 3], turn=2)
    near = refused(state, 2, "H-ELF", 2, -1)
    assert near.message == "Illegal tile placement: a homeland must be at least 2 regions from H-DAQ."
    alike = refused(state, 2, "H-ELF", 0, 2)
    assert alike.message == ("Illegal tile placement: a homeland must be at least 4 regions from H-DAQ, of the same "
                             "alignment.")
    state3 = built(("DAQ", "ELF", "ORC"), positions, tiles={1: [], 2: ["N04"], 3: ["N05"]}, homes=[2, 3], turn=3)
    state3, _ = place(state3, 3, "H-ORC", 0, 2)
    assert state3.build is not None and state3.build.positions["H-ORC"] == (0, 2)


@pytest.mark.rule("BM-BLD-4", "BM-A-7")
def test_distance_counts_placed_tiles_only() -> None:
    positions = {"H-DAQ": (0, 0), "N01": (1, 0), "N02": (2, 0), "N03": (3, -1)}
    state = built(("DAQ", "ELF"), positions, tiles={1: [], 2: ["N05"]}, homes=[2], turn=2)
    state, _ = place(state, 2, "H-ELF", 3, -2)
    assert state.build is not None and state.build.positions["H-ELF"] == (3, -2)
    close = built(("DAQ", "ELF"), {**positions, "N06": (2, -1)}, tiles={1: [], 2: ["N05"]}, homes=[2], turn=2)
    assert refused(close, 2, "H-ELF", 3, -2).code == "BM_E_BUILD_PLACEMENT"


@pytest.mark.rule("BM-BLD-5", "BM-A-34")
def test_last_tile_homeland_relaxes_the_distances() -> None:
    one_step = built(("DAQ", "ELF"), {"H-DAQ": (0, 0), "N01": (1, 0)}, tiles={1: [], 2: []}, homes=[2], turn=2)
    assert one_step.build is not None
    assert B.relaxation(one_step.build, 2, "H-ELF") == B.RELAXED_ALIGNMENT
    assert refused(one_step, 2, "H-ELF", 1, -1).code == "BM_E_BUILD_PLACEMENT"
    done, _ = place(one_step, 2, "H-ELF", 2, 0)
    assert done.phase is Phase.COUNCIL
    holding = built(("DAQ", "ELF"), {"H-DAQ": (0, 0), "N01": (1, 0)}, tiles={1: [], 2: ["N02"]}, homes=[2], turn=2)
    assert holding.build is not None and B.relaxation(holding.build, 2, "H-ELF") == 0
    assert refused(holding, 2, "H-ELF", 2, 0).code == "BM_E_BUILD_PLACEMENT"
    alone = built(("DAQ", "DWA"), {"H-DAQ": (0, 0)}, tiles={1: [], 2: []}, homes=[2], turn=2)
    assert alone.build is not None and B.relaxation(alone.build, 2, "H-DWA") == B.ANY_SPOT
    done, _ = place(alone, 2, "H-DWA", 1, 0)
    assert done.phase is Phase.COUNCIL


@pytest.mark.rule("BM-BLD-11", "BM-BRD-7")
def test_construction_ends_when_every_tile_lies() -> None:
    for n in (2, 4, 6):
        state, _ = S.new_game(DATA, seats(n), BUILD, n)
        state = finish(state)
        assert state.phase is Phase.COUNCIL and state.round == 0
        build = state.build
        assert build is not None and build.turn is None and not build.tiles and not build.homes
        assert len(state.regions) == 33 + n and set(build.positions) == set(state.regions)
        assert len(set(build.positions.values())) == len(build.positions)
        at = {spot: r for r, spot in build.positions.items()}
        for region, spot in build.positions.items():
            assert set(neighbours(state, region)) == {at[h] for h in around(spot) if h in at}
            assert hex_of(state, region) == spot
        assert len(state.heroes) == n and all(state.units(state.homeland(p), p).infantry == 2
                                              for p in state.seat_order())


@pytest.mark.rule("BM-A-27", "BM-BLD-10")
def test_tiles_are_alike_and_the_timeout_prefers_neutral_tiles() -> None:
    state, _ = S.new_game(DATA, seats(3), BUILD, 5)
    assert state.build is not None
    pid = state.build.turn
    assert pid is not None
    moves = B.legal(state.build, pid, state.homeland(pid))
    spots = Counter(spot for tile, spot in moves if not tile.startswith("H-"))
    assert set(spots.values()) == {len(state.build.tiles[pid])}
    action = S.timeout_setup(state, pid)
    assert isinstance(action, B.PlaceTile) and not action.tile.startswith("H-")
    assert (action.tile, (action.q, action.r)) in moves and S.timeout_setup(state, pid) == action
    last = built(("DAQ", "ORC"), CENTRE, tiles={1: [], 2: []}, homes=[1], turn=1)
    assert S.timeout_setup(last, 1).tile == "H-DAQ"
    assert refused(last, 1, "H-DAQ", 5, 5).code == "BM_E_BUILD_PLACEMENT"


def test_wrong_phase() -> None:
    state = position(("DAQ", "ORC"), phase=Phase.COUNCIL)
    assert refused(state, 1, "N01", 0, 0).code == "BM_E_WRONG_PHASE"


@pytest.mark.rule("BM-BLD-9", "BM-DIE-4")
def test_only_a_tie_for_the_highest_roll_is_rolled_again() -> None:
    state = position(("DAQ", "ORC", "DWA", "KHR"), phase=Phase.DRAFT, round=0, dice=[9, 5, 5, 2, 7])
    state, events = step(state, B.begin_build)
    assert [(e.player, e.dice[0]) for e in of(events, Rolled)] == [(1, 9), (2, 5), (3, 5), (4, 2)]
    assert state.build is not None and state.build.order == [1, 2, 3, 4] and state.rng.forced == [7]
    tied = position(("DAQ", "ORC", "DWA", "KHR"), phase=Phase.DRAFT, round=0, dice=[8, 8, 8, 3, 6, 6, 2, 4, 9])
    tied, events = step(tied, B.begin_build)
    assert [(e.player, e.dice[0]) for e in of(events, Rolled)] == [
        (1, 8), (2, 8), (3, 8), (4, 3), (1, 6), (2, 6), (3, 2), (1, 4), (2, 9)]
    assert tied.build is not None and tied.build.order == [2, 3, 4, 1] and not tied.rng.forced
