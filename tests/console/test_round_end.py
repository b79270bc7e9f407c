"""F-TURN-1 (issue 23): a round ends when its second side's turn ends, whichever side went first; only
then come the round's end line and its summary (with ``first:enemy`` the PC side's turn of round 1
belongs to round 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from console_run import console

SET_UP = "/unit add name:ゴブリン type:normal area:A1 hp:10 fort_damage:5\n/fort next\n/fort next\n"


@pytest.mark.parametrize(
    ("first", "turns"),
    [
        ("enemy", ["第1ラウンド、敵側の手番を終えました。", "第1ラウンド、PC側の手番です。",
                   "第1ラウンド、PC側の手番を終えました。"]),
        ("pc", ["第1ラウンド、PC側の手番を終えました。", "第1ラウンド、敵側の手番です。",
                "第1ラウンド、敵側の手番を終えました。"]),
    ],
)  # fmt: skip
def test_f_turn_1_the_round_ends_after_its_second_sides_turn(
    tmp_path: Path, first: str, turns: list[str]
) -> None:
    done = console(tmp_path / "b.db", f"/fort start rounds:2 first:{first}\n" + SET_UP, "--lang", "ja")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    end = "第1ラウンド終了時: 砦HP 300/300。マップ上の敵ユニット: ゴブリン。大砲の砲弾: 0、0。"
    assert lines.count(end) == 1 and lines.count("━━ 第1ラウンドのまとめ ━━") == 1
    at = lines.index(end)
    # the end line right after the second side's turn ends, the summary after it, then round 2
    assert lines[at - 3 : at] == turns
    assert lines[at + 2] == "━━ 第1ラウンドのまとめ ━━"
    assert lines.index("━━ 第1ラウンドのまとめ ━━") > lines.index(turns[-1])
    second = "敵側" if first == "enemy" else "PC側"
    assert lines[-1] == f"第2ラウンド、{second}の手番です。"
