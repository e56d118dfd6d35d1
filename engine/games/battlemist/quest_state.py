"""The records of a quest step in progress (BM-QST-13): its stage, the heroes that moved, and the encounter or duel
being fought. `BMState.quest_step` holds one while the active player's quest step runs, None otherwise."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

Stage = Literal["prequest", "heroes", "fight", "duels"]
"""W-PREQUEST is open; heroes may move (W-QUEST); an encounter or duel is being fought; duels may be declared."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Foe:
    """One encounter monster (BM-QST-7) with the life it has left."""

    name: str
    life: Annotated[int, Field(ge=0)]
    attacks: int
    hit: int
    damage: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Encounter:
    """The encounter of a completed adventure: `hero` is None until the player picks who fights, `window` is True
    while W-ENCOUNTER is open, and `striking` while the hero's blow waits for the player's choice of monster."""

    adventure: str
    candidates: tuple[int, ...]
    """The player's heroes in the target region, who may fight, by number (the first is the stand-in's, ruling 29)."""
    hero: int | None = None
    window: bool = True
    inspired: bool = False
    """AC10 was played for this encounter."""
    striking: bool = False
    foes: tuple[Foe, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Duel:
    """A duel (BM-HER-12 … 14): each side a (owner, hero number); `waiting` are the owners whose W-ENCOUNTER turn
    is still to come, attacker first."""

    attacker: tuple[int, int]
    defender: tuple[int, int]
    waiting: tuple[int, ...]
    inspired: tuple[int, ...] = ()
    """Owners who played AC10 for this duel."""


@dataclass(frozen=True, slots=True, kw_only=True)
class QuestStep:
    """The active player's quest step. `moved` are his heroes that may not move again (one move order each,
    Blink, or the completing hero, BM-QST-5, 18); `haste` the heroes Great Haste speeds, once per play;
    `completed` is True once a quest was completed this step (one per step, BM-A-40); `duelled` the heroes
    (owner, number) that fought a duel (BM-A-41); `resume` the stage a fight returns to."""

    stage: Stage = "prequest"
    home: bool = False
    """A hero of his stood in his homeland when the step began (BM-QST-1)."""
    moved: tuple[int, ...] = ()
    haste: tuple[int, ...] = ()
    completed: bool = False
    duelled: tuple[tuple[int, int], ...] = ()
    resume: Stage = "heroes"
    fight: Encounter | Duel | None = None
