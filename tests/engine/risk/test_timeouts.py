"""Skip-mode auto-play (RISK-DIG-42 … DIG-47) as a missed deadline really plays it: the service asks the ruleset
for one action at a time, applies it and asks again, so each single answer must continue the turn's plan."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from engine.core.models import Action, from_json, json_text, to_json
from engine.games.risk import RULESET, RiskState
from engine.games.risk import events as E
from tests.engine.risk.helpers import BOARD, IDS, P1, P2, P3, Interrupt, Phase, new, play, position
from tests.engine.risk.test_digital import eliminating
from tests.engine.test_service import CHANNEL, three_humans
from tests.engine.test_table import DAY, Table

BORDERS = ("venezuela", "argentina", "siam")
MINE = (*BORDERS, "indonesia", "new_guinea", "western_australia", "eastern_australia")
"""The project's example: seven territories, of which only Venezuela, Argentina and Siam border someone else."""
SPREAD = {"venezuela": 2, "argentina": 1, "siam": 1}
"""Four armies one at a time round-robin over those borders, in table order (RISK-DIG-45)."""


def example_owner(me: int, others: tuple[int, int]) -> dict[str, int]:
    return {t: me if t in MINE else others[k % 2] for k, t in enumerate(IDS)}


def one_at_a_time(s: RiskState, pid: int) -> tuple[RiskState, list[Action]]:
    """Ask for one timeout action, apply it, ask again, until `pid` has no decision left (as the service does)."""
    acts: list[Action] = []
    while s.phase is not Phase.GAME_OVER and any(d.player == pid for d in RULESET.pending(s)):
        assert len(acts) < 20, "the stand-in does not finish the turn"
        act = RULESET.timeout_action(s, pid)
        s, _ = play(s, act)
        acts.append(act)
    return s, acts


def placed(s: RiskState, after: RiskState) -> dict[str, int]:
    return {t: after.armies[t] - s.armies[t] for t in IDS if after.armies[t] != s.armies[t]}


def round_robin(s: RiskState, pid: int, n: int) -> dict[str, int]:
    """n armies one at a time over pid's territories that border someone else's, in table order (RISK-DIG-45)."""
    mine = {t for t, o in s.owner.items() if o == pid}
    border = [t for t in IDS if t in mine and not BOARD.neighbour_sets[t] <= mine]
    return dict(Counter(border[k % len(border)] for k in range(n)))


# ---------------------------------------------------------------- the engine: one at a time = the whole list


@pytest.mark.rule("RISK-DIG-45")
def test_one_action_at_a_time_is_the_whole_list_and_spreads_the_pool() -> None:
    s = position(owner=example_owner(P1, (P2, P3)), pool=4, timeout_action="skip")
    end, acts = one_at_a_time(s, P1)
    assert acts == RULESET.timeout_actions(s, P1)
    assert placed(s, end) == SPREAD
    assert end.current == P2


@pytest.mark.rule("RISK-DIG-45")
def test_a_partly_placed_pool_spreads_what_is_left_from_the_first_border() -> None:
    s, _ = play(position(owner=example_owner(P1, (P2, P3)), pool=4), ("place", P1, {"territory": "siam"}))
    end, acts = one_at_a_time(s, P1)
    assert acts == RULESET.timeout_actions(s, P1)
    assert placed(s, end) == {"venezuela": 1, "argentina": 1, "siam": 1}


@pytest.mark.rule("RISK-DIG-45", "RISK-ELIM-7")
def test_the_elimination_placement_one_at_a_time_is_the_whole_list() -> None:
    s = eliminating(["alaska", "venezuela", "northwest_territory"], ["greenland", "quebec", "ontario"])
    s, _ = play(s, RULESET.timeout_action(s, P1))  # the elimination trade
    assert s.interrupt is not None and s.interrupt.kind == "elim_place" and s.pool > 3
    expected = RULESET.timeout_actions(s, P1)
    end, acts = one_at_a_time(s, P1)
    assert acts[:len(expected)] == expected
    assert placed(s, end) == round_robin(s, P1, s.pool)


