"""Every rule ID in each game's rules reference (docs/rules/*.md) has a scenario test marked with it."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest

from engine.games import specs

ROOT = Path(__file__).resolve().parents[2]


class Reference(NamedTuple):
    path: Path
    prefix: str
    spec: Path
    """The game's specification, whose every rule ID the reference must define."""


REFERENCES = {found.slug: Reference(ROOT / "docs" / "rules" / f"{found.slug}.md", found.rule_prefix,
                                    ROOT.parent / "shared" / "rules" / f"{found.slug}.md")
              for found in specs() if found.rule_prefix}


def defined(ref: Reference) -> list[str]:
    pattern = re.compile(rf"\*\*({ref.prefix}-[A-Z]+-\d+)\*\*")
    return pattern.findall(ref.path.read_text(encoding="utf-8"))


@cache
def marked_ids() -> frozenset[str]:
    """IDs named in @pytest.mark.rule(...) decorators of test functions anywhere under tests/."""
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.name.startswith("test"):
                continue
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute) and deco.func.attr == "rule":
                    found.update(a.value for a in deco.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return frozenset(found)


@pytest.mark.parametrize("game", sorted(REFERENCES))
def test_reference_defines_every_id_once(game: str) -> None:
    ref = REFERENCES[game]
    ids = defined(ref)
    assert len(ids) == len(set(ids)), "an ID is defined twice"
    specified = set(re.findall(rf"\b{ref.prefix}-[A-Z]+-\d+\b", ref.spec.read_text(encoding="utf-8")))
    assert specified and not specified - set(ids), f"the reference lacks {sorted(specified - set(ids), key=_order)}"


@pytest.mark.parametrize("game", sorted(REFERENCES))
def test_every_rule_id_has_a_test(game: str) -> None:
    ref = REFERENCES[game]
    missing = sorted(set(defined(ref)) - marked_ids(), key=_order)
    assert not missing, f"{len(missing)} rule IDs have no test: {missing}"


BUILDING = sorted(p.name for p in (ROOT / "engine" / "games").iterdir()
                  if p.is_dir() and not p.name.startswith("_") and not (p / "__init__.py").exists())
"""Games under construction: a package without its `__init__` (so without a `SPEC`) is offered nowhere yet, and
its tests may cite the IDs of its specification."""


def test_marks_name_real_ids() -> None:
    known = {i for ref in REFERENCES.values() for i in defined(ref)}
    for name in BUILDING:
        spec = (ROOT.parent / "shared" / "rules" / f"{name.replace('_', '-')}.md").read_text(encoding="utf-8")
        known |= set(re.findall(r"\b[A-Z]+-[A-Z]+-\d+\b", spec))
    unknown = sorted(marked_ids() - known)
    assert not unknown, f"tests cite IDs the reference does not define: {unknown}"


def _order(rule_id: str) -> tuple[str, int]:
    area, number = rule_id.rsplit("-", 1)
    return area, int(number)
