"""The static data against the spec's tables: terrain, the map, components, resources, races, units, monsters,
general terms, Stars, and data that changes the rules (BM-DIG-26)."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import pytest

from engine.core.models import Seat, to_json
from engine.games.battlemist.board import distances, hex_of, neighbours
from engine.games.battlemist.data import ARMY, DATA_DIR, MONSTERS, RESOURCES, STOPS, Ability, load
from engine.games.battlemist.pieces import Stars, Stock, Troops
from engine.games.battlemist.setup import action_deck, new_game
from engine.games.battlemist.state import BMOptions, BMState
from tests.engine.battlemist.helpers import DATA, position

SPEC = Path(__file__).resolve().parents[3].parent / "shared" / "rules" / "battlemist.md"
TAG = re.compile(r"\s*\[[A-Z~]+\]")


def rows(first: str) -> list[list[str]]:
    """The rows of the spec's table whose header starts with `first`."""
    lines = SPEC.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first} |"))
    found = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        found.append([TAG.sub("", cell).strip() for cell in line.strip("|").split("|")])
    return found


def seats(n: int) -> list[Seat]:
    return [Seat(id=k, name=f"P{k}") for k in range(1, n + 1)]


@pytest.mark.rule("BM-BRD-4")
def test_terrain_yields_and_stops() -> None:
    kinds = {"plains": "grain", "forest": "wood", "mountain": "iron"}
    for region in DATA.map.regions:
        if region.terrain in kinds:
            assert set(region.yield_) == {kinds[region.terrain]}
        else:
            assert not region.yield_, region.id
    assert frozenset({"forest", "mountain"}) == STOPS
    assert DATA.map.by_id["N04"].terrain == "desert" and not DATA.map.by_id["N04"].yield_


@pytest.mark.rule("BM-BRD-5", "BM-BRD-8", "BM-BRD-2")
def test_layout_matches_the_region_table() -> None:
    table = rows("id | name | terrain")
    assert len(table) == 39 and DATA.map.name == "Mennarra-39"
    for rid, name, terrain, yields, coords, _ring, links in table:
        region = DATA.map.by_id[rid]
        assert region.terrain == terrain, rid
        assert (region.q, region.r) == tuple(int(x) for x in coords.strip("()").split(",")), rid
        assert set(region.neighbours) == {n.strip() for n in links.split(",")}, rid
        if terrain == "homeland":
            assert region.race == rid[2:]
        else:
            amount, kind = ("0", "") if yields == "0" else yields.split()
            assert region.yield_ == ({kind: int(amount)} if kind else {}), rid
            assert region.name == name, rid


@pytest.mark.rule("BM-BRD-7")
def test_adjacency_is_the_axial_geometry() -> None:
    at = {(r.q, r.r): r.id for r in DATA.map.regions}
    for region in DATA.map.regions:
        hexes = {at[(region.q + dq, region.r + dr)] for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
                 if (region.q + dq, region.r + dr) in at}
        assert hexes == set(region.neighbours)
        for n in region.neighbours:
            assert region.id in DATA.map.by_id[n].neighbours
    state = position(("DAQ", "ELF", "DWA", "KHR", "ORC", "DRK"))
    assert set(neighbours(state, "N01")) == {"N02", "N03", "N04", "N05", "N06", "N07"}
    assert set(neighbours(state, "N32")) == {"N22", "N23"}
    assert hex_of(state, "H-DRK") == (-3, 3) and hex_of(state, "N01") == (0, 0)


@pytest.mark.rule("BM-BRD-6")
def test_homeland_distances() -> None:
    state = position(("DAQ", "ELF", "DWA", "KHR", "ORC", "DRK"))
    assert len(state.regions) == 39 and sum(r.startswith("H-") for r in state.regions) == 6
    assert all(len(neighbours(state, r)) >= 2 for r in state.regions)
    six = {frozenset(p) for p in (("DAQ", "ELF"), ("DWA", "KHR"), ("ORC", "DRK"), ("DAQ", "DWA"), ("DAQ", "DRK"),
                                  ("ORC", "ELF"), ("ORC", "KHR"), ("DWA", "DRK"), ("ELF", "KHR"))}
    races = [r.id for r in DATA.rules.races]
    for a in races:
        for b in races:
            if a < b:
                apart = distances(state, f"H-{a}")[f"H-{b}"]
                assert apart == (6 if frozenset((a, b)) in six else 3), (a, b)
                alike = DATA.rules.race[a].alignment == DATA.rules.race[b].alignment
                assert apart >= (4 if alike else 2)
    two = position(("DAQ", "ELF"))
    assert distances(two, "H-DAQ")["H-ELF"] == 6


