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


def test_every_fort_event_and_refusal_has_an_entry() -> None:
    try:
        keys_module = importlib.import_module("engine.fort.keys")
    except ImportError:
        pytest.skip("engine.fort.keys is not in this tree")
    names = set()
    for attr in ("EVENT_KINDS", "REFUSAL_KEYS", "EVENTS", "REFUSALS"):
        value = getattr(keys_module, attr, None)
        if value:
            names |= set(value)
    assert names
    for lang in LANGUAGES:
        missing = sorted(k for k in names if k not in catalogue(lang))
        assert missing == [], (lang, missing)


def test_t_fills_in_values_and_shows_unknown_keys() -> None:
    assert t("dice.too_many_dice", "en", limit=200) == "Too many dice (at most 200)."
    assert t("dice.too_many_dice", "xx", limit=3) == t("dice.too_many_dice", "ja", limit=3)
    assert t("no.such.key", "en") == "no.such.key"
    assert t("command.missing_option", "en", command="/fort start") == "/fort start needs {option}:."
