"""AI seats for Battlemist: a random-legal policy and a sensible baseline, each answering any pending decision.

Both pick among the candidates of `legal.py` and keep only what `apply` accepts, so neither ever plays an
illegal action.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from engine.core.models import Action, Decision
from engine.games.battlemist import combat, economy, heroes, legal, movement, quest, ruleset, upkeep
from engine.games.battlemist.board import distances
from engine.games.battlemist.data import ARMY, RESOURCES, load
from engine.games.battlemist.economy import EconOrders, EconStart, Line
from engine.games.battlemist.pieces import Troops
from engine.games.battlemist.state import BMState, Phase

STOP = 0.25
"""The random seat ends a step it could go on with (movement, orders) this often, so that its turns end."""


def decision(state: BMState, player: int) -> Decision:
    found = legal.decisions_of(state, player)
    if not found:
        raise ValueError(f"seat {player} has no decision pending")
    return found[0]


class RandomPolicy:
    """A uniformly random legal action of the seat's first pending decision."""

    def choose(self, state: BMState, player: int, rng: random.Random) -> Action:
        d = decision(state, player)
        options = legal.decision_candidates(state, player, d)
        enders = [a for a in options if a.type in ("end_move", "end_heroes", "end_quest")
                  or (isinstance(a, EconOrders) and a.lock)]
        if enders and rng.random() < STOP:
            options = enders
        rng.shuffle(options)
        return legal.first_legal(state, options) or ruleset.timeout_action(state, player)


# ---------------------------------------------------------------------------------------------------- evaluation


WEIGHT = {"infantry": 1.0, "archers": 1.2, "cavalry": 1.5, "giant": 3.0, "firebreather": 3.5, "dragon": 5.0}
"""A rough fighting value per unit, for comparing armies."""


def strength(troops: Troops) -> float:
    return sum(WEIGHT[k] * n for k, n in troops.counts().items())


def enemy_strength(state: BMState, pid: int, region: str) -> float:
    return sum(strength(t) for p, t in state.troops.get(region, {}).items() if p != pid)


def stock_after(state: BMState, pid: int, lines: tuple[Line, ...]) -> dict[str, int]:
    """What `pid` keeps after his order lines: his stock less what the accepted plan pays."""
    plan = economy.evaluate(state, pid, lines)
    stock = state.stock[pid]
    have = {r: stock.get(r) for r in RESOURCES}
    spent: list[dict[str, int]] = [c for _, c in plan.builds] + [c for *_, c in plan.recruits]
    spent += [plan.hero or {}, plan.guild or {}]
    for cost in spent:
        for r, n in cost.items():
            have[r] -= n
    for t in plan.trades:
        have[t.give] -= t.amount
        have[t.get] += t.amount // economy.merchant_rate(state, pid)
    return have


