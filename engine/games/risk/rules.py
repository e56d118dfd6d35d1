"""Risk rules: `apply(state, action)` validates in the spec's check order (§5.1) and resolves."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import Any

from engine.core.errors import RuleError
from engine.core.i18n import Msg, msg
from engine.core.models import Event, copier
from engine.core.orders import Orders, complete, draft, lock, reveal, submit, withdraw
from engine.core.players import next_seat, with_status
from engine.core.rng import Rng
from engine.core.turns import Gate, Seating
from engine.games.risk import actions as A
from engine.games.risk import events as E
from engine.games.risk.dice import roll_round, sorted_battle
from engine.games.risk.mapdata import RiskMap, classic
from engine.games.risk.names import resolve, territory_name
from engine.games.risk.state import NEUTRAL, Interrupt, Phase, RiskState

LEGAL: dict[Phase, tuple[str, ...]] = {
    Phase.SETUP_CLAIM: ("claim", "place"),
    Phase.SETUP_PLACE: ("place", "deploy"),
    Phase.SETUP_PLACE_2P: ("place", "place_neutral"),
    Phase.REINFORCE: ("trade", "place", "deploy", "attack", "end_attack", "fortify", "end_turn"),
    Phase.ATTACK: ("attack", "end_attack", "fortify", "end_turn"),
    Phase.FORTIFY: ("fortify", "end_turn"),
}
PLACEMENT: dict[str, tuple[str, ...]] = {"one_at_a_time": ("place",), "bulk_sequential": ("place", "deploy"),
                                         "simultaneous": ("place", "deploy")}
"""SETUP_PLACE's commands narrowed by the `setup_placement` option (RISK-SET-25 … SET-27)."""
LEAVING = ("attack", "end_attack", "fortify", "end_turn")
HAND_LIMITED = ("place", "deploy", *LEAVING)
"""What a player holding five or more cards may not do before trading (RISK-CARD-14)."""


_COPIES: dict[str, Callable[[Any], Any]] = {
    "setup_left": dict, "missions": dict, "standing_defence": dict, "deck": list, "discard": list,
    "hands": lambda hands: {pid: list(cards) for pid, cards in hands.items()},
}
"""The containers an action seldom changes: `_Apply.own` copies them on first write only."""


_copy = copier(RiskState)


def clone(s: RiskState) -> RiskState:
    """A copy to work on: `owner` and `armies` (changed by nearly every action) are copied at once;
    the other containers and sub-models stay shared with `s` until `_Apply.own` copies them."""
    n = _copy(s)
    n.owner, n.armies = s.owner.copy(), s.armies.copy()
    return n


def _game_over(s: RiskState) -> RuleError | None:
    return RuleError("E_GAME_OVER", winner=s.name(s.winner)) if s.phase is Phase.GAME_OVER else None


def _wrong_phase(phase: Phase, kind: str, allowed: Collection[str]) -> RuleError:
    return RuleError("E_WRONG_PHASE", action=msg("risk.command." + kind), phase=msg("risk.phase." + phase.value),
                     allowed=[msg("risk.command." + k) for k in allowed])


SEATING: Seating[RiskState] = Seating(_game_over)
GATE: Gate[Phase] = Gate(LEGAL, _wrong_phase, {"trade": "E_TRADE_NOT_NOW", "move": "E_NOTHING_PENDING"})
"""The phase gate of §5.1; an interrupt has a gate of its own (`gate_interrupt`)."""


# ---------------------------------------------------------------- pure helpers


def set_value(board: RiskMap, n: int) -> int:
    """Armies for the n-th set traded in the game (RISK-CARD-10, RISK-CARD-11)."""
    return board.trade_value(n)


