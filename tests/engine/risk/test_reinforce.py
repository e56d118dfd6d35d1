"""Reinforcement at turn start and placement during REINFORCE (RISK-REI-*)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from engine.games.risk import pending
from engine.games.risk.state import RiskState
from tests.engine.risk.helpers import BOARD, IDS, NEUTRAL, P1, P2, P3, Phase, of_type, play, position, rejects

# One territory of each continent left out: no continent can be complete within this list.
NO_CONTINENT = [
    t for t in IDS
    if t not in ("central_america", "argentina", "ukraine", "madagascar", "siam", "eastern_australia")
]

OUTSIDE_EUROPE = [t for t in NO_CONTINENT if BOARD.territory[t].continent != "europe"]


def holding(mine: Iterable[str], **overrides: int) -> dict[str, int]:
    """P1 owns `mine`; every other territory goes to P2 and P3 alternately, then `overrides` apply."""
    chosen = set(mine)
    others = [t for t in IDS if t not in chosen]
    return {t: P1 for t in chosen} | {t: (P2, P3)[k % 2] for k, t in enumerate(others)} | overrides


def start_p1_turn(owner: dict[str, int], **kwargs: Any) -> tuple[RiskState, Any]:
    """P3 ends their turn, so P1's turn starts; returns the new state and its TurnStarted event."""
    s = position(3, owner=owner, phase=Phase.FORTIFY, current=P3, **kwargs)
    s, events = play(s, ("end_turn", P3))
    (started,) = of_type(events, "turn_started")
    assert started.player == P1 == s.current
    return s, started


def pass_turn(s: RiskState) -> RiskState:
    """The current player places the whole pool on their first territory and ends the turn."""
    me = s.current
    s, _ = play(s, ("place", me, {"territory": s.territories_of(me)[0], "count": s.pool}))
    s, _ = play(s, ("end_turn", me))
    return s


def members(continent: str) -> list[str]:
    return list(BOARD.members[continent])


@pytest.mark.rule("RISK-REI-1")
@pytest.mark.parametrize(
    ("count", "base"),
    [(1, 3), (2, 3), (3, 3), (8, 3), (9, 3), (11, 3), (12, 4), (14, 4), (17, 5), (18, 6), (36, 12)],
)
def test_base_is_a_third_of_the_territories_but_at_least_three(count: int, base: int) -> None:
    s, started = start_p1_turn(holding(NO_CONTINENT[:count]))
    assert len(s.territories_of(P1)) == count
    assert (started.base, started.continents, started.total) == (base, [], base)
    assert s.pool == base
    assert s.phase is Phase.REINFORCE


@pytest.mark.rule("RISK-REI-2", "RISK-REI-3")
@pytest.mark.parametrize(
    ("mine", "base", "continents", "total"),
    [
        (members("australia"), 3, ["australia"], 5),  # 4 territories: max(3, 1) + 2, not max(3, 1 + 2)
        ([*members("australia"), "alaska", "japan"], 3, ["australia"], 5),  # the spec's example
        ([*members("south_america"), "alaska", "japan", "iceland"], 3, ["south_america"], 5),  # the docs' example
        ([*members("europe"), *OUTSIDE_EUROPE[:13]], 6, ["europe"], 11),  # 20 territories with Europe: 6 + 5
    ],
)
def test_minimum_applies_to_the_territory_part_only(
    mine: list[str], base: int, continents: list[str], total: int
) -> None:
    s, started = start_p1_turn(holding(mine))
    assert len(set(mine)) == len(s.territories_of(P1))
    assert (started.base, sorted(started.continents), started.total) == (base, continents, total)
    assert s.pool == total


@pytest.mark.rule("RISK-REI-3")
def test_every_wholly_owned_continent_adds_its_bonus() -> None:
    mine = [*members("europe"), *members("south_america"), *members("australia")]  # 15 territories
    s, started = start_p1_turn(holding(mine))
    assert started.base == 5
    assert sorted(started.continents) == ["australia", "europe", "south_america"]
    assert started.total == s.pool == 5 + 5 + 2 + 2


