"""Property tests: random legal Wizard's Quest games keep every invariant (WQ-DIG-8) and replay exactly."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.models import Seat, from_json, json_text, to_json
from engine.core.record import GameRecord, replay
from engine.core.views import HIDDEN, SEALED
from engine.games.wizards_quest import RULESET, WQOptions, WQState
from engine.games.wizards_quest import board as B
from engine.games.wizards_quest.state import Phase

DATA = RULESET.data


def check_invariants(s: WQState, before: WQState | None) -> None:
    assert all(0 < n <= 4 for n in s.orcs.values()), "orc cap"
    assert not set(s.orcs) & set(s.owner), "one occupant per location"
    assert all(s.pieces(loc) > 0 for loc in s.owner), "no empty player location"
    for pid, loc in s.hero.items():
        assert s.owner.get(loc) == pid and s.sorcerer.get(pid) != loc, "leaders apart, on own ground"
    for pid, loc in s.sorcerer.items():
        assert s.owner.get(loc) == pid
    in_attack = 1 if s.attack is not None and s.attack.boat else 0
    cards = s.deck + s.discard + [c for h in s.hands.values() for c in h] + [c for b in s.boats.values() for c in b]
    assert len(cards) + in_attack == 35 and len(set(cards)) == len(cards), "35 cards"
    forced = bool(s.todo) and s.todo[0].kind == "hand"
    assert all(len(h) <= 2 for p, h in s.hands.items() if not (forced and p == s.current)), "hand limit"
    assert B.protected_region(s, DATA) == (DATA.map.region_of[s.mage] if s.mage else None)
    if s.attack is not None and s.attack.beast != "mage":
        assert not B.is_protected(s, DATA, s.attack.target), "no attack into the protected region"
    if s.attack is not None and s.attack.boat is not None:
        assert s.attack.link == "water" and DATA.map.shared_water(s.attack.source, s.attack.target), \
            "a boat spent on a crossing without water (WQ-BOAT-3)"
    for p in s.players:
        if p.status != "active":
            assert not s.hands[p.id] and not s.boats[p.id] and p.id not in s.hero and p.id not in s.sorcerer
            assert p.status == "resigned" or p.id not in s.owner.values(), "only a resigned player leaves rebels"
            assert not any(t.owner == p.id for t in s.treasures), "a fallen player's treasures are removed"
    decisions = RULESET.pending(s)
    if s.phase is Phase.GAME_OVER:
        assert decisions == [] and s.winners is not None
    else:
        assert len(decisions) == 1 and decisions[0].player == s.current
        if decisions[0].kind in ("setup_deploy", "reinforce", "reward"):
            assert decisions[0].detail["men"] > 0, "a prompt asks to place 0 men"
        assert s.player(s.current).status == "active"
    if before is not None and s.phase is not Phase.GAME_OVER:
        assert (s.round, s.seq) > (before.round, before.seq), "the game moves on"


def check_views(s: WQState) -> None:
    for p in s.players:
        view = RULESET.view(s, p.id)
        assert view.hands[p.id] == s.hands[p.id]
        assert all(set(hand) <= {HIDDEN} for pid, hand in view.hands.items() if pid != p.id)
        assert set(view.deck) <= {HIDDEN} and view.rng == SEALED
    assert all(set(hand) <= {HIDDEN} for hand in RULESET.view(s, None).hands.values())


@pytest.mark.rule("WQ-DIG-8", "WQ-DIG-7")
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), decoy=st.booleans(),
       turn_order=st.sampled_from(["per_round", "fixed"]), mix=st.integers(0, 63))
def test_random_games_keep_the_invariants_and_replay_exactly(seed: int, players: int, decoy: bool,
                                                              turn_order: str, mix: int) -> None:
    options = WQOptions(decoy=decoy, turn_order=turn_order, round_limit=12)  # type: ignore[arg-type]
    seats = [Seat(id=i + 1, name=f"P{i + 1}") for i in range(players)]
    state, _ = RULESET.new_game(seats, options, seed)
    assert isinstance(state, WQState)
    policies = {s.id: RULESET.policy("baseline" if mix >> k & 1 else "random") for k, s in enumerate(seats)}
    rng = random.Random(seed)
    actions = []
    check_invariants(state, None)
    while RULESET.winners(state) is None:
        assert len(actions) < 5000, "the game must end"
        player = RULESET.pending(state)[0].player
        action = policies[player].choose(state, player, rng)
        frozen = json_text(state)
        new_state, _ = RULESET.apply(state, action)
        assert json_text(state) == frozen, "apply mutated its input"
        assert isinstance(new_state, WQState)
        check_invariants(new_state, state)
        if len(actions) % 7 == 0:
            check_views(new_state)
            RULESET.check_position(new_state)  # what a loaded position must keep, a position reached in play keeps
        actions.append(action)
        state = new_state
    record = GameRecord(game="wizards_quest", seed=seed, options=options.model_dump(), seats=seats,
                        actions=[to_json(a) for a in actions])
    replayed, _ = replay(RULESET, GameRecord.model_validate_json(record.model_dump_json()))
    assert replayed == state
    assert from_json(WQState, json.loads(json_text(state))) == state
