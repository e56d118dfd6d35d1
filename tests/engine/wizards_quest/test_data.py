"""The proposed map, deck and numbers as data (WQ-MAP-*, WQ-PCS-*, WQ-CARD-0, WQ-DIG-7)."""

from __future__ import annotations

import json
from collections import deque

import pytest
from pydantic import ValidationError

from engine.games.wizards_quest.data import DATA_DIR, Deck, WQMap
from tests.engine.wizards_quest.helpers import DATA, MAP

WEST = {1, 3, 5}


def components(nodes: set[str], edges: set[frozenset[str]]) -> int:
    seen: set[str] = set()
    count = 0
    for start in nodes:
        if start in seen:
            continue
        count += 1
        queue = deque([start])
        seen.add(start)
        while queue:
            x = queue.popleft()
            for e in edges:
                if x in e:
                    (y,) = e - {x}
                    if y in nodes and y not in seen:
                        seen.add(y)
                        queue.append(y)
    return count


@pytest.mark.rule("WQ-MAP-1")
def test_six_regions_of_six_territories_picked_by_two_dice() -> None:
    assert [r.id for r in MAP.regions] == [1, 2, 3, 4, 5, 6]
    assert len(MAP.territories) == 36
    picked = {MAP.territory(r, t) for r in range(1, 7) for t in range(1, 7)}
    assert picked == set(MAP.territories)
    assert MAP.territory(3, 6) == "3.6"


@pytest.mark.rule("WQ-MAP-2")
def test_eight_castles_each_in_one_region_and_never_rolled() -> None:
    assert MAP.castles == ("C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8")
    assert MAP.region_of["C7"] == 3 and MAP.region_of["C8"] == 4
    assert not set(MAP.castles) & {MAP.territory(r, t) for r in range(1, 7) for t in range(1, 7)}


@pytest.mark.rule("WQ-MAP-3", "WQ-MAP-6")
def test_link_counts_symmetry_and_connectivity() -> None:
    kinds = [link.kind for link in MAP.links]
    assert (kinds.count("land"), kinds.count("bridge"), kinds.count("tunnel")) == (79, 2, 1)
    assert len(MAP.ids) == 44
    for a, ns in MAP.neighbours.items():
        for b in ns:
            assert a in MAP.neighbours[b], f"{a}-{b} is not symmetric"
    edges = {frozenset((link.a, link.b)) for link in MAP.links}
    assert components(set(MAP.ids), edges) == 1


@pytest.mark.rule("WQ-MAP-5")
def test_west_and_east_meet_only_at_bridges_strip_and_tunnel() -> None:
    crossings = {frozenset((link.a, link.b)) for link in MAP.links
                 if (MAP.region_of[link.a] in WEST) != (MAP.region_of[link.b] in WEST)}
    assert crossings == {frozenset(p) for p in (("1.6", "2.4"), ("3.6", "4.4"), ("5.6", "6.4"), ("1.2", "6.5"))}
    assert MAP.proposed and DATA.deck.proposed and DATA.params.proposed


@pytest.mark.rule("WQ-MAP-4")
def test_three_bodies_of_water_and_castles_border_none() -> None:
    assert [w.name for w in MAP.water] == ["Sea", "River", "Lake"]
    assert all(not MAP.waters_of[c] for c in MAP.castles)
    assert MAP.shared_water("3.6", "4.4") == ("river", "lake")
    assert MAP.shared_water("1.5", "2.5") == ()


def test_adjacency_matches_the_spec_table() -> None:
    table = {"1.2": ("1.1", "1.3", "1.5", "6.5"), "4.5": ("4.2", "4.4", "4.6", "6.2", "C4", "C8"),
             "C7": ("3.2", "3.3", "3.6"), "6.4": ("5.6", "6.1", "6.5")}
    for loc, expected in table.items():
        assert MAP.neighbours[loc] == expected
    assert MAP.link_kind[("6.5", "1.2")] == "tunnel" and MAP.link_kind[("2.4", "1.6")] == "bridge"


@pytest.mark.rule("WQ-MAP-7")
def test_location_order() -> None:
    assert MAP.ids[:7] == ("1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "2.1")
    assert MAP.ids[35:] == ("6.6", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8")


@pytest.mark.rule("WQ-PCS-6", "WQ-CARD-0")
def test_petition_deck_counts() -> None:
    deck = DATA.deck
    assert len(deck.instances) == 35 and len(set(deck.instances)) == 35
    assert sum(deck.has_boat(c) for c in deck.instances) == 10
    assert sum(deck.card(c).immediate for c in deck.instances) == 8
    assert len(deck.cards) == 16


@pytest.mark.rule("WQ-PCS-1", "WQ-PCS-2", "WQ-PCS-3", "WQ-PCS-5")
def test_pieces_numbers_are_data() -> None:
    p = DATA.params
    assert p.leader_cost == 2 and p.orc_cap == 4
    assert p.starting_men == {2: 20, 3: 16, 4: 12, 5: 10, 6: 8}
    assert (p.players["min"], p.players["max"]) == (2, 6)


@pytest.mark.rule("WQ-DIG-7")
def test_bad_data_is_refused_on_load() -> None:
    raw = json.loads((DATA_DIR / "map.json").read_text(encoding="utf-8"))
    raw["links"].append({"a": "1.1", "b": "9.9", "kind": "land"})
    with pytest.raises(ValidationError):
        WQMap.model_validate(raw)
    raw = json.loads((DATA_DIR / "map.json").read_text(encoding="utf-8"))
    raw["links"].append({"a": "1.2", "b": "1.1", "kind": "land"})
    with pytest.raises(ValidationError, match="duplicate link"):
        WQMap.model_validate(raw)
    cards = json.loads((DATA_DIR / "petitions.json").read_text(encoding="utf-8"))
    cards["cards"][0]["boat_copies"] = 9
    with pytest.raises(ValidationError):
        Deck.model_validate(cards)