@pytest.mark.rule("BM-BRD-9")
def test_map_totals() -> None:
    totals: dict[str, list[int]] = {}
    for region in DATA.map.regions:
        totals.setdefault(region.terrain, []).append(sum(region.yield_.values()))
    assert (len(totals["plains"]), sum(totals["plains"])) == (11, 22)
    assert (len(totals["forest"]), sum(totals["forest"])) == (10, 20)
    assert (len(totals["mountain"]), sum(totals["mountain"])) == (8, 17)
    assert len(totals["desert"]) == 4
    for race in DATA.rules.race:
        home = DATA.map.by_id[f"H-{race}"]
        assert 5 <= sum(sum(DATA.map.by_id[n].yield_.values()) for n in home.neighbours) <= 7


@pytest.mark.rule("BM-CMP-1")
def test_counters_are_no_limit() -> None:
    many = Troops().plus("infantry", 400).plus("dragon", 30)
    assert many.infantry == 400 and many.dragon == 30
    assert Stock(grain=10_000).plus({"grain": 10_000}).grain == 20_000
    assert not any("counter" in f for f in type(DATA.rules).model_fields)


@pytest.mark.rule("BM-CMP-2", "BM-A-31")
def test_twenty_five_stars_are_a_hard_limit() -> None:
    assert DATA.rules.star_pool == 25
    for n in range(2, 7):
        state, _ = new_game(DATA, seats(n), BMOptions(), n)
        assert state.star_pool + sum(s.owned for s in state.stars.values()) == 25


@pytest.mark.rule("BM-CMP-3")
def test_inventory() -> None:
    assert len(DATA.map.regions) == 39 and len(DATA.map.neutral) == 33
    assert len(action_deck(DATA, 6)) == 81
    assert len(DATA.quests.adventures) + DATA.quests.stars + len(DATA.quests.artifacts) == 48
    assert len(DATA.rules.races) == 6
    assert DATA.rules.star_pool == 25 and DATA.rules.die_sides == 10


@pytest.mark.rule("BM-RES-1")
def test_three_resources_in_a_personal_stock() -> None:
    assert RESOURCES == ("grain", "wood", "iron")
    assert [f.name for f in dataclasses.fields(Stock)] == list(RESOURCES)
    state, _ = new_game(DATA, seats(3), BMOptions(), 1)
    assert set(state.stock) == {1, 2, 3} and all(isinstance(s, Stock) for s in state.stock.values())


@pytest.mark.rule("BM-RES-2")
def test_the_central_supply_is_unlimited() -> None:
    names = {f.name for f in dataclasses.fields(BMState)}
    assert not any("supply" in n for n in names)
    paid = Stock(grain=5, wood=5, iron=5).minus({"wood": 5, "iron": 5})
    assert paid == Stock(grain=5)
    with pytest.raises(ValueError):
        paid.minus({"wood": 1})


@pytest.mark.rule("BM-RACE-1")
def test_race_identity() -> None:
    identity = rows("id | race | colour")
    assert [r[0] for r in identity] == [r.id for r in DATA.rules.races]
    for rid, _name, colour, alignment in identity:
        race = DATA.rules.race[rid]
        assert (race.colour, race.alignment) == (colour, alignment)


def _cost(text: str) -> dict[str, int]:
    return dict(zip(RESOURCES, (int(x) for x in text.split("/")), strict=True))


@pytest.mark.rule("BM-RACE-2")
def test_race_cards() -> None:
    table = rows("race | homeland yield (G/W/I)")
    assert [r[0] for r in table] == [r.id for r in DATA.rules.races]
    for rid, yields, start, *values in table:
        race = DATA.rules.race[rid]
        assert race.homeland_yield == _cost(yields) and race.start == _cost(start)
        for kind, cell in zip(ARMY, values, strict=True):
            rk, move = cell.split(",")
            rout, kill = (int(x) for x in rk.split("/"))
            unit = race.units[kind]
            assert (unit.rout, unit.kill, unit.move) == (rout, kill, int(move)), (rid, kind)


