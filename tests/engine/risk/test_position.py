"""Loading a Risk position checks it as strictly as a record: each broken field is named in plain words."""

from __future__ import annotations

from typing import Any

import pytest

from engine.positions import load_position, read_json
from tests.engine.cli import EXAMPLE
from tests.engine.positions import Change, refused_naming
from tests.engine.positions import changed as changed_example

EXAMPLE_POSITION = read_json(EXAMPLE / "risk-position.json")


def changed(change: Change) -> dict[str, Any]:
    return changed_example(EXAMPLE_POSITION, change)


def unclaimed(data: dict[str, Any]) -> None:
    data.update(phase="setup_claim", turn=0, deck=[], discard=[], hands={"101": [], "102": [], "103": []})
    del data["owner"]["alaska"], data["armies"]["alaska"]


def moving_in(data: dict[str, Any]) -> None:
    data["owner"]["kamchatka"], data["armies"]["kamchatka"] = 101, 0
    data["interrupt"] = {"kind": "occupy", "source": "alaska", "target": "kamchatka", "min": 3, "max": 5,
                         "defender": 102}


@pytest.mark.parametrize(("change", "field", "problem"), [
    (lambda d: d["owner"].update(narnia=101), "owner.narnia", 'there is no territory "narnia" on this map'),
    (lambda d: d["armies"].update(narnia=3), "armies.narnia", 'there is no territory "narnia" on this map'),
    (lambda d: d["owner"].pop("alaska"), "owner",
     "alaska has no owner: only the claim phase (setup_claim) leaves territories unclaimed"),
    (lambda d: d["owner"].update(alaska=999), "owner.alaska",
     "999 is not a seated player (the players are 101, 102, 103; 0 is Neutral)"),
    (lambda d: d["armies"].update(alaska=-5), "armies.alaska",
     "-5 is out of range: it must be at least 1 (0 only on the target of a pending move-in)"),
    (lambda d: d["armies"].update(alaska=0), "armies.alaska",
     "0 is out of range: it must be at least 1 (0 only on the target of a pending move-in)"),
    (lambda d: d["armies"].pop("alaska"), "armies", "alaska has an owner but no army count"),
    (lambda d: d.update(schema_version=99), "schema_version", "99 is newer than this engine reads (2 at most)"),
    (lambda d: d.update(schema_version=0), "schema_version", "0 is out of range: schemas start at 1"),
    (lambda d: d.update(current=7), "current", "7 is not a seated player (the players are 101, 102, 103)"),
    (lambda d: d["players"][1].update(status="resigned"), "owner.northwest_territory",
     "player 102 is resigned and no longer plays"),
    (lambda d: d["players"][2].update(colour="red"), "players.2.colour", '"red" is taken by an earlier player'),
    (lambda d: d["hands"].pop("103"), "hands", "player 103 has no entry (every seated player has one)"),
    (lambda d: d["hands"]["102"].append("excalibur"), "hands.102", '"excalibur" is not a card of this game'),
    (lambda d: d["deck"].append("alaska"), "deck", 'card "alaska" is also in hands.101; each card is in one place'),
    (lambda d: d["deck"].pop(), "deck", "is missing: the hands and piles hold every card once"),
    (lambda d: d["missions"].update({"101": "M99"}), "missions.101", 'there is no mission "M99"'),
    (lambda d: d.update(phase="game_over"), "winner", "a finished game (phase game_over) names its winner"),
    (lambda d: d["armies"].update(alaska="many"), "armies.alaska", "Input should be a valid integer"),
])
def test_a_broken_field_is_named(change: Change, field: str, problem: str) -> None:
    refused_naming(changed(change), field, problem)


@pytest.mark.parametrize("change", [
    unclaimed,
    moving_in,
    lambda d: d["owner"].update(alaska=0),  # Neutral
])
def test_what_the_format_allows_loads(change: Change) -> None:
    load_position(changed(change))
