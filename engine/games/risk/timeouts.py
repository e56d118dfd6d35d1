"""Deterministic play for an absent player when `timeout_action = skip` (RISK-DIG-42 … DIG-47)."""

from __future__ import annotations

from engine.games.risk import actions as A
from engine.games.risk.mapdata import RiskMap
from engine.games.risk.rules import preferred_set, round_robin, spread
from engine.games.risk.state import NEUTRAL, Phase, RiskState


def placements(board: RiskMap, s: RiskState, pid: int, n: int) -> list[A.Action]:
    """n armies round-robin over border territories, as one `deploy` (ruling 36).

    One command for the whole spread: the service asks for one action at a time and asks again, and a
    placement can't tell which armies of the round-robin were placed before it.
    """
    return [A.Deploy(player=pid, placements=spread(board, s, pid, n))] if n else []


def fewest_border(board: RiskMap, s: RiskState, pid: int) -> str:
    border = round_robin(board, s, pid, len(board.ids))
    return min(dict.fromkeys(border), key=lambda t: (s.armies[t], board.ids.index(t)))


def timeout_actions(board: RiskMap, s: RiskState, pid: int) -> list[A.Action]:
    """The actions that settle `pid`'s pending decision in the least harmful legal way.

    Apply them in order and stop when the game ends: a placement can complete a mission midway.
    """
    i = s.interrupt
    if i is not None:
        if i.kind == "defend":
            return [A.Defend(player=pid, dice=min(2, s.armies[i.target or ""]))]
        if i.kind == "occupy":
            return [A.Move(player=pid, count=i.min)]
        if i.kind == "elim_trade":
            return [A.Trade(player=pid, cards=list(preferred_set(board, s, pid)))]
        return placements(board, s, pid, s.pool)
    if s.phase is Phase.SETUP_CLAIM:
        free = next(t for t in board.ids if t not in s.owner)
        return [A.Claim(player=pid, territory=free)]
    if s.phase is Phase.SETUP_PLACE:
        left = s.unplanned(pid)
        if s.options.setup_placement == "one_at_a_time":
            return [A.Place(player=pid, territory=fewest_border(board, s, pid))]
        return [A.Deploy(player=pid, placements=spread(board, s, pid, left))]
    if s.phase is Phase.SETUP_PLACE_2P:
        result: list[A.Action] = []
        own = min(2 - s.setup_own_placed, s.setup_left[pid])
        if own:
            result.append(A.Place(player=pid, territory=fewest_border(board, s, pid), count=own))
        if not s.setup_neutral_placed and s.setup_left.get(NEUTRAL, 0):
            neutral = [t for t in board.ids if s.owner[t] == NEUTRAL]
            near = [t for t in neutral if any(s.owner[x] not in (pid, NEUTRAL) for x in board.neighbours[t])]
            result.append(A.PlaceNeutral(player=pid, territory=(near or neutral)[0]))
        return result
    if s.phase is Phase.REINFORCE:
        result = []
        if len(s.hands[pid]) >= 5:
            return [A.Trade(player=pid, cards=list(preferred_set(board, s, pid)))]
        result.extend(placements(board, s, pid, s.pool))
        result.append(A.EndTurn(player=pid))
        return result
    return [A.EndTurn(player=pid)]
