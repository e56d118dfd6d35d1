"""Running `python -m engine` as a player would, for every game's command-line tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def cli_here(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """What `cli` gives, run in this process: a refusal needs no interpreter of its own, and an uncaught
    exception (the traceback a player would see) fails the test."""
    try:
        code = main(list(args))
    except SystemExit as exit_:  # argparse's refusals
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), code, out, err)
