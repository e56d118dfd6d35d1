"""AI seats for Risk: a random-legal policy and a sensible baseline."""

from __future__ import annotations

import random
from collections import Counter

from engine.games.risk import actions as A
from engine.games.risk.mapdata import RiskMap, classic
from engine.games.risk.rules import connected, valid_sets
from engine.games.risk.state import NEUTRAL, Phase, RiskState
from engine.games.risk.timeouts import timeout_actions

ATTACK = Phase.ATTACK


def attack_options(board: RiskMap, s: RiskState, pid: int, favoured: bool = False) -> list[tuple[str, str]]:
    """Legal (source, target) attack pairs; with `favoured`, only those where the source outnumbers.

    The pairs come in the army table's order, on which the random choice depends. The cheapest test comes
    first: most territories hold a single army, and that excludes them whoever owns them.
    """
    owner, armies, neighbours = s.owner, s.armies, board.neighbours
    if favoured:
        return [(t, n) for t, here in armies.items() if here >= 2 and owner[t] == pid
                for n in neighbours[t] if here > armies[n] and owner[n] != pid]
    return [(t, n) for t, here in armies.items() if here >= 2 and owner[t] == pid
            for n in neighbours[t] if owner[n] != pid]


def fortify_options(board: RiskMap, s: RiskState, pid: int) -> list[tuple[str, str]]:
    sources = [t for t in board.ids if s.owner.get(t) == pid and s.armies[t] >= 2]
    if s.options.fortify_mode == "adjacent":
        return [(t, n) for t in sources for n in board.neighbours[t] if s.owner.get(n) == pid]
    own = [t for t in board.ids if s.owner.get(t) == pid]
    return [(t, n) for t in sources for n in own if n != t and connected(s, board, pid, t, n)]


class RandomPolicy:
    """Picks at random among legal moves, weighted towards favourable attacks so games end.

    It trades when it must and, below five cards, on the toss of a coin at each decision.
    """

    def __init__(self, board: RiskMap | None = None) -> None:
        self.b = board or classic()

    def choose(self, s: RiskState, pid: int, rng: random.Random) -> A.Action:
        b = self.b
        i = s.interrupt
        if i is not None:
            if i.kind == "defend":
                return A.Defend(player=pid, dice=rng.randint(1, min(2, s.armies[i.target or ""])))
            if i.kind == "occupy":
                return A.Move(player=pid, count=i.max if rng.random() < 0.9 else rng.randint(i.min, i.max))
            if i.kind == "elim_trade":
                return A.Trade(player=pid, cards=list(rng.choice(valid_sets(b, s.hands[pid]))))
            return A.Place(player=pid, territory=rng.choice(s.territories_of(pid)),
                           count=rng.randint(1, s.pool))
        phase = s.phase
        if phase is ATTACK:  # the most frequent decision first
            return self.attack_or_end(s, pid, rng, phase)
        if phase is Phase.SETUP_CLAIM:
            return A.Claim(player=pid, territory=rng.choice([t for t in b.ids if t not in s.owner]))
        if phase is Phase.SETUP_PLACE:
            own = s.territories_of(pid)
            if s.options.setup_placement == "one_at_a_time":
                return A.Place(player=pid, territory=rng.choice(own))
            plan: dict[str, int] = {}
            for _ in range(s.unplanned(pid)):
                t = rng.choice(own)
                plan[t] = plan.get(t, 0) + 1
            return A.Deploy(player=pid, placements=plan)
        if phase is Phase.SETUP_PLACE_2P:
            own_left = min(2 - s.setup_own_placed, s.setup_left[pid])
            if own_left and (s.setup_neutral_placed or not s.setup_left.get(NEUTRAL) or rng.random() < 0.5):
                return A.Place(player=pid, territory=rng.choice(s.territories_of(pid)),
                               count=rng.randint(1, own_left))
            neutral = [t for t in b.ids if s.owner[t] == NEUTRAL]
            return A.PlaceNeutral(player=pid, territory=rng.choice(neutral))
        if phase is Phase.REINFORCE:
            hand = s.hands[pid]
            if len(hand) >= 5 or (len(hand) >= 3 and rng.random() < 0.5):  # a set is optional below five cards
                sets = valid_sets(b, hand)
                if sets:
                    return A.Trade(player=pid, cards=list(rng.choice(sets)))
            if s.pool:
                own = s.territories_of(pid)
                mine = set(own)
                border = [t for t in own if not b.neighbour_sets[t] <= mine]
                return A.Place(player=pid, territory=rng.choice(border or own), count=s.pool)
        return self.attack_or_end(s, pid, rng, phase)

    def attack_or_end(self, s: RiskState, pid: int, rng: random.Random, phase: Phase) -> A.Action:
        """An attack, else now and then a fortification, else the end of the attack or of the turn."""
        b = self.b
        if phase is Phase.REINFORCE or phase is ATTACK:
            options = attack_options(b, s, pid, favoured=rng.random() >= 0.05)
            if options:
                source, target = rng.choice(options)
                if rng.random() < 0.1:  # now and then a single roll with fewer dice
                    return A.Attack(player=pid, source=source, target=target,
                                    dice=rng.randint(1, min(3, s.armies[source] - 1)), until="once", move=None)
                return A.Attack(player=pid, source=source, target=target, dice=None, until="conquer",
                                move="max")
        if rng.random() < 0.1:
            moves = fortify_options(b, s, pid)
            if moves:
                source, target = rng.choice(moves)
                return A.Fortify(player=pid, source=source, target=target,
                                 count=rng.randint(1, s.armies[source] - 1))
        if phase is ATTACK and rng.random() < 0.5:
            return A.EndAttack(player=pid)
        return A.EndTurn(player=pid)


