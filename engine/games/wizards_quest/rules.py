"""Wizard's Quest rules: `apply(state, action)` checks in WQ-VAL-ORDER, resolves, then runs the automated
phases (Orc, Dragon, Mage, turn order) until a seat must decide again."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace

from engine.core.datanames import name_of
from engine.core.errors import RuleError
from engine.core.i18n import in_every_language, msg
from engine.core.models import Event, copier
from engine.core.players import next_seat, seat_cycle, with_status
from engine.core.rng import Rng, roll_off
from engine.core.turns import Gate, Seating
from engine.games.wizards_quest import actions as A
from engine.games.wizards_quest import board as B
from engine.games.wizards_quest import checks as C
from engine.games.wizards_quest import events as E
from engine.games.wizards_quest.data import WQData
from engine.games.wizards_quest.names import label
from engine.games.wizards_quest.state import ORCS, Attack, Beast, Leader, Phase, Todo, Turn, WQState

STEP_ACTIONS: dict[Phase, frozenset[str]] = {
    Phase.SETUP_CASTLE: frozenset({"castle"}),
    Phase.SETUP_CLAIM: frozenset({"claim"}),
    Phase.SETUP_HIDE: frozenset({"hide"}),
    Phase.SETUP_DEPLOY: frozenset({"place", "buy"}),
    Phase.PETITION: frozenset({"draw", "play", "done"}),
    Phase.REINFORCE: frozenset({"place", "buy", "done"}),
    Phase.ATTACK: frozenset({"attack", "free", "aid", "roll", "stop", "cancel", "end", "capture", "region", "mage",
                             "place", "buy"}),
}
TODO_ACTIONS: dict[str, frozenset[str]] = {
    "hand": frozenset({"play"}),
    "capture": frozenset({"capture"}),
    "reward": frozenset({"place", "buy"}),
    "region": frozenset({"region"}),
    "ring": frozenset({"mage"}),
}
ATTACK_ONLY = frozenset({"aid", "roll", "stop", "cancel", "capture"})


def _game_over(s: WQState) -> RuleError | None:
    if s.phase is not Phase.GAME_OVER:
        return None
    return RuleError("WQ_VAL_40", winner=[s.name(w) for w in s.winners or []] or msg("wq.term.nobody"), n=s.round)


def _wrong_step(phase: Phase, kind: str, _allowed: Collection[str] = ()) -> RuleError:
    return RuleError("WQ_VAL_2", action=msg(f"wq.command.{kind}"), step=msg(f"wq.step.{phase.value}"))


SEATING: Seating[WQState] = Seating(_game_over, not_seated="WQ_VAL_1_SEAT", out="WQ_VAL_1_OUT")
GATE: Gate[Phase] = Gate(STEP_ACTIONS, _wrong_step, {"play": "WQ_VAL_11_STEP"})
"""WQ-VAL-2: the step's own commands; a pending forced decision narrows them further (TODO_ACTIONS)."""


_copy = copier(WQState)


def clone(s: WQState) -> WQState:
    """A copy whose containers may be changed without touching `s`; the nested models are frozen."""
    n = _copy(s)
    n.players, n.order, n.treasures, n.todo = list(s.players), list(s.order), list(s.treasures), list(s.todo)
    n.owner, n.men, n.orcs, n.setup_left = dict(s.owner), dict(s.men), dict(s.orcs), dict(s.setup_left)
    n.hero, n.sorcerer, n.deck, n.discard = dict(s.hero), dict(s.sorcerer), list(s.deck), list(s.discard)
    n.retrieved = {k: list(v) for k, v in s.retrieved.items()}
    n.hands = {k: list(v) for k, v in s.hands.items()}
    n.boats = {k: list(v) for k, v in s.boats.items()}
    n.winners = None if s.winners is None else list(s.winners)
    return n


