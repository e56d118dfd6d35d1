"""The README as a new user reads it: one commands table that lists every command, and links that lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands_table() -> list[str]:
    """The rows of the one table under "### Commands": a blank line would end it, and markdown would show the rest
    as raw text."""
    lines = README.split("### Commands", 1)[1].splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_the_commands_table_is_one_table_holding_every_command() -> None:
    rows = commands_table()
    listed = {m.group(1) for row in rows[2:] for m in re.finditer(r"`/([a-z-]+)", row)}
    assert {"game", "risk", "wq", "board", "history", "stats"} <= listed
    after = README.split("### Commands", 1)[1].split(rows[-1], 1)[1]
    assert "| `/" not in after.split("###", 1)[0], "a command row outside the table"


def test_every_link_in_the_readme_leads_to_a_file_that_exists() -> None:
    links = re.findall(r"\]\(([^)#]+)\)", README)
    local = [link for link in links if not link.startswith("http")]
    assert {"docs/rules/risk.md", "docs/rules/wizards-quest.md", "docs/risk-position.md",
            "docs/wizards-quest-position.md"} <= set(local)
    assert [link for link in local if not (ROOT / link).exists()] == []