class BaselinePolicy:
    """Reinforces threatened borders, attacks with good odds, trades, fortifies to the front, follows its mission."""

    def __init__(self, board: RiskMap | None = None) -> None:
        self.b = board or classic()

    # -- evaluation helpers

    def enemy_pressure(self, s: RiskState, pid: int, t: str) -> int:
        return sum(s.armies[n] for n in self.b.neighbours[t] if s.owner.get(n) not in (pid, None))

    def is_border(self, s: RiskState, pid: int, t: str) -> bool:
        return any(s.owner.get(n) != pid for n in self.b.neighbours[t])

    def goal_continents(self, s: RiskState, pid: int) -> list[str]:
        """Continents the mission asks for, else the ones we hold most of (relative to size)."""
        m = self.b.mission.get(s.missions.get(pid, ""))
        if m is not None and m.continents:
            return list(m.continents)
        share = {
            c: sum(s.owner.get(t) == pid for t in members) / len(members) for c, members in self.b.members.items()
        }
        return sorted(share, key=lambda c: (-share[c], len(self.b.members[c])))[:2]

    def destroy_target(self, s: RiskState, pid: int) -> int | None:
        m = self.b.mission.get(s.missions.get(pid, ""))
        if m is None or m.destroy is None:
            return None
        p = next((p for p in s.players if p.colour == m.destroy and p.status == "active"), None)
        return p.id if p else None

    def target_scores(self, s: RiskState, pid: int, options: list[tuple[str, str]]) -> list[tuple[float, str, str]]:
        """Odds, goal continents, the destroy target and weak players make a target attractive."""
        b = self.b
        goals = set(self.goal_continents(s, pid))
        hunted = self.destroy_target(s, pid)
        held = Counter(s.owner.values())
        scored = []
        for source, target in options:
            score = (s.armies[source] - 1) / (s.armies[target] + 1)
            owner = s.owner[target]
            if b.territory[target].continent in goals:
                score += 0.6
            if owner == hunted:
                score += 0.8
            if owner != NEUTRAL and held[owner] <= 2:
                score += 0.5  # finish a weak player for their cards
            scored.append((score, source, target))
        return scored

    def best_place(self, s: RiskState, pid: int) -> str:
        b = self.b
        own = [t for t in b.ids if s.owner.get(t) == pid]
        border = [t for t in own if self.is_border(s, pid, t)] or own
        goals = self.goal_continents(s, pid)

        def value(t: str) -> tuple[float, int]:
            threat = self.enemy_pressure(s, pid, t) - s.armies[t]
            bonus = 3 if b.territory[t].continent in goals else 0
            return (threat + bonus, -b.ids.index(t))

        return max(border, key=value)

    # -- the decision

    def choose(self, s: RiskState, pid: int, rng: random.Random) -> A.Action:
        b = self.b
        i = s.interrupt
        if i is not None:
            if i.kind == "defend":
                return A.Defend(player=pid, dice=min(2, s.armies[i.target or ""]))
            if i.kind == "occupy":
                source_exposed = any(
                    s.owner.get(n) not in (pid,) and n != i.target for n in b.neighbours[i.source or ""]
                )
                return A.Move(player=pid, count=max(i.min, i.max // 2) if source_exposed else i.max)
            if i.kind == "elim_trade":
                return A.Trade(player=pid, cards=list(self.best_set(s, pid)))
            return A.Place(player=pid, territory=self.best_place(s, pid), count=s.pool)
        if s.phase is Phase.SETUP_CLAIM:
            free = [t for t in b.ids if t not in s.owner]

            def claim_value(t: str) -> tuple[float, float]:
                c = b.territory[t].continent
                mine = sum(s.owner.get(x) == pid for x in b.members[c])
                theirs = sum(s.owner.get(x) not in (pid, None) for x in b.members[c])
                return (mine - theirs - len(b.members[c]) / 4, rng.random())

            return A.Claim(player=pid, territory=max(free, key=claim_value))
        if s.phase is Phase.SETUP_PLACE and s.options.setup_placement != "one_at_a_time":
            room = s.unplanned(pid)
            return A.Deploy(player=pid, placements={self.best_place(s, pid): room})
        if s.phase is Phase.SETUP_PLACE:
            return A.Place(player=pid, territory=self.best_place(s, pid))
        if s.phase is Phase.SETUP_PLACE_2P:
            return timeout_actions(b, s, pid)[0]
        if s.phase is Phase.REINFORCE:
            if valid_sets(b, s.hands[pid]):
                return A.Trade(player=pid, cards=list(self.best_set(s, pid)))
            if s.pool:
                return A.Place(player=pid, territory=self.best_place(s, pid), count=s.pool)
        if s.phase in (Phase.REINFORCE, Phase.ATTACK):
            options = [(src, tgt) for src, tgt in attack_options(b, s, pid) if s.armies[src] >= 3]
            scored = [x for x in self.target_scores(s, pid, options) if x[0] >= 1.3]
            if scored:
                _, src, tgt = max(scored)
                return A.Attack(player=pid, source=src, target=tgt, until="conquer",
                                keep=max(1, s.armies[src] // 3))  # stop while a third is left
        move = self.fortify_move(s, pid)
        if move is not None:
            return move
        return A.EndTurn(player=pid)

    def best_set(self, s: RiskState, pid: int) -> tuple[str, str, str]:
        def key(cards: tuple[str, str, str]) -> tuple[int, int]:
            owned = sum(s.owner.get(c) == pid for c in cards)
            wilds = sum(c in self.b.wild_cards for c in cards)
            return (min(owned, 1), -wilds)

        return max(valid_sets(self.b, s.hands[pid]), key=key)

    def fortify_move(self, s: RiskState, pid: int) -> A.Fortify | None:
        best: tuple[int, str, str] | None = None
        for src, tgt in fortify_options(self.b, s, pid):
            if self.is_border(s, pid, src) or not self.is_border(s, pid, tgt):
                continue
            gain = s.armies[src] - 1
            if best is None or (gain, self.enemy_pressure(s, pid, tgt)) > (
                best[0], self.enemy_pressure(s, pid, best[2])
            ):
                best = (gain, src, tgt)
        if best is None:
            return None
        return A.Fortify(player=pid, source=best[1], target=best[2], count=best[0])


POLICIES = {"random": RandomPolicy, "baseline": BaselinePolicy}
