"""Rule-engine contracts shared by every game."""

from engine.core.errors import RuleError
from engine.core.models import Action, Decision, Event, GameState, Seat
from engine.core.rng import Rng, RngState
from engine.core.ruleset import Policy, Ruleset

__all__ = [
    "Action",
    "Decision",
    "Event",
    "GameState",
    "Policy",
    "Rng",
    "RngState",
    "RuleError",
    "Ruleset",
    "Seat",
]
