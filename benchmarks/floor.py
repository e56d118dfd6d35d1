"""How fast can Python play issue #2's workload at all? A bare Risk loop against the engine, in one process.

Run: python benchmarks/floor.py [--games 100] [--pyrisk PATH]

The bare loop plays 4-player Risk with cards under the random policy's choices (engine/games/risk/ai.py): a
claim setup, trades when forced or on a coin toss, the whole pool on one border, favoured attacks until none
is left, now and then a single roll or a fortification. It checks nothing, records no event, copies nothing
and keeps territories as list indices: the least work these games can take in Python. Only its battle rounds
are the engine's own (`roll_round`), so that both draw their dice alike. Its games are about as
long as the engine's (it prints their actions and turns), but it is not the rules and plays no one's games.

It runs twice: bare, and building the plain objects the engine makes at every step (the pending decision,
the action and its events: one per battle round, two per conquest, one or two per other decision). That is
five objects a decision, as in the engine's games. The engine, and pyrisk with --pyrisk, play the same
number of games, alternating game by game, so that a slower minute of a shared machine hits all alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.models import Decision, Seat
from engine.core.play import play_out
from engine.core.rng import Rng, RngState
from engine.games.risk import RULESET, RiskOptions
from engine.games.risk import actions as A
from engine.games.risk import events as E
from engine.games.risk.dice import roll_round
from engine.games.risk.mapdata import classic

BOARD = classic()
IDS = list(BOARD.ids)
INDEX = {t: i for i, t in enumerate(IDS)}
NEIGHBOURS = [tuple(INDEX[n] for n in BOARD.neighbours[t]) for t in IDS]
NEIGHBOUR_SETS = [frozenset(n) for n in NEIGHBOURS]
CONTINENTS = [(frozenset(INDEX[t] for t in members), BOARD.continent[c].bonus) for c, members in BOARD.members.items()]
SYMBOLS = [BOARD.symbols[t] for t in IDS] + ["wild"] * len(BOARD.wild_cards)
SET_VALUES = [BOARD.trade_value(n) for n in range(1, 300)]


def valid_sets(hand: list[int]) -> list[tuple[int, int, int]]:
    n = len(hand)
    return [(hand[i], hand[j], hand[k]) for i in range(n) for j in range(i + 1, n) for k in range(j + 1, n)
            if "wild" in (kinds := {SYMBOLS[hand[i]], SYMBOLS[hand[j]], SYMBOLS[hand[k]]}) or len(kinds) != 2]


class BareGame:
    """One game. `act` stands for each decision the engine would take, `emit` for each further event."""

    def __init__(self, seed: int, objects: bool) -> None:
        self.ai = random.Random(seed)
        self.dice = Rng(RngState.from_seed(seed))
        self.objects = objects
        self.owner = [0] * 42
        self.armies = [0] * 42
        self.hands: dict[int, list[int]] = {p: [] for p in (1, 2, 3, 4)}
        self.alive = {1, 2, 3, 4}
        self.sets_traded = self.turns = self.actions = 0

    def act(self, events: int = 1) -> None:
        """A decision: the engine builds the pending decision, the action and its events."""
        self.actions += 1
        if self.objects:
            Decision(player=1, kind="attack")
            A.Attack(player=1, source="alaska", target="kamchatka", dice=None, until="conquer", move="max")
            self.emit(events)

    def emit(self, events: int) -> None:
        if self.objects:
            for _ in range(events):
                E.Moved(player=1, source="alaska", target="kamchatka", count=3, kind="occupy")

    def play(self) -> None:
        self.setup()
        deck, discard = list(range(len(SYMBOLS))), []
        self.dice.shuffle(deck)
        seat = 0
        while len(self.alive) > 1:
            pid = seat % 4 + 1
            seat += 1
            if pid not in self.alive:
                continue
            self.turns += 1
            conquered = self.turn(pid, discard)
            if len(self.alive) > 1 and conquered:
                if not deck and discard:
                    deck, discard = discard, []
                    self.dice.shuffle(deck)
                if deck:
                    self.hands[pid].append(deck.pop(0))

    def setup(self) -> None:
        ai, owner, armies = self.ai, self.owner, self.armies
        free = list(range(42))
        for k in range(42):
            t = ai.choice(free)
            free.remove(t)
            owner[t], armies[t] = k % 4 + 1, 1
            self.act()
        for k in range(4 * 30 - 42):
            pid = k % 4 + 1
            armies[ai.choice([t for t in range(42) if owner[t] == pid])] += 1
            self.act()

    def trade(self, pid: int, cards: tuple[int, int, int], discard: list[int]) -> int:
        for c in cards:
            self.hands[pid].remove(c)
        discard.extend(cards)
        self.sets_traded += 1
        self.act()
        return SET_VALUES[self.sets_traded - 1]

    def turn(self, pid: int, discard: list[int]) -> bool:
        ai, owner, armies = self.ai, self.owner, self.armies
        mine = [t for t in range(42) if owner[t] == pid]
        held = set(mine)
        pool = max(3, len(mine) // 3) + sum(bonus for members, bonus in CONTINENTS if members <= held)
        bonus_taken = False
        while len(hand := self.hands[pid]) >= 5 or (len(hand) >= 3 and ai.random() < 0.5):
            sets = valid_sets(hand)
            if not sets:
                break
            cards = ai.choice(sets)
            pool += self.trade(pid, cards, discard)
            owned = [c for c in cards if c < 42 and owner[c] == pid]
            if owned and not bonus_taken:
                armies[owned[0]] += 2
                bonus_taken = True
        border = [t for t in mine if not NEIGHBOUR_SETS[t] <= held]
        armies[ai.choice(border or mine)] += pool
        self.act()
        conquered = False
        while len(self.alive) > 1:
            favoured = ai.random() >= 0.05
            options = [(t, n) for t in range(42) if (here := armies[t]) >= 2 and owner[t] == pid
                       for n in NEIGHBOURS[t] if owner[n] != pid and (here > armies[n] or not favoured)]
            if not options:
                break
            conquered |= self.attack(pid, *ai.choice(options), discard)
        if ai.random() < 0.1:
            moves = [(t, n) for t in range(42) if owner[t] == pid and armies[t] >= 2
                     for n in NEIGHBOURS[t] if owner[n] == pid]
            if moves:
                source, target = ai.choice(moves)
                count = ai.randint(1, armies[source] - 1)
                armies[source] -= count
                armies[target] += count
                self.act()
        if ai.random() < 0.5:
            self.act()  # an end of the attack before the end of the turn
        self.act(2)  # the end of the turn and the next turn's start
        return conquered

    def attack(self, pid: int, source: int, target: int, discard: list[int]) -> bool:
        ai, owner, armies = self.ai, self.owner, self.armies
        once = ai.random() < 0.1
        dice = ai.randint(1, min(3, armies[source] - 1)) if once else 3
        self.act(0)
        while True:
            *_, lost, killed = roll_round(self.dice, min(dice, armies[source] - 1), min(2, armies[target]), True)
            self.emit(1)  # the battle
            armies[source] -= lost
            armies[target] -= killed
            if armies[target] == 0:
                break
            if once or armies[source] < 2:
                return False
        loser, owner[target] = owner[target], pid
        most = armies[source] - 1
        moved = most if not once or ai.random() < 0.9 else ai.randint(min(dice, most), most)
        if once:
            self.act()  # the move-in is its own decision after a single roll
        armies[source] -= moved
        armies[target] = moved
        self.emit(2)  # conquered, moved
        if loser in owner:
            return True
        self.alive.discard(loser)
        self.hands[pid] += self.hands[loser]
        self.hands[loser] = []
        if len(self.alive) > 1:
            pool = 0
            while len(self.hands[pid]) >= 6:
                pool += self.trade(pid, ai.choice(valid_sets(self.hands[pid])), discard)
            if pool:
                armies[ai.choice([t for t in range(42) if owner[t] == pid])] += pool
                self.act()
        return True


class Timed:
    def __init__(self, title: str, play: Callable[[int], tuple[int, int]]) -> None:
        self.title, self.play = title, play
        self.games = self.elapsed = self.actions = self.turns = 0

    def play_one(self, seed: int) -> None:
        started = time.perf_counter()
        actions, turns = self.play(seed)
        self.elapsed += time.perf_counter() - started
        self.games += 1
        self.actions += actions
        self.turns += turns

    @property
    def rate(self) -> float:
        return self.games / self.elapsed


def bare(objects: bool) -> Callable[[int], tuple[int, int]]:
    def play(seed: int) -> tuple[int, int]:
        game = BareGame(seed, objects)
        game.play()
        return game.actions, game.turns

    return play


def ours(seed: int) -> tuple[int, int]:
    seats = [Seat(id=i + 1, name=f"AI {i + 1}", ai=True) for i in range(4)]
    state, _ = RULESET.new_game(seats, RiskOptions(), seed)
    policies = {s.id: RULESET.policy("random") for s in seats}
    state, played = play_out(RULESET, state, policies, seed)
    return len(played), state.turn  # type: ignore[attr-defined]


def pyrisk(path: Path) -> Callable[[int], tuple[int, int]]:
    spec = importlib.util.spec_from_file_location("engine_benchmark", Path(__file__).with_name("engine.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    games = module.PyriskGames(path, 1)

    def play(_seed: int) -> tuple[int, int]:
        before = games.turns
        games.play_one()
        return 0, games.turns - before

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--pyrisk", type=Path, help="a checkout of chronitis/pyrisk to measure in the same run")
    args = parser.parse_args()
    runs = [Timed("bare loop", bare(objects=False)), Timed("bare loop + the engine's objects",
                                                        bare(objects=True)), Timed("the engine", ours)]
    if args.pyrisk:
        runs.append(Timed("pyrisk, no cards", pyrisk(args.pyrisk)))
    for k in range(args.games):
        for run in runs:
            run.play_one(k + 1)
    engine = runs[2]
    for run in runs:
        per_game = f"{run.actions / run.games:.0f} actions, " if run.actions else ""
        print(f"{run.title}: {run.rate:.1f} games/s ({per_game}{run.turns / run.games:.0f} turns a game), "
              f"{run.rate / engine.rate:.2f} × the engine"
              + (f", {run.rate / runs[3].rate:.2f} × pyrisk" if args.pyrisk else ""))


if __name__ == "__main__":
    main()
