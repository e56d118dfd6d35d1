"""The events of the quest step: heroes healing, moving, questing, fighting encounters and duels, dying.

All are public except `QuestDrawn`: which adventure a player holds stays secret until he completes it
(BM-QST-3, BM-A-24); the table learns only that he has a quest (`QuestStarted`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.core.models import Event


@dataclass(slots=True, kw_only=True)
class HeroHealed(Event):
    """`by`: "home" (BM-HER-11), or the card or spell (AC11, SP01); `life` is his life now."""

    type: Literal["hero_healed"] = "hero_healed"
    player: int
    hero: int
    life: int
    by: str


@dataclass(slots=True, kw_only=True)
class QuestDrawn(Event):
    """Private to the drawer: his new adventure and the artifact cards he drew on the way and shuffled back."""

    type: Literal["quest_drawn"] = "quest_drawn"
    player: int
    adventure: str
    returned: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class QuestStarted(Event):
    type: Literal["quest_started"] = "quest_started"
    player: int


@dataclass(slots=True, kw_only=True)
class QuestDeckRebuilt(Event):
    """The quest discards shuffled into a new quest deck (BM-QST-9)."""

    type: Literal["quest_deck_rebuilt"] = "quest_deck_rebuilt"
    cards: int


@dataclass(slots=True, kw_only=True)
class HeroHasted(Event):
    type: Literal["hero_hasted"] = "hero_hasted"
    player: int
    hero: int


@dataclass(slots=True, kw_only=True)
class HeroMoved(Event):
    """A hero's move order (`path`, the regions entered) or his Blink (`blink`, path = the one region)."""

    type: Literal["hero_moved"] = "hero_moved"
    player: int
    hero: int
    path: list[str]
    blink: bool = False


@dataclass(slots=True, kw_only=True)
class QuestCompleted(Event):
    """The adventure is revealed (BM-QST-3)."""

    type: Literal["quest_completed"] = "quest_completed"
    player: int
    adventure: str
    target: str


@dataclass(slots=True, kw_only=True)
class EncounterStarted(Event):
    type: Literal["encounter_started"] = "encounter_started"
    player: int
    hero: int
    foes: list[str]


@dataclass(slots=True, kw_only=True)
class FoesStrike(Event):
    """The living monsters' dice, rolled by the engine (BM-DIE-2), one list per monster; `life` is the hero's after."""

    type: Literal["foes_strike"] = "foes_strike"
    player: int
    hero: int
    rolls: list[list[int]]
    damage: int
    life: int


@dataclass(slots=True, kw_only=True)
class HeroStrikes(Event):
    """The hero's dice against monster `foe` (its index), and the life that monster has left."""

    type: Literal["hero_strikes"] = "hero_strikes"
    player: int
    hero: int
    foe: int
    rolls: list[int]
    need: int
    foe_life: int


@dataclass(slots=True, kw_only=True)
class EncounterWon(Event):
    type: Literal["encounter_won"] = "encounter_won"
    player: int
    hero: int


@dataclass(slots=True, kw_only=True)
class HeroDied(Event):
    type: Literal["hero_died"] = "hero_died"
    player: int
    hero: int
    region: str


@dataclass(slots=True, kw_only=True)
class QuestLost(Event):
    """A hero of the player died: his current quest is discarded unrevealed (BM-HER-15)."""

    type: Literal["quest_lost"] = "quest_lost"
    player: int


@dataclass(slots=True, kw_only=True)
class StarFound(Event):
    """A Star of Timorran card: `gained` is False when the pool was empty (BM-A-21)."""

    type: Literal["star_found"] = "star_found"
    player: int
    gained: bool


@dataclass(slots=True, kw_only=True)
class ArtifactFound(Event):
    type: Literal["artifact_found"] = "artifact_found"
    player: int
    artifact: str


@dataclass(slots=True, kw_only=True)
class WindowPassed(Event):
    type: Literal["quest_window_passed"] = "quest_window_passed"
    player: int
    window: str


@dataclass(slots=True, kw_only=True)
class DuelDeclared(Event):
    type: Literal["duel_declared"] = "duel_declared"
    player: int
    hero: int
    defender: int
    target: int


@dataclass(slots=True, kw_only=True)
class DuelStrike(Event):
    """One blow of a duel: `player`'s hero `hero` rolls; `life` is the struck hero's life after it."""

    type: Literal["duel_strike"] = "duel_strike"
    player: int
    hero: int
    rolls: list[int]
    need: int
    life: int


@dataclass(slots=True, kw_only=True)
class QuestStepEnded(Event):
    type: Literal["quest_step_ended"] = "quest_step_ended"
    player: int
