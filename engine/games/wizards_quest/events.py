"""Wizard's Quest events: what happened, with every die, for narration, highlights and /history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.core.events import BoardChanged, Headline, RoundStarted
from engine.core.events import PlayerLeft as CorePlayerLeft
from engine.core.events import TurnStarted as CoreTurnStarted
from engine.core.models import Event
from engine.games.wizards_quest.state import Beast, Leader, TreasureKind


@dataclass(slots=True, kw_only=True)
class OrderRolled(Event):
    """A die-off: the setup leader (WQ-SET-2) or a round's turn order (WQ-ORD-1)."""

    type: Literal["order_rolled"] = "order_rolled"
    purpose: Literal["setup", "round"]
    rounds: list[dict[int, int]]
    order: list[int]


@dataclass(slots=True, kw_only=True)
class CastleChosen(Event):
    type: Literal["castle_chosen"] = "castle_chosen"
    player: int
    castle: str
    men: int


@dataclass(slots=True, kw_only=True)
class OrcsPlaced(Event):
    """Setup orcs: unpicked castles (WQ-SET-3) or rolled territories with their dice (WQ-SET-4)."""

    type: Literal["orcs_placed"] = "orcs_placed"
    locations: list[str]
    orcs: int
    rolls: list[list[int]] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class Claimed(Event):
    type: Literal["claimed"] = "claimed"
    player: int
    territory: str


@dataclass(slots=True, kw_only=True)
class TreasureHidden(Event):
    """`kind` is None in the public event under the decoy variant; the hider gets a private copy."""

    type: Literal["treasure_hidden"] = "treasure_hidden"
    hider: int
    owner: int
    territory: str
    kind: TreasureKind | None


@dataclass(slots=True, kw_only=True)
class Placed(Event):
    type: Literal["placed"] = "placed"
    player: int
    placements: dict[str, int]


@dataclass(slots=True, kw_only=True)
class LeaderBought(Event):
    type: Literal["leader_bought"] = "leader_bought"
    player: int
    leader: Leader
    location: str
    cost: int


@dataclass(slots=True, kw_only=True)
class SetupFinished(BoardChanged):
    type: Literal["setup_finished"] = "setup_finished"


@dataclass(slots=True, kw_only=True)
class OrcGrowth(Event):
    """One growth roll (WQ-ORC-2): `before`/`after` orcs, or `holder` when a player holds it."""

    type: Literal["orc_growth"] = "orc_growth"
    dice: list[int]
    territory: str
    before: int
    after: int
    holder: int | None = None


@dataclass(slots=True, kw_only=True)
class Frenzy(Event):
    """One frenzied stack's attack (WQ-ORC-3 … ORC-6), every battle die included."""

    type: Literal["frenzy"] = "frenzy"
    source: str
    target: str
    defender: int
    d: int
    rolls: list[int]
    orc_losses: int
    defender_losses: int
    captured: bool
    moved: int


@dataclass(slots=True, kw_only=True)
class DragonLanded(Event):
    """The Dragon arrives and devours (WQ-DRG-1 … DRG-5); `devour` is None when no die is rolled."""

    type: Literal["dragon_landed"] = "dragon_landed"
    reason: Literal["phase", "lure", "hunger", "sorcerer"]
    dice: list[int]
    territory: str
    victim: int | None = None
    """The player eaten, ORCS (0) for orcs, None when nothing was eaten."""
    devour: int | None = None
    eaten: int = 0
    protected: bool = False


@dataclass(slots=True, kw_only=True)
class MageMoved(Event):
    """The Great Mage arrives and prospers (WQ-MAGE-1 … MAGE-3); `region` is now protected."""

    type: Literal["mage_moved"] = "mage_moved"
    reason: Literal["phase", "summons", "sorcerer", "ring"]
    dice: list[int]
    territory: str
    holder: int | None = None
    """The player prospered, ORCS (0) for orcs, None for an empty territory."""
    added: int = 0
    region: int


@dataclass(slots=True, kw_only=True)
class TurnStarted(CoreTurnStarted):
    round: int


@dataclass(slots=True, kw_only=True)
class CardDrawn(Event):
    type: Literal["card_drawn"] = "card_drawn"
    player: int
    hand_size: int


@dataclass(slots=True, kw_only=True)
class CardReceived(Event):
    """Private: the card drawn into the hand."""

    type: Literal["card_received"] = "card_received"
    card: str


@dataclass(slots=True, kw_only=True)
class DeckReshuffled(Event):
    type: Literal["deck_reshuffled"] = "deck_reshuffled"
    cards: int


@dataclass(slots=True, kw_only=True)
class CardPlayed(Event):
    """A card revealed and resolved (WQ-PET-2/3); `to_boat` when it goes to the boat area (WQ-BOAT-1)."""

    type: Literal["card_played"] = "card_played"
    player: int
    card: str
    immediate: bool
    to_boat: bool
    fizzled: bool = False


@dataclass(slots=True, kw_only=True)
class PoolChanged(Event):
    """Men, pieces or campaigns a card or the Crown adds (WQ-CARD-1 … CARD-5, WQ-TRS-4)."""

    type: Literal["pool_changed"] = "pool_changed"
    player: int
    men: int = 0
    pieces: int = 0
    campaigns: int = 0


