"""Risk events: what happened, for narration, the renderer's highlights and /history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.core.events import BoardChanged, Headline, PlayerLeft
from engine.core.events import TurnStarted as CoreTurnStarted
from engine.core.models import Event


@dataclass(slots=True, kw_only=True)
class FirstPlayerRolled(Event):
    type: Literal["first_player_rolled"] = "first_player_rolled"
    rounds: list[dict[int, int]]
    first_player: int


@dataclass(slots=True, kw_only=True)
class TerritoriesDealt(Event):
    type: Literal["territories_dealt"] = "territories_dealt"
    counts: dict[int, int]


@dataclass(slots=True, kw_only=True)
class MissionDealt(Event):
    type: Literal["mission_dealt"] = "mission_dealt"
    mission: str
    replaced: str | None = None


@dataclass(slots=True, kw_only=True)
class MissionChanged(Event):
    type: Literal["mission_changed"] = "mission_changed"
    mission: str
    previous: str
    reason: Literal["target_eliminated_by_other", "target_left"]


@dataclass(slots=True, kw_only=True)
class Claimed(Event):
    type: Literal["claimed"] = "claimed"
    player: int
    territory: str


@dataclass(slots=True, kw_only=True)
class Placed(Event):
    type: Literal["placed"] = "placed"
    player: int
    territory: str
    count: int


@dataclass(slots=True, kw_only=True)
class Planned(Event):
    """Private: armies added to a secret simultaneous-setup plan."""

    type: Literal["planned"] = "planned"
    territory: str
    count: int


@dataclass(slots=True, kw_only=True)
class PlanSubmitted(Event):
    type: Literal["plan_submitted"] = "plan_submitted"
    player: int


@dataclass(slots=True, kw_only=True)
class PlansRevealed(Event):
    type: Literal["plans_revealed"] = "plans_revealed"
    plans: dict[int, dict[str, int]]


@dataclass(slots=True, kw_only=True)
class SetupFinished(BoardChanged):
    type: Literal["setup_finished"] = "setup_finished"


@dataclass(slots=True, kw_only=True)
class TurnStarted(CoreTurnStarted):
    turn: int
    base: int
    continents: list[str]
    total: int


@dataclass(slots=True, kw_only=True)
class CardsTraded(Event):
    type: Literal["cards_traded"] = "cards_traded"
    player: int
    cards: list[str]
    value: int
    sets_traded: int
    bonus_territory: str | None = None


@dataclass(slots=True, kw_only=True)
class AttackDeclared(Event):
    type: Literal["attack_declared"] = "attack_declared"
    player: int
    source: str
    target: str
    dice: int
    defender: int


@dataclass(slots=True, kw_only=True)
class Battle(Event):
    type: Literal["battle"] = "battle"
    player: int
    source: str
    target: str
    defender: int
    attack_dice: list[int]
    defence_dice: list[int]
    attacker_losses: int
    defender_losses: int


@dataclass(slots=True, kw_only=True)
class Conquered(BoardChanged):
    type: Literal["conquered"] = "conquered"
    player: int
    source: str
    target: str
    previous_owner: int


@dataclass(slots=True, kw_only=True)
class Moved(Event):
    type: Literal["moved"] = "moved"
    player: int
    source: str
    target: str
    count: int
    kind: Literal["occupy", "fortify"]


@dataclass(slots=True, kw_only=True)
class Eliminated(Headline):
    type: Literal["eliminated"] = "eliminated"
    player: int
    by: int
    cards_taken: int
    """Cards that passed to `by`: none when the elimination won the game (RISK-ELIM-2)."""


@dataclass(slots=True, kw_only=True)
class CardDrawn(Event):
    type: Literal["card_drawn"] = "card_drawn"
    player: int
    hand_size: int


@dataclass(slots=True, kw_only=True)
class DeckReshuffled(Event):
    type: Literal["deck_reshuffled"] = "deck_reshuffled"
    cards: int


@dataclass(slots=True, kw_only=True)
class GameWon(BoardChanged, Headline):
    type: Literal["game_won"] = "game_won"
    player: int
    reason: Literal["last_standing", "mission"]
    missions: dict[int, str] = field(default_factory=dict)


RiskEvent = Annotated[
    FirstPlayerRolled | TerritoriesDealt | MissionDealt | MissionChanged | Claimed | Placed | Planned |
    PlanSubmitted | PlansRevealed | SetupFinished | TurnStarted | CardsTraded | AttackDeclared | Battle |
    Conquered | Moved | Eliminated | CardDrawn | DeckReshuffled | PlayerLeft | GameWon,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[RiskEvent] = TypeAdapter(RiskEvent)
