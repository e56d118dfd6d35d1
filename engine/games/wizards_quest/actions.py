"""Wizard's Quest actions: one per slash command or button (WQ-DIG-3), discriminated by `type`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.core.models import Action
from engine.core.turns import Remove, Resign
from engine.games.wizards_quest.state import Beast, Leader, TreasureKind


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseCastle(Action):
    """`/wq castle <C#>` (WQ-SET-3)."""

    type: Literal["castle"] = "castle"
    castle: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim(Action):
    """`/wq claim <r.t>` (WQ-SET-5)."""

    type: Literal["claim"] = "claim"
    territory: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Hide(Action):
    """`/wq hide <owner> <treasure> <r.t>` (WQ-SET-7)."""

    type: Literal["hide"] = "hide"
    owner: int
    treasure: TreasureKind
    territory: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Place(Action):
    """`/wq place <loc:n …>`: setup batch, reinforcement pool or reward men (WQ-SET-8, WQ-REI-3)."""

    type: Literal["place"] = "place"
    placements: dict[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class Buy(Action):
    """`/wq buy <hero|sorcerer> <loc>`: a leader instead of 2 men (WQ-LDR-1)."""

    type: Literal["buy"] = "buy"
    leader: Leader
    location: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(Action):
    """`/wq draw` (WQ-PET-1)."""

    type: Literal["draw"] = "draw"


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(Action):
    """`/wq play <card> [target…]` (WQ-PET-2). `location`/`to`/`count`/`leader` are the card's targets."""

    type: Literal["play"] = "play"
    card: str
    location: str | None = None
    to: str | None = None
    count: int | None = None
    leader: Leader | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Done(Action):
    """`/wq done`: ends the petition step (WQ-PET-*)."""

    type: Literal["done"] = "done"


@dataclass(frozen=True, slots=True, kw_only=True)
class Declare(Action):
    """`/wq attack <from> <to> [leader] [boat]`: declare a campaign (WQ-ATK-2 … ATK-5)."""

    type: Literal["attack"] = "attack"
    source: str
    target: str
    leader: Leader | None = None
    boat: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class FreeAttack(Action):
    """`/wq free <from> <dragon|mage> [boat]` (WQ-FREE-1 … FREE-4)."""

    type: Literal["free"] = "free"
    source: str
    beast: Beast
    boat: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Aid(Action):
    """`/wq aid <from> <n>`: move men into the attacking location (WQ-AID-1)."""

    type: Literal["aid"] = "aid"
    source: str
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Roll(Action):
    """`/wq roll [times] [until_below]`: fight battles; `times` 0 means until the attack ends (WQ-CMB-1)."""

    type: Literal["roll"] = "roll"
    times: Annotated[int, Field(ge=0, le=100)] = 1
    until_below: Annotated[int | None, Field(ge=1)] = None
    """Stop before a battle once the attacking force has fewer pieces than this."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Stop(Action):
    """`/wq stop` (WQ-ATK-10)."""

    type: Literal["stop"] = "stop"


@dataclass(frozen=True, slots=True, kw_only=True)
class Cancel(Action):
    """`/wq cancel`: call the attack off before the first roll (WQ-ATK-10)."""

    type: Literal["cancel"] = "cancel"


@dataclass(frozen=True, slots=True, kw_only=True)
class Capture(Action):
    """`/wq capture <n> [leader]`: n counts every piece moved, the leader included (WQ-CAP-1)."""

    type: Literal["capture"] = "capture"
    count: int
    leader: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseRegion(Action):
    """`/wq region <1-6>`: where the beaten Dragon or Mage flies (WQ-BEAST-4/5)."""

    type: Literal["region"] = "region"
    region: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveMage(Action):
    """`/wq mage <r.t>` or no move (territory None): the Ring reward (WQ-TRS-4)."""

    type: Literal["mage"] = "mage"
    territory: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class End(Action):
    """`/wq end`: end the attack step and the turn."""

    type: Literal["end"] = "end"


WQAction = Annotated[
    ChooseCastle | Claim | Hide | Place | Buy | Draw | Play | Done | Declare | FreeAttack | Aid | Roll | Stop
    | Cancel | Capture | ChooseRegion | MoveMage | End | Resign | Remove,
    Field(discriminator="type"),
]
ACTION_ADAPTER: TypeAdapter[WQAction] = TypeAdapter(WQAction)
