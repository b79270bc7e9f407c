"""The keys tables match the code, and every rule id of BATTLE.md has its rule function and its tests."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import engine.battle
from engine.battle.keys import EVENTS, REFUSALS
from engine.common import COMMON_REFUSALS

ENGINE = Path(engine.battle.__file__).parent
TESTS = Path(__file__).parent
ROOT = TESTS.parents[2]
#: BATTLE.md where the spec sits beside the checkout (as in CI)
SPEC = [ROOT.parent / "shared" / "spec" / "BATTLE.md", ROOT / "docs" / "spec" / "BATTLE.md"]

#: every rule id of BATTLE.md the engine keeps (B-VIEW-2, the fort's boss fight, is the bot's: it
#: starts a battle from a fort battle's state with this engine's commands)
RULE_IDS = (
    "B-CHAR-1",
    "B-CHAR-2",
    "B-CHAR-3",
    "B-KNOW-1",
    "B-KNOW-2",
    "B-INIT-1",
    "B-INIT-2",
    "B-DMG-1",
    "B-DMG-2",
    "B-DMG-3",
    "B-DMG-4",
    "B-EFF-1",
    "B-EFF-2",
    "B-VIEW-1",
)
NOT_IN_THE_ENGINE = ("B-VIEW-2",)

#: refusals raised by engine/common.py with the rule set's prefix
FROM_COMMON = {f"bt.{suffix}" for suffix in COMMON_REFUSALS}
_KEY = re.compile(r"bt\.[a-z_]+")


def _strings() -> set[str]:
    """Every ``bt.*`` string literal of the engine's code (docstrings aside)."""
    found: set[str] = set()
    for path in ENGINE.glob("*.py"):
        if path.name == "keys.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and id(node) not in docs and _KEY.fullmatch(text):
                found.add(text)
    return found


def test_the_rule_list_matches_battle_md() -> None:
    spec = next((p for p in SPEC if p.exists()), None)
    if spec is None:
        pytest.skip("BATTLE.md is not next to this checkout")
    listed = re.findall(r"\*\*(B-[A-Z]+-\d+)\*\*", spec.read_text(encoding="utf-8"))
    assert sorted(listed) == sorted((*RULE_IDS, *NOT_IN_THE_ENGINE))


def test_every_key_of_the_code_is_listed_and_every_listed_key_is_in_the_code() -> None:
    assert _strings() | FROM_COMMON == set(EVENTS) | set(REFUSALS)
    assert not set(EVENTS) & set(REFUSALS)


def _docstrings() -> list[str]:
    out: list[str] = []
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                doc = ast.get_docstring(node)
                if doc:
                    out.append(doc)
    return out


def test_every_rule_id_has_a_rule_function_whose_one_line_docstring_starts_with_it() -> None:
    docs = _docstrings()
    for rule in RULE_IDS:
        heads = [d for d in docs if re.match(rf"(B-[A-Z]+-\d+, )*{rule}\b", d)]
        assert heads, rule
        assert all("\n" not in d for d in heads), rule


def test_every_rule_id_has_a_test() -> None:
    names = " ".join(
        node.name
        for path in TESTS.glob("test_*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    )
    for rule in RULE_IDS:
        assert "test_" + rule.lower().replace("-", "_") + "_" in names, rule


def test_no_module_of_the_engine_is_over_400_lines() -> None:
    for path in ENGINE.glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 400, path.name
