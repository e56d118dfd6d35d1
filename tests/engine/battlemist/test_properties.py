"""Property tests: random legal Battlemist games (random and baseline seats, 2–6 players, every board and race
option, a round cap) keep every invariant after every action, and replay exactly from their seed."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.models import Action, Event, json_text, to_json
from engine.core.record import GameRecord, replay
from engine.core.views import HIDDEN, SEALED
from engine.games.battlemist import ai, ruleset
from engine.games.battlemist.data import RESOURCES, load
from engine.games.battlemist.state import BMOptions, BMState, Phase
from tests.engine.battlemist.ai_kit import RULES, seats
from tests.engine.legality import check_controls

QUIET = frozenset(Phase) - {Phase.MOVEMENT, Phase.COMBAT}
"""Phases in which no combat step is under way: every region has at most one army in it (BM-CTL-3)."""


def ledger(before: BMState, events: list[Event]) -> dict[int, Counter[str]]:
    """What the events say each player's stock gained (negative: paid)."""
    change: dict[int, Counter[str]] = {p.id: Counter() for p in before.players}
    offers = {o.id: o for o in before.economy.offers} if before.economy is not None else {}
    hero_cost = load().rules.hero.cost
    for e in events:
        data = to_json(e)
        kind, pid = data["type"], data.get("player")
        if kind in ("harvested",):
            change[pid].update(data["income"])
        elif kind == "plundered":
            change[pid].update(data["gain"])
        elif kind in ("city_built", "recruited"):
            change[pid].subtract(data["cost"])
        elif kind == "star_bought":
            change[pid].subtract(data["price"])
        elif kind == "upkeep_paid":
            change[pid].subtract(data["paid"])
        elif kind == "hero_recruited":
            change[pid].subtract(hero_cost)
        elif kind == "uprising_paid":
            change[pid].subtract({"grain": len(data["regions"])})
        elif kind == "merchant_traded":
            change[pid].subtract({data["give"]: data["amount"]})
            change[pid].update({data["get"]: data["received"]})
        elif kind == "trade_closed" and data["accepted"]:
            offer = offers[data["offer"]]
            change[offer.source].subtract(offer.give)
            change[offer.source].update(offer.get)
            change[offer.target].subtract(offer.get)
            change[offer.target].update(offer.give)
    return change


def unit_changes(events: list[Event]) -> Counter[int]:
    """How many units each player gained by the events (negative: lost)."""
    change: Counter[int] = Counter()
    for e in events:
        data = to_json(e)
        kind, pid = data["type"], data.get("player")
        if kind == "recruited":
            change[pid] += data["n"]
        elif kind == "dead_raised":
            change[pid] += 1
        elif kind == "disbanded":
            change[pid] -= data["n"]
        elif kind in ("units_disbanded", "units_lost"):
            change[pid] -= sum(data["units"].values())
        elif kind == "casualties_taken":
            change[pid] -= sum(data["kills"].values())
        elif kind == "overrun":
            change[pid] -= sum(data["killed"].values())
        elif kind == "battle_ended":
            for loser, units in data["destroyed"].items():
                change[int(loser)] -= sum(units.values())
    return change


def units(state: BMState) -> Counter[int]:
    return Counter({pid: sum(t.total() for here in state.troops.values() for p, t in here.items() if p == pid)
                    for pid in (p.id for p in state.players)})