def is_valid_set(board: RiskMap, cards: Sequence[str]) -> bool:
    """Three of a symbol, one of each, or any two plus a wild (RISK-CARD-6, RISK-CARD-7)."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return False
    symbols = [board.card_symbol(c) for c in cards]
    if "wild" in symbols:
        return True
    return len(set(symbols)) in (1, 3)


def valid_sets(board: RiskMap, hand: Sequence[str]) -> list[tuple[str, str, str]]:
    n = len(hand)
    return [
        (hand[i], hand[j], hand[k])
        for i in range(n) for j in range(i + 1, n) for k in range(j + 1, n)
        if is_valid_set(board, (hand[i], hand[j], hand[k]))
    ]


def battle(attack: Sequence[int], defence: Sequence[int]) -> tuple[int, int]:
    """(attacker losses, defender losses); ties go to the defender (RISK-ATK-13 … 16)."""
    return sorted_battle(sorted(attack, reverse=True), sorted(defence, reverse=True))


def reinforcements(board: RiskMap, s: RiskState, pid: int) -> tuple[int, list[str]]:
    """(base, continents held) at turn start (RISK-REI-1 … REI-3)."""
    owned = {t for t, o in s.owner.items() if o == pid}
    base = max(3, len(owned) // 3)
    held = [c for c, members in board.member_sets.items() if members <= owned]
    return base, held


def forced_elim_trades(n_cards: int) -> int:
    """Elimination trades owed after taking cards (RISK-ELIM-4, RISK-ELIM-6)."""
    return 0 if n_cards < 6 else -(-(n_cards - 4) // 3)


def connected(s: RiskState, board: RiskMap, pid: int, source: str, target: str) -> bool:
    """A path from source to target through pid's own territories only (RISK-FORT-3)."""
    seen = {source}
    frontier = [source]
    while frontier:
        t = frontier.pop()
        for n in board.neighbours[t]:
            if n == target:
                return True
            if n not in seen and s.owner.get(n) == pid:
                seen.add(n)
                frontier.append(n)
    return False


def mission_complete(board: RiskMap, s: RiskState, pid: int) -> bool:
    mission = board.mission.get(s.missions.get(pid, ""))
    if mission is None:
        return False
    if mission.destroy is not None:
        target = next((p for p in s.players if p.colour == mission.destroy), None)
        return target is not None and target.status == "eliminated"
    owned = [t for t, o in s.owner.items() if o == pid]
    if mission.territories:
        return sum(1 for t in owned if s.armies[t] >= mission.min_armies) >= mission.territories
    owned_set = set(owned)
    held = {c for c, members in board.members.items() if all(t in owned_set for t in members)}
    required = set(mission.continents)
    return required <= held and len(held - required) >= mission.extra_continents


# ---------------------------------------------------------------- the apply function


