"""Initiative, step 3.0 (BM-INI-1 … 3, BM-A-11): everyone rolls a d10; owners of k ≥ 1 large cities choose,
privately and simultaneously, +k, −k or keep; the order is the modified results, descending, ties re-rolled
unmodified among the tied."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from engine.core import orders as O
from engine.core.errors import RuleError
from engine.core.i18n import msg
from engine.core.models import Action, Decision, Event
from engine.core.orders import Orders
from engine.core.rng import Rng
from engine.games.battlemist.dice import Rolled, d10, rank_by_rolls
from engine.games.battlemist.phases import wrong_phase

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState


@dataclass(frozen=True, slots=True, kw_only=True)
class InitiativeState:
    """This round's rolls, each large-city owner's k, and their private modifiers (an `Orders` book)."""

    rolls: dict[int, int]
    large: dict[int, int] = field(default_factory=dict)
    """k for each player who may modify (k ≥ 1)."""
    choices: Orders[int] = field(default_factory=lambda: Orders(seats=[]))


@dataclass(frozen=True, slots=True, kw_only=True)
class InitiativeMod(Action):
    """Add `change` to your initiative roll: +k, −k or 0 for your k large cities (BM-INI-1)."""

    type: Literal["initiative"] = "initiative"
    change: int
    lock: bool = True


@dataclass(slots=True, kw_only=True)
class InitiativeSet(Event):
    """The round's turn order (BM-INI-2): the rolls, the modifiers revealed, and the resulting order."""

    type: Literal["initiative_set"] = "initiative_set"
    rolls: dict[int, int]
    modifiers: dict[int, int]
    order: list[int]


def begin_initiative(state: BMState, rng: Rng) -> list[Event]:
    """Step 3.0: phase INITIATIVE, every player's d10 (seat order); then either the private choices of the
    large-city owners, or straight away the order (`initiative_done`)."""
    from engine.games.battlemist.state import Phase

    state.phase = Phase.INITIATIVE
    ids = state.active_ids()
    rolls = {pid: d10(rng) for pid in ids}
    events: list[Event] = [Rolled(purpose="initiative", player=pid, dice=[rolls[pid]]) for pid in ids]
    large = {pid: state.large_cities(pid) for pid in ids if state.large_cities(pid) >= 1}
    state.initiative = InitiativeState(rolls=rolls, large=large, choices=Orders(seats=list(large)))
    if not large:
        events += settle(state, rng)
    return events


def initiative_done(state: BMState) -> bool:
    """The order is set: `state.order` and `state.active` hold it."""
    from engine.games.battlemist.state import Phase

    return state.phase is Phase.INITIATIVE and state.initiative is None


def choose_initiative(state: BMState, action: InitiativeMod, rng: Rng) -> list[Event]:
    """A large-city owner's private modifier (BM-INI-1; BM_E_INITIATIVE_MOD), editable until locked."""
    from engine.games.battlemist.state import Phase

    ini = state.initiative
    if state.phase is not Phase.INITIATIVE or ini is None:
        raise wrong_phase(state.phase, "initiative")
    if action.player in ini.choices.locked:
        raise RuleError("BM_E_LOCKED", what=msg("bm.term.what.initiative"))
    k = ini.large.get(action.player, 0)
    if not k or action.change not in (0, k, -k):
        raise RuleError("BM_E_INITIATIVE_MOD", k=k)
    book = O.submit(ini.choices, action.player, action.change)
    if action.lock:
        book = O.lock(book, action.player)
    state.initiative = replace(ini, choices=book)
    return settle(state, rng) if O.complete(book) else []


def settle(state: BMState, rng: Rng) -> list[Event]:
    """BM-INI-2, INI-3: order by modified result, descending; the tied re-roll unmodified (BM-A-11) to fix
    their relative order. Sets `state.order` and the first `state.active`."""
    ini = state.initiative
    assert ini is not None
    mods = {pid: mod or 0 for pid, mod in O.reveal(ini.choices)}
    score = {pid: roll + mods.get(pid, 0) for pid, roll in ini.rolls.items()}
    order: list[int] = []
    events: list[Event] = []
    for value in sorted(set(score.values()), reverse=True):
        tied = [pid for pid in ini.rolls if score[pid] == value]
        if len(tied) > 1:
            tied, rolls = rank_by_rolls(rng, tied, "initiative_tie")
            events += rolls
        order += tied
    state.order = order
    state.active = order[0]
    state.initiative = None
    return [*events, InitiativeSet(rolls=dict(ini.rolls), modifiers=mods, order=order)]


def leave_initiative(state: BMState, pid: int, rng: Rng) -> list[Event]:
    """`pid` left the game while the modifiers were open: his roll and choice drop out, and the order is set
    once the others have chosen."""
    ini = state.initiative
    if ini is None:
        return []
    book = O.withdraw(ini.choices, pid)
    state.initiative = replace(ini, rolls={p: r for p, r in ini.rolls.items() if p != pid},
                               large={p: k for p, k in ini.large.items() if p != pid}, choices=book)
    return settle(state, rng) if O.complete(book) else []


def seen_by(ini: InitiativeState | None, viewer: int | None) -> InitiativeState | None:
    """Initiative as `viewer` (None: a spectator) may see it: the others' modifiers stay hidden until all are
    locked (BM-SIM-4)."""
    if ini is None:
        return None
    drafts = {p: d for p, d in ini.choices.drafts.items() if p == viewer}
    return replace(ini, choices=replace(ini.choices, drafts=drafts))


HANDLERS = {InitiativeMod: choose_initiative}
"""This module's actions and their handlers, for the game's dispatcher."""


def initiative_decisions(state: BMState) -> list[Decision]:
    ini = state.initiative
    if ini is None:
        return []
    return [Decision(player=pid, kind="initiative", detail={"roll": ini.rolls[pid], "k": ini.large[pid]})
            for pid in O.missing(ini.choices)]


def timeout_initiative(state: BMState, pid: int) -> InitiativeMod:
    """The stand-in locks his unlocked draft (reference ruling 12), else keeps his roll (BM-DIG-19)."""
    ini = state.initiative
    return InitiativeMod(player=pid, change=(ini.choices.drafts.get(pid) if ini is not None else None) or 0)
