"""Loading a Wizard's Quest position checks it as strictly as a record: each broken field is named."""

from __future__ import annotations

from typing import Any

import pytest

from engine.positions import load_position, read_json
from tests.engine.cli import EXAMPLE
from tests.engine.positions import Change, refused_naming
from tests.engine.positions import changed as changed_example

EXAMPLE_POSITION = read_json(EXAMPLE / "wizards-quest-position.json")
BOARD = 'on the board (territories 1.1 … 6.6, castles C1 … C8)'


def changed(change: Change) -> dict[str, Any]:
    return changed_example(EXAMPLE_POSITION, change)


def rebels(data: dict[str, Any]) -> None:
    """Player 103 resigned: their treasures leave the game, their pieces stay as rebels (WQ-LEAVE-2)."""
    data["players"][2]["status"] = "resigned"
    data["treasures"] = [t for t in data["treasures"] if t["owner"] != 103]


@pytest.mark.parametrize(("change", "field", "problem"), [
    (lambda d: d["owner"].update({"9.9": 101}), "owner.9.9", f'there is no location "9.9" {BOARD}'),
    (lambda d: d["orcs"].update(narnia=2), "orcs.narnia", f'there is no location "narnia" {BOARD}'),
    (lambda d: d.update(dragon="7.1"), "dragon", f'there is no location "7.1" {BOARD}'),
    (lambda d: d["owner"].update({"1.1": 999}), "owner.1.1",
     "999 is not a seated player (the players are 101, 102, 103)"),
    (lambda d: d["men"].update({"1.4": -5}), "men.1.4", "-5 is out of range: it must be at least 0"),
    (lambda d: d["men"].update({"1.4": 0}), "men.1.4", "1.4 is player-held but holds no piece (men or a leader)"),
    (lambda d: d["men"].update({"1.3": 2}), "men.1.3", "1.3 is not player-held, so it has no men"),
    (lambda d: d["orcs"].update({"1.3": 5}), "orcs.1.3", "5 is out of range: it must be from 1 to 4"),
    (lambda d: d["orcs"].update({"1.1": 2}), "orcs.1.1", "1.1 is held by player 101: a location has one occupant"),
    (lambda d: d["hero"].update({"101": "1.2"}), "hero.101",
     "1.2 is not held by player 101: a leader stands on its player's own ground"),
    (lambda d: d["sorcerer"].update({"999": "2.2"}), "sorcerer.999", "999 is not a seated player"),
    (lambda d: d["treasures"][0].update(owner=999), "treasures.0.owner", "999 is not a seated player"),
    (lambda d: d["players"][2].update(status="eliminated"), "owner.3.3", "player 103 is eliminated and holds nothing"),
    (lambda d: d["players"][1].update(status="resigned"), "treasures.3.owner", "player 102 is resigned and no longer"),
    (lambda d: d.update(schema_version=99), "schema_version", "99 is newer than this engine reads (1 at most)"),
    (lambda d: d.update(current=7), "current", "7 is not a seated player"),
    (lambda d: d["retrieved"].pop("103"), "retrieved", "player 103 has no entry (every seated player has one)"),
    (lambda d: d["hands"]["103"].append("excalibur-1"), "hands.103", '"excalibur-1" is not a card of this game'),
    (lambda d: d["discard"].append("levy-4"), "hands.102", 'card "levy-4" is also in discard'),
    (lambda d: d["deck"].pop(), "deck", "is missing: the hands and piles hold every card once"),
    (lambda d: d.update(pool=-1), "pool", "-1 is out of range: it must be at least 0"),
    (lambda d: d.update(phase="game_over"), "winners", "a finished game (phase game_over) lists its winners"),
    (lambda d: d["men"].update({"1.1": "six"}), "men.1.1", "Input should be a valid integer"),
])
def test_a_broken_field_is_named(change: Change, field: str, problem: str) -> None:
    refused_naming(changed(change), field, problem)


@pytest.mark.parametrize("change", [
    lambda d: d["men"].update({"1.1": 0}),  # the Hero alone holds 1.1
    rebels,
])
def test_what_the_format_allows_loads(change: Change) -> None:
    load_position(changed(change))
