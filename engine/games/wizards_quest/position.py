"""The strict check of a loaded Wizard's Quest position: what docs/wizards-quest-position.md implies."""

from __future__ import annotations

from engine.core.check import Fields
from engine.core.errors import FormatError
from engine.games.wizards_quest.data import WQData
from engine.games.wizards_quest.state import Phase, WQState


def check_position(s: WQState, d: WQData) -> None:
    """Raise FormatError at the first field that contradicts the board, the seats or the deck."""
    m = d.map
    f = Fields(s.players, m.order, "location", f"on the board (territories {m.ids[0]} … {m.territories[-1]}, "
                                                f"castles {m.castles[0]} … {m.castles[-1]})")
    f.players(s.players, d.params.colours, d.params.players["min"], d.params.players["max"], "Wizard's Quest")
    over = s.phase is Phase.GAME_OVER
    f.seat("current", s.current, active=not over)
    f.seat("setup_leader", s.setup_leader)
    for k, pid in enumerate(s.order):
        f.seat(f"order.{k}", pid)
    if len(set(s.order)) != len(s.order):
        raise FormatError("order", "a player has two turns in the round's order")
    if s.winners is not None:
        for k, pid in enumerate(s.winners):
            f.seat(f"winners.{k}", pid)
    elif over:
        raise FormatError("winners", "a finished game (phase game_over) lists its winners ([] for nobody)")
    for name, n in (("seq", s.seq), ("round", s.round), ("pool", s.pool), ("turn.card_men", s.turn.card_men),
                    ("turn.champions", s.turn.champions), ("turn.campaigns", s.turn.campaigns),
                    ("turn.blessed", s.turn.blessed), ("turn.base", s.turn.base)):
        f.count(name, n)
    for loc, pid in s.owner.items():
        f.place(f"owner.{loc}", loc)
        f.seat(f"owner.{loc}", pid)
        if f.status[pid] == "eliminated":
            raise FormatError(f"owner.{loc}", f"player {pid} is eliminated and holds nothing (only a resigned "
                                              "player leaves rebels)")
    for loc, n in s.men.items():
        f.place(f"men.{loc}", loc)
        if loc not in s.owner:
            raise FormatError(f"men.{loc}", f"{loc} is not player-held, so it has no men (orcs are counted in orcs)")
        f.count(f"men.{loc}", n)
    for loc, n in s.orcs.items():
        f.place(f"orcs.{loc}", loc)
        if loc in s.owner:
            raise FormatError(f"orcs.{loc}", f"{loc} is held by player {s.owner[loc]}: a location has one occupant")
        f.count(f"orcs.{loc}", n, 1, d.params.orc_cap)
    for kind, leaders in (("hero", s.hero), ("sorcerer", s.sorcerer)):
        f.seat_keys(kind, leaders)
        for pid, loc in leaders.items():
            f.place(f"{kind}.{pid}", loc)
            if s.owner.get(loc) != pid:
                raise FormatError(f"{kind}.{pid}", f"{loc} is not held by player {pid}: a leader stands on its "
                                                   "player's own ground")
    for pid, loc in s.hero.items():
        if s.sorcerer.get(pid) == loc:
            raise FormatError(f"sorcerer.{pid}", f"the Hero is in {loc} too: a location holds one leader")
    for loc in s.owner:
        if s.pieces(loc) < 1:
            raise FormatError(f"men.{loc}", f"{loc} is player-held but holds no piece (men or a leader)")
    f.place("dragon", s.dragon)
    f.place("mage", s.mage)
    for k, t in enumerate(s.treasures):
        f.seat(f"treasures.{k}.owner", t.owner, active=True)
        f.seat(f"treasures.{k}.hider", t.hider)
        f.place(f"treasures.{k}.location", t.location)
    f.seat_keys("retrieved", s.retrieved, every=True)
    f.seat_keys("setup_left", s.setup_left)
    f.counts("setup_left", s.setup_left)
    f.seat_keys("hands", s.hands, every=True)
    f.seat_keys("boats", s.boats, every=True)
    for p in s.players:
        if p.status != "active" and (s.hands[p.id] or s.boats[p.id] or p.id in s.hero or p.id in s.sorcerer):
            raise FormatError(f"players.{s.players.index(p)}.status", f"player {p.id} is out of the game "
                                                                      f"({p.status}) but still has cards or leaders")
    a = s.attack
    spent = [("attack.boat", [a.boat])] if a is not None and a.boat is not None else []
    f.cards([("deck", s.deck), ("discard", s.discard), *((f"hands.{pid}", h) for pid, h in s.hands.items()),
             *((f"boats.{pid}", b) for pid, b in s.boats.items()), *spent], d.deck.instances, complete=True)
    if a is not None:
        f.place("attack.source", a.source)
        f.place("attack.target", a.target)
        f.count("attack.wounds", a.wounds)
        f.count("attack.battles", a.battles)
    for k, todo in enumerate(s.todo):
        f.count(f"todo.{k}.men", todo.men)
