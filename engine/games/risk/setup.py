"""Risk setup: seats and colours, first-player roll, claim/deal, missions (§3)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import RuleError, player_count_error
from engine.core.i18n import option_value
from engine.core.models import Event, Seat
from engine.core.rng import Rng, RngState, roll_off
from engine.games.risk import events as E
from engine.games.risk.mapdata import RiskMap
from engine.games.risk.state import NEUTRAL, Phase, RiskOptions, RiskPlayer, RiskState

PLAYER_RANGE = {"standard": (3, 6), "secret_mission": (3, 6), "two_player": (2, 2)}


def assign_colours(board: RiskMap, seats: Sequence[Seat]) -> list[str]:
    taken = [s.colour for s in seats if s.colour]
    free = [c for c in board.colours if c not in taken]
    colours = []
    for s in seats:
        if s.colour and s.colour in board.colours and colours.count(s.colour) == 0:
            colours.append(s.colour)
        else:
            colours.append(free.pop(0))
    return colours


def new_game(board: RiskMap, seats: Sequence[Seat], options: RiskOptions, seed: int) -> tuple[RiskState, list[Event]]:
    lo, hi = PLAYER_RANGE[options.mode]
    if not lo <= len(seats) <= hi:
        raise player_count_error(option_value(options.mode), lo, hi, len(seats))
    if len({s.id for s in seats}) != len(seats):
        raise RuleError("E_ALREADY_JOINED")
    rng = Rng(RngState.from_seed(seed))
    events: list[Event] = []
    colours = assign_colours(board, seats)
    players = [RiskPlayer(id=s.id, name=s.name, colour=c, ai=s.ai) for s, c in zip(seats, colours, strict=True)]
    ids = [p.id for p in players]
    first, rounds = roll_off(rng, ids)
    events.append(E.FirstPlayerRolled(rounds=rounds, first_player=first))
    start = board.starting_armies[len(players)]
    s = RiskState(
        options=options, players=players, phase=Phase.SETUP_CLAIM, current=first, first_player=first,
        rng=RngState(state=0), setup_left={pid: start for pid in ids}, hands={pid: [] for pid in ids},
    )
    if options.mode == "secret_mission":
        deal_missions(board, s, rng, events)
    if options.mode == "two_player":
        deal_two_player(board, s, rng, start, events)
    elif options.deals:
        deal_territories(board, s, rng, events)
    s.rng = rng.export()
    return s, events


def deal_missions(board: RiskMap, s: RiskState, rng: Rng, events: list[Event]) -> None:
    """RISK-WIN-21, RISK-SET-29, RISK-WIN-22."""
    seated = {p.colour for p in s.players}
    pool = [m.id for m in board.missions
            if s.options.mission_set in m.sets and (m.destroy is None or m.destroy in seated)]
    rng.shuffle(pool)
    for p in s.players:
        mid = pool.pop(0)
        mission = board.mission[mid]
        if mission.destroy == p.colour:
            s.missions[p.id] = "M05"
            events.append(E.MissionDealt(private_to=p.id, mission="M05", replaced=mid))
        else:
            s.missions[p.id] = mid
            events.append(E.MissionDealt(private_to=p.id, mission=mid))


def deal_territories(board: RiskMap, s: RiskState, rng: Rng, events: list[Event]) -> None:
    """Random deal from the seat after the first player, 1 army each (RISK-SET-22 … SET-25)."""
    cards = list(board.ids)
    rng.shuffle(cards)
    ids = [p.id for p in s.players]
    start = ids.index(s.first_player) + 1
    for k, t in enumerate(cards):
        pid = ids[(start + k) % len(ids)]
        s.owner[t] = pid
        s.armies[t] = 1
        s.setup_left[pid] -= 1
    s.phase = Phase.SETUP_PLACE
    s.current = s.first_player
    events.append(E.TerritoriesDealt(counts={pid: sum(1 for o in s.owner.values() if o == pid) for pid in ids}))


def deal_two_player(board: RiskMap, s: RiskState, rng: Rng, start: int, events: list[Event]) -> None:
    """Three piles of 14 assigned at random to the players and Neutral (RISK-TWO-1 … TWO-3)."""
    cards = list(board.ids)
    rng.shuffle(cards)
    size = len(cards) // 3
    sides = [p.id for p in s.players] + [NEUTRAL]
    rng.shuffle(sides)
    for k, side in enumerate(sides):
        for t in cards[k * size:(k + 1) * size]:
            s.owner[t] = side
            s.armies[t] = 1
    s.setup_left = {pid: start - size for pid in sides}
    s.phase = Phase.SETUP_PLACE_2P
    s.current = s.first_player
    events.append(E.TerritoriesDealt(counts={pid: size for pid in sides}))