class Apply:
    """One application of one action to a private copy of the state."""

    def __init__(self, state: WQState, data: WQData) -> None:
        self.s = clone(state)
        self.d = data
        self.m = data.map
        self.p = data.params
        self.rng = Rng(state.rng)
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def finish(self) -> None:
        self.s.seq = self.s.seq + 1
        self.s.rng = self.rng.export()

    def over(self) -> bool:
        return self.s.phase is Phase.GAME_OVER

    # ------------------------------------------------------------------ gates (WQ-VAL-ORDER)

    def run(self, a: A.Action) -> None:
        s = self.s
        if SEATING.admit(s, a, self.leave):
            return
        if a.player != s.current:
            raise RuleError("WQ_VAL_1", player=s.name(s.current), step=msg(f"wq.step.{s.phase.value}"))
        kind = a.type
        if kind == "done" and s.phase is Phase.ATTACK and s.attack is None and not s.todo:
            return  # the reinforcement's `done`, once the last man began the attack step: nothing to do (ruling 20)
        GATE.check(s.phase, kind)
        if s.todo:
            todo = s.todo[0]
            allowed = TODO_ACTIONS[todo.kind]
            if todo.kind == "capture" and s.attack is not None and s.attack.empty_start:
                allowed = allowed | {"aid", "cancel"}
            if kind not in allowed:
                if todo.kind == "hand" and kind == "done":
                    raise RuleError("WQ_VAL_12")
                raise RuleError("WQ_VAL_3", pending=msg(f"wq.todo.{todo.kind}"))
        elif kind in ATTACK_ONLY and s.attack is None:
            raise RuleError("WQ_VAL_35")
        elif kind in ("region", "mage", "capture") or (s.phase is Phase.ATTACK and kind in ("place", "buy")):
            raise _wrong_step(s.phase, kind)
        handler: Callable[[A.Action], None] = getattr(self, "do_" + kind)
        handler(a)

    # ------------------------------------------------------------------ setup (WQ-SET-*)

    def do_castle(self, a: A.ChooseCastle) -> None:
        s = self.s
        c = C.loc(self.d, a.castle)
        if c not in self.m.castles:
            raise RuleError("WQ_VAL_5_NOT", x=label(c, self.d))
        if c in s.owner:
            raise RuleError("WQ_VAL_5_TAKEN", c=label(c, self.d))
        s.owner[c] = a.player
        s.men[c] = self.p.castle_men
        self.emit(E.CastleChosen(player=a.player, castle=c, men=self.p.castle_men))
        self.next_castle(a.player)

    def next_castle(self, after: int) -> None:
        """The next seat still in the game chooses a castle; after the last one, the setup orcs (WQ-SET-3/4)."""
        s = self.s
        cycle = seat_cycle(s.seat_order(), s.setup_leader)
        later = [p for p in cycle[cycle.index(after) + 1:] if s.player(p).status == "active"]  # type: ignore[union-attr]
        if later:
            s.current = later[0]
            return
        free = [c for c in self.m.castles if c not in s.owner]
        for c in free:
            s.orcs[c] = self.p.unpicked_castle_orcs
        if free:
            self.emit(E.OrcsPlaced(locations=free, orcs=self.p.unpicked_castle_orcs))
        rolled: list[str] = []
        dice: list[list[int]] = []
        while len(rolled) < self.p.setup_orc_territories:
            r, t = self.rng.die(), self.rng.die()
            dice.append([r, t])
            where = self.m.territory(r, t)
            if where not in rolled:
                rolled.append(where)
        for where in rolled:
            s.orcs[where] = self.p.setup_orcs_each
        self.emit(E.OrcsPlaced(locations=rolled, orcs=self.p.setup_orcs_each, rolls=dice))
        s.phase = Phase.SETUP_CLAIM
        s.current = s.next_active(s.setup_leader, including=True)

    def empty_territories(self) -> list[str]:
        return [t for t in self.m.territories if not B.occupied(self.s, t)]

    def do_claim(self, a: A.Claim) -> None:
        s = self.s
        t = C.loc(self.d, a.territory)
        if t not in self.m.territories or B.occupied(s, t):
            raise RuleError("WQ_VAL_6", t=label(t, self.d))
        s.owner[t] = a.player
        s.men[t] = 1
        self.emit(E.Claimed(player=a.player, territory=t))
        self.next_claim(a.player)

    def next_claim(self, after: int) -> None:
        """The next seat claims, or, with no empty territory left, the hiding starts (WQ-SET-5/7)."""
        s = self.s
        if self.empty_territories():
            s.current = s.next_active(after)
            return
        s.phase = Phase.SETUP_HIDE
        s.current = s.setup_leader
        self.next_hider(first=True)

    def next_hider(self, first: bool = False) -> None:
        """The next seat round the table that still holds a treasure to hide, or on to deployment."""
        s = self.s
        holder = next_seat(s.seat_order(), s.current, {t.hider for t in s.treasures if t.location is None},
                           including=first)
        if holder is not None:
            s.current = holder
            return
        s.phase = Phase.SETUP_DEPLOY
        s.current = s.setup_leader
        self.next_batch(first=True)

    def do_hide(self, a: A.Hide) -> None:
        s = self.s
        index = next((k for k, t in enumerate(s.treasures) if t.hider == a.player and t.owner == a.owner
                      and t.kind == a.treasure and t.location is None), None)
        if index is None:
            raise RuleError("WQ_VAL_7")
        t = C.loc(self.d, a.territory)
        if t not in self.m.territories:
            raise RuleError("WQ_VAL_8_CASTLE")
        if s.owner.get(t) == a.owner:
            raise RuleError("WQ_VAL_8_OWNER", owner=s.name(a.owner), t=t)
        if any(x.location == t for x in s.treasures):
            raise RuleError("WQ_VAL_8_TAKEN", t=t)
        s.treasures[index] = replace(s.treasures[index], location=t)
        if s.options.decoy:
            self.emit(E.TreasureHidden(hider=a.player, owner=a.owner, territory=t, kind=None))
            self.emit(E.TreasureHidden(hider=a.player, owner=a.owner, territory=t, kind=a.treasure,
                                       private_to=a.player))
        else:
            self.emit(E.TreasureHidden(hider=a.player, owner=a.owner, territory=t, kind=a.treasure))
        self.next_hider()

    def next_batch(self, first: bool = False) -> None:
        """Deploy starting men in batches, round the table from the setup leader (WQ-SET-8)."""
        s = self.s
        pid = next_seat(s.seat_order(), s.current, {p for p, n in s.setup_left.items() if n > 0}, including=first)
        if pid is not None:
            s.current = pid
            s.pool = min(self.p.deploy_batch, s.setup_left[pid])
            s.setup_left[pid] -= s.pool
            return
        s.pool = 0
        s.setup_left = {}
        self.rng.shuffle(s.deck)
        self.emit(E.SetupFinished())
        self.start_round()

    # ------------------------------------------------------------------ placing men and buying leaders

    def do_place(self, a: A.Place) -> None:
        s = self.s
        resolved = C.placement(s, self.d, a.player, a.placements)
        for where, n in resolved.items():
            s.men[where] = s.men.get(where, 0) + n
        s.pool -= sum(resolved.values())
        self.emit(E.Placed(player=a.player, placements=resolved))
        self.after_placing()

    def do_buy(self, a: A.Buy) -> None:
        s = self.s
        where = C.loc(self.d, a.location)
        cost = C.buy(s, self.d, a.player, a.leader, where)
        (s.hero if a.leader == "hero" else s.sorcerer)[a.player] = where
        s.pool -= cost
        if cost == 1:
            s.turn = replace(s.turn, champions=s.turn.champions - 1)
        self.emit(E.LeaderBought(player=a.player, leader=a.leader, location=where, cost=cost))
        self.after_placing()

    def after_placing(self) -> None:
        s = self.s
        if s.turn.champions > s.pool:
            s.turn = replace(s.turn, champions=s.pool)
        if s.pool > 0:
            return
        if s.phase is Phase.SETUP_DEPLOY:
            self.next_batch()
        elif s.todo:
            s.todo.pop(0)
            self.continue_todo()
        else:
            s.phase = Phase.ATTACK

    # ------------------------------------------------------------------ rounds and the automated phases

    def start_round(self) -> None:
        """A new round: Orc, Dragon and Mage phases, then the turn order (WQ-RND-1)."""
        s = self.s
        s.round += 1
        s.current = 0
        self.emit(E.RoundStarted(round=s.round))
        self.orc_phase()
        if self.over():
            return
        self.dragon_flies(None, "phase")
        self.check_players()
        if self.over():
            return
        self.mage_arrives(None, "phase")
        self.roll_order()
        self.begin_turn(s.order[0])

    def random_territory(self) -> tuple[str, list[int]]:
        r, t = self.rng.die(), self.rng.die()
        return self.m.territory(r, t), [r, t]

    def orc_phase(self) -> None:
        """Growth rolls, then every stack of 4 frenzies in location order (WQ-ORC-2 … ORC-7)."""
        s = self.s
        cap = self.p.orc_cap
        for _ in range(self.p.orc_growth_rolls):
            t, dice = self.random_territory()
            before = s.orcs.get(t, 0)
            if t in s.owner:
                self.emit(E.OrcGrowth(dice=dice, territory=t, before=0, after=0, holder=s.owner[t]))
                continue
            s.orcs[t] = min(cap, before + self.p.orc_growth)
            self.emit(E.OrcGrowth(dice=dice, territory=t, before=before, after=s.orcs[t]))
        for source in [loc for loc in self.m.ids if s.orcs.get(loc, 0) == self.p.frenzy_at]:
            if s.orcs.get(source, 0) < 2:
                continue
            target = next((n for n in self.m.neighbours[source] if n in s.owner and not s.rebels_at(n)
                           and not B.is_protected(s, self.d, n) and not B.has_hero(s, n) and s.dragon != n), None)
            if target is not None:
                self.frenzy(source, target)
                self.check_players()
                if self.over():
                    return
        self.check_players()

    def frenzy(self, source: str, target: str) -> None:
        s = self.s
        defender = s.owner[target]
        rolls: list[int] = []
        orc_losses = defender_losses = 0
        d_value = B.orc_defence(s, self.d, source, target)
        while target in s.owner and s.orcs[source] > 1:
            d_value = B.orc_defence(s, self.d, source, target)
            roll = self.rng.die()
            rolls.append(roll)
            if roll > d_value:
                self.lose_piece(target)
                defender_losses += 1
            else:
                s.orcs[source] -= 1
                orc_losses += 1
        moved = 0
        if target not in s.owner:
            moved = s.orcs[source] - 1
            if moved > 0:
                s.orcs[source] -= moved
                s.orcs[target] = moved
        self.emit(E.Frenzy(source=source, target=target, defender=defender, d=d_value, rolls=rolls,
                           orc_losses=orc_losses, defender_losses=defender_losses, captured=moved > 0, moved=moved))

    def dragon_flies(self, to: str | None, reason: str, dice: list[int] | None = None) -> None:
        """The Dragon arrives (at random when `to` is None) and devours (WQ-DRG-1 … DRG-5)."""
        s = self.s
        if to is None:
            to, dice = self.random_territory()
        s.dragon = to
        event = E.DragonLanded(reason=reason, dice=dice or [], territory=to)  # type: ignore[arg-type]
        if B.is_protected(s, self.d, to):
            event = replace(event, protected=B.occupied(s, to))
        elif B.occupied(s, to):
            n = self.rng.die()
            if to in s.owner:
                victim = s.owner[to]
                eaten = min(n, s.men.get(to, 0))
                s.men[to] = s.men.get(to, 0) - eaten
                self.tidy(to)
            else:
                victim = ORCS
                eaten = min(n, s.orcs[to])
                s.orcs[to] -= eaten
                self.tidy(to)
            event = replace(event, victim=victim, devour=n, eaten=eaten)
        self.emit(event)

    def mage_arrives(self, to: str | None, reason: str, dice: list[int] | None = None) -> None:
        """The Great Mage moves (at random when `to` is None) and prospers (WQ-MAGE-1 … MAGE-3, PROT-4)."""
        s = self.s
        if to is None:
            to, dice = self.random_territory()
        s.mage = to
        holder: int | None = None
        added = 0
        if to in s.owner:
            holder = s.owner[to]
            added = 0 if s.rebels_at(to) else self.p.prosper_men  # rebels never grow (WQ-LEAVE-2)
            s.men[to] = s.men.get(to, 0) + added
        elif s.orcs.get(to, 0) > 0:
            holder = ORCS
            added = min(self.p.orc_cap, s.orcs[to] + self.p.prosper_orcs) - s.orcs[to]
            s.orcs[to] += added
        self.emit(E.MageMoved(reason=reason, dice=dice or [], territory=to, holder=holder,  # type: ignore[arg-type]
                              added=added, region=self.m.region_of[to]))

    def roll_order(self) -> None:
        """The round's turn order: a die-off, or the fixed order from setup (WQ-ORD-1, ORD-2, ORD-4)."""
        s = self.s
        active = s.active_ids()
        if s.options.turn_order == "fixed":
            first = next(p for p in seat_cycle(s.seat_order(), s.setup_leader) if p in active)
        else:
            first, rounds = roll_off(self.rng, active)
        s.order = [p for p in seat_cycle(s.seat_order(), first) if p in active]
        if s.options.turn_order == "per_round":
            self.emit(E.OrderRolled(purpose="round", rounds=rounds, order=s.order))

    def begin_turn(self, pid: int) -> None:
        s = self.s
        s.current = pid
        s.phase = Phase.PETITION
        s.turn = Turn()
        s.attack = None
        s.todo = []
        self.emit(E.TurnStarted(player=pid, round=s.round))

    def end_turn(self) -> None:
        """The next active player in this round's order, or the next round (WQ-ORD-2, ORD-3, END-4)."""
        s = self.s
        done = s.current
        s.turn = Turn()
        s.attack = None
        s.todo = []
        s.pool = 0
        self.emit(E.TurnEnded(player=done))
        later = s.order[s.order.index(done) + 1:] if done in s.order else []
        for pid in later:
            if s.player(pid) and s.player(pid).status == "active":  # type: ignore[union-attr]
                self.begin_turn(pid)
                return
        limit = s.options.round_limit
        if limit is not None and s.round >= limit:
            self.round_limit_winners()
            return
        self.start_round()

    def round_limit_winners(self) -> None:
        """Most treasures, then most locations, then most men; else shared (WQ-END-4)."""
        s = self.s

        def score(pid: int) -> tuple[int, int, int]:
            own = s.locations_of(pid)
            real = [k for k in s.retrieved.get(pid, []) if k != "decoy"]
            return len(real), len(own), sum(s.men.get(x, 0) for x in own)

        active = s.active_ids()
        best = max(score(p) for p in active)
        self.game_over([p for p in active if score(p) == best], "round_limit")

    # ------------------------------------------------------------------ pieces, elimination, victory

    def tidy(self, where: str) -> None:
        """Forget empty entries, so that `owner` holds exactly the player-held locations."""
        s = self.s
        if s.men.get(where, 1) == 0:
            del s.men[where]
        if s.orcs.get(where, 1) == 0:
            del s.orcs[where]
        if where in s.owner and s.pieces(where) == 0:
            del s.owner[where]

    def lose_piece(self, where: str) -> None:
        """Men first, the leader only when no man is left (WQ-DEF-6, LDR-3)."""
        s = self.s
        if s.men.get(where, 0) > 0:
            s.men[where] -= 1
        else:
            pid = s.owner[where]
            if s.hero.get(pid) == where:
                del s.hero[pid]
            else:
                del s.sorcerer[pid]
        self.tidy(where)

    def check_players(self) -> None:
        """Eliminate every active player with no piece left, then check for a last survivor (WQ-END-2/3/5/6)."""
        s = self.s
        held = set(s.owner.values())
        for p in list(s.players):
            if p.status == "active" and p.id not in held:
                s.players = with_status(s.players, p.id, "eliminated")
                s.discard.extend(s.hands.get(p.id, []))
                s.discard.extend(s.boats.get(p.id, []))
                s.hands[p.id] = []
                s.boats[p.id] = []
                s.treasures = [t for t in s.treasures if t.owner != p.id]
                self.emit(E.Eliminated(player=p.id))
        self.check_survivors()

    def check_survivors(self) -> None:
        """A last player left wins; nobody left ends the game without a winner (WQ-END-2/3)."""
        active = self.s.active_ids()
        if len(active) == 1:
            self.game_over(active, "last_standing")
        elif not active:
            self.game_over([], "no_one_left")

    # ------------------------------------------------------------------ leaving the game (WQ-LEAVE-*)

    def leave(self, pid: int, removed_by: int | None) -> None:
        """Resignation or removal: the pieces stay as rebels, cards go to the discard, treasures are removed."""
        s = self.s
        for leaders in (s.hero, s.sorcerer):
            if pid in leaders:
                where = leaders.pop(pid)
                s.men[where] = s.men.get(where, 0) + 1
        rebels = {loc: s.men[loc] for loc in self.m.ids if s.owner.get(loc) == pid}
        s.players = with_status(s.players, pid, "resigned")
        was_current = s.current == pid
        if was_current and s.attack is not None and s.attack.boat is not None:
            s.discard.append(s.attack.boat)
        s.discard.extend(s.hands.get(pid, []) + s.boats.get(pid, []))
        s.hands[pid] = []
        s.boats[pid] = []
        s.setup_left.pop(pid, None)
        kept = []
        for t in s.treasures:
            if t.owner == pid:
                continue
            if t.hider == pid and t.location is None:
                heirs = [p for p in seat_cycle(s.seat_order(), pid) if s.player(p).status == "active"  # type: ignore[union-attr]
                         and p != t.owner]
                if not heirs:
                    continue
                t = replace(t, hider=heirs[0])
            kept.append(t)
        s.treasures = kept
        self.emit(E.PlayerLeft(player=pid, removed_by=removed_by, rebels=rebels))
        self.check_survivors()
        if self.over() or not was_current:
            return
        if s.phase is Phase.SETUP_CASTLE:
            self.next_castle(pid)
        elif s.phase is Phase.SETUP_CLAIM:
            self.next_claim(pid)
        elif s.phase is Phase.SETUP_HIDE:
            self.next_hider()
        elif s.phase is Phase.SETUP_DEPLOY:
            s.pool = 0
            self.next_batch()
        else:
            self.end_turn()

    def game_over(self, winners: list[int], reason: str) -> None:
        s = self.s
        s.phase = Phase.GAME_OVER
        s.winners = winners
        s.attack = None
        s.todo = []
        s.pool = 0
        self.emit(E.GameOver(winners=winners, reason=reason))  # type: ignore[arg-type]

    def current_gone(self) -> bool:
        """After an elimination check: the game is over, or the active player is out and their turn ends."""
        if self.over():
            return True
        me = self.s.player(self.s.current)
        if me is not None and me.status != "active":
            self.end_turn()
            return True
        return False

    # ------------------------------------------------------------------ petition step (WQ-PET-*, HAND-*, BOAT-1)

    def do_draw(self, a: A.Draw) -> None:
        s = self.s
        if s.turn.drawn:
            raise RuleError("WQ_VAL_9")
        if not s.deck and not s.discard:
            raise RuleError("WQ_VAL_10")
        if not s.deck:
            s.deck = list(s.discard)
            s.discard = []
            self.rng.shuffle(s.deck)
            self.emit(E.DeckReshuffled(cards=len(s.deck)))
        card = s.deck.pop(0)
        s.turn = replace(s.turn, drawn=True)
        if self.d.deck.card(card).immediate:
            self.resolve_card(a.player, card, A.Play(player=a.player, card=card), immediate=True)
            return
        s.hands[a.player].append(card)
        self.emit(E.CardDrawn(player=a.player, hand_size=len(s.hands[a.player])))
        self.emit(E.CardReceived(card=card, private_to=a.player))
        if len(s.hands[a.player]) > self.p.hand_limit:
            s.todo.append(Todo(kind="hand"))

    def find_card(self, pid: int, text: str) -> str:
        """A card in hand by instance id, code or name in any language (case-insensitive, prefix allowed)."""
        hand = self.s.hands[pid]
        if text in hand:
            return text
        key = text.strip().lower()
        for card in hand:
            kind = self.d.deck.card(card)
            names = [name.lower() for name in in_every_language(name_of("wq", "card", kind.code))]
            words = [kind.code, *names, *(w for name in names for w in name.split()), *kind.code.split("_")]
            if key and any(w.startswith(key.replace(" ", "_")) or w.startswith(key) for w in words):
                return card
        raise RuleError("WQ_VAL_11")

    def do_play(self, a: A.Play) -> None:
        s = self.s
        card = self.find_card(a.player, a.card)
        self.check_card(a.player, card, a)
        s.hands[a.player].remove(card)
        if s.todo and s.todo[0].kind == "hand":
            s.todo.pop(0)
        self.resolve_card(a.player, card, a, immediate=False)

    def check_card(self, pid: int, card: str, a: A.Play) -> None:
        """Targets of a card: required when one is legal, refused when illegal (WQ-PET-7, WQ-VAL-13)."""
        s, d = self.s, self.d
        kind = d.deck.card(card)
        card_name = name_of("wq", "card", kind.code)
        if kind.target == "orc_location":
            if a.location is None:
                if s.orcs:
                    raise RuleError("WQ_VAL_13_TARGET", card=card_name)
                return
            where = C.loc(d, a.location)
            if s.orcs.get(where, 0) == 0:
                raise RuleError("WQ_VAL_13_ORCS", card=card_name, loc=label(where, d))
        elif kind.target in ("unprotected_territory", "territory"):
            if a.location is None:
                raise RuleError("WQ_VAL_13_TARGET", card=card_name)
            where = C.loc(d, a.location)
            if where not in self.m.territories:
                raise RuleError("WQ_VAL_13_CASTLE", card=card_name)
            if kind.target == "unprotected_territory" and B.is_protected(s, d, where):
                r = self.m.region_of[where]
                raise RuleError("WQ_VAL_13_PROTECTED", card=card_name, r=r, name=name_of("wq", "region", r))
        elif kind.target == "march":
            if a.location is None or a.to is None:
                if C.march_possible(s, d, pid):
                    raise RuleError("WQ_VAL_13_TARGET", card=card_name)
                return
            C.march(s, d, pid, C.loc(d, a.location), C.loc(d, a.to), a.count or 0, a.leader)

    def resolve_card(self, pid: int, card: str, a: A.Play, immediate: bool) -> None:
        """Apply a card's effect, then discard it or keep it as a Boat Privilege (WQ-CARD-*, WQ-BOAT-1)."""
        s, d = self.s, self.d
        kind = d.deck.card(card)
        to_boat = d.deck.has_boat(card)
        fizzled = ((kind.target == "orc_location" and a.location is None)
                   or (kind.target == "march" and (a.location is None or a.to is None)))
        self.emit(E.CardPlayed(player=pid, card=card, immediate=immediate, to_boat=to_boat, fizzled=fizzled))
        (s.boats[pid] if to_boat else s.discard).append(card)
        turn = s.turn
        code = kind.code
        if kind.men or kind.campaigns or kind.pieces:
            s.turn = replace(turn, card_men=turn.card_men + kind.men + kind.pieces,
                             campaigns=turn.campaigns + kind.campaigns, champions=turn.champions + kind.pieces)
            self.emit(E.PoolChanged(player=pid, men=kind.men, pieces=kind.pieces, campaigns=kind.campaigns))
        elif code == "orcbane" and a.location is not None:
            where = C.loc(d, a.location)
            n = self.rng.die()
            removed = min(n, s.orcs[where])
            s.orcs[where] -= removed
            self.tidy(where)
            self.emit(E.OrcsRemoved(location=where, die=n, removed=removed))
        elif code == "dragon_lure":
            self.dragon_flies(C.loc(d, a.location or ""), "lure")
        elif code == "wizards_summons":
            self.mage_arrives(C.loc(d, a.location or ""), "summons")
        elif code == "forced_march" and a.location is not None and a.to is not None:
            self.march(pid, C.loc(d, a.location), C.loc(d, a.to), a.count or 0, a.leader)
        elif code == "blessed_arms":
            s.turn = replace(turn, blessed=turn.blessed + 1)
            self.emit(E.EffectSet(player=pid, effect="blessed_arms"))
        elif code == "orc_uprising":
            self.uprising()
        elif code == "plague":
            self.plague(pid)
        elif code == "famine":
            s.turn = replace(turn, famine=True)
            self.emit(E.EffectSet(player=pid, effect="famine"))
        elif code == "dragons_hunger":
            self.dragon_flies(None, "hunger")
        elif code == "wizards_truce":
            s.turn = replace(turn, truce=True)
            self.emit(E.EffectSet(player=pid, effect="truce"))
        self.check_players()
        self.current_gone()

    def march(self, pid: int, source: str, target: str, count: int, leader: Leader | None) -> None:
        s = self.s
        s.men[source] = s.men.get(source, 0) - count
        s.men[target] = s.men.get(target, 0) + count
        if leader is not None:
            (s.hero if leader == "hero" else s.sorcerer)[pid] = target
        self.tidy(source)
        self.emit(E.Marched(player=pid, source=source, target=target, men=count, leader=leader))

    def uprising(self) -> None:
        s = self.s
        r = self.rng.die()
        changes: dict[str, int] = {}
        for where in self.m.members[r]:
            if s.orcs.get(where, 0) > 0 or (where in self.m.territories and not B.occupied(s, where)):
                s.orcs[where] = min(self.p.orc_cap, s.orcs.get(where, 0) + 1)
                changes[where] = s.orcs[where]
        self.emit(E.OrcUprising(die=r, changes=changes))

    def plague(self, pid: int) -> None:
        s = self.s
        n = self.rng.die()
        own = [x for x in self.m.ids if s.owner.get(x) == pid and s.men.get(x, 0) > 0]
        where = max(own, key=lambda x: (s.men[x], -self.m.order[x])) if own else None
        removed = 0
        if where is not None:
            removed = min(n, s.men[where])
            s.men[where] -= removed
            self.tidy(where)
        self.emit(E.Plague(player=pid, die=n, location=where, removed=removed))

    def do_done(self, a: A.Done) -> None:
        s = self.s
        if s.phase is Phase.REINFORCE:
            raise RuleError("WQ_VAL_16", n=s.pool)
        base = B.base_reinforcement(s, self.d, a.player, s.turn.famine)
        s.turn = replace(s.turn, base=base)
        s.pool = base + s.turn.card_men
        s.phase = Phase.REINFORCE
        self.emit(E.Reinforcements(player=a.player, kingdoms=B.kingdoms(s, self.d, a.player), base=base,
                                   card_men=s.turn.card_men, pool=s.pool, famine=s.turn.famine))
        if s.pool == 0:
            s.phase = Phase.ATTACK

    # ------------------------------------------------------------------ attacks (WQ-ATK-*, FREE-*, CMB-*)

    def take_extras(self, attack: Attack, pid: int, boat: bool) -> Attack:
        """Spend the oldest boat card and a waiting Blessed Arms on this attack (WQ-BOAT-2, CARD-11)."""
        s = self.s
        if boat:
            attack = replace(attack, boat=s.boats[pid].pop(0))
        if s.turn.blessed > 0:
            s.turn = replace(s.turn, blessed=s.turn.blessed - 1)
            attack = replace(attack, blessed=True)
        return attack

    def do_attack(self, a: A.Declare) -> None:
        s, d = self.s, self.d
        source, target = C.loc(d, a.source), C.loc(d, a.target)
        attack = C.campaign(s, d, a.player, source, target, a.leader, a.boat)
        attack = self.take_extras(attack, a.player, a.boat)
        s.turn = replace(s.turn, campaigns=s.turn.campaigns - 1)
        defender = B.occupant(s, target)
        self.emit(E.AttackDeclared(player=a.player, kind="campaign", source=source, target=target,
                                   beast=attack.beast, defender=None if attack.beast else defender, boat=a.boat))
        if a.leader is not None and s.leaders(a.player)[a.leader] != source:
            self.leader_move(a.player, a.leader, source)
            attack = replace(attack, acted=True)
        s.attack = attack
        if attack.empty_start:
            s.todo.append(Todo(kind="capture"))

    def leader_move(self, pid: int, leader: Leader, source: str) -> None:
        """Bring a leader into the source; the other leader there swaps places (WQ-ATK-5)."""
        s = self.s
        here, other = (s.hero, s.sorcerer) if leader == "hero" else (s.sorcerer, s.hero)
        old = here[pid]
        swapped = other.get(pid) == source
        here[pid] = source
        if swapped:
            other[pid] = old
        self.emit(E.LeaderMoved(player=pid, leader=leader, source=old, target=source, swapped=swapped))

    def do_free(self, a: A.FreeAttack) -> None:
        s, d = self.s, self.d
        source = C.loc(d, a.source)
        attack = C.free(s, d, a.player, source, a.beast, a.boat)
        s.attack = self.take_extras(attack, a.player, a.boat)
        self.emit(E.AttackDeclared(player=a.player, kind="free", source=source, target=attack.target,
                                   beast=a.beast, boat=a.boat))

    def do_aid(self, a: A.Aid) -> None:
        s, d = self.s, self.d
        assert s.attack is not None
        source = C.loc(d, a.source)
        C.aid(s, d, a.player, source, a.count)
        s.men[source] -= a.count
        s.men[s.attack.source] = s.men.get(s.attack.source, 0) + a.count
        self.tidy(source)
        s.attack = replace(s.attack, acted=True)
        self.emit(E.Aided(player=a.player, source=source, target=s.attack.source, count=a.count))

    def do_roll(self, a: A.Roll) -> None:
        s = self.s
        attack = s.attack
        assert attack is not None
        if attack.kind == "campaign" and attack.battles == 0 and s.pieces(attack.source) < 2:
            raise RuleError("WQ_VAL_34", src=label(attack.source, self.d))
        fought = 0
        while s.attack is not None and (a.times == 0 or fought < a.times):
            if fought and a.until_below is not None and s.pieces(s.attack.source) < a.until_below:
                break
            self.battle(a.player)
            fought += 1
            if s.todo or self.over():
                break

    def battle(self, pid: int) -> None:
        """One die against D, then the end checks of WQ-ATK-9."""
        s, d = self.s, self.d
        a = s.attack
        assert a is not None
        attacker_leader = s.leader_at(a.source)
        d_value = B.defence(s, d, a, attacker_leader)
        defender = B.occupant(s, a.target)
        roll = self.rng.die()
        won = roll > d_value
        if won:
            if a.beast is not None:
                a = replace(a, wounds=a.wounds - 1)
            elif a.target in s.owner:
                self.lose_piece(a.target)
            else:
                s.orcs[a.target] -= 1
                self.tidy(a.target)
        else:
            self.lose_piece(a.source)
        a = replace(a, battles=a.battles + 1)
        s.attack = a
        against = a.beast or ("orcs" if defender == ORCS else "player")
        left = a.wounds if a.beast else (s.pieces(a.target) if a.target in s.owner else s.orcs.get(a.target, 0))
        self.emit(E.Battle(player=pid, number=a.battles, source=a.source, target=a.target, against=against,
                           defender=None if a.beast else defender, roll=roll, d=d_value, attacker_won=won,
                           attacker_left=s.pieces(a.source), defender_left=left))
        self.check_players()
        if self.over():
            return
        if a.source not in s.owner:
            self.close_attack(pid, "source_empty")
            self.current_gone()
            return
        if a.beast is not None:
            if a.wounds == 0:
                self.beast_beaten(pid, attacker_leader)
            elif not self.beast_leader_ok(a.beast, s.leader_at(a.source)):
                self.close_attack(pid, "leader")
            return
        if not B.occupied(s, a.target):
            if s.pieces(a.source) >= 2:
                s.todo.append(Todo(kind="capture"))
            else:
                self.close_attack(pid, "no_capture")
            return
        if B.has_hero(s, a.target) and s.leader_at(a.source) != "hero":
            self.close_attack(pid, "leader")

    @staticmethod
    def beast_leader_ok(beast: Beast, leader: Leader | None) -> bool:
        return leader == "sorcerer" or (beast == "dragon" and leader == "hero")

    def close_attack(self, pid: int, reason: str) -> None:
        """End the attack in progress; a campaign is used up and the next may be an extra one (WQ-ATK-9/10)."""
        s = self.s
        a = s.attack
        assert a is not None
        free_cancel = reason in ("stopped", "cancelled") and a.battles == 0 and not a.acted
        if free_cancel:
            if a.boat is not None:
                s.boats[pid].insert(0, a.boat)
            if a.blessed:
                s.turn = replace(s.turn, blessed=s.turn.blessed + 1)
            if a.kind == "campaign":
                s.turn = replace(s.turn, campaigns=s.turn.campaigns + 1)
        else:
            if a.boat is not None:
                s.discard.append(a.boat)
            if a.kind == "campaign":
                s.turn = replace(s.turn, first_done=True)
        s.attack = None
        self.emit(E.AttackEnded(player=pid, reason=reason,  # type: ignore[arg-type]
                                campaign_used=a.kind == "campaign" and not free_cancel))

    def do_stop(self, a: A.Stop) -> None:
        self.close_attack(a.player, "stopped")
        self.clear_capture()

    def do_cancel(self, a: A.Cancel) -> None:
        self.close_attack(a.player, "cancelled")
        self.clear_capture()

    def clear_capture(self) -> None:
        if self.s.todo and self.s.todo[0].kind == "capture":
            self.s.todo.pop(0)

    def beast_beaten(self, pid: int, leader: Leader | None) -> None:
        """Remove the beast, capture an emptied target, then the reward or relocation (WQ-BEAST-3 … BEAST-6)."""
        s = self.s
        a = s.attack
        assert a is not None and a.beast is not None and leader is not None
        if a.beast == "dragon":
            s.dragon = None
        else:
            s.mage = None
        hero_alive = leader == "hero" and s.hero.get(pid) == a.source
        reward = self.p.dragon_reward_men if hero_alive else 0
        self.emit(E.BeastBeaten(player=pid, beast=a.beast, location=a.target, by=leader, reward=reward))
        outcome = Todo(kind="reward", men=reward, reason="dragon") if leader == "hero" else \
            Todo(kind="region", beast=a.beast)
        if a.kind == "campaign" and not B.occupied(s, a.target) and s.pieces(a.source) >= 2:
            s.todo.append(Todo(kind="capture"))
        else:
            self.close_attack(pid, "beast_beaten")
        if outcome.kind == "region" or reward > 0:
            s.todo.append(outcome)
        self.continue_todo()

    def do_capture(self, a: A.Capture) -> None:
        s, d = self.s, self.d
        attack = s.attack
        assert attack is not None
        C.capture(s, d, a.count, a.leader)
        leader = s.leader_at(attack.source) if a.leader else None
        men = a.count - (1 if leader else 0)
        s.men[attack.source] -= men
        s.men[attack.target] = men
        if leader is not None:
            (s.hero if leader == "hero" else s.sorcerer)[a.player] = attack.target
        s.owner[attack.target] = a.player
        self.tidy(attack.source)
        self.tidy(attack.target)
        self.emit(E.Captured(player=a.player, source=attack.source, target=attack.target, count=a.count,
                             leader=leader))
        s.todo.pop(0)
        self.close_attack(a.player, "captured")
        self.treasure_check(a.player, attack.target)
        if not self.over():
            self.continue_todo()

    def treasure_check(self, pid: int, where: str) -> None:
        """Retrieve an own treasure on a captured location; reward it, or win with the third (WQ-TRS-2 … TRS-5)."""
        s = self.s
        found = next((t for t in s.treasures if t.location == where and t.owner == pid), None)
        if found is None:
            return
        s.treasures.remove(found)
        s.retrieved.setdefault(pid, []).append(found.kind)
        real = [k for k in s.retrieved[pid] if k != "decoy"]
        self.emit(E.TreasureRetrieved(player=pid, kind=found.kind, territory=where, total=len(real)))
        if found.kind == "decoy":
            return
        if len(real) >= 3:
            self.game_over([pid], "treasures")
            return
        rewards = self.p.rewards
        if found.kind == "crown":
            s.turn = replace(s.turn, campaigns=s.turn.campaigns + rewards.crown_campaigns)
            self.emit(E.PoolChanged(player=pid, campaigns=rewards.crown_campaigns))
        elif found.kind == "chest":
            s.todo.insert(0, Todo(kind="reward", men=rewards.chest_men, reason="chest"))
        else:
            s.todo.insert(0, Todo(kind="ring"))

    def continue_todo(self) -> None:
        """Set up the next forced decision: reward men go into the pool."""
        s = self.s
        if s.todo and s.todo[0].kind == "reward":
            s.pool = s.todo[0].men

    def do_region(self, a: A.ChooseRegion) -> None:
        s = self.s
        if not 1 <= a.region <= 6:
            raise RuleError("WQ_VAL_38")
        todo = s.todo.pop(0)
        face = self.rng.die()
        where = self.m.territory(a.region, face)
        if todo.beast == "dragon":
            self.dragon_flies(where, "sorcerer", [a.region, face])
            self.check_players()
            if self.current_gone():
                return
        else:
            self.mage_arrives(where, "sorcerer", [a.region, face])
        self.continue_todo()

    def do_mage(self, a: A.MoveMage) -> None:
        s = self.s
        if a.territory is not None:
            where = C.loc(self.d, a.territory)
            if where not in self.m.territories:
                raise RuleError("WQ_VAL_39")
            self.mage_arrives(where, "ring")
        s.todo.pop(0)
        self.continue_todo()

    def do_end(self, a: A.End) -> None:
        if self.s.attack is not None:
            raise RuleError("WQ_VAL_18")
        self.end_turn()


def apply(state: WQState, action: A.Action, data: WQData) -> tuple[WQState, list[Event]]:
    """The new state and its events, or RuleError; `state` is never changed (WQ-VAL-0, WQ-DIG-7)."""
    job = Apply(state, data)
    job.run(action)
    job.finish()
    return job.s, job.events

