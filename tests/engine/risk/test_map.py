"""Map data and general conventions: RISK-GEN-1 … GEN-6, RISK-MAP-1 … MAP-7."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest

from engine.core.models import to_json
from engine.core.rng import Rng, RngState
from engine.games.risk.mapdata import classic
from engine.games.risk.state import Phase
from tests.engine.risk.helpers import (
    BOARD,
    IDS,
    P1,
    P2,
    P3,
    new,
    new_with_events,
    of_type,
    play,
    position,
)

SNAKE = re.compile(r"^[a-z]+(?:_[a-z0-9]+)*$")

# The §2.3 table: territory → (continent, card symbol), in table order.
TABLE: dict[str, tuple[str, str]] = {
    "alaska": ("north_america", "infantry"),
    "northwest_territory": ("north_america", "artillery"),
    "greenland": ("north_america", "cavalry"),
    "alberta": ("north_america", "cavalry"),
    "ontario": ("north_america", "cavalry"),
    "quebec": ("north_america", "cavalry"),
    "western_united_states": ("north_america", "artillery"),
    "eastern_united_states": ("north_america", "artillery"),
    "central_america": ("north_america", "artillery"),
    "venezuela": ("south_america", "infantry"),
    "peru": ("south_america", "infantry"),
    "brazil": ("south_america", "artillery"),
    "argentina": ("south_america", "infantry"),
    "iceland": ("europe", "infantry"),
    "scandinavia": ("europe", "cavalry"),
    "great_britain": ("europe", "artillery"),
    "northern_europe": ("europe", "artillery"),
    "western_europe": ("europe", "artillery"),
    "southern_europe": ("europe", "artillery"),
    "ukraine": ("europe", "cavalry"),
    "north_africa": ("africa", "cavalry"),
    "egypt": ("africa", "infantry"),
    "east_africa": ("africa", "infantry"),
    "congo": ("africa", "infantry"),
    "south_africa": ("africa", "artillery"),
    "madagascar": ("africa", "cavalry"),
    "ural": ("asia", "cavalry"),
    "siberia": ("asia", "cavalry"),
    "yakutsk": ("asia", "cavalry"),
    "kamchatka": ("asia", "infantry"),
    "irkutsk": ("asia", "cavalry"),
    "mongolia": ("asia", "infantry"),
    "japan": ("asia", "artillery"),
    "afghanistan": ("asia", "cavalry"),
    "china": ("asia", "infantry"),
    "middle_east": ("asia", "infantry"),
    "india": ("asia", "cavalry"),
    "siam": ("asia", "infantry"),
    "indonesia": ("australia", "artillery"),
    "new_guinea": ("australia", "infantry"),
    "western_australia": ("australia", "artillery"),
    "eastern_australia": ("australia", "artillery"),
}

# The §2.4 edge list (83 undirected edges).
EDGE_LIST = """
alaska northwest_territory; alaska alberta; alaska kamchatka; northwest_territory greenland;
northwest_territory alberta; northwest_territory ontario; greenland ontario; greenland quebec; greenland iceland;
alberta ontario; alberta western_united_states; ontario quebec; ontario western_united_states;
ontario eastern_united_states; quebec eastern_united_states; western_united_states eastern_united_states;
western_united_states central_america; eastern_united_states central_america; central_america venezuela;
venezuela peru; venezuela brazil; peru brazil; peru argentina; brazil argentina; brazil north_africa;
iceland scandinavia; iceland great_britain; scandinavia great_britain; scandinavia northern_europe;
scandinavia ukraine; great_britain northern_europe; great_britain western_europe; northern_europe western_europe;
northern_europe southern_europe; northern_europe ukraine; western_europe southern_europe; western_europe north_africa;
southern_europe ukraine; southern_europe north_africa; southern_europe egypt; southern_europe middle_east;
ukraine ural; ukraine afghanistan; ukraine middle_east; north_africa egypt; north_africa east_africa;
north_africa congo; egypt east_africa; egypt middle_east; east_africa congo; east_africa south_africa;
east_africa madagascar; east_africa middle_east; congo south_africa; south_africa madagascar; ural siberia;
ural afghanistan; ural china; siberia yakutsk; siberia irkutsk; siberia mongolia; siberia china; yakutsk kamchatka;
yakutsk irkutsk; kamchatka irkutsk; kamchatka mongolia; kamchatka japan; irkutsk mongolia; mongolia japan;
mongolia china; afghanistan china; afghanistan middle_east; afghanistan india; china india; china siam;
middle_east india; india siam; siam indonesia; indonesia new_guinea; indonesia western_australia;
new_guinea western_australia; new_guinea eastern_australia; western_australia eastern_australia
"""

CROSS_CONTINENT = {
    frozenset(p)
    for p in [
        ("alaska", "kamchatka"), ("greenland", "iceland"), ("central_america", "venezuela"),
        ("brazil", "north_africa"), ("western_europe", "north_africa"), ("southern_europe", "north_africa"),
        ("southern_europe", "egypt"), ("southern_europe", "middle_east"), ("ukraine", "ural"),
        ("ukraine", "afghanistan"), ("ukraine", "middle_east"), ("egypt", "middle_east"),
        ("east_africa", "middle_east"), ("siam", "indonesia"),
    ]
}


def spec_edges() -> set[frozenset[str]]:
    return {frozenset(item.split()) for item in EDGE_LIST.replace("\n", " ").split(";") if item.strip()}


def data_edges() -> set[frozenset[str]]:
    return {frozenset((e.a, e.b)) for e in BOARD.edges}


# ---------------------------------------------------------------- GEN


@pytest.mark.rule("RISK-GEN-1")
def test_identifiers_are_the_snake_case_ids_of_the_spec() -> None:
    board = classic()
    assert board.ids == list(TABLE)
    assert [c.id for c in board.continents] == [
        "north_america", "south_america", "europe", "africa", "asia", "australia",
    ]
    assert board.wild_cards == ["wild_1", "wild_2"]
    for ident in [*board.ids, *(c.id for c in board.continents), *board.wild_cards]:
        assert SNAKE.match(ident), ident
    # The card IDs are the territory IDs plus the wilds, and the engine keys its state by them.
    assert all(board.is_card(t) for t in board.ids)
    assert board.card_symbol("wild_1") == "wild"
    state = new(4, seed=3, setup="random_deal")
    assert set(state.owner) == set(TABLE)
    assert set(state.armies) == set(TABLE)


@pytest.mark.rule("RISK-GEN-2", "RISK-GEN-5")
def test_armies_are_plain_integers_with_no_denominations_or_cap() -> None:
    state = position(pool=137, armies={"alaska": 999})
    after, events = play(state, ("place", P1, {"territory": "alaska", "count": 137}))
    assert after.armies["alaska"] == 999 + 137
    assert isinstance(after.armies["alaska"], int)
    assert after.pool == 0
    assert of_type(events, "placed")[0].count == 137
    # 13 is no combination of "pieces" worth caring about: an attack from 13 armies still uses 3 dice.
    state = position(armies={"alaska": 13, "kamchatka": 1}, phase=Phase.ATTACK,
                     owner={"alaska": P1, "kamchatka": P2})
    after, events = play(state, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), dice=[6, 6, 6, 1])
    assert of_type(events, "battle")[0].attack_dice == [6, 6, 6]
    assert after.owner["kamchatka"] == P1
    assert after.armies["alaska"] + after.armies["kamchatka"] == 13


@pytest.mark.rule("RISK-GEN-3")
def test_same_seed_gives_the_same_game_and_different_seeds_differ() -> None:
    a, ev_a = new_with_events(4, seed=11, setup="random_deal")
    b, ev_b = new_with_events(4, seed=11, setup="random_deal")
    assert to_json(a) == to_json(b)
    assert [to_json(e) for e in ev_a] == [to_json(e) for e in ev_b]
    others = [new(4, seed=s, setup="random_deal") for s in range(12, 16)]
    assert any(o.owner != a.owner for o in others)
    firsts = [of_type(new_with_events(6, seed=s)[1], "first_player_rolled")[0].rounds[0] for s in range(1, 6)]
    assert len({tuple(sorted(r.items())) for r in firsts}) > 1


@pytest.mark.rule("RISK-GEN-3")
def test_dice_come_from_the_state_rng_so_replays_match_and_forced_faces_are_used() -> None:
    state = position(armies={"alaska": 10, "kamchatka": 10}, owner={"alaska": P1, "kamchatka": P2},
                     phase=Phase.ATTACK)
    act = ("attack", P1, {"source": "alaska", "target": "kamchatka"})
    first, ev1 = play(state, act)
    second, ev2 = play(state, act)
    assert of_type(ev1, "battle")[0].attack_dice == of_type(ev2, "battle")[0].attack_dice
    assert to_json(first) == to_json(second)
    assert first.rng != state.rng  # the source advanced and lives in the state
    # Different dice come from a different seed in the same position.
    reseeded = [
        of_type(play(replace(state, rng=RngState.from_seed(k)), act)[1], "battle")[0]
        for k in range(1, 9)
    ]
    assert len({(tuple(b.attack_dice), tuple(b.defence_dice)) for b in reseeded}) > 1
    # Forced faces: attacker's first, then defender's.
    after, events = play(state, act, dice=[2, 5, 3, 5, 1])
    battle = of_type(events, "battle")[0]
    assert battle.attack_dice == [5, 3, 2]
    assert battle.defence_dice == [5, 1]
    assert (battle.attacker_losses, battle.defender_losses) == (1, 1)
    assert after.armies["alaska"] == 9 and after.armies["kamchatka"] == 9
    assert after.rng.forced == []


@pytest.mark.rule("RISK-GEN-3")
def test_forced_faces_drive_the_first_player_roll() -> None:
    from engine.core.rng import roll_off

    rng = Rng(RngState(state=1, forced=[3, 6, 2]))
    first, rounds = roll_off(rng, [P1, P2, 103])
    assert first == P2
    assert rounds == [{P1: 3, P2: 6, 103: 2}]


@pytest.mark.rule("RISK-GEN-4")
def test_army_supply_never_runs_out() -> None:
    # P1 already has thousands of armies on the board; turn-start reinforcements still arrive in full.
    owner = {t: P1 for t in BOARD.members["asia"]}
    armies = {t: 500 for t in BOARD.members["asia"]}
    state = position(owner=owner, armies=armies, phase=Phase.FORTIFY, current=P3)
    after, events = play(state, ("end_turn", P3))
    started = of_type(events, "turn_started")[0]
    mine = sum(1 for o in after.owner.values() if o == P1)
    assert started.player == P1
    assert started.base == mine // 3
    assert started.total == mine // 3 + 7
    assert after.pool == started.total
    after, _ = play(after, ("place", P1, {"territory": "china", "count": after.pool}))
    assert after.armies["china"] == 500 + started.total


@pytest.mark.rule("RISK-GEN-6")
def test_die_faces_are_one_to_six_and_all_occur() -> None:
    rng = Rng(RngState.from_seed(2024))
    faces = [rng.die() for _ in range(3000)]
    counts = Counter(faces)
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(350 < counts[f] < 650 for f in range(1, 7)), counts
    assert sorted(set(rng.dice(600))) == [1, 2, 3, 4, 5, 6]


@pytest.mark.rule("RISK-GEN-6")
def test_battles_roll_one_to_three_attack_dice_and_one_to_two_defence_dice() -> None:
    state = position(armies={"alaska": 4, "kamchatka": 5}, owner={"alaska": P1, "kamchatka": P2},
                     phase=Phase.ATTACK)
    seen: list[int] = []
    for seed in range(40):
        s = replace(state, rng=RngState.from_seed(seed))
        _, events = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}))
        battle = of_type(events, "battle")[0]
        assert len(battle.attack_dice) == 3
        assert len(battle.defence_dice) == 2
        seen.extend(battle.attack_dice + battle.defence_dice)
    assert set(seen) == {1, 2, 3, 4, 5, 6}
    single = position(armies={"alaska": 2, "kamchatka": 1}, owner={"alaska": P1, "kamchatka": P2},
                      phase=Phase.ATTACK)
    _, events = play(single, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), dice=[1, 6])
    battle = of_type(events, "battle")[0]
    assert (battle.attack_dice, battle.defence_dice) == ([1], [6])


# ---------------------------------------------------------------- MAP


@pytest.mark.rule("RISK-MAP-1")
def test_continent_bonuses_and_sizes_are_the_classic_values() -> None:
    expected = {
        "north_america": (5, 9), "south_america": (2, 4), "europe": (5, 7),
        "africa": (3, 6), "asia": (7, 12), "australia": (2, 4),
    }
    actual = {c.id: (c.bonus, len(BOARD.members[c.id])) for c in BOARD.continents}
    assert actual == expected
    assert sum(size for _, size in expected.values()) == 42


@pytest.mark.rule("RISK-MAP-2")
def test_adjacency_is_the_spec_edge_list() -> None:
    spec = spec_edges()
    assert len(spec) == 83
    assert data_edges() == spec
    assert len(BOARD.edges) == 83


@pytest.mark.rule("RISK-MAP-2")
def test_the_seed_example_borders_are_present() -> None:
    n = BOARD.neighbours
    assert set(n["greenland"]) == {"northwest_territory", "ontario", "quebec", "iceland"}
    assert {"egypt", "western_europe", "brazil"} <= set(n["north_africa"])
    assert "kamchatka" in n["alaska"] and "alaska" in n["kamchatka"]


@pytest.mark.rule("RISK-MAP-2", "RISK-MAP-6")
def test_the_map_is_one_connected_graph() -> None:
    seen = {"alaska"}
    frontier = ["alaska"]
    while frontier:
        for nxt in BOARD.neighbours[frontier.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    assert seen == set(IDS)


@pytest.mark.rule("RISK-MAP-3")
def test_card_symbols_follow_the_canonical_table_fourteen_each() -> None:
    assert BOARD.symbols == {t: sym for t, (_, sym) in TABLE.items()}
    assert Counter(BOARD.symbols.values()) == {"infantry": 14, "cavalry": 14, "artillery": 14}


@pytest.mark.rule("RISK-MAP-4")
def test_sea_lanes_are_marked_in_the_data() -> None:
    sea = {frozenset((e.a, e.b)) for e in BOARD.edges if e.sea}
    assert frozenset(("alaska", "kamchatka")) in sea
    assert frozenset(("brazil", "north_africa")) in sea
    assert frozenset(("western_australia", "eastern_australia")) not in sea


@pytest.mark.rule("RISK-MAP-4")
def test_sea_lanes_work_like_land_borders_for_attack_and_fortify() -> None:
    state = position(owner={"alaska": P1, "kamchatka": P2}, armies={"alaska": 5, "kamchatka": 1},
                     phase=Phase.ATTACK)
    after, events = play(state, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}),
                         dice=[6, 5, 4, 1])
    assert after.owner["kamchatka"] == P1
    assert of_type(events, "conquered")[0].target == "kamchatka"
    fort = position(owner={"brazil": P1, "north_africa": P1}, armies={"brazil": 6, "north_africa": 1},
                    phase=Phase.FORTIFY)
    after, _ = play(fort, ("fortify", P1, {"source": "brazil", "target": "north_africa", "count": 5}))
    assert after.armies["north_africa"] == 6
    assert after.armies["brazil"] == 1


@pytest.mark.rule("RISK-MAP-5")
def test_forty_two_territories_each_in_exactly_one_continent() -> None:
    assert len(BOARD.territories) == 42
    assert len(set(IDS)) == 42
    continent_ids = {c.id for c in BOARD.continents}
    assert all(t.continent in continent_ids for t in BOARD.territories)
    memberships = Counter(t for members in BOARD.members.values() for t in members)
    assert set(memberships) == set(IDS)
    assert set(memberships.values()) == {1}
    assert {t: BOARD.territory[t].continent for t in IDS} == {t: c for t, (c, _) in TABLE.items()}


@pytest.mark.rule("RISK-MAP-6")
def test_adjacency_is_symmetric_without_self_loops() -> None:
    for t, ns in BOARD.neighbours.items():
        assert t not in ns, t
        for n in ns:
            assert t in BOARD.neighbours[n], (t, n)
    assert all(e.a != e.b for e in BOARD.edges)
    assert sum(len(ns) for ns in BOARD.neighbours.values()) == 2 * 83


@pytest.mark.rule("RISK-MAP-7")
def test_eighty_three_edges_fourteen_across_continents() -> None:
    edges = data_edges()
    assert len(edges) == 83
    cont = {t: BOARD.territory[t].continent for t in IDS}
    cross = {e for e in edges if len({cont[t] for t in e}) == 2}
    assert len(cross) == 14
    assert cross == CROSS_CONTINENT
