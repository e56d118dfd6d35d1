"""Risk actions: one per slash command or button, a pydantic union discriminated by `type`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.core.models import Action
from engine.core.turns import Remove, Resign


class Claim(Action):
    type: Literal["claim"] = "claim"
    territory: str


class Place(Action):
    type: Literal["place"] = "place"
    territory: str
    count: int = 1


class Deploy(Action):
    """Place several armies at once: bulk or simultaneous setup (a secret plan), or the pool (the stand-in)."""

    type: Literal["deploy"] = "deploy"
    placements: dict[str, int]


class PlaceNeutral(Action):
    type: Literal["place_neutral"] = "place_neutral"
    territory: str


class Trade(Action):
    type: Literal["trade"] = "trade"
    cards: list[str]
    bonus: str | None = None


class Attack(Action):
    type: Literal["attack"] = "attack"
    source: str
    target: str
    dice: int | None = None
    until: Literal["once", "conquer"] = "once"
    keep: int = 1
    move: Literal["min", "max"] | None = None
    """Answer the move-in now: if the target falls, move the minimum or the maximum at once."""


class Defend(Action):
    type: Literal["defend"] = "defend"
    dice: int
    always: bool = False


class Move(Action):
    type: Literal["move"] = "move"
    count: int


class EndAttack(Action):
    type: Literal["end_attack"] = "end_attack"


class Fortify(Action):
    type: Literal["fortify"] = "fortify"
    source: str
    target: str
    count: int


class EndTurn(Action):
    type: Literal["end_turn"] = "end_turn"


RiskAction = Annotated[
    Claim | Place | Deploy | PlaceNeutral | Trade | Attack | Defend | Move | EndAttack | Fortify
    | EndTurn | Resign | Remove,
    Field(discriminator="type"),
]
ACTION_ADAPTER: TypeAdapter[RiskAction] = TypeAdapter(RiskAction)
