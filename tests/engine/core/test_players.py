"""The core's seats: the base player model, the seated state's lookups and seat cycling."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.core.i18n import inert
from engine.core.models import json_text
from engine.core.players import Player, SeatedState, next_seat, seat_cycle, with_status
from engine.core.rng import RngState
from engine.games.risk.state import RiskPlayer
from engine.games.wizards_quest.state import WQPlayer


@dataclass(slots=True, kw_only=True)
class Table(SeatedState):
    """A minimal seated state, as a new game would declare one."""

    game: Literal["table"] = "table"
    players: list[Player]


def table(*statuses: str) -> Table:
    players = [Player(id=10 * (k + 1), name=f"<@{k}>", colour="red", status=st)  # type: ignore[arg-type]
               for k, st in enumerate(statuses)]
    return Table(rng=RngState(state=1), players=players)


def test_game_players_are_the_core_model_with_unchanged_json() -> None:
    for model in (RiskPlayer, WQPlayer):
        p = model(id=5, name="Ann", colour="red")
        assert isinstance(p, Player)
        assert json_text(p) == '{"id":5,"name":"Ann","colour":"red","ai":false,"status":"active"}'


def test_lookups_and_names() -> None:
    t = table("active", "eliminated", "active")
    assert t.player(20) is t.players[1] and t.player(99) is None
    assert t.name(10) == inert("<@0>") != "<@0>"  # a name is inert: it can't mention anyone
    assert t.name(99) == "nobody"
    assert t.seat_order() == [10, 20, 30]
    assert t.active_ids() == [10, 30]


def test_with_status_changes_one_seat_and_copies() -> None:
    t = table("active", "active")
    changed = with_status(t.players, 20, "resigned")
    assert [p.status for p in changed] == ["active", "resigned"]
    assert changed[0] is t.players[0] and t.players[1].status == "active"


def test_seat_cycle_starts_anywhere() -> None:
    assert seat_cycle([1, 2, 3, 4], 3) == [3, 4, 1, 2]
    assert seat_cycle([1, 2, 3, 4], 1) == [1, 2, 3, 4]


def test_next_seat_skips_the_ineligible_and_wraps() -> None:
    order = [1, 2, 3, 4]
    assert next_seat(order, 2, {4, 1}) == 4
    assert next_seat(order, 4, {2, 3}) == 2
    assert next_seat(order, 3, {3}) == 3  # only the seat itself: it comes last
    assert next_seat(order, 3, {3, 1}, including=True) == 3
    assert next_seat(order, 3, {1}, including=True) == 1
    assert next_seat(order, 3, set()) is None


def test_next_active_follows_the_statuses() -> None:
    t = table("active", "eliminated", "resigned", "active")
    assert t.next_active(10) == 40
    assert t.next_active(40) == 10
    assert t.next_active(20, including=True) == 40
    assert t.next_active(10, including=True) == 10
    assert table("eliminated", "resigned").next_active(10) == 10  # nobody plays: the game is over
