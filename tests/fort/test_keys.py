"""The catalogue of event kinds and refusal keys (engine/fort/keys.py) matches the engine exactly."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.common import COMMON_REFUSALS
from engine.fort.keys import EVENTS, REFUSALS, fields

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "fort"


def _keys_in_source() -> tuple[set[str], set[str]]:
    emitted: set[str] = set()
    raised: set[str] = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name == "RuleError":
                for arg in node.args[:1]:
                    for sub in ast.walk(arg):
                        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                            raised.add(sub.value)
            elif name in ("emit", "_use_trap") and texts:
                emitted.add(texts[0])
    # engine/common raises these under the rule set's prefix
    raised |= {f"fort.{suffix}" for suffix in COMMON_REFUSALS}
    return emitted, raised


def test_every_event_kind_and_refusal_key_is_catalogued_and_used() -> None:
    emitted, raised = _keys_in_source()
    assert emitted == set(EVENTS)
    assert raised == set(REFUSALS)
    assert all(
        k.split(".")[0]
        in {"battle", "fort", "pc", "unit", "commander", "attack", "trap", "cannon", "ballista"}
        for k in EVENTS
    )
    assert all(k.startswith("fort.") for k in REFUSALS)


def test_field_lists_read_words_outside_comments() -> None:
    assert fields("source(enter|end) amount before? roll?(a ram's strike)") == {
        "source",
        "amount",
        "before",
        "roll",
    }
    assert fields("") == frozenset()
