"""The benchmarks still run: each plays a tiny workload and reports no failure. Their figures are not judged here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres import Server

ROOT = Path(__file__).resolve().parents[1]


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, f"benchmarks/{script}", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.parametrize(("script", "args", "expected"), [
    ("engine.py", ["--games", "2"], r"games per second \(one core\): \d"),
    ("wizards_quest.py", ["--games", "1"], r"baseline: [\d.]+ games/s"),
    ("render.py", ["--renders", "2"], r"PNG: median \d+ KB"),
    ("replay.py", ["--turns", "3"], r"Wizard's Quest, 3 turns \(\d+ actions\): [\d.]+ s .*, 3 frames .*, [\d.]+ MB"),
    ("floor.py", ["--games", "1"], r"the engine: [\d.]+ games/s"),
    ("fingerprint.py", ["--seeds", "1"], r"14 games, fingerprint [0-9a-f]{16}"),
    ("compare.py", ["--against", ".", "--rounds", "1", "wizards_quest.py", "--games", "1"],
     r"random: [\d.]+ games/s here, [\d.]+ games/s in \.: [\d.]+×"),
    ("battlemist.py", ["--games", "1", "--players", "3", "--rounds", "2"],
     r"apply median \d+ µs"),
    ("battlemist_render.py", ["--renders", "5"], r"PNG: median \d+ KB"),
    ("delivery.py", ["--games", "1", "--kills", "1", "--faults", "2"],
     r"announcements lost: 0, duplicated: 0 over 1 kills and 2 injected faults"),
])
def test_a_benchmark_runs_and_prints_its_figures(script: str, args: list[str], expected: str) -> None:
    assert re.search(expected, run(script, *args))


def test_the_load_benchmark_drives_the_bot_without_a_failed_command() -> None:
    out = run("load.py", "--games", "6", "--seconds", "2", "--rate", "5", "--warmup", "1", "--store-seconds", "1")
    sent = re.search(r"commands sent: (\d+) \(ok (\d+), refused \d+, errors (\d+)\)", out)
    assert sent is not None, out
    assert int(sent[1]) > 0 and sent[1] == sent[2] and sent[3] == "0", sent[0]
    assert "exceptions logged by the bot: 0" in out
    assert re.search(r"actions \(human \+ AI rows\) committed in the window: [1-9]", out)


def test_the_load_benchmark_runs_postgresql_processes_beside_sqlite(postgres_server: Server | None) -> None:
    if postgres_server is None:
        pytest.skip("no PostgreSQL server on this machine")
    out = run("load.py", "--store", "postgres", "--processes", "2", "--games", "4", "--seconds", "2", "--rate", "4",
              "--warmup", "1", "--store-seconds", "1", "--database-url", postgres_server.url)
    sent = re.findall(r"commands sent: (\d+) \(ok (\d+), refused \d+, errors (\d+)\)", out)
    assert len(sent) == 2 and all(int(n) > 0 and n == ok and errors == "0" for n, ok, errors in sent), sent
    assert out.count("exceptions logged by the bot: 0") == 2
    for row in ("SQLite ×1", "PostgreSQL ×2"):  # the table: callback, whole, errors 0, exceptions 0, commands/s, …
        assert re.search(rf"^{row} +\S+ +\S+ +0 +0 +[\d.]+ +[1-9]\d* ", out, re.MULTILINE), out[-1500:]