class _Apply:
    """One application of one action to a private copy of the state."""

    __slots__ = ("_rng", "b", "emit", "events", "owned", "s")

    def __init__(self, state: RiskState, board: RiskMap) -> None:
        self.s = clone(state)
        self.b = board
        self.events: list[Event] = []
        self.emit = self.events.append
        self.owned: set[str] = set()
        self._rng: Rng | None = None

    # -- small utilities

    @property
    def rng(self) -> Rng:
        """The dice, taken out of the state when first rolled (most actions roll none)."""
        if self._rng is None:
            self._rng = Rng(self.s.rng)
        return self._rng

    def own(self, field: str) -> Any:
        """The container `field` of the private copy, copied on first write so `state` is never touched."""
        if field in self.owned:
            return getattr(self.s, field)
        self.owned.add(field)
        copy = _COPIES[field](getattr(self.s, field))
        setattr(self.s, field, copy)
        return copy

    def finish(self) -> None:
        """Count the action and store the dice's new state."""
        if self._rng is None:
            self.s.seq = self.s.seq + 1
        else:
            self.s.seq, self.s.rng = self.s.seq + 1, self._rng.export()

    def tname(self, t: str) -> Msg:
        return territory_name(t)

    def territory(self, text: str) -> str:
        return text if text in self.b.territory else resolve(text, self.b)

    def count(self, value: int, field: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise RuleError("E_BAD_NUMBER", field=field)
        return value

    def owned_error(self, t: str) -> RuleError:
        return RuleError("E_NOT_OWNED", territory=self.tname(t), owner=self.s.who(self.s.owner.get(t)))

    # -- gates (§5.1)

    def run(self, a: A.Action) -> None:
        s = self.s
        if SEATING.admit(s, a, self.leave):
            self.finish()
            return
        phase = s.phase
        kind = a.type
        if isinstance(a, A.Defend):
            self.defend(a)
        elif (isinstance(a, (A.Place, A.Deploy)) and phase is Phase.SETUP_PLACE
              and s.options.setup_placement == "simultaneous"):
            self.plan(a)  # everyone plans at once: no turn to wait for (RISK-SET-27)
        else:
            if a.player != s.current:
                raise RuleError("E_NOT_YOUR_TURN", player=s.name(s.current), phase=msg("risk.phase." + phase.value))
            if s.interrupt is not None:
                self.gate_interrupt(kind)  # the interrupt allows exactly one command, whatever the phase
            elif phase is Phase.SETUP_PLACE:
                GATE.check(phase, kind, PLACEMENT[s.options.setup_placement])
            else:
                GATE.check(phase, kind)
            if phase is Phase.REINFORCE:
                self.gate_reinforce(kind)
            HANDLERS[kind](self, a)
        self.finish()

    def gate_interrupt(self, kind: str) -> None:
        i = self.s.interrupt
        if i is None:
            return
        if i.kind == "defend":
            raise RuleError("E_WAITING_DEFENDER", defender=self.s.name(i.defender), to=self.tname(i.target or ""))
        if i.kind == "occupy" and kind != "move":
            raise RuleError("E_PENDING_MOVE", to=self.tname(i.target or ""), min=i.min, max=i.max)
        if i.kind == "elim_trade" and kind != "trade":
            raise RuleError("E_MUST_TRADE_NOW", n=len(self.s.hands[self.s.current]), player=self.s.name(i.eliminated))
        if i.kind == "elim_place" and kind != "deploy":
            if kind == "trade":
                raise RuleError("E_TRADE_MUST_STOP", n=len(self.s.hands[self.s.current]))
            if kind != "place":
                raise RuleError("E_ARMIES_UNPLACED", n=self.s.pool)

    def gate_reinforce(self, kind: str) -> None:
        s = self.s
        hand = len(s.hands[s.current])
        if hand >= 5 and kind in HAND_LIMITED:
            raise RuleError("E_MUST_TRADE", n=hand)
        if s.pool > 0 and kind in LEAVING:
            raise RuleError("E_ARMIES_UNPLACED", n=s.pool)

    # -- setup

    def do_claim(self, a: A.Claim | A.Place) -> None:
        s = self.s
        if s.phase is not Phase.SETUP_CLAIM:
            return self.do_place(a)  # type: ignore[arg-type]
        t = self.territory(a.territory)
        count = self.count(a.count, "count") if isinstance(a, A.Place) else 1
        owner = s.owner.get(t)
        if owner is not None and owner != a.player:
            raise RuleError("E_TERRITORY_TAKEN", territory=self.tname(t), owner=s.who(owner))
        if owner == a.player:
            raise RuleError("E_MUST_CLAIM_EMPTY", n=len(self.b.ids) - len(s.owner))
        if count != 1:
            raise RuleError("E_TOO_MANY_TO_PLACE", n=1)
        s.owner[t] = a.player
        s.armies[t] = 1
        self.own("setup_left")[a.player] -= 1
        self.emit(E.Claimed(player=a.player, territory=t))
        if len(s.owner) == len(self.b.ids):
            self.s.phase = Phase.SETUP_PLACE
            self.advance_setup(a.player)  # RISK-SET-18: the seat after the 42nd claimer
        else:
            self.s.current = s.next_active(a.player)

    def do_place(self, a: A.Place) -> None:
        s = self.s
        if s.phase is Phase.SETUP_CLAIM:
            return self.do_claim(a)
        t = self.territory(a.territory)
        count = self.count(a.count, "count")
        if s.owner.get(t) != a.player:
            raise self.owned_error(t)
        if s.phase is Phase.SETUP_PLACE:
            left = s.setup_left[a.player]
            allowance = 1 if s.options.setup_placement == "one_at_a_time" else left
        elif s.phase is Phase.SETUP_PLACE_2P:
            allowance = min(2 - s.setup_own_placed, s.setup_left[a.player])
        else:
            allowance = s.pool
        if count > allowance:
            raise RuleError("E_TOO_MANY_TO_PLACE", n=allowance)
        s.armies[t] += count
        self.emit(E.Placed(player=a.player, territory=t, count=count))
        if s.phase is Phase.SETUP_PLACE:
            self.own("setup_left")[a.player] -= count
            if s.setup_left[a.player] == 0 or s.options.setup_placement == "one_at_a_time":
                self.advance_setup(a.player)
        elif s.phase is Phase.SETUP_PLACE_2P:
            self.own("setup_left")[a.player] -= count
            self.s.setup_own_placed = s.setup_own_placed + count
            self.maybe_end_2p_setup_turn()
        else:
            self.s.pool = s.pool - count
            if s.interrupt is not None and s.interrupt.kind == "elim_place" and s.pool == 0:
                self.s.interrupt = None  # RISK-ELIM-9: back to ATTACK
            self.check_victory()

    def do_deploy(self, a: A.Deploy) -> None:
        """Several placements in one command: a bulk-sequential setup turn (RISK-SET-26), or armies from the
        pool in REINFORCE or ELIM_PLACE, placed in the order given (the stand-in's spread, ruling 36)."""
        s = self.s
        if s.phase is not Phase.SETUP_PLACE:
            for t, n in self.validated_plan(a, s.pool).items():
                self.do_place(A.Place(player=a.player, territory=t, count=n))
                if s.phase is Phase.GAME_OVER:
                    return  # a placement completed a mission: the rest stays in the pool (RISK-WIN-29)
            return
        placements = self.validated_plan(a, s.setup_left[a.player])
        for t, n in placements.items():
            self.s.armies[t] += n
            self.emit(E.Placed(player=a.player, territory=t, count=n))
        self.own("setup_left")[a.player] -= sum(placements.values())
        if self.s.setup_left[a.player] == 0:
            self.advance_setup(a.player)

    def validated_plan(self, a: A.Deploy, limit: int) -> dict[str, int]:
        s = self.s
        placements: dict[str, int] = {}
        for text, n in a.placements.items():
            t = self.territory(text)
            placements[t] = placements.get(t, 0) + self.count(n, "count")
        for t in placements:
            if s.owner.get(t) != a.player:
                raise self.owned_error(t)
        if not placements or sum(placements.values()) > limit:
            raise RuleError("E_TOO_MANY_TO_PLACE", n=limit)
        return placements

    def plan(self, a: A.Place | A.Deploy) -> None:
        """Simultaneous setup: build a secret plan; all plans are revealed together (RISK-SET-27).

        `place` adds to the plan; `deploy` adds its placements and auto-places the rest, completing it. A
        complete plan is locked (`RiskState.plan_book`): it can no longer change.
        """
        s = self.s
        book = s.plan_book()
        plan = dict(draft(book, a.player, locked_error="E_PLAN_DONE", outside_error="E_PLAN_DONE") or {})
        left = s.setup_left[a.player]
        room = left - sum(plan.values())
        if isinstance(a, A.Place):
            added = self.validated_plan(A.Deploy(player=a.player, placements={a.territory: a.count}), room)
        else:
            added = self.validated_plan(a, room)
            for t, n in spread(self.b, s, a.player, room - sum(added.values())).items():
                added[t] = added.get(t, 0) + n
        for t, n in added.items():
            plan[t] = plan.get(t, 0) + n
            self.emit(E.Planned(private_to=a.player, territory=t, count=n))
        book = submit(book, a.player, plan)
        if sum(plan.values()) == left:
            book = lock(book, a.player)
            self.emit(E.PlanSubmitted(player=a.player))
        self.s.plans = book.drafts
        if complete(book):
            self.reveal_plans(book)

    def reveal_plans(self, book: Orders[dict[str, int]]) -> None:
        """Every plan at once, placed in seat order; the plans are spent (RISK-SET-27)."""
        s = self.s
        revealed: dict[int, dict[str, int]] = {}
        plans = dict(reveal(book))
        for pid in s.active_ids():  # a seat with nothing to place reveals an empty plan
            placed = dict(plans.get(pid) or {})
            for t, n in placed.items():
                s.armies[t] += n
            self.own("setup_left")[pid] = 0
            revealed[pid] = placed
        self.s.plans = {}
        self.emit(E.PlansRevealed(plans=revealed))
        self.finish_setup()

    def advance_setup(self, last: int) -> None:
        """Pass the setup turn to the next seat with armies left (RISK-SET-20), or start play."""
        s = self.s
        waiting = [p for p in s.active_ids() if s.setup_left.get(p, 0) > 0]
        if not waiting:
            self.finish_setup()
        else:
            self.s.current = next_seat(s.seat_order(), last, waiting) or last

    def do_place_neutral(self, a: A.PlaceNeutral) -> None:
        s = self.s
        t = self.territory(a.territory)
        if s.setup_neutral_placed or s.setup_left.get(NEUTRAL, 0) == 0:
            n = min(2 - s.setup_own_placed, s.setup_left[a.player])
            raise RuleError("E_NEUTRAL_DONE", n=n)
        if s.owner.get(t) != NEUTRAL:
            raise RuleError("E_NOT_NEUTRAL", territory=self.tname(t), owner=s.who(s.owner.get(t)))
        s.armies[t] += 1
        self.own("setup_left")[NEUTRAL] -= 1
        self.s.setup_neutral_placed = True
        self.emit(E.Placed(player=NEUTRAL, territory=t, count=1))
        self.maybe_end_2p_setup_turn()

    def maybe_end_2p_setup_turn(self) -> None:
        """The 2P setup turn passes once 2 own and 1 Neutral army are placed (RISK-TWO-7)."""
        s = self.s
        own_done = s.setup_own_placed >= 2 or s.setup_left[s.current] == 0
        neutral_done = s.setup_neutral_placed or s.setup_left.get(NEUTRAL, 0) == 0
        if not (own_done and neutral_done):
            return
        self.s.setup_own_placed, self.s.setup_neutral_placed = 0, False
        if all(v == 0 for v in s.setup_left.values()):
            self.finish_setup()
        else:
            self.s.current = s.next_active(s.current)

    def finish_setup(self) -> None:
        """Build the 44-card deck and start turn 1 with the first player (RISK-SET-30 … 32)."""
        s = self.s
        deck = list(self.b.ids) + list(self.b.wild_cards)
        self.rng.shuffle(deck)
        self.s.deck, self.s.discard, self.s.sets_traded = deck, [], 0
        self.emit(E.SetupFinished())
        first = s.first_player
        if s.player(first) is None or s.player(first).status != "active":  # type: ignore[union-attr]
            first = s.next_active(first)
        self.begin_turn(first)
        self.check_victory()

    # -- the turn

    def begin_turn(self, pid: int) -> None:
        s = self.s
        base, held = reinforcements(self.b, s, pid)
        s.current, s.turn, s.phase = pid, s.turn + 1, Phase.REINFORCE
        s.pool = base + sum(self.b.continent[c].bonus for c in held)
        s.conquered_this_turn = s.card_bonus_taken = False
        s.interrupt = None
        self.emit(E.TurnStarted(player=pid, turn=s.turn, base=base, continents=held, total=s.pool))

    def end_turn(self) -> None:
        s = self.s
        nxt = s.next_active(s.current)
        self.s.pool = 0
        self.begin_turn(nxt)

    def leave_attack(self) -> None:
        """Leaving REINFORCE/ATTACK draws one card if something was conquered (RISK-CARD-22)."""
        s = self.s
        if s.conquered_this_turn:
            if not s.deck and s.discard:
                deck = list(s.discard)
                self.rng.shuffle(deck)
                self.s.deck, self.s.discard = deck, []
                self.emit(E.DeckReshuffled(cards=len(s.deck)))
            if s.deck:
                self.own("hands")[s.current].append(self.own("deck").pop(0))
                self.emit(E.CardDrawn(player=s.current, hand_size=len(s.hands[s.current])))
            self.s.conquered_this_turn = False
        self.s.phase = Phase.FORTIFY

    def do_end_attack(self, a: A.EndAttack) -> None:
        self.leave_attack()

    def do_end_turn(self, a: A.EndTurn) -> None:
        self.leave_attack()
        self.end_turn()

    # -- cards

    def do_trade(self, a: A.Trade) -> None:
        s = self.s
        hand = s.hands[a.player]
        window = s.interrupt is not None and s.interrupt.kind == "elim_trade"
        if window and len(hand) <= 4:
            raise RuleError("E_TRADE_MUST_STOP", n=len(hand))
        named = self.territory(a.bonus) if a.bonus is not None else None  # argument parsing comes first
        cards = [c.strip().lower() for c in a.cards]
        if len(cards) != 3 or len(set(cards)) != 3:
            raise RuleError("E_SET_SIZE")
        for c in cards:
            if c not in hand:
                names = [self.card_name(x) for x in hand] or msg("hand.none")
                raise RuleError("E_CARD_NOT_IN_HAND", card=self.card_name(c) if self.b.is_card(c) else c, hand=names)
        if not is_valid_set(self.b, cards):
            raise RuleError("E_INVALID_SET")
        eligible = [c for c in cards if s.owner.get(c) == a.player]  # wilds and Neutral never qualify
        bonus: str | None = None
        if named is not None:
            if named not in eligible:
                raise RuleError("E_BONUS_CHOICE", territory=self.tname(named),
                                matches=[self.tname(c) for c in eligible] or "—")
            bonus = named
        elif eligible:
            bonus = eligible[0]
        if s.card_bonus_taken:
            bonus = None
        value = set_value(self.b, s.sets_traded + 1)
        hand = self.own("hands")[a.player]
        for c in cards:
            hand.remove(c)
        self.own("discard").extend(cards)
        self.s.sets_traded, self.s.pool = s.sets_traded + 1, s.pool + value
        if bonus is not None:
            s.armies[bonus] += 2
            self.s.card_bonus_taken = True
        self.emit(E.CardsTraded(player=a.player, cards=cards, value=value, sets_traded=s.sets_traded,
                                bonus_territory=bonus))
        if window and len(hand) <= 4:
            self.s.interrupt = Interrupt(kind="elim_place", eliminated=s.interrupt.eliminated)  # type: ignore[union-attr]
        self.check_victory()

    def card_name(self, card: str) -> Msg:
        if card in self.b.wild_cards:
            return msg("risk.card.wild_named", card=card)
        return msg("risk.card.territory", territory=self.tname(card), symbol=msg(f"risk.symbol.{self.b.symbols[card]}"))

    # -- attack

    def do_attack(self, a: A.Attack) -> None:
        s = self.s
        source = self.territory(a.source)
        target = self.territory(a.target)
        if a.dice is not None and not 1 <= a.dice <= 3:
            raise RuleError("E_DICE_RANGE")
        if a.keep < 1:
            raise RuleError("E_BAD_NUMBER", field="keep")
        if s.owner.get(source) != a.player:
            raise self.owned_error(source)
        if s.owner.get(target) == a.player:
            raise RuleError("E_ATTACK_OWN", territory=self.tname(target))
        if target not in self.b.neighbours[source]:
            raise RuleError("E_NOT_ADJACENT", **{"from": self.tname(source), "to": self.tname(target)})
        armies = s.armies[source]
        if armies < 2:
            raise RuleError("E_TOO_FEW_ARMIES", **{"from": self.tname(source)})
        most = min(3, armies - 1)
        dice = most if a.dice is None else a.dice
        if dice > most:
            raise RuleError("E_TOO_MANY_DICE", n=armies, **{"from": self.tname(source)}, max=most)
        if a.until == "conquer" and armies <= a.keep:
            raise RuleError("E_KEEP_REACHED", n=armies, keep=a.keep, **{"from": self.tname(source)})
        self.s.phase = Phase.ATTACK
        defender = s.owner[target]
        chooser = self.defence_chooser(defender)
        if a.until == "once" and chooser is not None:
            self.s.interrupt = Interrupt(kind="defend", source=source, target=target, dice=dice,
                                         defender=chooser, move=a.move)
            self.emit(E.AttackDeclared(player=a.player, source=source, target=target, dice=dice,
                                       defender=chooser))
            return
        if a.until == "once":
            self.fight(source, target, dice, self.defence_dice(chooser, target, False), a.move)
            return
        armies = s.armies
        while True:  # attack until (RISK-ATK-20 … ATK-23): the most dice each round
            if self.fight(source, target, min(dice, armies[source] - 1), self.defence_dice(chooser, target, True),
                          a.move):
                return
            if armies[source] <= a.keep:  # keep is at least 1, so this also stops at one army (RISK-ATK-22, 23)
                return

    def defence_chooser(self, defender: int) -> int | None:
        """Who picks the defence dice in `choose` mode (RISK-ATK-10, RISK-TWO-11), else None."""
        s = self.s
        if s.options.defender_dice != "choose":
            return None
        if defender == NEUTRAL:
            if s.options.mode == "two_player":
                others = [p for p in s.active_ids() if p != s.current]
                return others[0] if others else None
            return None
        return defender

    def defence_dice(self, chooser: int | None, target: str, standing: bool) -> int:
        most = min(2, self.s.armies[target])
        if chooser is not None and standing:
            return min(most, self.s.standing_defence.get(chooser, most))
        return most

    def fight(self, source: str, target: str, att_n: int, def_n: int, move: str | None = None) -> bool:
        """Roll one battle; True when it conquered the target. `move` pre-answers the move-in."""
        s = self.s
        armies = s.armies
        att, dfn, att_loss, def_loss = roll_round(self.rng, att_n, def_n, s.schema_version >= 2)
        armies[source] -= att_loss
        armies[target] -= def_loss
        defender = s.owner[target]
        attacker = s.current
        self.emit(E.Battle(player=attacker, source=source, target=target, defender=defender,
                           attack_dice=list(att), defence_dice=list(dfn), attacker_losses=att_loss,
                           defender_losses=def_loss))
        if armies[target] > 0:
            if s.interrupt is not None:
                self.s.interrupt = None
            return False
        s.owner[target] = attacker
        self.emit(E.Conquered(player=attacker, source=source, target=target, previous_owner=defender))
        most = armies[source] - 1
        if att_n == most:  # RISK-CONQ-4: min = max moves by itself
            self.s.conquered_this_turn = True
            self.move_in(source, target, defender, att_n)
        elif move is not None:  # chosen with the attack, so the move-in needs no prompt
            self.s.conquered_this_turn = True
            self.move_in(source, target, defender, att_n if move == "min" else most)
        else:
            self.s.conquered_this_turn = True
            self.s.interrupt = Interrupt(kind="occupy", source=source, target=target, dice=att_n, min=att_n, max=most,
                                         defender=defender)
        return True

    def defend(self, a: A.Defend) -> None:
        s = self.s
        i = s.interrupt
        if i is None or i.kind != "defend":
            raise RuleError("E_NOTHING_PENDING")
        assert i.target is not None and i.source is not None
        if a.player != i.defender:
            raise RuleError("E_NOT_DEFENDER", defender=s.name(i.defender), to=self.tname(i.target))
        if not 1 <= a.dice <= 2:
            raise RuleError("E_DICE_RANGE")
        if a.dice > s.armies[i.target]:
            raise RuleError("E_DEFENDER_DICE", to=self.tname(i.target))
        if a.always:
            self.own("standing_defence")[a.player] = a.dice
        self.fight(i.source, i.target, i.dice, a.dice, i.move)

    def do_move(self, a: A.Move) -> None:
        i = self.s.interrupt
        assert i is not None and i.kind == "occupy"
        n = self.count(a.count, "count")
        if n < i.min:
            raise RuleError("E_MOVE_MIN", min=i.min, to=self.tname(i.target or ""))
        if n > i.max:
            raise RuleError("E_MOVE_MAX", max=i.max, **{"from": self.tname(i.source or "")})
        self.occupy(n)

    def occupy(self, n: int) -> None:
        """Answer the pending move-in."""
        i = self.s.interrupt
        assert i is not None and i.source is not None and i.target is not None and i.defender is not None
        self.move_in(i.source, i.target, i.defender, n)

    def move_in(self, source: str, target: str, loser: int, n: int) -> None:
        """Move in, then elimination → victory → cards → forced trades (§7 ruling 15)."""
        s = self.s
        s.armies[source] -= n
        s.armies[target] = n
        self.s.interrupt = None
        self.emit(E.Moved(player=s.current, source=source, target=target, count=n, kind="occupy"))
        if loser == NEUTRAL or loser in s.owner.values():
            if s.options.mode == "secret_mission":  # otherwise only an elimination can end the game
                self.check_victory()
            return
        if s.player(loser).status != "active":  # type: ignore[union-attr]
            self.check_victory()
            return
        taken = s.hands.get(loser, [])
        self.s.players = with_status(s.players, loser, "eliminated")
        mark = len(self.events)
        if s.options.destroy_rule == "convert_24":
            self.convert_destroy_missions(loser, exempt=s.current, reason="target_eliminated_by_other")
        won = self.check_victory()  # RISK-ELIM-2: a win comes before the cards change hands, so none do
        self.events.insert(mark, E.Eliminated(player=loser, by=s.current,
                                              cards_taken=0 if won else len(taken)))
        if won:
            return
        hands = self.own("hands")
        hands[s.current].extend(taken)
        hands[loser] = []
        if len(hands[s.current]) >= 6:
            self.s.interrupt = Interrupt(kind="elim_trade", eliminated=loser)

    def convert_destroy_missions(self, target: int, exempt: int | None, reason: str) -> None:
        s = self.s
        colour = s.player(target).colour  # type: ignore[union-attr]
        for pid, mid in list(s.missions.items()):
            m = self.b.mission.get(mid)
            if m and m.destroy == colour and pid != exempt and pid != target:
                self.own("missions")[pid] = "M05"
                self.emit(E.MissionChanged(private_to=pid, mission="M05", previous=mid, reason=reason))

    # -- fortify

    def do_fortify(self, a: A.Fortify) -> None:
        s = self.s
        source = self.territory(a.source)
        target = self.territory(a.target)
        n = self.count(a.count, "count")
        if source == target:
            raise RuleError("E_SAME_TERRITORY")
        for t in (source, target):
            if s.owner.get(t) != a.player:
                raise self.owned_error(t)
        if s.options.fortify_mode == "adjacent":
            if target not in self.b.neighbours[source]:
                raise RuleError("E_NOT_ADJACENT", **{"from": self.tname(source), "to": self.tname(target)})
        elif not connected(s, self.b, a.player, source, target):
            raise RuleError("E_NOT_CONNECTED", **{"from": self.tname(source), "to": self.tname(target)})
        if n >= s.armies[source]:
            raise RuleError("E_LEAVE_ONE", max=s.armies[source] - 1, **{"from": self.tname(source)})
        if s.phase is not Phase.FORTIFY:
            self.leave_attack()
        s.armies[source] -= n
        s.armies[target] += n
        self.emit(E.Moved(player=a.player, source=source, target=target, count=n, kind="fortify"))
        if not self.check_victory():
            self.end_turn()

    # -- leaving the game

    def leave(self, pid: int, removed_by: int | None) -> None:
        """Resignation or removal: territories turn Neutral, cards to the discard (RISK-ELIM-10 … 14)."""
        s = self.s
        self.settle_open_decisions(pid)
        if s.phase is Phase.GAME_OVER:
            return
        was_current = s.current == pid
        self.s.players = with_status(s.players, pid, "resigned")
        for t, o in s.owner.items():
            if o == pid:
                s.owner[t] = NEUTRAL
        discard = self.own("discard")
        discard.extend(s.hands.get(pid, []))
        self.rng.shuffle(discard)
        self.own("hands")[pid] = []
        for field in ("missions", "setup_left", "standing_defence"):
            self.own(field).pop(pid, None)
        self.s.plans = withdraw(s.plan_book(), pid).drafts
        self.emit(E.PlayerLeft(player=pid, removed_by=removed_by))
        self.convert_destroy_missions(pid, exempt=None, reason="target_left")
        if self.check_victory():
            return
        if s.phase in (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.SETUP_PLACE_2P):
            self.setup_after_leave(pid, was_current)
        elif was_current:
            self.s.interrupt, self.s.conquered_this_turn = None, False  # RISK-ELIM-14: no card draw
            self.end_turn()

    def settle_open_decisions(self, pid: int) -> None:
        """Before a player leaves, their open decisions are settled as the skip rules would (ruling 19)."""
        s = self.s
        i = s.interrupt
        if i is not None and i.kind == "defend" and i.defender == pid:
            assert i.source is not None and i.target is not None
            self.fight(i.source, i.target, i.dice, min(2, s.armies[i.target]), i.move)
        while s.current == pid and s.interrupt is not None and s.phase is not Phase.GAME_OVER:
            i = s.interrupt
            if i.kind == "occupy":
                self.occupy(i.min)
            elif i.kind == "elim_trade":
                self.do_trade(A.Trade(player=pid, cards=list(preferred_set(self.b, s, pid))))
            elif i.kind == "elim_place":
                self.do_deploy(A.Deploy(player=pid, placements=spread(self.b, s, pid, s.pool)))
            else:
                break  # the leaver's own attack waits on a defender: it is simply dropped

    def setup_after_leave(self, pid: int, was_current: bool) -> None:
        s = self.s
        if s.phase is Phase.SETUP_PLACE and s.options.setup_placement == "simultaneous":
            book = s.plan_book()
            if complete(book):
                self.reveal_plans(book)
            return
        if not was_current:
            return
        if s.phase is Phase.SETUP_CLAIM:
            self.s.current = s.next_active(pid)
        else:
            self.advance_setup(pid)

    # -- victory (§4.7)

    def check_victory(self) -> bool:
        s = self.s
        if s.phase is Phase.GAME_OVER:
            return True
        if s.interrupt is not None and s.interrupt.kind == "occupy":
            return False  # RISK-WIN-27
        living = s.active_ids()
        if len(living) == 1:
            self.win(living[0], "last_standing")
            return True
        if s.options.mode == "secret_mission" and s.turn > 0:
            order = [p.id for p in s.players]
            start = order.index(s.current) if s.current in order else 0
            for k in range(len(order)):
                pid = order[(start + k) % len(order)]
                if pid in living and mission_complete(self.b, s, pid):
                    self.win(pid, "mission")
                    return True
        return False

    def win(self, pid: int, reason: str) -> None:
        """Game over at once (RISK-WIN-29): pending decisions go, the armies still to place stay in `pool`."""
        self.s.phase, self.s.winner, self.s.interrupt = Phase.GAME_OVER, pid, None
        self.emit(E.GameWon(player=pid, reason=reason, missions=dict(self.s.missions)))


HANDLERS: dict[str, Callable[[_Apply, Any], None]] = {
    kind: getattr(_Apply, "do_" + kind)
    for kind in ("claim", "place", "deploy", "place_neutral", "trade", "attack", "move", "end_attack", "fortify",
                 "end_turn")
}
"""The turn's commands (§5.1), once the gates have let them through."""


def preferred_set(board: RiskMap, s: RiskState, pid: int) -> tuple[str, str, str]:
    """Sets without wilds first, then with an owned territory, then the earliest cards (RISK-DIG-44)."""
    hand = s.hands[pid]

    def key(cards: tuple[str, str, str]) -> tuple[int, int, list[int]]:
        wilds = sum(c in board.wild_cards for c in cards)
        owned = any(s.owner.get(c) == pid for c in cards)
        return (wilds, 0 if owned else 1, sorted(hand.index(c) for c in cards))

    return min(valid_sets(board, hand), key=key)


def spread(board: RiskMap, s: RiskState, pid: int, n: int) -> dict[str, int]:
    """The round-robin placements counted per territory, in table order."""
    return dict(Counter(round_robin(board, s, pid, n)))


def round_robin(board: RiskMap, s: RiskState, pid: int, n: int) -> list[str]:
    """n single placements, round-robin over pid's border territories in table order (RISK-DIG-45)."""
    own = [t for t in board.ids if s.owner.get(t) == pid]
    mine = set(own)
    border = [t for t in own if not board.neighbour_sets[t] <= mine] or own
    return [border[k % len(border)] for k in range(n)] if border else []


def apply(state: RiskState, action: A.Action, board: RiskMap | None = None) -> tuple[RiskState, list[Event]]:
    """Apply one action; raise RuleError and leave `state` untouched if it is illegal."""
    work = _Apply(state, board or classic())
    work.run(action)
    return work.s, work.events
