"""Risk actions: one per slash command or button, a pydantic union discriminated by `type`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.core.models import Action
from engine.core.turns import Remove, Resign


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim(Action):
    type: Literal["claim"] = "claim"
    territory: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Place(Action):
    type: Literal["place"] = "place"
    territory: str
    count: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Deploy(Action):
    """Place several armies at once: bulk or simultaneous setup (a secret plan), or the pool (the stand-in)."""

    type: Literal["deploy"] = "deploy"
    placements: dict[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceNeutral(Action):
    type: Literal["place_neutral"] = "place_neutral"
    territory: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Trade(Action):
    type: Literal["trade"] = "trade"
    cards: list[str]
    bonus: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Attack(Action):
    type: Literal["attack"] = "attack"
    source: str
    target: str
    dice: int | None = None
    until: Literal["once", "conquer"] = "once"
    keep: int = 1
    move: Literal["min", "max"] | None = None
    """Answer the move-in now: if the target falls, move the minimum or the maximum at once."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Defend(Action):
    type: Literal["defend"] = "defend"
    dice: int
    always: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Move(Action):
    type: Literal["move"] = "move"
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class EndAttack(Action):
    type: Literal["end_attack"] = "end_attack"


@dataclass(frozen=True, slots=True, kw_only=True)
class Fortify(Action):
    type: Literal["fortify"] = "fortify"
    source: str
    target: str
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurn(Action):
    type: Literal["end_turn"] = "end_turn"


RiskAction = Annotated[
    Claim | Place | Deploy | PlaceNeutral | Trade | Attack | Defend | Move | EndAttack | Fortify
    | EndTurn | Resign | Remove,
    Field(discriminator="type"),
]
ACTION_ADAPTER: TypeAdapter[RiskAction] = TypeAdapter(RiskAction)
