"""Delivery benchmark: announcements lost or duplicated when the bot dies and Discord fails (issue #14).

Plays Risk games of one human and two AI seats through the real bot process (`python bot.py`) against the fake
Discord on 127.0.0.1, as the end-to-end tests do (tests/e2e/chaos.py): the human seat is played by the baseline
policy through slash commands and buttons, the bot is killed (SIGKILL) after the human's ends of turn and, once
only AI seats are left, while they play, at a random 0–50 ms, and restarted each time; faults of every kind
(a 429 past the 3 s window, per route or global; a 500 three times; a time-out, past the window or past the bot's
POST_TIMEOUT of 2 s here; each before or after the request took effect) are injected on the interactions' replies,
on their webhooks and on the channel's posts. At the end the audit compares every outbox message with the
channel's ledger:

    announcements lost: L, duplicated: D over K kills and M injected faults

(lost: outbox messages never in their channel; duplicated: extra copies; a fault counts once it fired), with the
time it took. Any other finding of the audit (posts out of order, a game not told to its end, a state that is not
the replay of its log, errors in the bot's log) is printed too, and the exit status is 1.

Run from the repository root (about six minutes with the defaults, mostly spent waiting out the faults):

    python benchmarks/delivery.py [--games 3] [--kills 30] [--faults 100] [--seed 14]
    python benchmarks/delivery.py --nonce-window 0

`--nonce-window 0` makes the fake forget nonces at once. What a kill left unrecorded is still kept single by the
bot's own look-up in the channel, but discord.py's own retries of a 5xx that had posted the message are not: each
"500 three times after it took effect" on a post then shows as three duplicates. Discord's nonce check is what
keeps those single.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.discord.fakeapi import NONCE_WINDOW_S
from tests.e2e.botprocess import errors_logged
from tests.e2e.chaos import Chaos, fault_plan, outbox, running_bot, told

RESIGN_AFTER = 40
DELIVERY_TIMEOUT_S = 60.0
"""How long the outbox may take, after the last game, to deliver what it holds."""
"""The human resigns after this many interactions of a game once its faults are scripted (the AI seats play on)."""


def share(total: int, parts: int, index: int) -> int:
    """The `index`-th of `parts` near-equal shares of `total`."""
    return total // parts + (index < total % parts)


async def benchmark(args: argparse.Namespace, tmp: Path) -> int:
    started = time.monotonic()
    plan = fault_plan(random.Random(args.seed), args.faults)
    async with running_bot(tmp, nonce_window=args.nonce_window) as (fake, bot, (table,)):
        chaos = Chaos(fake, tmp / "bot.sqlite3", bot, table, seed=args.seed)
        played, quota, first = 0, 0, 0
        while played < args.games or chaos.kills < args.kills or len(chaos.fired()) < args.faults:
            game_started = time.monotonic()
            if played < args.games:
                quota += share(args.kills, args.games, played)
                faults = share(args.faults, args.games, played)
                chaos.plan += plan[first:first + faults]  # after what the last game left unscripted
                first += faults
            else:  # the games ended before their kills or faults were done: one more game does the rest
                quota = args.kills
                missing = args.faults - len(chaos.fired()) - len(chaos.plan)
                chaos.plan += fault_plan(random.Random(args.seed + played), max(0, missing))
            await chaos.open_game()
            await chaos.play(kills=quota, resign_after=RESIGN_AFTER)
            played += 1
            final = chaos.read()
            print(f"game {played}: {final.actions} actions, {chaos.interactions} human interactions so far,"
                  f" {chaos.kills} kills and {len(chaos.fired())} faults fired so far,"
                  f" {time.monotonic() - game_started:.1f} s")
        found = await told(chaos.db, fake, DELIVERY_TIMEOUT_S)
        fired = chaos.fired()
        errors = errors_logged(bot.logs())
    elapsed = time.monotonic() - started
    posts = outbox(tmp / "bot.sqlite3")
    print(f"\ngames played: {played}; posts: {len(posts)} ({sum(p.messages for p in posts)} messages);"
          f" human interactions: {chaos.interactions}; {elapsed:.1f} s in all")
    if chaos.downtime:
        print(f"restarts: {len(chaos.downtime)}, {chaos.cut} of the kills while AI seats played; from kill to"
              f" connected again median {statistics.median(chaos.downtime):.2f} s, max {max(chaos.downtime):.2f} s")
    kinds = sorted({str(i) for i, _ in fired})
    print(f"faults fired: {len(fired)} of {len(chaos.scripted)} scripted, {len(kinds)} kinds")
    for problem in found.problems() + errors:
        print(f"  PROBLEM {problem}")
    print(f"announcements lost: {len(found.lost)}, duplicated: {len(found.duplicated)}"
          f" over {chaos.kills} kills and {len(fired)} injected faults")
    return 1 if found.problems() or errors else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games to play at least (default 3)")
    parser.add_argument("--kills", type=int, default=30, help="SIGKILLs of the bot, spread over the games")
    parser.add_argument("--faults", type=int, default=100, help="faults injected, spread over the games")
    parser.add_argument("--seed", type=int, default=14, help="seeds the faults' order and the kills' moments")
    parser.add_argument("--nonce-window", type=float, default=NONCE_WINDOW_S,
                        help="seconds the fake Discord's enforce_nonce remembers a nonce (default %(default)s)")
    args = parser.parse_args()
    if min(args.games, args.kills, args.faults) < 0 or args.games == 0:
        parser.error("--games must be positive, --kills and --faults not negative")
    with tempfile.TemporaryDirectory(prefix="gm-delivery-") as tmp:
        sys.exit(asyncio.run(benchmark(args, Path(tmp))))


if __name__ == "__main__":
    main()
