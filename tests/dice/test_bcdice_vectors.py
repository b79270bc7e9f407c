"""BCDice's own SwordWorld2.5 test vectors (v3.16.1), run as they are.

Each case feeds its ``rands`` as scripted dice and compares BCDice's output text and flags.
FT, TT and ABT are tables of the rulebooks' prose, which Toride does not include: they must
answer that the table is not included.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.dice import DiceError, ScriptedDice, bcdice_text, roll

VECTORS = Path(__file__).parent.parent / "data" / "bcdice_SwordWorld2_5.v3.16.1.toml"
CASES: list[dict[str, Any]] = tomllib.loads(VECTORS.read_text("utf-8"))["test"]
FLAGS = ("critical", "fumble", "success", "failure", "secret")
PROSE_TABLES = {"FT", "TT", "ABT"}


def _is_prose_table(case: dict[str, Any]) -> bool:
    return case["input"].split()[0].upper() in PROSE_TABLES


def _id(case: dict[str, Any]) -> str:
    return case["input"]


ROLL_CASES = [c for c in CASES if not _is_prose_table(c)]
TABLE_CASES = [c for c in CASES if _is_prose_table(c)]


def test_the_vector_file_is_complete() -> None:
    assert len(CASES) == 107
    assert len(ROLL_CASES) == 91
    assert all(c["game_system"] == "SwordWorld2.5" for c in CASES)


@pytest.mark.parametrize("case", ROLL_CASES, ids=_id)
def test_bcdice_vector(case: dict[str, Any]) -> None:
    dice = ScriptedDice(r["value"] for r in case.get("rands", []))
    assert all(r["sides"] == 6 for r in case.get("rands", []))
    expected_flags = {flag: case.get(flag, False) for flag in FLAGS}
    try:
        result = roll(case["input"], dice)
    except DiceError as error:
        # BCDice prints some refusals as the result text, and nothing for text it does not know.
        text = bcdice_text(error)
        if text is None:
            assert error.key == "dice.unknown_command"
            text = ""
        assert text == case["output"]
        assert not any(expected_flags.values())
        return
    assert result.text == case["output"]
    assert {flag: getattr(result, flag) for flag in FLAGS} == expected_flags
    assert dice.remaining == 0, "every scripted die is used, no more"


@pytest.mark.parametrize("case", TABLE_CASES, ids=_id)
def test_prose_tables_are_not_included(case: dict[str, Any]) -> None:
    with pytest.raises(DiceError) as info:
        roll(case["input"], ScriptedDice(r["value"] for r in case["rands"]))
    assert info.value.key == "dice.table_not_included"
    assert info.value.values == {"table": case["input"].upper()}