@dataclass(slots=True, kw_only=True)
class OrcsRemoved(Event):
    """Orcbane (WQ-CARD-6)."""

    type: Literal["orcs_removed"] = "orcs_removed"
    location: str
    die: int
    removed: int


@dataclass(slots=True, kw_only=True)
class OrcUprising(Event):
    """Orc Uprising (WQ-CARD-12): the region die and each location's new orc count."""

    type: Literal["orc_uprising"] = "orc_uprising"
    die: int
    changes: dict[str, int]


@dataclass(slots=True, kw_only=True)
class Plague(Event):
    """Plague (WQ-CARD-13)."""

    type: Literal["plague"] = "plague"
    player: int
    die: int
    location: str | None
    removed: int


@dataclass(slots=True, kw_only=True)
class EffectSet(Event):
    """Famine, Wizard's Truce or Blessed Arms takes effect (WQ-CARD-11, CARD-14, CARD-16)."""

    type: Literal["effect_set"] = "effect_set"
    player: int
    effect: Literal["famine", "truce", "blessed_arms"]


@dataclass(slots=True, kw_only=True)
class Marched(Event):
    """Forced March (WQ-CARD-9)."""

    type: Literal["marched"] = "marched"
    player: int
    source: str
    target: str
    men: int
    leader: Leader | None = None


@dataclass(slots=True, kw_only=True)
class Reinforcements(Event):
    """The pool at the start of the reinforcement step (WQ-REI-1/2)."""

    type: Literal["reinforcements"] = "reinforcements"
    player: int
    kingdoms: list[list[str]]
    base: int
    card_men: int
    pool: int
    famine: bool = False


@dataclass(slots=True, kw_only=True)
class AttackDeclared(Event):
    type: Literal["attack_declared"] = "attack_declared"
    player: int
    kind: Literal["campaign", "free"]
    source: str
    target: str
    beast: Beast | None = None
    defender: int | None = None
    boat: bool = False


@dataclass(slots=True, kw_only=True)
class LeaderMoved(Event):
    """The leader move at the start of a campaign (WQ-ATK-5); `swapped` when the other leader went back."""

    type: Literal["leader_moved"] = "leader_moved"
    player: int
    leader: Leader
    source: str
    target: str
    swapped: bool


@dataclass(slots=True, kw_only=True)
class Aided(Event):
    type: Literal["aided"] = "aided"
    player: int
    source: str
    target: str
    count: int


@dataclass(slots=True, kw_only=True)
class Battle(Event):
    """One battle (WQ-CMB-1 … CMB-5): the attacker's die against the defender range D."""

    type: Literal["battle"] = "battle"
    player: int
    number: int
    source: str
    target: str
    against: Literal["player", "orcs", "dragon", "mage"]
    defender: int | None = None
    roll: int
    d: int
    attacker_won: bool
    attacker_left: int
    defender_left: int


@dataclass(slots=True, kw_only=True)
class AttackEnded(Event):
    type: Literal["attack_ended"] = "attack_ended"
    player: int
    reason: Literal["stopped", "cancelled", "source_empty", "leader", "no_capture", "captured", "beast_beaten"]
    campaign_used: bool


@dataclass(slots=True, kw_only=True)
class Captured(Event):
    type: Literal["captured"] = "captured"
    player: int
    source: str
    target: str
    count: int
    leader: Leader | None = None


@dataclass(slots=True, kw_only=True)
class BeastBeaten(Event):
    """The Dragon or Mage lost its last wound (WQ-BEAST-3 … BEAST-5)."""

    type: Literal["beast_beaten"] = "beast_beaten"
    player: int
    beast: Beast
    location: str
    by: Leader
    reward: int = 0


@dataclass(slots=True, kw_only=True)
class TreasureRetrieved(Event):
    type: Literal["treasure_retrieved"] = "treasure_retrieved"
    player: int
    kind: TreasureKind
    territory: str
    total: int


@dataclass(slots=True, kw_only=True)
class Eliminated(Headline):
    type: Literal["eliminated"] = "eliminated"
    player: int


@dataclass(slots=True, kw_only=True)
class PlayerLeft(CorePlayerLeft):
    """A player resigned, or the host removed them (`removed_by`); `rebels` are the pieces left behind."""

    rebels: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class TurnEnded(Event):
    type: Literal["turn_ended"] = "turn_ended"
    player: int


@dataclass(slots=True, kw_only=True)
class GameOver(BoardChanged, Headline):
    type: Literal["game_over"] = "game_over"
    winners: list[int]
    reason: Literal["treasures", "last_standing", "no_one_left", "round_limit"]


WQEvent = Annotated[
    OrderRolled | CastleChosen | OrcsPlaced | Claimed | TreasureHidden | Placed | LeaderBought | SetupFinished
    | RoundStarted | OrcGrowth | Frenzy | DragonLanded | MageMoved | TurnStarted | CardDrawn | CardReceived
    | DeckReshuffled | CardPlayed | PoolChanged | OrcsRemoved | OrcUprising | Plague | EffectSet | Marched
    | Reinforcements | AttackDeclared | LeaderMoved | Aided | Battle | AttackEnded | Captured | BeastBeaten
    | TreasureRetrieved | Eliminated | PlayerLeft | TurnEnded | GameOver,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[WQEvent] = TypeAdapter(WQEvent)
