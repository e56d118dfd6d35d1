"""The steps of Battlemist's round (BM-RND-3) and the error for a command in the wrong one."""

from __future__ import annotations

from enum import StrEnum

from engine.core.errors import RuleError
from engine.core.i18n import msg


class Phase(StrEnum):
    """Where the round stands (BM-RND-3); the step within a phase is in the phase's own record."""

    DRAFT = "draft"
    BUILD = "build"
    COUNCIL = "council"
    ECONSTART = "econstart"
    ORDERS = "orders"
    INITIATIVE = "initiative"
    QUEST = "quest"
    MOVEMENT = "movement"
    COMBAT = "combat"
    UPKEEP = "upkeep"
    GAME_OVER = "game_over"


TURN: frozenset[Phase] = frozenset({Phase.QUEST, Phase.MOVEMENT, Phase.COMBAT})
"""The steps of one player's individual turn (BM-A-28): `active` is his while the phase is one of them."""

PHASE_OF: dict[str, str] = {"draft": "setup", "build": "setup", "council": "council", "econstart": "economy",
                            "orders": "economy", "initiative": "individual", "quest": "individual",
                            "movement": "individual", "combat": "individual", "upkeep": "maintenance",
                            "game_over": "game_over"}
"""Each step's phase of the round (BM-RND-1, BM-RND-3), as BM_E_WRONG_PHASE names it (`bm.term.phase.…`)."""


def wrong_phase(phase: Phase, step: str | None = None) -> RuleError:
    """BM_E_WRONG_PHASE for the game's `phase`, naming `step` within it (the phase's own name by default; a step
    is named by its message `bm.term.step.…`)."""
    return RuleError("BM_E_WRONG_PHASE", phase=msg(f"bm.term.phase.{PHASE_OF[phase.value]}"),
                     step=msg(f"bm.term.step.{step or phase.value}"))
