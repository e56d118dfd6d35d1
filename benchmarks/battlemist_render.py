"""Battlemist board benchmark: ms per render (PNG encoding included) and KB, over varied random positions.

Run: python benchmarks/battlemist_render.py [--renders 60] [--seed 1]
The positions are built at random (2 to 6 players, units of several races, contested regions, cities, heroes,
Stars, artifacts, an occupation), busier than most AI games reach. Everything
runs in this one process, so on one core. The one-off pre-drawn picture of each set of races in play is timed
apart.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from copy import copy
from dataclasses import replace
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.rng import RngState
from engine.games.battlemist.data import ARMY, MONSTERS, RESOURCES, load
from engine.games.battlemist.pieces import CityMark, HeroToken, Stars, Stock, Troops
from engine.games.battlemist.state import BMOptions, BMPlayer, BMState, Phase
from renderer import battlemist

PHASES = [p for p in Phase if p not in (Phase.DRAFT, Phase.BUILD, Phase.GAME_OVER)]


def position(rnd: random.Random, players: int) -> BMState:
    """A plausible position of `players` players in a random round and phase."""
    d = load()
    races = [rnd.choice(allowed) for allowed in d.rules.seating[str(players)]]
    while len(set(races)) < players:
        races = [rnd.choice(allowed) for allowed in d.rules.seating[str(players)]]
    seats = [BMPlayer(id=k, name=f"Player {k}", colour=d.rules.race[r].colour, race=r)
             for k, r in enumerate(races, 1)]
    regions = [r for r in d.map.ids if not r.startswith("H-") or r[2:] in races]
    neutral = [r for r in regions if r.startswith("N")]
    rnd.shuffle(neutral)
    troops: dict[str, dict[int, Troops]] = {}
    held: dict[int, list[str]] = {}
    for p in seats:
        mine = [f"H-{p.race}", *neutral[:rnd.randint(2, 6)]]
        del neutral[:len(mine) - 1]
        held[p.id] = mine[1:]
        for region in mine:
            troops[region] = {p.id: army(rnd)}
    for region in rnd.sample([r for r in troops if r.startswith("N")], k=min(3, len(troops) - players)):
        intruder = rnd.choice([p.id for p in seats if p.id not in troops[region]])
        troops[region] = {**troops[region], intruder: army(rnd)}
    cities = {r: CityMark(kind=rnd.choice(("city", "large_city")), since=1)
              for p in seats for r in held[p.id] if rnd.random() < 0.35}
    heroes = [HeroToken(owner=p.id, number=n, region=rnd.choice(regions), life=rnd.randint(1, 5))
              for p in seats for n in range(1, rnd.randint(1, 3) + 1)]
    stars = {p.id: Stars(owned=(owned := rnd.randint(0, 5)), spent=rnd.randint(0, owned)) for p in seats}
    artifacts = {p.id: rnd.sample([a.id for a in d.cards.artifacts], k=rnd.randint(0, 2)) for p in seats}
    order = [p.id for p in seats]
    rnd.shuffle(order)
    occupied = {f"H-{seats[0].race}": seats[1].id} if rnd.random() < 0.3 else {}
    return BMState(rng=RngState(state=1), options=BMOptions(), players=seats, phase=rnd.choice(PHASES),
                   round=rnd.randint(1, 12), regions=regions, troops=troops, cities=cities, heroes=heroes,
                   stars=stars, occupied=occupied, artifacts=artifacts, order=order, active=rnd.choice(order),
                   stock={p.id: Stock(**{r: rnd.randint(0, 30) for r in RESOURCES}) for p in seats},
                   hands={p.id: ["hidden"] * rnd.randint(0, 7) for p in seats})


def next_state(rnd: random.Random, state: BMState) -> BMState:
    """The position after one small change, as an action makes: a stack grows or a hero moves."""
    after = copy(state)
    region = rnd.choice(sorted(state.troops))
    pid = rnd.choice(sorted(state.troops[region]))
    grown = state.troops[region][pid].plus("infantry", 1)
    after.troops = {**state.troops, region: {**state.troops[region], pid: grown}}
    if state.heroes and rnd.random() < 0.3:
        moved = replace(state.heroes[0], region=rnd.choice(state.regions))
        after.heroes = [moved, *state.heroes[1:]]
    return after


def army(rnd: random.Random) -> Troops:
    kinds = {k: rnd.randint(0, 6) for k in ARMY} | {k: int(rnd.random() < 0.1) for k in MONSTERS}
    kinds["infantry"] = max(1, kinds["infantry"])
    return Troops(**kinds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    started = time.perf_counter()
    battlemist.board()
    setup_ms = (time.perf_counter() - started) * 1000
    print(f"Battlemist board renders (one core); one-off start-up (pre-drawn picture, palette): {setup_ms:.0f} ms")
    measure("random positions of 2–6 players, each new", [position(rnd, 2 + k % 5) for k in range(args.renders)])
    games = []
    for k in range(5):
        state = position(rnd, 2 + k)
        for _ in range(max(1, args.renders // 5)):
            games.append(state)
            state = next_state(rnd, state)
    measure("games of 2–6 players, one small change between renders", games)


def measure(title: str, states: list[BMState]) -> None:
    timings, cpu, sizes, shapes = [], [], [], set()
    for s in states:
        started, used = time.perf_counter(), time.process_time()
        png = battlemist.render(s)
        timings.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
        sizes.append(len(png) / 1024)
        shapes.add(Image.open(io.BytesIO(png)).size)
    timings.sort()
    print(f"{len(states)} {title}")
    print(f"  render incl. PNG encoding: median {statistics.median(timings):.1f} ms, "
          f"p90 {timings[int(len(timings) * 0.9)]:.1f} ms, max {timings[-1]:.1f} ms "
          f"(CPU: median {statistics.median(cpu):.1f} ms)")
    print(f"  PNG: median {statistics.median(sizes):.0f} KB, max {max(sizes):.0f} KB")
    print("  size: " + ", ".join(f"{w}×{h}" for w, h in sorted(shapes)))


if __name__ == "__main__":
    main()