def check_step(before: BMState, after: BMState, events: list[Event]) -> None:
    """After one action: resources and units changed only as the events say (setup deals the first ones)."""
    for pid, stock in after.stock.items():
        assert all(stock.get(r) >= 0 for r in RESOURCES), ("negative resources", pid, stock)
    if before.phase not in (Phase.DRAFT, Phase.BUILD):
        gained = ledger(before, events)
        for pid, stock in after.stock.items():
            for r in RESOURCES:
                assert stock.get(r) - before.stock[pid].get(r) == gained[pid][r], (r, pid, [e.type for e in events])
        gained_units = unit_changes(events)
        now, was_units = units(after), units(before)
        for p in after.players:
            assert now[p.id] - was_units[p.id] == gained_units[p.id], ("units", p.id, [e.type for e in events])
    if after.phase in QUIET:
        for region, here in after.troops.items():
            assert sum(1 for t in here.values() if t.army()) <= 1, ("two armies in", region)
    assert after.phase is Phase.GAME_OVER or ruleset.pending(after), "somebody can always act"
    if after.phase in (Phase.QUEST, Phase.MOVEMENT, Phase.COMBAT):
        others = {d.kind for d in ruleset.pending(after) if d.player != after.active}
        assert others <= ruleset.REACTIONS, ("out of turn only reactions (BM-RND-4)", others)
    assert all(t.total() > 0 for here in after.troops.values() for t in here.values()), "no empty unit entry"


def check_answerable(state: BMState) -> None:
    """The stand-in's action and every control of every seat that must decide are accepted."""
    for pid in dict.fromkeys(d.player for d in ruleset.pending(state)):
        RULES.apply(state, ruleset.timeout_action(state, pid))
    check_controls(RULES, state, [])


def check_views(state: BMState) -> None:
    for viewer in [None, *(p.id for p in state.players)]:
        seen = ruleset.view(state, viewer)
        assert seen.rng == SEALED and set(seen.deck) <= {HIDDEN} and set(seen.quest_deck) <= {HIDDEN}
        for pid, cards in seen.hands.items():
            assert cards == state.hands[pid] if pid == viewer else set(cards) <= {HIDDEN}
        for pid, card in seen.quests.items():
            assert card == state.quests[pid] if pid == viewer else card == HIDDEN
        eco = seen.economy
        books = [eco.start, eco.orders, eco.upkeep] if eco is not None else []
        books += [seen.initiative.choices if seen.initiative is not None else None,
                  seen.council.choices if seen.council is not None else None]
        for book in books:
            assert book is None or set(book.drafts) <= {viewer}, "another seat's unlocked orders"


@pytest.mark.rule("BM-DIG-20", "BM-DIG-21", "BM-DIG-22", "BM-DIG-1", "BM-DIG-5", "BM-CTL-3", "BM-SIM-4",
                  "BM-RND-4")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), board=st.sampled_from(["fixed", "build"]),
       races=st.sampled_from(["random", "draft"]), mix=st.integers(0, 63), trades=st.booleans())
def test_random_games_keep_the_invariants_and_replay_exactly(seed: int, players: int, board: str, races: str,
                                                              mix: int, trades: bool) -> None:
    options = BMOptions(board=board, races=races, player_trades=trades, round_cap=4)  # type: ignore[arg-type]
    table = seats(players)
    state, _ = ruleset.new_game(table, options, seed)
    policies = {s.id: ai.POLICIES["baseline" if mix >> k & 1 else "random"]() for k, s in enumerate(table)}
    rng = random.Random(seed)
    actions: list[Action] = []
    log: list[Event] = []
    while state.phase is not Phase.GAME_OVER:
        assert len(actions) < 4000, "the game must end at its round cap"
        player = ruleset.pending(state)[0].player
        action = policies[player].choose(state, player, rng)
        frozen = json_text(state)
        new_state, events = RULES.apply(state, action)
        assert json_text(state) == frozen, "apply mutated its input"
        check_step(state, new_state, events)
        if len(actions) % 11 == 0:
            check_answerable(new_state)
            check_views(new_state)
        actions.append(action)
        log += events
        state = new_state
    assert state.winners and state.round <= 4
    record = GameRecord(game="battlemist", seed=seed, options=options.model_dump(), seats=table,
                        actions=[to_json(a) for a in actions])
    replayed, replay_log = replay(RULES, GameRecord.model_validate_json(record.model_dump_json()))  # type: ignore[arg-type]
    assert replayed == state
    assert [to_json(e) for e in replay_log][-len(log):] == [to_json(e) for e in log], "the same event log"
