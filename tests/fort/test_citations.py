"""Every rule id of RULINGS.md is cited by the engine function that implements it (its docstring starts
with the id) and by at least one test (name or docstring): ``grep F-TRAP-3`` finds rule, code and test."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: the specification beside the checkout (``shared/spec`` next to it or to a folder holding it: a git
#: worktree sits one level deeper) or inside it
RULINGS = [p / "shared" / "spec" / "RULINGS.md" for p in ROOT.parents] + [
    ROOT / "docs" / "spec" / "RULINGS.md"
]
RULE_IDS = (
    [f"F-MAP-{i}" for i in range(1, 9)]
    + [f"F-FORT-{i}" for i in range(1, 7)]
    + [f"F-UNIT-{i}" for i in range(1, 16)]
    + ["F-DICE-1"]
    + [f"F-TRAP-{i}" for i in range(1, 6)]
    + ["F-BAL-1"]
    + [f"F-CAN-{i}" for i in range(1, 4)]
    + ["F-TURN-1", "F-TURN-2", "F-TURN-3", "F-END-1", "F-END-2"]
)
ID = re.compile(r"F-[A-Z]+-\d+")


def _docstrings(folder: Path) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                out.append((node.name, ast.get_docstring(node) or ""))
    return out


def test_the_rule_list_matches_rulings_md() -> None:
    spec = next((p for p in RULINGS if p.exists()), None)
    if spec is None:
        pytest.skip("RULINGS.md is not next to this checkout")
    listed = re.findall(r"\*\*(F-[A-Z]+-\d+)\*\*", spec.read_text(encoding="utf-8"))
    assert sorted(listed) == sorted(RULE_IDS)


@pytest.mark.parametrize("rule", RULE_IDS)
def test_each_rule_is_cited_by_its_function_and_a_test(rule: str) -> None:
    leading = set()
    for _, doc in _docstrings(ROOT / "engine" / "fort"):
        head = re.match(r"(?:F-[A-Z]+-\d+(?:, | and )?)+", doc)
        if head:
            leading |= set(ID.findall(head.group(0)))
    assert rule in leading, f"no engine function's docstring starts with {rule}"
    tested = set()
    for name, doc in _docstrings(ROOT / "tests" / "fort"):
        if name.startswith("test"):
            tested |= set(ID.findall(doc)) | set(ID.findall(name.upper().replace("_", "-")))
    assert rule in tested, f"no test names or documents {rule}"
