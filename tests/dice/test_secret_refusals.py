"""A secret command's refusal is secret (BCDice: an ``S``-prefixed command that BCDice answers with an
error text is a secret result). The three error texts BCDice prints for SwordWorld2.5 are each checked
secret with ``S`` and public without; every other refusal of an ``S`` command is marked secret for the
front-ends, and ``toride roll --jsonl`` reports ``secret`` only where BCDice prints a text."""

from __future__ import annotations

import io
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot.roll_cli import roll_jsonl
from engine.dice import DiceError, ScriptedDice, bcdice_text, roll

VECTORS = Path(__file__).parent.parent / "data" / "bcdice_SwordWorld2_5.v3.16.1.toml"
CASES: list[dict[str, Any]] = tomllib.loads(VECTORS.read_text("utf-8"))["test"]
#: BCDice's vectors whose output is an error text (no dice rolled)
ERROR_TEXT_CASES = [
    c
    for c in CASES
    if not c.get("rands") and c["output"] and ("してください" in c["output"] or "までです" in c["output"])
]


def _jsonl(*commands: str) -> list[dict[str, Any]]:
    lines = io.StringIO("".join(json.dumps({"command": c, "rands": []}) + "\n" for c in commands))
    out = io.StringIO()
    assert roll_jsonl(lines, out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_vectors_hold_two_of_the_three_error_texts() -> None:
    """The third, ``キーナンバーは100までです``, has no vector; ``test_the_issue_case_and_its_class``
    checks it."""
    kinds = set()
    for case in ERROR_TEXT_CASES:
        with pytest.raises(DiceError) as info:
            roll(case["input"], ScriptedDice([]))
        kinds.add(info.value.key)
    assert kinds == {"dice.infinite_critical", "dice.transcendent_critical_too_small"}
    assert len(ERROR_TEXT_CASES) == 7


@pytest.mark.parametrize("case", ERROR_TEXT_CASES, ids=lambda c: c["input"])
def test_an_error_text_is_secret_exactly_when_the_command_is(case: dict[str, Any]) -> None:
    public, secret = _jsonl(case["input"], "S" + case["input"])
    assert (public["text"], public["secret"]) == (case["output"], False)
    assert (secret["text"], secret["secret"]) == (case["output"], True)
    assert secret["rands_used"] == public["rands_used"] == []


def test_the_issue_case_and_its_class() -> None:
    docs = _jsonl("SK19r8@3sf4", "K19r8@3sf4", "sk101", "ＳＫ２０＠２", "S2D6@2", "s2d6@2+5>=10", "SR20/©2")
    assert [(d["text"], d["secret"]) for d in docs] == [
        ("C値を6以上にしてください", True),
        ("C値を6以上にしてください", False),
        ("キーナンバーは100までです", True),
        ("C値を3以上にしてください", True),
        ("(2D6@2) ＞ クリティカル値が小さすぎます。3以上を指定してください。", True),
        ("(2D6@2+5>=10) ＞ クリティカル値が小さすぎます。3以上を指定してください。", True),
        ("C値を3以上にしてください", True),
    ]


@pytest.mark.parametrize(
    ("command", "key"),
    [
        ("SK19r8@3sf4", "dice.infinite_critical"),
        ("SK101", "dice.keynumber_exceeds"),
        ("S2D6@2", "dice.transcendent_critical_too_small"),
        ("SFT", "dice.table_not_included"),
        ("SK20@", "dice.unknown_command"),
        ("S2D6+", "dice.unknown_command"),
        ("Ｓ" + "1" * 200, "dice.too_long"),
    ],
)
def test_every_refusal_of_a_secret_command_is_secret(command: str, key: str) -> None:
    with pytest.raises(DiceError) as info:
        roll(command, ScriptedDice([]))
    assert (info.value.key, info.value.secret) == (key, True)


@pytest.mark.parametrize(
    ("command", "key"),
    [
        ("K19r8@3sf4", "dice.infinite_critical"),
        ("2D6@2", "dice.transcendent_critical_too_small"),
        ("FT", "dice.table_not_included"),
        ("xyz", "dice.unknown_command"),
        ("1" * 201, "dice.too_long"),
    ],
)
def test_a_public_commands_refusal_is_not(command: str, key: str) -> None:
    with pytest.raises(DiceError) as info:
        roll(command, ScriptedDice([]))
    assert (info.value.key, info.value.secret) == (key, False)


def test_dice_running_out_in_a_secret_roll_is_secret() -> None:
    with pytest.raises(DiceError) as info:
        roll("SK20", ScriptedDice([3]))
    assert (info.value.key, info.value.secret) == ("dice.script_short", True)
    with pytest.raises(DiceError) as info:
        roll("K20", ScriptedDice([3]))
    assert (info.value.key, info.value.secret) == ("dice.script_short", False)


def test_a_secret_command_that_is_no_command_prints_nothing_and_no_secret() -> None:
    """BCDice answers no result for text it cannot read, so there is no secret result either."""
    (doc,) = _jsonl("SK20@")
    assert (doc["text"], doc["secret"], doc["error"]) == (None, False, "dice.unknown_command")
    assert bcdice_text(DiceError("dice.unknown_command", command="SK20@")) is None


def test_the_refusal_is_the_same_each_time_despite_the_cache() -> None:
    for _ in range(3):
        with pytest.raises(DiceError) as info:
            roll("SK19r8@3sf4", ScriptedDice([]))
        assert info.value.secret
        with pytest.raises(DiceError) as info:
            roll("K19r8@3sf4", ScriptedDice([]))
        assert not info.value.secret