class BaselinePolicy:
    """Buys Stars at the Grey Guild, builds when rich, recruits within its means and its grain, sends its heroes
    to their quests, takes weakly held or empty neighbours and fights only with the odds on its side."""

    def choose(self, state: BMState, player: int, rng: random.Random) -> Action:
        d = decision(state, player)
        chosen = self.pick(state, player, d)
        if chosen is not None and legal.accepted(state, chosen):
            return chosen
        return ruleset.timeout_action(state, player)

    def pick(self, state: BMState, pid: int, d: Decision) -> Action | None:
        kind = d.kind
        if kind == "vote":
            return self.vote(state, pid)
        if kind == "uprising_payment":
            regions = list(d.detail["regions"])
            return legal.council.UprisingPayment(player=pid, pay=regions[:state.stock[pid].grain])
        if kind == "econstart":
            return self.econstart(state, pid)
        if kind == "econ_orders":
            return EconOrders(player=pid, lines=self.orders(state, pid), lock=True)
        if kind == "upkeep":
            return self.upkeep(state, pid)
        if kind == "initiative":
            return None
        if state.phase is Phase.QUEST:
            return self.quest(state, pid, d)
        if kind == "move":
            return self.move(state, pid)
        return self.fight(state, pid, d)

    # -- the Council and the economy

    def vote(self, state: BMState, pid: int) -> Action:
        """Outcome A is the milder one: commit, unless the Tremors' B would hurt only the others."""
        council = state.council
        mine = sum(1 for r in state.cities if state.controller(r) == pid)
        commit = not (council is not None and council.card == "EV1" and mine == 0)
        return legal.council.Vote(player=pid, commit=commit)

    def econstart(self, state: BMState, pid: int) -> Action:
        options = [a for a in legal.decision_candidates(state, pid, Decision(player=pid, kind="econstart"))
                   if isinstance(a, EconStart) and a.plays and self.good_play(state, pid, a)]
        return legal.first_legal(state, options) or EconStart(player=pid, lock=True)

    def good_play(self, state: BMState, pid: int, action: EconStart) -> bool:
        play = action.plays[0]
        owner = state.controller(play.region)
        return owner != pid if play.card == "AC16" else owner == pid

    def orders(self, state: BMState, pid: int) -> tuple[Line, ...]:
        """The Guild first (with merchant trades if that pays for it), a large city or a city when rich, a hero
        while he has fewer than two, then recruits, always keeping the grain the upkeep needs."""
        lines: tuple[Line, ...] = ()
        lines = self.guild(state, pid, lines)
        for line in self.builds(state, pid):
            lines = self.keep(state, pid, lines, line, reserve=4)
        if len(state.heroes_of(pid)) < 2:
            lines = self.keep(state, pid, lines, economy.NewHero(), reserve=2)
        for line in self.recruits(state, pid):
            lines = self.keep(state, pid, lines, line, reserve=0)
        return lines

    def guild(self, state: BMState, pid: int, lines: tuple[Line, ...]) -> tuple[Line, ...]:
        more = legal.add_line(state, pid, lines, economy.Guild())
        if more is not None:
            return more
        price = economy.guild_price(state, pid)
        have = stock_after(state, pid, lines)
        rate = economy.merchant_rate(state, pid)
        trades: list[Line] = []
        for need in RESOURCES:
            short = price[need] - have[need]
            while short > 0:
                spare = max(RESOURCES, key=lambda r: have[r] - price[r])
                if spare == need or have[spare] - price[spare] < rate:
                    return lines
                trades.append(economy.Merchant(give=spare, amount=rate, get=need))
                have[spare] -= rate
                have[need] += 1
                short -= 1
        more = legal.add_line(state, pid, (*lines, *trades), economy.Guild())
        return more if more is not None else lines

    def grain_needed(self, state: BMState, pid: int, lines: tuple[Line, ...]) -> int:
        """The grain his upkeep will take, with the units and cities these lines add."""
        plan = economy.evaluate(state, pid, lines)
        new = sum(n for _, kind, n, _ in plan.recruits if kind in ARMY)
        cities = sum(load().rules.cities[b.city].upkeep.get("grain", 0) for b, _ in plan.builds)
        return upkeep.due(state, pid).get("grain", 0) + new + cities

    def keep(self, state: BMState, pid: int, lines: tuple[Line, ...], line: Line, reserve: int) -> tuple[Line, ...]:
        """`lines` with `line` if the set stays valid and leaves grain for the upkeep (plus `reserve` of wood and
        iron, so that the Guild can be afforded next round)."""
        more = legal.add_line(state, pid, lines, line)
        if more is None:
            return lines
        have = stock_after(state, pid, more)
        if have["grain"] < self.grain_needed(state, pid, more) and not isinstance(line, economy.Build):
            return lines
        if reserve and min(have["wood"], have["iron"]) < reserve:
            return lines
        return more

    def builds(self, state: BMState, pid: int) -> list[Line]:
        stock = state.stock[pid]
        if min(stock.wood, stock.iron) < 12:
            return []
        mine = state.controlled(pid)
        large = [economy.Build(region=r, city="large_city") for r in mine
                 if (c := state.cities.get(r)) is not None and c.kind == "city"]
        fresh = [economy.Build(region=r) for r in mine if r not in state.cities]
        return [*large, *fresh][:1]

    def recruits(self, state: BMState, pid: int) -> list[Line]:
        """Recruits in every placement site, the most threatened first; cavalry and archers before infantry."""
        sites = sorted(legal.placement_regions(state, pid), key=lambda r: -self.threat(state, pid, r))
        return [economy.Recruit(unit=unit, region=r) for r in sites for _ in range(3)
                for unit in ("archers", "cavalry", "infantry")]

    def threat(self, state: BMState, pid: int, region: str) -> float:
        return sum(enemy_strength(state, pid, n) for n in heroes.neighbours(state, region))

    def upkeep(self, state: BMState, pid: int) -> Action:
        """Pay by merchant trades when the surplus allows, else the stand-in's disbands."""
        short = upkeep.shortfall(state, pid)
        if not short:
            return upkeep.SubmitUpkeep(player=pid, lock=True)
        rate = economy.merchant_rate(state, pid)
        due = upkeep.due(state, pid)
        have = {r: state.stock[pid].get(r) for r in RESOURCES}
        trades = []
        for need, n in short.items():
            for _ in range(n):
                spare = max(RESOURCES, key=lambda r: have[r] - due.get(r, 0))
                if spare == need or have[spare] - due.get(spare, 0) < rate:
                    break
                trades.append(economy.Merchant(give=spare, amount=rate, get=need))
                have[spare] -= rate
                have[need] += 1
        paid = upkeep.SubmitUpkeep(player=pid, trades=tuple(trades), lock=True)
        return paid if legal.accepted(state, paid) else upkeep.timeout_upkeep(state, pid)

    # -- quests

    def quest(self, state: BMState, pid: int, d: Decision) -> Action | None:
        if d.kind == "bm_prequest":
            return quest.QuestPass(player=pid)
        if d.kind == "bm_hero_moves":
            return self.hero_move(state, pid, list(d.detail["heroes"]))
        if d.kind == "bm_encounter_hero":
            return quest.EncounterHero(player=pid, hero=max(d.detail["heroes"], key=lambda h: (
                self.life(state, pid, h), -h)))
        if d.kind == "bm_encounter_target":
            weakest = min(d.detail["foes"], key=lambda f: (f["life"], f["foe"]))
            return quest.EncounterTarget(player=pid, foe=weakest["foe"])
        if d.kind in ("bm_encounter_window", "bm_duel_window"):
            inspired = quest.InspiredHero(player=pid)
            return inspired if legal.accepted(state, inspired) else quest.QuestPass(player=pid)
        return quest.EndQuest(player=pid)

    def life(self, state: BMState, pid: int, number: int) -> int:
        hero = state.hero(pid, number)
        return hero.life if hero is not None else 0

    def hero_move(self, state: BMState, pid: int, free: list[int]) -> Action:
        """Each free hero towards the quest target, or home to draw a new quest; a hero already there stays."""
        target = quest._target(state, pid)
        goal = target if target is not None else state.homeland(pid)
        far = distances(state, goal)
        for number in free:
            hero = state.hero(pid, number)
            if hero is None or hero.region == goal:
                continue
            paths = legal.hero_paths(state, pid, number)
            best = min(paths.values(), key=lambda p: (far.get(p[-1], 99), len(p)), default=None)
            if best is not None and far.get(best[-1], 99) < far.get(hero.region, 99):
                return quest.HeroMove(player=pid, hero=number, path=list(best))
        return quest.EndHeroes(player=pid)

    # -- movement and combat

    def move(self, state: BMState, pid: int) -> Action:
        """The best move order: into an empty region or a weakly held one (at least 1.5 times the defenders'
        strength), never leaving a homeland or a city without a unit; else END_MOVE."""
        scored = [(self.move_value(state, pid, m), m) for m in self.move_options(state, pid)]
        scored = [(v, m) for v, m in scored if v > 0]
        for _, m in sorted(scored, key=lambda vm: -vm[0]):
            if legal.accepted(state, m):
                return m
        return movement.EndMove(player=pid)

    def move_options(self, state: BMState, pid: int) -> Iterable[movement.Move]:
        limit = load().rules.stack_limit
        for m in legal.move_candidates(state, pid):
            dest = m.path[-1]
            if m.unit in ARMY and state.units(dest, pid).army() + m.n > limit:
                continue
            here = state.units(m.origin, pid)
            stay = 1 if (m.origin.startswith("H-") or m.origin in state.cities) else 0
            if here.army() - (m.n if m.unit in ARMY else 0) < stay:
                continue
            yield m

    def move_value(self, state: BMState, pid: int, m: movement.Move) -> float:
        dest = m.path[-1]
        theirs = enemy_strength(state, pid, dest)
        mine = WEIGHT[m.unit] * m.n + strength(state.units(dest, pid))
        if theirs and mine < 1.5 * theirs:
            return 0.0
        if state.controller(dest) == pid or (not theirs and pid in state.troops.get(dest, {})):
            return 0.0
        value = 1.0 + (2.0 if dest in state.cities else 0.0) + (0.5 if theirs else 0.0)
        if dest.startswith("H-") and dest != state.homeland(pid):
            value += 4.0
        return value - 0.01 * m.n

    def fight(self, state: BMState, pid: int, d: Decision) -> Action | None:
        if d.kind == "battle_order":
            return combat.ChooseBattle(player=pid, region=max(d.detail["regions"], key=lambda r: (
                strength(state.units(r, pid)) - enemy_strength(state, pid, r), r)))
        if d.kind.startswith("window_"):
            tries: list[Action] = [combat.BattlePlay(player=pid, card=c) for c in d.detail["cards"]]
            tries += [combat.BattleCast(player=pid, spell=s) for s in d.detail["spells"]]
            return legal.first_legal(state, tries) or combat.BattlePass(player=pid)
        if d.kind == "plunder":
            return combat.Plunder(player=pid, yes=self.plunders(state, pid))
        return None

    def plunders(self, state: BMState, pid: int) -> bool:
        """Plunder only what he could not keep: a city in a region where he has no army unit left."""
        b = state.combat.battle
        return b is not None and not b.side(pid).active.army()


POLICIES: dict[str, type[RandomPolicy] | type[BaselinePolicy]] = {"random": RandomPolicy, "baseline": BaselinePolicy}
__all__ = ["POLICIES", "BaselinePolicy", "RandomPolicy"]
