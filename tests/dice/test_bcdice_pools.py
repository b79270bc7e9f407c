"""BCDice's common nBx, nRx and nUx as its SwordWorld2.5 rolls them: 600 random commands of each kind
rolled by BCDice 3.16.1 (the npm package ``bcdice`` 4.9.0, run by ``tools/bcdice_pools.py``), replayed
die for die through Toride's roller; and the limits that keep a hostile command from hanging it.

The text must be BCDice's byte for byte, with the same flags, taking the same dice of the same sides;
the total is the number BCDice's text ends with (成功数, or the 合計 of an upper roll). A command BCDice
does not take must be refused. One normalisation: BCDice echoes a refused reroll command as it was typed
(``3r6 ＞ 条件が間違っています。…``), Toride as it reads it, upper-cased.
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

DATA = load("bcdice_pools")
CASES: list[dict[str, Any]] = DATA["cases"]
_COUNT = re.compile(r"成功数(-?\d+)\Z")
_MAX_SUM = re.compile(r"(-?\d*)/(-?\d+)\(最大/合計\)\Z")


def _kind(command: str) -> str:
    return re.sub(r"[^BRU]", "", command.split()[0].upper().lstrip("S"))[:1]


def _total(text: str) -> int | None:
    if m := _COUNT.search(text):
        return int(m.group(1))
    if m := _MAX_SUM.search(text):
        return int(m.group(2))
    return None


def test_the_fixture_is_bcdices_own() -> None:
    assert DATA["bcdice"] == "3.16.1" and DATA["game_system"] == "SwordWorld2.5"
    kinds = Counter(_kind(c["command"]) for c in CASES)
    assert kinds["B"] >= 500 and kinds["R"] >= 500 and kinds["U"] >= 500
    texts = [c["text"] or "" for c in CASES]
    # the random commands reach BCDice's refusals and its rerolls
    assert sum(c["text"] is None for c in CASES) >= 20
    assert sum("条件が間違っています" in t for t in texts) >= 20
    assert sum("無限ロールの条件がまちがっています" in t for t in texts) >= 20
    assert sum(" + " in t for t in texts if t.startswith("(") and "R" in t.split(")")[0]) >= 100
    assert sum(bool(re.search(r"\d\[\d", t)) for t in texts) >= 100
    assert sum(c["secret"] for c in CASES) >= 100


@pytest.mark.parametrize("index", range(len(CASES)), ids=lambda i: f"{i}:{CASES[i]['command']}")
def test_bcdice_pools(index: int) -> None:
    case = CASES[index]
    dice = BCDiceDice(case["rands"])
    try:
        result = roll(case["command"], dice)
    except DiceError as error:
        expected = case["text"]
        if error.key == "dice.reroll_condition":
            echo, sep, rest = expected.partition(" ＞ ")
            expected = echo.upper() + sep + rest
        assert bcdice_text(error) == expected
        assert error.secret == case["command"].upper().startswith("S")
        return
    assert result.text == case["text"]
    assert result.total == _total(case["text"])
    assert {flag: getattr(result, flag) for flag in FLAGS} == {flag: case[flag] for flag in FLAGS}
    assert [list(r) for r in result.rands] == [[sides, value] for value, sides in case["rands"]]
    assert dice.position == len(case["rands"]), "every die BCDice took, no more"


@pytest.mark.parametrize(
    ("command", "kind", "text", "total"),
    [
        ("3B6>=4", RollKind.BARABARA, "(3B6>=4) ＞ 3,5,6 ＞ 成功数2", 2),
        ("2B6+3B10", RollKind.BARABARA, "(2B6+3B10) ＞ 3,5,6,1,2", None),
        ("(7/2)B6", RollKind.BARABARA, "(3B6) ＞ 3,5,6", None),
        ("0B6", RollKind.BARABARA, "(0B6) ＞ ", None),
        ("3R6>=5", RollKind.REROLL, "(3R6[5]>=5) ＞ 3,5,6 + 1,2 ＞ 成功数2", 2),
        ("3R6[6]", RollKind.REROLL, "(3R6[>=6]) ＞ 3,5,6 + 1 ＞ 成功数0", 0),
        ("3R6>=5@>5", RollKind.REROLL, "(3R6[>5]>=5) ＞ 3,5,6 + 1 ＞ 成功数2", 2),
        ("2R6+1R10[5]>=4", RollKind.REROLL, "(2R6+1R10[5]>=4) ＞ 3,5 + 6 + 1 + 2 ＞ 成功数2", 2),
        ("2U6[6]", RollKind.UPPER, "(2U6[6]) ＞ 3,5 ＞ 5/8(最大/合計)", 8),
        ("3U6[5]+2", RollKind.UPPER, "(3U6[5]+2) ＞ 3,12[5,6,1],2+2 ＞ 14/19(最大/合計)", 19),
        ("2U6>=10@6", RollKind.UPPER, "(2U6[6]>=10) ＞ 3,5 ＞ 成功数0", 0),
        ("0U6[6]", RollKind.UPPER, "(0U6[6]) ＞  ＞ /0(最大/合計)", 0),
    ],
)
def test_examples(command: str, kind: RollKind, text: str, total: int | None) -> None:
    result = roll(command, ScriptedDice([3, 5, 6, 1, 2, 4, 6, 6, 2, 1]))
    assert (result.kind, result.text, result.total) == (kind, text, total)
    secret = roll("S" + command, ScriptedDice([3, 5, 6, 1, 2, 4, 6, 6, 2, 1]))
    assert secret.secret and secret.text == text


@pytest.mark.parametrize(
    ("command", "key", "values"),
    [
        # BCDice rolls nothing for more than 200 dice in a group, and stops at 10,000 dice in all
        ("201B6", "dice.too_many_dice", {"limit": 200}),
        ("999999B6", "dice.too_many_dice", {"limit": 200}),
        ("201R6[6]", "dice.too_many_dice", {"limit": 200}),
        ("10001U6[7]", "dice.too_many_dice", {"limit": 10000}),
        ("999999999U6[6]", "dice.too_many_dice", {"limit": 10000}),
        # BCDice "rolls" these as 0
        ("2B0", "dice.bad_sides", {"sides": 0}),
        ("2R20000[6]", "dice.bad_sides", {"sides": 20000}),
        ("2U0[6]", "dice.bad_sides", {"sides": 0}),
        # BCDice rerolls these 10,000 times
        ("1R1=1", "dice.endless_reroll", {"command": "1R1=1"}),
        ("3R1[=1]>=1", "dice.endless_reroll", {"command": "3R1[=1]>=1"}),
        # BCDice raises (ZeroDivisionError, ArgumentError)
        ("3B6>=1/0", "dice.division_by_zero", {}),
        ("(0-1)U6[6]", "dice.negative_dice", {"count": -1}),
        # BCDice's own refusals, printed as its text
        ("3R6", "dice.reroll_condition", {"command": "3R6"}),
        ("S3R6[<=6]", "dice.reroll_condition", {"command": "S3R6[<=6]"}),
        ("2U6", "dice.upper_threshold", {"expression": "2U6[0]"}),
        ("2U6[1]>=3", "dice.upper_threshold", {"expression": "2U6[1]>=3"}),
        # not BCDice commands
        ("3B6!4", "dice.unknown_command", {"command": "3B6!4"}),
        ("3R6[6]>=5@5", "dice.unknown_command", {"command": "3R6[6]>=5@5"}),
        ("2U6[6]*2", "dice.unknown_command", {"command": "2U6[6]*2"}),
    ],
)
def test_refusals(command: str, key: str, values: dict[str, Any]) -> None:
    with pytest.raises(DiceError) as caught:
        parse_command(command)
    assert (caught.value.key, caught.value.values) == (key, values)
    assert caught.value.secret == command.startswith("S")


def test_bcdice_texts_of_refusals() -> None:
    with pytest.raises(DiceError) as caught:
        parse_command("S3R6")
    assert bcdice_text(caught.value) == (
        "S3R6 ＞ 条件が間違っています。2R6>=5 あるいは 2R6[5] のように振り足し目標値を指定してください。"
    )
    with pytest.raises(DiceError) as caught:
        parse_command("2U6[1]+2")
    assert bcdice_text(caught.value) == "(2U6[1]+2) ＞ 無限ロールの条件がまちがっています"


def test_rolling_stops_at_ten_thousand_dice() -> None:
    # every die rerolls until the cap: refused, as BCDice's TooManyRandsError
    for command in ("200R6[6]", "1U6[6]", "50U100[2]"):
        with pytest.raises(DiceError) as caught:
            roll(command, ScriptedDice([100 if "U100" in command else 6] * 20_000))
        assert caught.value.key == "dice.too_many_dice" and caught.value.values == {"limit": 10000}


@pytest.mark.parametrize(
    "command",
    [
        "999999B6",
        "9" * 190 + "B6",
        "1R1=1",
        "200R6[>1]+200R6[>1]+200R6[>1]",
        "200U10000[2]",
        "(9*9*9*9*9)U6[2]",
    ],
)
def test_a_hostile_command_is_refused_or_rolled_within_50_ms(command: str) -> None:
    start = time.perf_counter()
    for _ in range(5):
        with contextlib.suppress(DiceError):
            parse_command_uncached(command).roll(SeededDice(1))
    assert (time.perf_counter() - start) / 5 < 0.05


@pytest.mark.parametrize("text", ["N-룈뛗Vn\x1bI", "NB6", "3BN", "2UN[6]", "3RN>=5", "N"])
def test_a_letter_n_where_a_number_goes_is_refused_as_no_command(text: str) -> None:
    """Found by the hostile chat test: the tokenizer's number kind is "N", and a typed letter N was
    taken for one (an AssertionError); it is no dice command."""
    with pytest.raises(DiceError) as refused:
        parse_command(text)
    assert refused.value.key == "dice.unknown_command"
