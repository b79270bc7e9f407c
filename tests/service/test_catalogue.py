"""The catalogues: ja and en have the same keys and placeholders; every key the code raises has an entry."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, catalogue, placeholders, t

CALLS = {"t", "UserError", "_Refused", "DiceError", "RuleError", "EngineError", "ErrorView"}
ROOT = Path(__file__).resolve().parents[2]
KEY_PREFIXES = ("dice.", "service.", "command.", "console.", "gm.", "render.", "roll.", "summary.", "fort.")
KEY_PREFIXES += ("map.", "chart.", "odds.")


def test_same_keys_and_placeholders() -> None:
    ja, en = catalogue("ja"), catalogue("en")
    assert set(ja) == set(en)
    for key in ja:
        assert placeholders(ja[key]) == placeholders(en[key]), key


def _literal_keys(folder: str) -> set[str]:
    """String literals that are message keys, passed to an error or to ``t``."""
    keys: set[str] = set()
    for path in (ROOT / folder).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name not in CALLS:
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and str(first.value).startswith(KEY_PREFIXES):
                keys.add(first.value)
    return keys


@pytest.mark.parametrize("folder", ["bot", "engine/dice"])
def test_every_key_in_the_code_has_an_entry(folder: str) -> None:
    keys = _literal_keys(folder)
    assert keys, folder
    for lang in LANGUAGES:
        missing = sorted(k for k in keys if k not in catalogue(lang))
        assert missing == [], (lang, missing)


def _engine_keys(folder: str) -> set[str]:
    """Event kinds and refusal keys a rule set can produce: string arguments of ``emit``, ``RuleError``
    and helpers that emit a kind they are given (``_use_trap(ctx, traps, i, "trap.mine", ...)``)."""
    keys: set[str] = set()
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in {"emit", "RuleError"} and node.args:
                args = node.args[:1]
            elif name.startswith("_use_"):
                args = node.args
            else:
                continue
            keys |= {a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return keys


def test_every_fort_event_and_refusal_has_an_entry() -> None:
    names = _engine_keys("engine/fort")
    try:
        keys_module = importlib.import_module("engine.fort.keys")
    except ImportError:
        keys_module = None
    for attr in ("EVENT_KINDS", "REFUSAL_KEYS", "EVENTS", "REFUSALS"):
        names |= set(getattr(keys_module, attr, None) or ())
    assert {"battle.started", "unit.damaged", "trap.mine", "fort.unit_unknown"} <= names
    for lang in LANGUAGES:
        missing = sorted(k for k in names if k not in catalogue(lang))
        assert missing == [], (lang, missing)


def test_t_fills_in_values_and_shows_unknown_keys() -> None:
    assert t("dice.too_many_dice", "en", limit=200) == "Too many dice (at most 200)."
    assert t("dice.too_many_dice", "xx", limit=3) == t("dice.too_many_dice", "ja", limit=3)
    assert t("no.such.key", "en") == "no.such.key"
    assert t("command.duplicate_option", "en") == "The option {option}: is given twice; give it once."


def _fields(description: str) -> set[str]:
    """The field names of an ``engine.fort.keys`` description: ``"pc source(a|b) amount roll?"``."""
    depth, plain = 0, []
    for char in description:
        depth += char == "("
        if depth == 0:
            plain.append(char)
        depth -= char == ")"
    return {word.rstrip("?") for word in "".join(plain).split()}


def test_fort_sentences_use_only_the_fields_the_engine_gives() -> None:
    """A placeholder the engine never fills shows as ``{pc}`` (or ``-``) to the players."""
    from bot.registry import rulesets
    from engine.fort import keys

    tables = {**keys.EVENTS, **keys.REFUSALS}
    for lang in LANGUAGES:
        entries = catalogue(lang)
        wrong = []
        for key, text in entries.items():
            base = key if key in tables else key.rsplit(".", 1)[0]  # variants: fort.damaged.enter
            if base not in tables or base in rulesets().event_values:
                continue
            extra = placeholders(text) - _fields(tables[base])
            if extra:
                wrong.append((key, sorted(extra)))
        assert wrong == [], lang