@pytest.mark.rule("RISK-REI-3")
def test_asia_and_africa_pay_seven_and_three() -> None:
    mine = [*members("asia"), *members("africa")]  # 18 territories
    _, started = start_p1_turn(holding(mine))
    assert (started.base, sorted(started.continents), started.total) == (6, ["africa", "asia"], 6 + 7 + 3)


@pytest.mark.rule("RISK-REI-3")
def test_a_continent_short_of_one_territory_pays_nothing() -> None:
    north_america = members("north_america")
    _, started = start_p1_turn(holding(north_america[:-1]))  # all but Central America
    assert (started.base, started.continents, started.total) == (3, [], 3)
    # The same with Central America held by P1 pays North America's 5.
    _, started = start_p1_turn(holding(north_america))
    assert (started.base, started.continents, started.total) == (3, ["north_america"], 8)


@pytest.mark.rule("RISK-REI-4", "RISK-REI-1")
def test_a_continent_completed_mid_turn_pays_at_the_next_turn_start() -> None:
    mine = ["indonesia", "new_guinea", "western_australia", *NO_CONTINENT[:9]]  # 12 territories
    owner = holding(mine, eastern_australia=P2)
    s = position(3, owner=owner, phase=Phase.ATTACK, armies={"new_guinea": 4, "eastern_australia": 1})
    s, events = play(s, ("attack", P1, {"source": "new_guinea", "target": "eastern_australia"}), dice=[6, 6, 6, 1])
    assert s.owner["eastern_australia"] == P1
    # Australia is now complete, with 13 territories, but the pool of this turn is not touched.
    assert of_type(events, "turn_started") == []
    assert (s.pool, s.phase) == (0, Phase.ATTACK)
    s, _ = play(s, ("end_turn", P1))
    s = pass_turn(s)  # P2
    s, events = play(s, ("place", P3, {"territory": s.territories_of(P3)[0], "count": s.pool}))
    s, events = play(s, ("end_turn", P3))
    (started,) = of_type(events, "turn_started")
    assert started.player == P1
    assert (started.base, started.continents, started.total) == (4, ["australia"], 6)
    assert s.pool == 6


@pytest.mark.rule("RISK-REI-4")
def test_a_continent_completed_mid_turn_pays_nothing_if_lost_before_the_next_turn() -> None:
    # P1 holds Peru, Brazil, Argentina; P2 holds Venezuela (1 army) and Central America (9 armies).
    mine = ["peru", "brazil", "argentina", "alaska", "japan", "iceland"]
    owner = holding(mine, venezuela=P2, central_america=P2)
    s = position(3, owner=owner, phase=Phase.ATTACK,
                 armies={"brazil": 4, "venezuela": 1, "central_america": 9})
    s, _ = play(s, ("attack", P1, {"source": "brazil", "target": "venezuela"}), dice=[6, 6, 6, 1])
    assert (s.owner["venezuela"], s.armies["venezuela"]) == (P1, 3)  # South America complete
    s, _ = play(s, ("end_turn", P1))
    assert s.current == P2
    s, _ = play(s, ("place", P2, {"territory": "central_america", "count": s.pool}))
    # P2 takes Venezuela back: 3 armies fall to two rolls of 6-6-6 against 1s.
    s, _ = play(
        s, ("attack", P2, {"source": "central_america", "target": "venezuela", "until": "conquer"}),
        dice=[6, 6, 6, 1, 1, 6, 6, 6, 1],
    )
    assert s.owner["venezuela"] == P2
    assert s.interrupt is not None and s.interrupt.kind == "occupy"
    s, _ = play(s, ("move", P2, {"count": 3}))
    s, _ = play(s, ("end_turn", P2))
    s = pass_turn(s)  # P3
    assert s.current == P1
    assert len(s.territories_of(P1)) == 6
    assert s.pool == 3  # no South America bonus


