"""Wizard's Quest: the ruleset object the service, CLI and bot use."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.controls import Choice, Control
from engine.core.i18n import msg
from engine.core.models import Action, Decision, Event, Seat
from engine.core.ruleset import Policy
from engine.core.spec import GameSpec
from engine.games.wizards_quest import legal, rules, setup, timeouts
from engine.games.wizards_quest.actions import ACTION_ADAPTER
from engine.games.wizards_quest.ai import POLICIES
from engine.games.wizards_quest.data import WQData, standard
from engine.games.wizards_quest.events import EVENT_ADAPTER
from engine.games.wizards_quest.position import check_position
from engine.games.wizards_quest.state import Phase, WQOptions, WQState
from engine.games.wizards_quest.text import narrate, prompt, sequel, summary, text_board
from engine.games.wizards_quest.view import view


class WizardsQuestRuleset:
    name = "wizards_quest"
    title = "Wizard's Quest"
    state_model = WQState
    options_model = WQOptions
    reaction_kinds: frozenset[str] = frozenset()
    """Every Wizard's Quest decision belongs to the seat whose turn it is."""
    die_sides = 6

    def __init__(self, data: WQData | None = None) -> None:
        self.data = data or standard()

    def player_range(self, options: WQOptions) -> tuple[int, int]:
        return self.data.params.players["min"], self.data.params.players["max"]

    def parse_action(self, data: dict[str, Any]) -> Action:
        return ACTION_ADAPTER.validate_python(data)

    def check_position(self, state: WQState) -> None:
        check_position(state, self.data)

    def parse_event(self, data: dict[str, Any]) -> Event:
        return EVENT_ADAPTER.validate_python(data)

    def new_game(self, seats: Sequence[Seat], options: WQOptions, seed: int) -> tuple[WQState, list[Event]]:
        return setup.new_game(self.data, seats, options, seed)

    def apply(self, state: WQState, action: Action) -> tuple[WQState, list[Event]]:
        return rules.apply(state, action, self.data)

    def pending(self, state: WQState) -> list[Decision]:
        return pending(state)

    def view(self, state: WQState, viewer: int | None) -> WQState:
        return view(state, viewer)

    def winners(self, state: WQState) -> list[int] | None:
        return list(state.winners) if state.phase is Phase.GAME_OVER and state.winners is not None else None

    def alive(self, state: WQState) -> list[int]:
        return state.active_ids()

    def ranking(self, state: WQState) -> list[int]:
        """The winners, then survivors by treasures retrieved, locations and men, then the fallen by treasures.

        Rebels are nobody's strength: a resigned player ranks among the fallen (WQ-LEAVE-3).
        """
        won = set(state.winners or [])

        def strength(pid: int) -> tuple[int, int, int]:
            treasures = len([k for k in state.retrieved.get(pid, []) if k != "decoy"])
            if pid not in state.active_ids():
                return treasures, 0, 0
            held = state.locations_of(pid)
            return treasures, len(held), sum(state.pieces(loc) for loc in held)

        order = sorted(state.players, key=lambda p: (p.id not in won, p.status != "active",
                                                     tuple(-x for x in strength(p.id))))
        return [p.id for p in order]

    def policy(self, name: str) -> Policy:
        return POLICIES[name](self.data)

    def narrate(self, event: Event, state: WQState, locale: str = "en") -> str | None:
        return narrate(event, state, self.data, locale)

    def sequel(self, event: Event, previous: Event, state: WQState, locale: str = "en") -> str | None:
        return sequel(event, previous, state, locale)

    def summary(self, player: int, events: Sequence[Event], state: WQState, locale: str = "en") -> str:
        return summary(player, events, state, self.data, locale)

    def prompt(self, decision: Decision, state: WQState, locale: str = "en") -> str:
        return prompt(decision, state, self.data, locale)

    def text_board(self, state: WQState, locale: str = "en") -> str:
        return text_board(state, self.data, locale)

    def timeout_action(self, state: WQState, player: int) -> Action:
        return timeouts.timeout_action(state, self.data, player)

    def choices(self, state: WQState, player: int, field: str, **context: Any) -> list[Choice]:
        return legal.choices(state, self.data, player, field, context)

    def controls(self, state: WQState, player: int, recent: Sequence[Event] = ()) -> list[Control]:
        """Every decision belongs to the seat whose turn it is; `recent` changes nothing here."""
        decisions = pending(state)
        if not decisions or decisions[0].player != player:
            return []
        return legal.controls(state, self.data, player, decisions[0].kind)


def pending(s: WQState) -> list[Decision]:
    """Who must decide what next: always one seat of the active player, or nobody once the game is over."""
    if s.phase is Phase.GAME_OVER:
        return []
    if s.todo:
        todo = s.todo[0]
        detail: dict[str, Any] = {}
        if todo.kind == "capture" and s.attack is not None:
            detail = {"source": s.attack.source, "target": s.attack.target, "max": s.pieces(s.attack.source) - 1}
        elif todo.kind == "reward":
            detail = {"men": s.pool}
        elif todo.kind == "region":
            detail = {"beast": msg(f"wq.beast.{todo.beast}")}
        elif todo.kind == "hand":
            detail = {"n": len(s.hands[s.current])}
        return [Decision(player=s.current, kind=todo.kind, detail=detail)]
    if s.phase is Phase.SETUP_HIDE:
        left = sum(1 for t in s.treasures if t.hider == s.current and t.location is None)
        return [Decision(player=s.current, kind="hide", detail={"n": left})]
    if s.phase in (Phase.SETUP_DEPLOY, Phase.REINFORCE):
        return [Decision(player=s.current, kind=s.phase.value, detail={"men": s.pool})]
    if s.phase is Phase.PETITION:
        return [Decision(player=s.current, kind="petition", detail={"hand": len(s.hands[s.current]),
                                                                      "drawn": s.turn.drawn})]
    if s.phase is Phase.ATTACK:
        if s.attack is not None:
            a = s.attack
            return [Decision(player=s.current, kind="battle", detail={"source": a.source, "target": a.target,
                                                                      "pieces": s.pieces(a.source)})]
        return [Decision(player=s.current, kind="attack", detail={"campaigns": s.turn.campaigns})]
    return [Decision(player=s.current, kind=s.phase.value)]


RULESET = WizardsQuestRuleset()
SPEC = GameSpec(RULESET, aliases=("wq",), renderer="renderer.wizards_quest", cog="cogs.wizards_quest",
                rule_prefix="WQ")
__all__ = ["RULESET", "SPEC", "WQOptions", "WQState", "WizardsQuestRuleset"]