@pytest.mark.rule("BM-RACE-3")
def test_race_abilities() -> None:
    rules = DATA.rules
    named = [(r[0], r[1]) for r in rows("race | ability | rule")]
    assert named == [(rules.abilities[a].race, rules.abilities[a].name) for r in rules.races for a in r.abilities]
    assert rules.ability("DAQ", "cavalry_cap") == 3 and rules.ability("DAQ", "rally") == 1
    assert rules.ability("ELF", "ignores") == "forest" and rules.ability("ELF", "archer_cap") == 3
    assert rules.ability("DWA", "ignores") == "mountain" and rules.ability("DWA", "siege") == 1
    assert rules.ability("KHR", "plunder") == 2 and rules.race["KHR"].units["cavalry"].move == 4
    assert rules.ability("ORC", "melee_cap") == 4 and rules.ability("ORC", "infantry_per_grain") == 2
    assert rules.ability("DRK", "infantry_per_grain") == 0 and rules.ability("DRK", "raise_after_kills") == 2
    assert rules.ability("DAQ", "melee_cap") is None


@pytest.mark.rule("BM-RACE-4")
def test_no_ability_changes_costs_or_placement() -> None:
    assert not {f for f in Ability.model_fields if "cost" in f or "placement" in f}
    assert DATA.rules.units["infantry"].cost == {"wood": 1, "iron": 1}
    assert DATA.rules.homeland.placement == 3


@pytest.mark.rule("BM-UNIT-1")
def test_unit_table() -> None:
    units = DATA.rules.units
    assert units["infantry"].cost == {"wood": 1, "iron": 1} and units["infantry"].upkeep == {"grain": 1}
    assert units["archers"].cost == {"wood": 2, "iron": 1} and units["archers"].upkeep == {"grain": 1}
    assert units["cavalry"].cost == {"wood": 1, "iron": 2} and units["cavalry"].upkeep == {"grain": 1, "iron": 1}
    assert DATA.rules.hero.cost == {"wood": 5, "iron": 5}


@pytest.mark.rule("BM-MON-5")
def test_monsters_come_only_from_cards_and_spells() -> None:
    sources = {c.id for c in DATA.cards.actions if c.monster} | {s.id for s in DATA.cards.spells if s.monster}
    assert sources == {"AC12", "AC13", "AC14", "SP11"}
    assert not set(DATA.rules.start_units) & set(MONSTERS)
    state, _ = new_game(DATA, seats(6), BMOptions(), 3)
    assert all(not t.total() - t.army() for here in state.troops.values() for t in here.values())


@pytest.mark.rule("BM-MON-6")
def test_monster_values() -> None:
    table = rows("monster | melee R/K")
    assert len(table) == 3
    for name, rk, move, special in table:
        monster = DATA.rules.monsters[name.lower()]
        rout, kill = (int(x) for x in rk.split("/"))
        assert (monster.rout, monster.kill, monster.move) == (rout, kill, int(move))
        assert monster.flies == ("flies" in special)


@pytest.mark.rule("BM-GEN-1")
def test_a_unit_is_an_army_unit_or_a_monster() -> None:
    here = Troops(infantry=2, archers=1, cavalry=1, dragon=1)
    assert here.army() == 4 and here.total() == 5
    assert set(here.counts()) == {"infantry", "archers", "cavalry", "dragon"}
    assert not {f.name for f in dataclasses.fields(Troops)} & {"hero", "heroes"}


@pytest.mark.rule("BM-STAR-1")
def test_stars_owned_spent_and_unspent_are_public_state() -> None:
    state = position(("DAQ", "ORC"), stars={1: Stars(owned=3, spent=1), 2: Stars(owned=1)})
    assert state.stars[1].power == 2
    shown = to_json(state)["stars"]
    assert shown["1"] == {"owned": 3, "spent": 1} or shown[1] == {"owned": 3, "spent": 1}


@pytest.mark.rule("BM-DIG-26")
def test_a_changed_json_value_changes_the_rules(tmp_path: Path) -> None:
    copy = tmp_path / "battlemist"
    shutil.copytree(DATA_DIR, copy)
    rules = json.loads((copy / "rules.json").read_text(encoding="utf-8"))
    rules["start_stars"] = 2
    (copy / "rules.json").write_text(json.dumps(rules), encoding="utf-8")
    cards = json.loads((copy / "cards.json").read_text(encoding="utf-8"))
    cards["actions"][0]["count"] = 10
    (copy / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    changed = load(copy)
    assert changed.rules.start_stars == 2 and load().rules.start_stars == 1
    state, _ = new_game(changed, seats(3), BMOptions(), 1)
    assert all(s.owned == 2 for s in state.stars.values()) and state.star_pool == 25 - 6
    assert len(state.deck) == 85 and state.deck.count("AC01") == 10
