"""BCDice's common commands as its SwordWorld2.5 rolls them: 600 random repeats, choices, D66, C() and
nDx comparisons each, rolled by BCDice 3.16.1 (the npm package ``bcdice`` 4.9.0, run by
``tools/bcdice_common.py``), replayed die for die through Toride's roller; and the limits that keep a
hostile command from hanging it.

Text, flags and dice must be BCDice's byte for byte; the total is the number a D66, C() or nDx ends with
(None for a repeat, a choice and a C() that divides by zero). A command BCDice does not take is refused;
one BCDice answers with a refusal text (``繰り返し回数は1以上、100以下としてください``) is refused with
that text as ``bcdice_text``.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections import Counter
from typing import Any

import pytest
from bcdice_replay import FLAGS, BCDiceDice, load

from engine.dice import DiceError, SeededDice, bcdice_text, parse_command, roll
from engine.dice.command import parse_command_uncached
from engine.dice.result import RollKind
from engine.dice.source import ScriptedDice

DATA = load("bcdice_common")
CASES: list[dict[str, Any]] = DATA["cases"]
_LAST = re.compile(r"＞ (-?\d+)\Z")
_OUTCOME = re.compile(r" ＞ (自動的)?(成功|失敗)\Z")


def _total(kind: str, text: str) -> int | None:
    if kind in ("repeat", "choice"):
        return None
    m = _LAST.search(_OUTCOME.sub("", text))
    return int(m.group(1)) if m else None


def test_the_fixture_is_bcdices_own() -> None:
    assert DATA["bcdice"] == "3.16.1" and DATA["game_system"] == "SwordWorld2.5"
    kinds = Counter(c["kind"] for c in CASES)
    assert all(kinds[k] >= 500 for k in ("repeat", "choice", "d66", "calc", "ndx")), kinds
    texts = [c["text"] or "" for c in CASES]
    assert sum(c["text"] is None for c in CASES) >= 50
    assert sum(t.startswith("#1\n") for t in texts) >= 300
    assert sum("以下としてください" in t for t in texts) >= 20
    assert sum("ゼロ除算" in t for t in texts) >= 20
    assert sum(c["secret"] for c in CASES) >= 300


@pytest.mark.parametrize("index", range(len(CASES)), ids=lambda i: f"{i}:{CASES[i]['command']}")
def test_bcdice_common(index: int) -> None:
    case = CASES[index]
    dice = BCDiceDice(case["rands"])
    try:
        result = roll(case["command"], dice)
    except DiceError as error:
        assert bcdice_text(error) == case["text"]
        if case["text"] is not None:
            assert error.secret == case["secret"]
        return
    assert result.text == case["text"]
    assert result.total == _total(case["kind"], case["text"])
    assert {flag: getattr(result, flag) for flag in FLAGS} == {flag: case[flag] for flag in FLAGS}
    assert [list(r) for r in result.rands] == [[sides, value] for value, sides in case["rands"]]
    assert dice.position == len(case["rands"]), "every die BCDice took, no more"


@pytest.mark.parametrize(
    ("command", "kind", "text", "total"),
    [
        ("x2 2d6 命中", RollKind.REPEAT, "#1\n(2D6) ＞ 8[3,5] ＞ 8\n\n#2\n(2D6) ＞ 7[6,1] ＞ 7", None),
        ("rep1 K20+5", RollKind.REPEAT, "#1\nKeyNo.20c[10]+5 ＞ 2D:[3,5]=8 ＞ 6+5 ＞ 11", None),
        ("choice[東,西,南]", RollKind.CHOICE, "(choice[東,西,南]) ＞ 南", None),
        ("choice( 東 , 西 ,,南)", RollKind.CHOICE, "(choice(東,西,南)) ＞ 南", None),
        ("choice 東 西 南", RollKind.CHOICE, "(choice 東 西 南) ＞ 南", None),
        ("choice2[1-6]", RollKind.CHOICE, "(choice2[1,2,3,4,5,6]) ＞ 3, 6", None),
        ("D66", RollKind.D66, "(D66) ＞ 35", 35),
        ("D66D", RollKind.D66, "(D66D) ＞ 53", 53),
        ("C(10+3*2)", RollKind.CALC, "c(10+3*2) ＞ 16", 16),
        ("C10/3U", RollKind.CALC, "c(10/3C) ＞ 4", 4),
        ("C(-7/2)", RollKind.CALC, "c(-7/2) ＞ -4", -4),
        ("C(1/0)", RollKind.CALC, "c(1/0) ＞ ゼロ除算が発生したため計算できませんでした", None),
        ("1D100<=50", RollKind.SUM, "(1D100<=50) ＞ 3 ＞ 成功", 3),
    ],
)
def test_examples(command: str, kind: RollKind, text: str, total: int | None) -> None:
    result = roll(command, ScriptedDice([3, 5, 6, 1, 2, 4]))
    assert (result.kind, result.text, result.total) == (kind, text, total)
    secret = roll("S" + command, ScriptedDice([3, 5, 6, 1, 2, 4]))
    assert secret.secret and secret.text == text


@pytest.mark.parametrize(
    ("command", "key", "text"),
    [
        ("x101 2d6", "dice.repeat_count", "繰り返し回数は1以上、100以下としてください"),
        ("x999999 2d6", "dice.repeat_count", "繰り返し回数は1以上、100以下としてください"),
        ("Sx0 2d6", "dice.repeat_count", "繰り返し回数は1以上、100以下としてください"),
        ("x2 x2 2d6", "dice.repeat_nested", "Repeatコマンドの重複はできません"),
        ("x100 X100 2d6", "dice.repeat_total", None),
        ("x2 foo", "dice.repeat_unknown", "繰り返し対象のコマンドが実行できませんでした (foo)"),
        ("choice[1-200]", "dice.choice_too_many", "項目数は100以下としてください"),
        ("choice[a]", "dice.unknown_command", None),
        ("choice[a,b", "dice.unknown_command", None),
        ("C(1+2", "dice.unknown_command", None),
        ("choice[a,\x00b]", "dice.control_character", None),
        ("x2 2d6\x07", "dice.control_character", None),
        ("C(" + "9*" * 20 + "9)", "dice.number_too_large", None),
        ("choice[" + ",".join(["a"] * 10_000) + "]", "dice.too_long", None),
    ],
)
def test_refusals(command: str, key: str, text: str | None) -> None:
    with pytest.raises(DiceError) as caught:
        parse_command(command)
    assert caught.value.key == key
    assert bcdice_text(caught.value) == text
    assert caught.value.secret == command.startswith("S")


@pytest.mark.parametrize(
    "command",
    [
        "x999999 2d6",
        "x100 X100 2d6",
        "x100 X100 2d6",
        "x100 K40+12@10",
        "choice[" + ",".join(["a"] * 10_000) + "]",
        "choice " + " ".join(["a"] * 900),
        "C" + "(" * 500 + "1" + ")" * 500,
        "C" + "(" * 99 + "1" + ")" * 99,
        "C" + "-" * 190 + "1",
        "x2 \x00\x01\x02",
    ],
)
def test_a_hostile_command_is_refused_or_rolled_within_50_ms(command: str) -> None:
    start = time.perf_counter()
    for _ in range(3):
        with contextlib.suppress(DiceError):
            parse_command_uncached(command).roll(SeededDice(1))
    assert (time.perf_counter() - start) / 3 < 0.05
