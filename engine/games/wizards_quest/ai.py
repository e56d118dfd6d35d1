"""AI seats for Wizard's Quest: a random-legal policy and a sensible baseline."""

from __future__ import annotations

import random
from functools import cache

from engine.games.wizards_quest import actions as A
from engine.games.wizards_quest import board as B
from engine.games.wizards_quest.data import WQData, standard
from engine.games.wizards_quest.legal import (
    aid_sources,
    campaigns,
    card_targets,
    free_attacks,
    hide_targets,
    legal_targets,
)
from engine.games.wizards_quest.state import Attack, Phase, WQState
from engine.games.wizards_quest.timeouts import play_newest


@cache
def win_chance(attackers: int, defenders: int, d: int) -> float:
    """Chance that `attackers` spare pieces remove `defenders` pieces (or wounds) first, at range D."""
    if defenders <= 0:
        return 1.0
    if attackers <= 0:
        return 0.0
    p = (6 - d) / 6
    return p * win_chance(attackers, defenders - 1, d) + (1 - p) * win_chance(attackers - 1, defenders, d)


class RandomPolicy:
    """Picks uniformly among a sample of legal actions, leaning to attacks so that games move on."""

    def __init__(self, data: WQData | None = None) -> None:
        self.d = data or standard()

    def choose(self, s: WQState, pid: int, rng: random.Random) -> A.Action:
        d = self.d
        todo = s.todo[0] if s.todo else None
        if todo is not None:
            if todo.kind == "hand":
                return play_newest(s, d, pid)
            if todo.kind == "capture":
                assert s.attack is not None
                most = s.pieces(s.attack.source) - 1
                if most < 1:
                    return A.Cancel(player=pid)
                return A.Capture(player=pid, count=rng.randint(1, most),
                                 leader=s.leader_at(s.attack.source) is not None and rng.random() < 0.5)
            if todo.kind == "region":
                return A.ChooseRegion(player=pid, region=rng.randint(1, 6))
            if todo.kind == "ring":
                return A.MoveMage(player=pid, territory=rng.choice([None, *d.map.territories]))
        if s.phase is Phase.SETUP_CASTLE:
            return A.ChooseCastle(player=pid, castle=rng.choice(legal_targets(s, d, pid, "castle")))
        if s.phase is Phase.SETUP_CLAIM:
            return A.Claim(player=pid, territory=rng.choice(legal_targets(s, d, pid, "claim")))
        if s.phase is Phase.SETUP_HIDE:
            t = rng.choice([t for t in s.treasures if t.hider == pid and t.location is None])
            return A.Hide(player=pid, owner=t.owner, treasure=t.kind, territory=rng.choice(hide_targets(s, d, t.owner)))
        if s.pool > 0:
            own = s.locations_of(pid)
            buyable = [lead for lead in ("hero", "sorcerer") if lead not in s.leaders(pid)]
            spots = legal_targets(s, d, pid, "buy")
            if buyable and spots and s.pool >= 2 and rng.random() < 0.3:
                return A.Buy(player=pid, leader=rng.choice(buyable), location=rng.choice(spots))  # type: ignore[arg-type]
            return A.Place(player=pid, placements={rng.choice(own): rng.randint(1, s.pool)})
        if s.phase is Phase.PETITION:
            if not s.turn.drawn and (s.deck or s.discard) and rng.random() < 0.7:
                return A.Draw(player=pid)
            if s.hands[pid] and rng.random() < 0.5:
                return self.play_random(s, pid, rng)
            return A.Done(player=pid)
        if s.attack is not None:
            aids = aid_sources(s, d, pid)
            if aids and rng.random() < 0.2:
                source = rng.choice(aids)
                spare = min(s.men[source], s.pieces(source) - 1)
                return A.Aid(player=pid, source=source, count=rng.randint(1, spare))
            if s.attack.kind == "campaign" and s.attack.battles == 0 and s.pieces(s.attack.source) < 2:
                return A.Cancel(player=pid)
            return A.Roll(player=pid, times=rng.choice([1, 0])) if rng.random() < 0.9 else A.Stop(player=pid)
        if rng.random() < 0.8 and not s.turn.truce:
            boat = bool(s.boats.get(pid)) and rng.random() < 0.3
            options = free_attacks(s, d, pid, boat)
            if s.turn.campaigns > 0:
                options += [a for a in campaigns(s, d, pid, boat) if s.pieces(a.source) >= 2]
            if options:
                a = rng.choice(options)
                if a.kind == "free":
                    return A.FreeAttack(player=pid, source=a.source, beast=a.beast or "dragon", boat=boat)
                return A.Declare(player=pid, source=a.source, target=a.target, boat=boat)
        return A.End(player=pid)

    def play_random(self, s: WQState, pid: int, rng: random.Random) -> A.Action:
        d = self.d
        card = rng.choice(s.hands[pid])
        targets = card_targets(s, d, pid, card)
        if not targets:
            return A.Play(player=pid, card=card)
        if d.deck.card(card).code == "forced_march":
            source = rng.choice(targets)
            to = rng.choice(legal_targets(s, d, pid, "march_target", source=source))
            return A.Play(player=pid, card=card, location=source, to=to,
                          count=rng.randint(1, max(1, min(s.men.get(source, 0), s.pieces(source) - 1))))
        return A.Play(player=pid, card=card, location=rng.choice(targets))


