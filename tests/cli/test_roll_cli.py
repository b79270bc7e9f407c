"""``toride roll``: text, JSON and JSON lines."""

from __future__ import annotations

import io
import json

import pytest

from bot.cli import main
from bot.roll_cli import roll_jsonl


def test_roll_prints_bcdice_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--dice", "3,4", "2d+10"]) == 0
    assert capsys.readouterr().out == "(2D6+10) ＞ 7[3,4]+10 ＞ 17\n"


def test_roll_with_comment_and_full_width_dice_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--dice", "３，４", "R40+12/©10", "大砲"]) == 0
    assert capsys.readouterr().out == "KeyNo.40c[10]+12 ＞ 2D:[3,4]=7 ＞ 9+12 ＞ 21  大砲\n"


def test_roll_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--dice", "6,6,2,3", "--json", "K20@10"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc == {
        "text": "KeyNo.20c[10] ＞ 2D:[6,6 2,3]=12,5 ＞ 10,3 ＞ 1回転 ＞ 13",
        "total": 13,
        "critical": True,
        "fumble": False,
        "success": False,
        "failure": False,
        "secret": False,
        "rands_used": [6, 6, 2, 3],
    }


def test_jsonl_one_line_each_with_null_text_for_no_command() -> None:
    lines = io.StringIO(
        '{"command": "K40+12@10", "rands": [3, 4]}\n'
        '{"command": "hello", "rands": []}\n'
        "\n"
        '{"command": "2D6+20>=10", "rands": [1, 1]}\n'
        '{"command": "K20@2", "rands": []}\n'
        "not json\n"
    )
    out = io.StringIO()
    assert roll_jsonl(lines, out) == 1
    docs = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(docs) == 5
    assert docs[0]["text"] == "KeyNo.40c[10]+12 ＞ 2D:[3,4]=7 ＞ 9+12 ＞ 21"
    assert (docs[0]["total"], docs[0]["rands_used"]) == (21, [3, 4])
    assert (docs[1]["text"], docs[1]["error"]) == (None, "dice.unknown_command")
    assert docs[2]["text"] == "(2D6+20>=10) ＞ 2[1,1]+20 ＞ 22 ＞ 自動的失敗"
    assert (docs[2]["fumble"], docs[2]["failure"], docs[2]["total"]) == (True, True, 22)
    assert (docs[3]["text"], docs[3]["total"]) == ("C値を3以上にしてください", None)
    assert docs[4] == {"text": None, "error": "roll.bad_jsonl_line"}


def test_running_out_of_scripted_dice_is_an_error_not_a_trace(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--dice", "3", "--lang", "en", "2D6"]) == 2
    assert capsys.readouterr().err == (
        "Too few scripted dice: 1 is left, and this command needs more. It changed nothing and used none. "
        "Add numbers to --dice.\n"
    )


def test_a_refused_command_says_why_in_japanese_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "K101"]) == 2
    assert capsys.readouterr().err == "威力は100までです。\n"
