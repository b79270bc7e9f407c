"""Issue 23, item 3: what ``toride console --dice`` says about its scripted dice is true. A command that
needs more dice than are left is refused saying how many were left, changes nothing in the battle and
takes none of them (the next command rolls them); the end of the session says how many of the script's
dice were never used."""

# ruff: noqa: E501  (the expected replies are kept whole, one per line)
from __future__ import annotations

import json
from pathlib import Path

from console_run import console


def test_the_issues_two_rolls_in_japanese(tmp_path: Path) -> None:
    """The issue's input: ``--dice 3,4,5`` then two ``2d6``: the second needs two dice, one is left."""
    done = console(tmp_path / "b.db", "/ダイス 式:2d6\n/ダイス 式:2d6\n", "--dice", "3,4,5", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "gm: (2D6) ＞ 7[3,4] ＞ 7",
        "⚠ 台本のダイスが足りません。残りは1個で、このコマンドにはそれより多く要ります。何も変えず、ダイスも使っていません。--diceに数を足してください。",
    ]
    assert done.stderr == "台本のダイス3個のうち1個が使われずに残りました。\n"


def test_the_issues_two_rolls_in_english_then_the_last_die_and_none_left(tmp_path: Path) -> None:
    script = "/roll expr:2d6\n/roll expr:2d6\n/roll expr:1d6\n/roll expr:1d6\n"
    done = console(tmp_path / "b.db", script, "--dice", "3,4,5", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "gm: (2D6) ＞ 7[3,4] ＞ 7",
        "⚠ Too few scripted dice: 1 is left, and this command needs more. It changed nothing and used none. Add numbers to --dice.",
        "gm: (1D6) ＞ 5",  # the die the refused roll did not use
        "⚠ No scripted dice are left: every die in --dice (3) is used. This command changed nothing. Add numbers to --dice.",
    ]
    assert done.stderr == ""  # every die was used


def test_none_left_and_an_empty_script_in_japanese(tmp_path: Path) -> None:
    done = console(tmp_path / "b.db", "/ダイス 式:2d6\n/ダイス 式:1d6\n", "--dice", "3,4", "--lang", "ja")
    assert done.stdout.splitlines()[1] == (
        "⚠ 台本のダイスが残っていません(--diceの2個はすべて使用済み)。このコマンドは何も変えていません。--diceに数を足してください。"
    )
    done = console(tmp_path / "c.db", "/ダイス 式:1d6\n", "--dice", "", "--lang", "ja")
    assert done.stdout.splitlines() == [
        "⚠ 台本のダイスがありません(--diceが空です)。このコマンドは何も変えていません。--diceに数を書いてください。"
    ]
    assert done.stderr == ""


def test_a_die_that_does_not_fit_is_named_and_changes_nothing(tmp_path: Path) -> None:
    done = console(tmp_path / "b.db", "/ダイス 式:2d6\n/ダイス 式:1d8\n", "--dice", "3,7", "--lang", "ja")
    assert done.stdout.splitlines() == [
        "⚠ 台本の2番目のダイス(7)は6面ダイスの目になりません。このコマンドは何も変えていません。",
        "gm: (1D8) ＞ 3",  # the refused 2d6 gave its first die back
    ]
    assert done.stderr == "台本のダイス2個のうち1個が使われずに残りました。\n"


SETUP = (
    "/砦 開始 ラウンド数:2\n/pc 追加 名前:アリス 位置:上部\n"
    "/部隊 追加 名前:鬼 タイプ:通常 エリア:A1 hp:30 砦ダメージ:5\n"
    "/部隊 追加 名前:狼 タイプ:通常 エリア:A1 hp:30 砦ダメージ:5\n"
)
#: F-UNIT-4 (radius 5): the d6 for 狼 (1: caught), 2D for 鬼, then 2D for 狼, whose second die is missing
AREA = "/攻撃 範囲 部隊:鬼 ダメージ:2d 半径:5 行動者:アリス\n"


def _export(text: str) -> dict[str, object]:
    start = text.index("\n{\n") + 1
    end = text.index("\n}\n", start) + 2
    document: dict[str, object] = json.loads(text[start:end])
    return document


def test_a_battle_command_that_runs_out_mid_way_changes_nothing(tmp_path: Path) -> None:
    """The area attack rolls three of its five dice' worth (the catch d6, 鬼's 2D, one of 狼's) and runs
    out: refused, no unit hurt, nothing logged; the next command rolls the same dice from the first."""
    script = SETUP + "/砦 書き出し\n" + AREA + "/砦 書き出し\n/ダイス 式:1d6\n/砦 記録\n"
    done = console(tmp_path / "b.db", script, "--dice", "1,3,4,5", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    refusal = "⚠ 台本のダイスが足りません。残りは4個で、このコマンドにはそれより多く要ります。何も変えず、ダイスも使っていません。--diceに数を足してください。"
    assert out.splitlines().count(refusal) == 1
    before = _export(out)
    after = _export(out[out.index(refusal) :])
    assert before == after
    assert [u["hp"] for u in before["units"]] == [30, 30]  # type: ignore[index]
    assert "gm: (1D6) ＞ 1" in out.splitlines()  # the attack's first die, given back
    logged = [line for line in out[out.index("gm: (1D6) ＞ 1") :].splitlines() if line.startswith("#")]
    assert [line.split()[0] for line in logged] == ["#1", "#2", "#3", "#4"]  # no attack logged
    assert not any("攻撃" in line for line in logged)
    assert done.stderr == "台本のダイス4個のうち3個が使われずに残りました。\n"


def test_a_palette_roll_that_runs_out_gives_its_dice_back(tmp_path: Path) -> None:
    """``/pc roll`` (a query that rolls) refused mid-way: its dice go to the next command."""
    script = (
        '/fort start rounds:2\n/pc add name:Alice\n/pc palette name:Alice text:"2d6+2d6 命中"\n'
        "/pc roll name:Alice line:命中\n/roll expr:1d6\n"
    )
    done = console(tmp_path / "b.db", script, "--dice", "1,3,4", "--lang", "en")
    assert done.stdout.splitlines()[4:] == [
        "⚠ Too few scripted dice: 3 are left, and this command needs more. It changed nothing and used none. Add numbers to --dice.",
        "gm: (1D6) ＞ 1",
    ]
    assert done.stderr == "2 of the 3 scripted dice were left unused.\n"