class BaselinePolicy:
    """Guards threatened castles and borders, attacks with good odds, goes for its own treasures."""

    def __init__(self, data: WQData | None = None) -> None:
        self.d = data or standard()

    # -- evaluation helpers

    def my_treasures(self, s: WQState, pid: int) -> set[str]:
        return {t.location for t in s.treasures if t.owner == pid and t.location is not None}

    def threat(self, s: WQState, pid: int, loc: str) -> int:
        """Hostile pieces next to `loc`: enemy men and leaders, and orcs (a full stack counts double)."""
        total = 0
        for n in self.d.map.neighbours[loc]:
            if n in s.owner and s.owner[n] != pid:
                total += s.pieces(n)
            elif s.orcs.get(n, 0):
                total += s.orcs[n] * (2 if s.orcs[n] >= 3 else 1)
        return total

    def attack_value(self, s: WQState, pid: int, a: Attack) -> float:
        d = self.d
        defenders = a.wounds if a.beast else (s.pieces(a.target) if a.target in s.owner else s.orcs.get(a.target, 0))
        if a.empty_start:
            return 1.0 + (5 if a.target in self.my_treasures(s, pid) else 0) + (0.5 if a.target in d.map.castles else 0)
        chance = win_chance(s.pieces(a.source) - 1, defenders, B.defence(s, d, a, s.leader_at(a.source)))
        gain = 1.0 + (5 if a.target in self.my_treasures(s, pid) else 0) + (1 if a.target in d.map.castles else 0)
        if a.beast == "dragon" and s.leader_at(a.source) == "hero":
            gain += 2
        return chance * gain - (1 - chance) * 1.2

    def best_spot(self, s: WQState, pid: int) -> str:
        """Where new men help most: next to an own treasure, a threatened castle, or the busiest border."""
        d = self.d
        goals = self.my_treasures(s, pid)

        def score(loc: str) -> tuple[float, int]:
            near_goal = any(n in goals for n in d.map.neighbours[loc])
            return (self.threat(s, pid, loc) + (8 if near_goal else 0) + (2 if loc in d.map.castles else 0)
                    - 0.3 * s.pieces(loc), -d.map.order[loc])

        return max(s.locations_of(pid), key=score)

    # -- decisions

    def choose(self, s: WQState, pid: int, rng: random.Random) -> A.Action:
        d = self.d
        todo = s.todo[0] if s.todo else None
        if todo is not None:
            return self.forced(s, pid, todo.kind)
        if s.phase is Phase.SETUP_CASTLE:
            free = legal_targets(s, d, pid, "castle")
            return A.ChooseCastle(player=pid, castle=max(free, key=lambda c: (
                sum(1 for n in d.map.neighbours[c] if not B.occupied(s, n)), -d.map.order[c])))
        if s.phase is Phase.SETUP_CLAIM:
            empty = legal_targets(s, d, pid, "claim")
            return A.Claim(player=pid, territory=max(empty, key=lambda t: (
                sum(1 for n in d.map.neighbours[t] if s.owner.get(n) == pid), -d.map.order[t])))
        if s.phase is Phase.SETUP_HIDE:
            t = next(t for t in s.treasures if t.hider == pid and t.location is None)
            spots = hide_targets(s, d, t.owner)
            return A.Hide(player=pid, owner=t.owner, treasure=t.kind,
                          territory=max(spots, key=lambda x: (self.distance(s, t.owner, x), s.orcs.get(x, 0),
                                                              s.pieces(x), -d.map.order[x])))
        if s.pool > 0:
            return self.place(s, pid)
        if s.phase is Phase.PETITION:
            return self.petition(s, pid)
        if s.attack is not None:
            return self.fight(s, pid)
        return self.next_attack(s, pid)

    def distance(self, s: WQState, owner: int, target: str) -> int:
        """Steps from the owner's nearest location to `target` (far is a good hiding place)."""
        mine = set(s.locations_of(owner))
        frontier, seen, steps = {target}, {target}, 0
        while frontier and not frontier & mine:
            frontier = {n for x in frontier for n in self.d.map.neighbours[x]} - seen
            seen |= frontier
            steps += 1
        return steps

    def forced(self, s: WQState, pid: int, kind: str) -> A.Action:
        d = self.d
        if kind == "hand":
            return play_newest(s, d, pid)
        if kind == "capture":
            a = s.attack
            assert a is not None
            have = s.pieces(a.source)
            if have < 2:
                return A.Cancel(player=pid)
            keep = 1 if self.threat(s, pid, a.source) == 0 else max(1, have // 3)
            return A.Capture(player=pid, count=max(1, have - keep), leader=s.leader_at(a.source) is not None)
        if kind == "reward":
            return self.place(s, pid)
        if kind == "region":
            beast = s.todo[0].beast
            protected = B.protected_region(s, d)

            def value(r: int) -> int:
                locs = d.map.members[r]
                mine = sum(1 for x in locs if s.owner.get(x) == pid)
                theirs = sum(s.men.get(x, 0) for x in locs if x in s.owner and s.owner[x] != pid)
                return mine if beast == "mage" else theirs - 3 * mine

            regions = [r for r in range(1, 7) if beast == "mage" or r != protected]
            return A.ChooseRegion(player=pid, region=max(regions, key=lambda r: (value(r), -r)))
        own = [t for t in d.map.territories if s.owner.get(t) == pid]
        if not own:
            return A.MoveMage(player=pid)
        return A.MoveMage(player=pid, territory=max(own, key=lambda t: (self.threat(s, pid, t), -d.map.order[t])))

    def place(self, s: WQState, pid: int) -> A.Action:
        spot = self.best_spot(s, pid)
        for leader in ("sorcerer", "hero"):
            if leader not in s.leaders(pid) and s.pool >= 2 and s.leader_at(spot) is None:
                return A.Buy(player=pid, leader=leader, location=spot)  # type: ignore[arg-type]
        return A.Place(player=pid, placements={spot: s.pool})

    def petition(self, s: WQState, pid: int) -> A.Action:
        d = self.d
        if not s.turn.drawn and (s.deck or s.discard):
            return A.Draw(player=pid)
        for card in s.hands[pid]:
            kind = d.deck.card(card)
            if kind.men or kind.pieces or kind.campaigns or kind.code == "blessed_arms":
                return A.Play(player=pid, card=card)
            if kind.code == "orcbane":
                near = [x for x in card_targets(s, d, pid, card)
                        if any(s.owner.get(n) == pid for n in d.map.neighbours[x])]
                if near:
                    return A.Play(player=pid, card=card, location=max(near, key=lambda x: (s.orcs[x], -d.map.order[x])))
            if kind.code == "dragon_lure":
                enemy = [t for t in card_targets(s, d, pid, card) if t in s.owner and s.owner[t] != pid]
                if enemy:
                    return A.Play(player=pid, card=card, location=max(enemy, key=lambda t: (s.men.get(t, 0),
                                                                                            -d.map.order[t])))
            if kind.code == "wizards_summons":
                own = [t for t in d.map.territories if s.owner.get(t) == pid]
                if own:
                    return A.Play(player=pid, card=card, location=max(own, key=lambda t: (self.threat(s, pid, t),
                                                                                          -d.map.order[t])))
        return A.Done(player=pid)

    def next_attack(self, s: WQState, pid: int) -> A.Action:
        d = self.d
        if s.turn.truce:
            return A.End(player=pid)
        options: list[tuple[float, Attack, bool]] = []
        boats = [False, True] if s.boats.get(pid) else [False]  # with a boat, only attacks across water
        for use_boat in boats:
            for a in free_attacks(s, d, pid, use_boat):
                options.append((self.attack_value(s, pid, a), a, use_boat))
        if s.turn.campaigns > 0:
            for use_boat in boats:
                for a in campaigns(s, d, pid, use_boat):
                    if a.empty_start and s.pieces(a.source) < 2:
                        continue
                    options.append((self.attack_value(s, pid, a), a, use_boat))
        if not options:
            return A.End(player=pid)
        value, best, use_boat = max(options, key=lambda o: (o[0], -d.map.order[o[1].source], -d.map.order[o[1].target]))
        if value < 0.35:
            return A.End(player=pid)
        if best.kind == "free":
            return A.FreeAttack(player=pid, source=best.source, beast=best.beast or "dragon", boat=use_boat)
        return A.Declare(player=pid, source=best.source, target=best.target, boat=use_boat)

    def fight(self, s: WQState, pid: int) -> A.Action:
        d = self.d
        a = s.attack
        assert a is not None
        if a.kind == "campaign":
            safe = [x for x in aid_sources(s, d, pid) if self.threat(s, pid, x) == 0 and s.men.get(x, 0) >= 2
                    and s.pieces(x) - s.men[x] + 1 <= s.pieces(x) - 1]
            if safe:
                x = safe[0]
                return A.Aid(player=pid, source=x, count=min(s.men[x], s.pieces(x) - 1))
            if a.battles == 0 and s.pieces(a.source) < 2:
                return A.Cancel(player=pid)
        if a.battles and self.attack_value(s, pid, a) < 0:
            return A.Stop(player=pid)
        return A.Roll(player=pid, times=0, until_below=3 if a.kind == "campaign" else None)


POLICIES = {"random": RandomPolicy, "baseline": BaselinePolicy}
__all__ = ["POLICIES", "BaselinePolicy", "RandomPolicy"]
