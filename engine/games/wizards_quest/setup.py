"""Wizard's Quest setup: seats and colours, the setup die-off, treasures to hide, starting men (WQ-SET-*)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import RuleError, player_count_error
from engine.core.i18n import msg
from engine.core.models import Event, Seat
from engine.core.rng import Rng, RngState, roll_off
from engine.games.wizards_quest import events as E
from engine.games.wizards_quest.data import WQData
from engine.games.wizards_quest.state import Phase, Treasure, TreasureKind, WQOptions, WQPlayer, WQState


def assign_colours(colours: Sequence[str], seats: Sequence[Seat]) -> list[str]:
    """A seat's requested colour when free, else the first unused one in table order (WQ-SET-1)."""
    wanted = [s.colour if s.colour in colours else None for s in seats]
    result: list[str] = []
    for want in wanted:
        if want is not None and want not in result:
            result.append(want)
        else:
            result.append(next(c for c in colours if c not in result and c not in wanted))
    return result


def hiders(ids: Sequence[int], owner_index: int, decoy: bool) -> list[tuple[TreasureKind, int]]:
    """Who hides each of one player's treasures (WQ-SET-6); the decoy goes with the Ring (ruling)."""
    n = len(ids)

    def left(k: int) -> int:
        return ids[(owner_index + k) % n]

    if n == 2:
        plan: list[tuple[TreasureKind, int]] = [("crown", left(1)), ("chest", left(1)), ("ring", left(1))]
    elif n == 3:
        plan = [("crown", left(1)), ("chest", left(1)), ("ring", left(2))]
    else:
        plan = [("crown", left(1)), ("chest", left(2)), ("ring", left(3))]
    if decoy:
        plan.append(("decoy", plan[2][1]))
    return plan


def new_game(data: WQData, seats: Sequence[Seat], options: WQOptions, seed: int) -> tuple[WQState, list[Event]]:
    p = data.params
    low, high = p.players["min"], p.players["max"]
    if not low <= len(seats) <= high:
        raise player_count_error(msg("title.wizards_quest"), low, high, len(seats))
    if len({s.id for s in seats}) != len(seats):
        raise RuleError("E_ALREADY_JOINED")
    rng = Rng(RngState.from_seed(seed))
    colours = assign_colours(p.colours, seats)
    players = [WQPlayer(id=s.id, name=s.name, colour=c, ai=s.ai) for s, c in zip(seats, colours, strict=True)]
    ids = [pl.id for pl in players]
    leader, rounds = roll_off(rng, ids)
    k = ids.index(leader)
    events: list[Event] = [E.OrderRolled(purpose="setup", rounds=rounds, order=ids[k:] + ids[:k])]
    treasures = [Treasure(owner=pid, kind=kind, hider=hider)
                 for i, pid in enumerate(ids) for kind, hider in hiders(ids, i, options.decoy)]
    start = p.starting_men[len(ids)]
    state = WQState(
        options=options, players=players, phase=Phase.SETUP_CASTLE, current=leader, setup_leader=leader,
        rng=rng.export(), treasures=treasures, setup_left={pid: start for pid in ids},
        deck=list(data.deck.instances), hands={pid: [] for pid in ids}, boats={pid: [] for pid in ids},
        retrieved={pid: [] for pid in ids},
    )
    return state, events
