"""Classic Risk: the ruleset object the service, CLI and bot use."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.controls import Choice, Control
from engine.core.models import Action, Decision, Event, Seat
from engine.core.orders import missing
from engine.core.ruleset import Policy
from engine.core.spec import GameSpec
from engine.games.risk import legal, rules, setup, timeouts
from engine.games.risk.actions import ACTION_ADAPTER
from engine.games.risk.ai import POLICIES
from engine.games.risk.events import EVENT_ADAPTER
from engine.games.risk.mapdata import RiskMap, classic
from engine.games.risk.position import check_position
from engine.games.risk.state import NEUTRAL, Phase, RiskOptions, RiskState
from engine.games.risk.text import narrate, prompt, sequel, summary, text_board
from engine.games.risk.view import view


class RiskRuleset:
    name = "risk"
    title = "Risk"
    state_model = RiskState
    options_model = RiskOptions
    reaction_kinds = frozenset({"defend"})
    die_sides = 6

    def __init__(self, board: RiskMap | None = None) -> None:
        self.board = board or classic()

    def player_range(self, options: RiskOptions) -> tuple[int, int]:
        return setup.PLAYER_RANGE[options.mode]

    def parse_action(self, data: dict[str, Any]) -> Action:
        return ACTION_ADAPTER.validate_python(data)

    def check_position(self, state: RiskState) -> None:
        check_position(state, self.board)

    def parse_event(self, data: dict[str, Any]) -> Event:
        return EVENT_ADAPTER.validate_python(data)

    def new_game(self, seats: Sequence[Seat], options: RiskOptions, seed: int) -> tuple[RiskState, list[Event]]:
        return setup.new_game(self.board, seats, options, seed)

    def apply(self, state: RiskState, action: Action) -> tuple[RiskState, list[Event]]:
        return rules.apply(state, action, self.board)

    def pending(self, state: RiskState) -> list[Decision]:
        return pending(state)

    def choices(self, state: RiskState, player: int, field: str, **context: Any) -> list[Choice]:
        return legal.choices(state, self.board, player, field, context)

    def controls(self, state: RiskState, player: int, recent: Sequence[Event] = ()) -> list[Control]:
        return legal.controls(state, self.board, player, recent)

    def view(self, state: RiskState, viewer: int | None) -> RiskState:
        return view(state, viewer)

    def winners(self, state: RiskState) -> list[int] | None:
        return [state.winner] if state.phase is Phase.GAME_OVER and state.winner is not None else None

    def alive(self, state: RiskState) -> list[int]:
        return state.active_ids()

    def ranking(self, state: RiskState) -> list[int]:
        """The winner, then survivors by territories and armies, then resigned and eliminated seats."""
        held = {p.id: (len(state.territories_of(p.id)), sum(state.armies[t] for t in state.territories_of(p.id)))
                for p in state.players}
        order = sorted(state.players, key=lambda p: (p.id != state.winner, p.status != "active",
                                                     tuple(-x for x in held[p.id])))
        return [p.id for p in order]

    def policy(self, name: str) -> Policy:
        return POLICIES[name](self.board)

    def narrate(self, event: Event, state: RiskState, locale: str = "en") -> str | None:
        return narrate(event, state, self.board, locale)

    def sequel(self, event: Event, previous: Event, state: RiskState, locale: str = "en") -> str | None:
        return sequel(event, previous, locale)

    def summary(self, player: int, events: Sequence[Event], state: RiskState, locale: str = "en") -> str:
        return summary(player, events, state, locale)

    def prompt(self, decision: Decision, state: RiskState, locale: str = "en") -> str:
        return prompt(decision, state, self.board, locale)

    def text_board(self, state: RiskState, locale: str = "en") -> str:
        return text_board(state, self.board, locale)

    def timeout_action(self, state: RiskState, player: int) -> Action:
        return self.timeout_actions(state, player)[0]

    def timeout_actions(self, state: RiskState, player: int) -> list[Action]:
        return timeouts.timeout_actions(self.board, state, player)


_KINDS = {phase: phase.value for phase in Phase}
"""A phase's name as a plain string, without the enum's slower `.value` property."""


def pending(s: RiskState) -> list[Decision]:
    """Who must decide what next (RISK-DIG-9 … DIG-13)."""
    i = s.interrupt
    phase = s.phase
    if phase is Phase.GAME_OVER:
        return []
    if i is not None:
        detail: dict[str, Any] = {"source": i.source, "target": i.target, "min": i.min, "max": i.max,
                                  "dice": i.dice, "pool": s.pool}
        who = i.defender if i.kind == "defend" else s.current
        return [Decision(player=who or s.current, kind=i.kind, detail=detail)]
    if phase is Phase.ATTACK or phase is Phase.FORTIFY:
        return [Decision(player=s.current, kind=_KINDS[phase])]
    if phase is Phase.REINFORCE:
        hand = len(s.hands[s.current])
        if hand < 5 and s.pool == 0:  # all placed: what is left to decide is the attack (ruling 37)
            return [Decision(player=s.current, kind=_KINDS[Phase.ATTACK])]
        return [Decision(player=s.current, kind="trade" if hand >= 5 else "reinforce",
                         detail={"pool": s.pool, "hand": hand})]
    if phase is Phase.SETUP_PLACE and s.options.setup_placement == "simultaneous":
        return [Decision(player=p, kind="plan",
                         detail={"armies": s.unplanned(p)})
                for p in missing(s.plan_book())]
    if phase is Phase.SETUP_CLAIM:
        return [Decision(player=s.current, kind="claim", detail={"unclaimed": 42 - len(s.owner)})]
    if phase is Phase.SETUP_PLACE:
        return [Decision(player=s.current, kind="setup_place", detail={"armies": s.setup_left[s.current]})]
    return [Decision(player=s.current, kind="setup_place_2p",  # the one phase left: SETUP_PLACE_2P
                     detail={"own": min(2 - s.setup_own_placed, s.setup_left[s.current]),
                            "neutral": int(not s.setup_neutral_placed and s.setup_left.get(NEUTRAL, 0) > 0)})]


RULESET = RiskRuleset()
SPEC = GameSpec(RULESET, renderer="renderer.risk", cog="cogs.risk", rule_prefix="RISK", variant_option="mode",
                option_names={"setup_placement": "placement", "fortify_mode": "fortify"},
                summarised=("mode", "setup", "setup_placement", "fortify_mode", "defender_dice"))
__all__ = ["RULESET", "SPEC", "RiskOptions", "RiskRuleset", "RiskState"]
