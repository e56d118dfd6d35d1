"""The shared event kinds: both games' events are the core's, with their JSON unchanged."""

from __future__ import annotations

from engine.core.events import (
    ROUND_STARTED,
    TURN_STARTED,
    BoardChanged,
    Headline,
    PlayerLeft,
    RoundStarted,
    TurnStarted,
    changes_board,
    is_headline,
)
from engine.core.models import json_text
from engine.games.risk import RULESET as RISK
from engine.games.wizards_quest import RULESET as WQ
from engine.replays import TURN_EVENT


def test_both_games_start_turns_with_the_core_kind() -> None:
    risk = RISK.parse_event({"type": "turn_started", "player": 1, "turn": 2, "base": 3, "continents": [],
                             "total": 3})
    wq = WQ.parse_event({"type": "turn_started", "player": 1, "round": 4})
    for event in (risk, wq):
        assert isinstance(event, TurnStarted) and event.type == TURN_STARTED == TURN_EVENT
    assert json_text(risk) == ('{"type":"turn_started","private_to":null,"player":1,"turn":2,"base":3,'
                             '"continents":[],"total":3}')
    assert json_text(wq) == '{"type":"turn_started","private_to":null,"player":1,"round":4}'


def test_rounds_start_with_the_core_event() -> None:
    event = WQ.parse_event({"type": "round_started", "round": 3})
    assert type(event) is RoundStarted and event.type == ROUND_STARTED
    assert json_text(event) == '{"type":"round_started","private_to":null,"round":3}'


def test_the_board_changes_after_turns_conquests_and_the_ends() -> None:
    risk = ({"type": "conquered", "player": 1, "source": "a", "target": "b", "previous_owner": 2},
            {"type": "game_won", "player": 1, "reason": "last_standing"}, {"type": "setup_finished"})
    wq = ({"type": "game_over", "winners": [1], "reason": "last_standing"}, {"type": "setup_finished"})
    changed = [RISK.parse_event(e) for e in risk] + [WQ.parse_event(e) for e in wq]
    assert all(isinstance(e, BoardChanged) and changes_board(e) for e in changed)
    unchanged = [RISK.parse_event({"type": "card_drawn", "player": 1, "hand_size": 2}),
                 WQ.parse_event({"type": "round_started", "round": 3})]
    assert not any(changes_board(e) for e in unchanged)


def test_both_games_tell_a_departure_with_the_core_event() -> None:
    risk = RISK.parse_event({"type": "player_left", "player": 1, "removed_by": 2})
    wq = WQ.parse_event({"type": "player_left", "player": 1, "rebels": {"1.1": 2}})
    assert isinstance(risk, PlayerLeft) and isinstance(wq, PlayerLeft)
    assert json_text(risk) == '{"type":"player_left","private_to":null,"player":1,"removed_by":2}'
    assert json_text(wq) == ('{"type":"player_left","private_to":null,"player":1,"removed_by":null,'
                                    '"rebels":{"1.1":2}}')


def test_eliminations_departures_and_the_end_are_headlines() -> None:
    told = [RISK.parse_event({"type": "eliminated", "player": 2, "by": 1, "cards_taken": 0}),
            RISK.parse_event({"type": "player_left", "player": 1}),
            RISK.parse_event({"type": "game_won", "player": 1, "reason": "last_standing"}),
            WQ.parse_event({"type": "player_left", "player": 1, "rebels": {}}),
            WQ.parse_event({"type": "game_over", "winners": [1], "reason": "last_standing"})]
    assert all(isinstance(e, Headline) and is_headline(e) for e in told)
    assert json_text(RISK.parse_event({"type": "eliminated", "player": 2, "by": 1, "cards_taken": 0})) == (
        '{"type":"eliminated","private_to":null,"player":2,"by":1,"cards_taken":0}')
    summed_up = [RISK.parse_event({"type": "card_drawn", "player": 1, "hand_size": 2}),
                 RISK.parse_event({"type": "conquered", "player": 1, "source": "a", "target": "b",
                                   "previous_owner": 2}),
                 WQ.parse_event({"type": "round_started", "round": 3})]
    assert not any(is_headline(e) for e in summed_up)
