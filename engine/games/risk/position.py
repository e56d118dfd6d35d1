"""The strict check of a loaded Risk position: what docs/risk-position.md says a valid position keeps."""

from __future__ import annotations

from engine.core.check import Fields, quoted
from engine.core.errors import FormatError
from engine.games.risk.mapdata import RiskMap
from engine.games.risk.setup import PLAYER_RANGE
from engine.games.risk.state import NEUTRAL, Phase, RiskState


def check_position(s: RiskState, board: RiskMap) -> None:
    """Raise FormatError at the first field that contradicts the map, the seats or the format's invariants."""
    f = Fields(s.players, board.territory, "territory", "on this map", neutral=NEUTRAL)
    f.players(s.players, board.colours, *PLAYER_RANGE[s.options.mode], f"Risk in {s.options.mode} mode")
    over = s.phase is Phase.GAME_OVER
    f.seat("current", s.current, active=not over)
    f.seat("first_player", s.first_player)
    if s.winner is not None:
        f.seat("winner", s.winner)
    elif over:
        raise FormatError("winner", "a finished game (phase game_over) names its winner")
    for name, n in (("seq", s.seq), ("turn", s.turn), ("pool", s.pool), ("sets_traded", s.sets_traded)):
        f.count(name, n)
    f.count("setup_own_placed", s.setup_own_placed, 0, 2)
    for t, pid in s.owner.items():
        f.place(f"owner.{t}", t)
        f.seat(f"owner.{t}", pid, neutral=True, active=True)
    unclaimed = [t for t in board.ids if t not in s.owner]
    if unclaimed and s.phase is not Phase.SETUP_CLAIM:
        raise FormatError("owner", f"{unclaimed[0]} has no owner: only the claim phase (setup_claim) leaves "
                                   "territories unclaimed")
    i = s.interrupt
    moving_in = i.target if i is not None and i.kind == "occupy" else None
    for t, n in s.armies.items():
        f.place(f"armies.{t}", t)
        if t not in s.owner:
            raise FormatError(f"armies.{t}", f"{t} has no owner, so it holds no armies")
        f.count(f"armies.{t}", n, 0 if t == moving_in else 1,
                why="0 only on the target of a pending move-in")
    for t in s.owner:
        if t not in s.armies:
            raise FormatError("armies", f"{t} has an owner but no army count")
    f.seat_keys("setup_left", s.setup_left, neutral=True)
    f.counts("setup_left", s.setup_left)
    f.seat_keys("plans", s.plans)
    for pid, plan in s.plans.items():
        for t in plan:
            f.place(f"plans.{pid}.{t}", t)
        f.counts(f"plans.{pid}", plan)
    f.seat_keys("hands", s.hands, every=True)
    f.cards([*((f"hands.{pid}", hand) for pid, hand in s.hands.items()), ("deck", s.deck), ("discard", s.discard)],
            [*board.ids, *board.wild_cards], complete=s.turn > 0)
    for p in s.players:
        if p.status != "active" and s.hands[p.id] and not over:
            raise FormatError(f"hands.{p.id}", f"player {p.id} is out of the game ({p.status}) and holds no cards")
    f.seat_keys("missions", s.missions)
    for pid, mission in s.missions.items():
        if mission not in board.mission:
            raise FormatError(f"missions.{pid}", f"there is no mission {quoted(mission)} (the missions are "
                                                 f"{board.missions[0].id} … {board.missions[-1].id})")
    f.seat_keys("standing_defence", s.standing_defence)
    f.counts("standing_defence", s.standing_defence, 1, 2)
    if i is not None:
        f.place("interrupt.source", i.source)
        f.place("interrupt.target", i.target)
        if i.defender is not None:
            f.seat("interrupt.defender", i.defender, neutral=i.kind == "occupy")
        if i.eliminated is not None:
            f.seat("interrupt.eliminated", i.eliminated)
