"""Every message key of the sheet features has a Japanese and an English sentence, with the same
placeholders."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, catalogue, placeholders

ROOT = Path(__file__).resolve().parents[2]
FILES = (
    "engine/palette.py", "engine/sheets", "engine/fort/rules_sheets.py", "bot/sheet_fetch.py",
    "bot/rulesets/fort_sheets.py", "bot/render/sheet_text.py", "bot/discord/sheets.py", "bot/commands.py",
)  # fmt: skip
PREFIXES = ("sheet.", "palette.", "export.", "console.", "fort.sheet", "pc.sheet", "pc.palette")


def _keys() -> set[str]:
    keys: set[str] = set()
    for name in FILES:
        path = ROOT / name
        for source in [path] if path.is_file() else sorted(path.rglob("*.py")):
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                text = node.value if isinstance(node, ast.Constant) else None
                is_key = isinstance(text, str) and text.startswith(PREFIXES) and " " not in text
                if is_key and isinstance(text, str) and text[-1] != ".":
                    keys.add(text)
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sheet_key_has_a_sentence(lang: str) -> None:
    keys = _keys() | {"export.ccfolia_done", "value.reason.sheet_not_a_number", "value.reason.sheet_missing"}
    assert {"palette.variable_missing", "sheet.host_not_allowed", "sheet.redirect_refused"} <= keys
    assert sorted(k for k in keys if k not in catalogue(lang)) == []


def test_both_languages_say_the_same_things() -> None:
    ja, en = catalogue("ja"), catalogue("en")
    for key in (k for k in ja if k.startswith(PREFIXES)):
        assert placeholders(ja[key]) == placeholders(en[key]), key
