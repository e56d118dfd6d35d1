"""Every rule ID in docs/rules/risk.md has a scenario test marked with it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
REFERENCE = ROOT / "docs" / "rules" / "risk.md"
DEFINITION = re.compile(r"\*\*(RISK-[A-Z]+-\d+)\*\*")


def reference_ids() -> set[str]:
    return set(DEFINITION.findall(REFERENCE.read_text(encoding="utf-8")))


def marked_ids() -> set[str]:
    """IDs named in @pytest.mark.rule(...) decorators of test functions anywhere under tests/."""
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.name.startswith("test"):
                continue
            for deco in node.decorator_list:
                if (
                    isinstance(deco, ast.Call)
                    and isinstance(deco.func, ast.Attribute)
                    and deco.func.attr == "rule"
                ):
                    found.update(a.value for a in deco.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return found


def test_reference_defines_every_id_once() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    ids = DEFINITION.findall(text)
    assert len(ids) == len(set(ids)), "an ID is defined twice"
    assert len(ids) == 326


def test_every_rule_id_has_a_test() -> None:
    missing = sorted(reference_ids() - marked_ids(), key=_order)
    assert not missing, f"{len(missing)} rule IDs have no test: {missing}"


def test_marks_name_real_ids() -> None:
    unknown = sorted(marked_ids() - reference_ids())
    assert not unknown, f"tests cite IDs the reference does not define: {unknown}"


def _order(rule_id: str) -> tuple[str, int]:
    area, number = rule_id.rsplit("-", 1)
    return area, int(number)