@pytest.mark.rule("RISK-REI-5")
def test_turn_start_sets_pool_and_clears_the_turn_flags() -> None:
    mine = [*members("australia"), *NO_CONTINENT[:11]]  # 15 territories
    s = position(3, owner=holding(mine), phase=Phase.ATTACK, current=P3, conquered=True,
                 card_bonus_taken=True, deck=["iceland", "japan"])
    s, events = play(s, ("end_turn", P3))
    (started,) = of_type(events, "turn_started")
    assert (started.player, started.base, started.continents, started.total) == (P1, 5, ["australia"], 7)
    assert (s.current, s.phase, s.pool) == (P1, Phase.REINFORCE, 7)
    assert s.conquered_this_turn is False
    assert s.card_bonus_taken is False
    assert s.interrupt is None


@pytest.mark.rule("RISK-REI-5")
@pytest.mark.parametrize(("hand", "kind"), [(4, "reinforce"), (5, "trade")])
def test_turn_start_flags_a_forced_trade_with_five_cards(hand: int, kind: str) -> None:
    cards = ["alaska", "peru", "greenland", "japan", "venezuela"][:hand]
    s = position(3, phase=Phase.FORTIFY, current=P3, hands={P1: cards})
    s, _ = play(s, ("end_turn", P3))
    (decision,) = pending(s)
    assert (decision.player, decision.kind) == (P1, kind)
    if hand >= 5:
        rejects(s, ("place", P1, {"territory": "alaska", "count": 1}), "E_MUST_TRADE")
    else:
        s, _ = play(s, ("place", P1, {"territory": "alaska", "count": 1}))
        assert s.armies["alaska"] == 4


@pytest.mark.rule("RISK-REI-6")
def test_place_needs_an_own_territory() -> None:
    s = position(3, pool=3, owner={"iceland": NEUTRAL})
    err = rejects(s, ("place", P1, {"territory": "northwest_territory", "count": 1}), "E_NOT_OWNED")
    assert err.params["owner"] == s.name(P2)
    rejects(s, ("place", P1, {"territory": "iceland", "count": 1}), "E_NOT_OWNED")
    # Ownership is checked before the count.
    rejects(s, ("place", P1, {"territory": "northwest_territory", "count": 9}), "E_NOT_OWNED")


@pytest.mark.rule("RISK-REI-6")
@pytest.mark.parametrize("count", [0, -2])
def test_place_needs_at_least_one_army(count: int) -> None:
    s = position(3, pool=3)
    rejects(s, ("place", P1, {"territory": "alaska", "count": count}), "E_BAD_NUMBER")


@pytest.mark.rule("RISK-REI-6")
def test_place_needs_enough_armies_in_the_pool() -> None:
    s = position(3, pool=3)
    err = rejects(s, ("place", P1, {"territory": "alaska", "count": 4}), "E_TOO_MANY_TO_PLACE")
    assert err.params["n"] == 3
    s, events = play(s, ("place", P1, {"territory": "alaska", "count": 3}))
    assert [(e.player, e.territory, e.count) for e in of_type(events, "placed")] == [(P1, "alaska", 3)]
    assert (s.armies["alaska"], s.pool) == (6, 0)
    err = rejects(s, ("place", P1, {"territory": "alaska", "count": 1}), "E_TOO_MANY_TO_PLACE")
    assert err.params["n"] == 0


@pytest.mark.rule("RISK-REI-7")
def test_armies_may_be_split_over_several_commands() -> None:
    s = position(3, pool=6)
    for territory, count in [("alaska", 2), ("alberta", 1), ("alaska", 3)]:
        s, _ = play(s, ("place", P1, {"territory": territory, "count": count}))
    assert (s.armies["alaska"], s.armies["alberta"], s.pool) == (8, 4, 0)
    assert s.phase is Phase.REINFORCE
