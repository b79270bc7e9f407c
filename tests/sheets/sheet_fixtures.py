"""The ゆとシートⅡ fixtures of tests/sheets/fixtures, written from the real JSON output (``?id=…&mode=json``).

Field names and shapes follow yutorize/ytsheet2: the saved fields of
``_core/lib/sw2/edit-chara.pl`` / ``edit-mons.pl`` with the totals of ``calc-chara.pl``
(``hpTotal``, ``weapon{n}AccTotal``, ``defenseTotal{i}Eva`` ...), plus what ``_core/lib/json.pl``
and ``sw2/json-sub.pl`` add (``result``, ``gameVersion``, ``sheetURL``).
Values are strings, as ゆとシート stores them; ``odd.json`` has the exceptions a real sheet can show (numbers
that ゆとシート's update filled in, full-width digits, ⑩, ruby and HTML escapes, missing counts).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.sheets.ytsheet import CharacterRead, read_sheet

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def fixture(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return document


def fixture_text(name: str) -> str:
    return (FIXTURES / f"{name}.json").read_text(encoding="utf-8")


def character(name: str) -> CharacterRead:
    """The fixture ``name`` read as a character sheet."""
    read = read_sheet(fixture(name))
    assert isinstance(read, CharacterRead)
    return read