@pytest.mark.rule("RISK-DIG-45", "RISK-DIG-13")
@pytest.mark.parametrize("options", [{"setup_placement": "one_at_a_time"}, {"setup_placement": "bulk_sequential"},
                                     {"setup_placement": "simultaneous"}, {"mode": "two_player"}])
def test_setup_timeouts_one_at_a_time_are_the_whole_list(options: dict[str, Any]) -> None:
    s = new(2 if options.get("mode") == "two_player" else 3, seed=5, setup="random_deal", **options)
    for _ in range(12):  # a few setup turns, each played by the stand-in
        if s.phase not in (Phase.SETUP_PLACE, Phase.SETUP_PLACE_2P):
            break
        pid = RULESET.pending(s)[0].player
        expected = RULESET.timeout_actions(s, pid)
        s, acts = one_at_a_time(s, pid)
        assert acts[:len(expected)] == expected


# ---------------------------------------------------------------- the service: a deadline passes


async def staged(t: Table, eliminate: bool = False, **update: Any) -> tuple[RiskState, int]:
    """A three-human skip game whose stored state becomes the example position for the seat whose clock runs.

    With `eliminate`, the last seat is out and everything but the example's territories is the second seat's.
    """
    started = await three_humans(t.service, timeout_action="skip")
    me = started.current
    a, b = (p.id for p in started.players if p.id != me)
    fields: dict[str, Any] = {
        "phase": Phase.REINFORCE, "turn": 1, "owner": example_owner(me, (a, a) if eliminate else (a, b)),
        "armies": dict.fromkeys(IDS, 3), "setup_left": {}, "deck": [*IDS, *BOARD.wild_cards], "pool": 4,
    }
    if eliminate:
        fields["players"] = [replace(p, status="eliminated") if p.id == b else p
                             for p in started.players]
        fields["interrupt"] = Interrupt(kind="elim_place", eliminated=b)
    s = from_json(RiskState, to_json(replace(started, **(fields | update))))
    game = await t.service.store.live_game(CHANNEL)
    assert game is not None
    await t.service.store.update_game(game, state=json_text(s))
    return s, me


async def missed(t: Table, me: int) -> tuple[RiskState, dict[str, int]]:
    """Let `me`'s deadline pass; the final state and the armies the stand-in placed, per territory."""
    [*_, timeout] = await t.tick(DAY)
    assert (timeout.kind, timeout.player) == ("timeout", me)
    assert timeout.outcome.steps and all(step.actor == me and step.ai for step in timeout.outcome.steps)
    counts: Counter[str] = Counter()
    for event in timeout.outcome.events:
        if isinstance(event, E.Placed):
            counts[event.territory] += event.count
    return await t.state(), dict(counts)


@pytest.mark.rule("RISK-DIG-42", "RISK-DIG-45", "RISK-DIG-47")
async def test_a_missed_reinforcement_spreads_the_pool_round_robin(table: Table) -> None:
    s, me = await staged(table)
    end, counts = await missed(table, me)
    assert counts == SPREAD
    assert placed(s, end) == SPREAD
    assert end.current != me and end.phase is Phase.REINFORCE and end.turn == 2


@pytest.mark.rule("RISK-DIG-42", "RISK-DIG-45", "RISK-ELIM-7")
async def test_a_missed_elimination_placement_spreads_the_pool_round_robin(table: Table) -> None:
    s, me = await staged(table, eliminate=True, phase=Phase.ATTACK, conquered_this_turn=True)
    end, counts = await missed(table, me)
    assert counts == SPREAD
    assert placed(s, end) == SPREAD
    assert end.current != me and len(end.hands[me]) == 1, "the turn ends with the card the conquest earned"
