"""Simultaneous placement (RISK-SET-27) on the core's secret orders: random plans, revisions and departures."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import RuleError
from engine.core.models import to_json
from engine.core.orders import complete, missing
from engine.games.risk import RULESET, RiskState
from engine.games.risk.state import Phase
from tests.engine.risk.helpers import P1, P2, P3, P4, new

SEATS = (P1, P2, P3, P4)
moves = st.lists(st.tuples(st.sampled_from(["place", "deploy", "resign"]), st.sampled_from(SEATS),
                           st.integers(0, 9), st.integers(1, 8)), max_size=30)


@pytest.mark.rule("RISK-SET-27")
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), moves=moves)
def test_plans_are_revealed_only_when_all_are_in_and_never_shown_to_others(
        seed: int, moves: list[tuple[str, int, int, int]]) -> None:
    s = new(4, seed=seed, setup="random_deal", setup_placement="simultaneous")
    for kind, who, pick, count in moves:
        if s.phase is not Phase.SETUP_PLACE:
            break
        mine = s.territories_of(who) or ["alaska"]
        territory = mine[pick % len(mine)]
        data = {"resign": {}, "place": {"territory": territory, "count": count},
                "deploy": {"placements": {territory: count}}}[kind]
        book = s.plan_book()
        try:
            after, events = RULESET.apply(s, RULESET.parse_action({"type": kind, "player": who, **data}))
        except RuleError:
            continue
        assert isinstance(after, RiskState)
        revealed = [e for e in events if e.type == "plans_revealed"]
        if revealed:  # the last plan in (or the last missing seat gone) reveals every plan at once
            assert missing(book) in ([who], []) and after.phase is not Phase.SETUP_PLACE
        else:
            assert after.armies == s.armies and (after.phase is Phase.SETUP_PLACE) == (after.winner is None)
            assert not complete(after.plan_book()) or after.winner is not None
        assert all(e.private_to == who for e in events if e.type == "planned")
        s = after
        locked = [p for p, plan in s.plans.items() if sum(plan.values()) == s.setup_left.get(p)]
        for viewer in (*SEATS, None):
            view = RULESET.view(s, viewer)
            assert view.plans.get(viewer) == s.plans.get(viewer)
            for other, plan in s.plans.items():
                if other != viewer and plan:
                    assert json.dumps(plan) not in json.dumps(to_json(view))
            assert sorted(p for p in view.plans if p != viewer) == sorted(p for p in locked if p != viewer)
            assert [d.player for d in RULESET.pending(view)] == [d.player for d in RULESET.pending(s)]
        if s.phase is Phase.SETUP_PLACE:  # the pending list is the book's missing seats
            assert [d.player for d in RULESET.pending(s)] == missing(s.plan_book())
