"""Issue 34, item 4, through ``toride console`` (the program's own entry point, in this process): a
battle as the prep page saves it (``export_state`` of the battle its draft makes), with each PC's
player, imported with ``/fort import``; a line's ``@name`` acts as that player. The owners are kept, an
owner runs their PC, another player is refused in words, and a PC nobody had is claimed once."""

from __future__ import annotations

import json
from pathlib import Path

from console_run import console

from engine.dice import ScriptedDice
from engine.fort import FORT, AddPC, StartBattle
from engine.fort.export import export_state
from engine.fort.state import FortState


def prepared() -> FortState:
    """The prep page's battle: started, then each PC added with the owner its form gives (F-MAP-7)."""
    dice = ScriptedDice([])
    state = FORT.apply(None, StartBattle(rounds=3, fort_hp=300, title="北の砦"), dice).state
    for pc in (
        AddPC(name="ガルド", position="top", hp=40, owner="たろう"),  # the console's user たろう
        AddPC(name="リナ", position="top", hp=30, owner="@はなこ"),  # a player by name
        AddPC(name="ボス", position="inside", hp=50, owner="GM"),  # the GM's NPC
        AddPC(name="ノラ", position="outside", hp=25),  # nobody's yet
    ):
        state = FORT.apply(state, pc, dice).state
    return state


def test_a_prepared_battle_with_owners_imported_through_the_console(tmp_path: Path) -> None:
    document = export_state(prepared())
    assert [p["owner"] for p in document["pcs"]] == ["たろう", "@はなこ", "GM", None]
    (tmp_path / "北の砦.json").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    script = "\n".join(
        (
            "/砦 読み込み ファイル:北の砦.json",
            "@はなこ /pc 削除 名前:ガルド",
            "@はなこ /pc hp 名前:ガルド 増減:-5",
            "@たろう /pc hp 名前:ガルド 増減:-5",
            "@たろう /pc 移動 名前:リナ 位置:砦内部",
            "@はなこ /pc 移動 名前:リナ 位置:砦内部",
            "@はなこ /pc hp 名前:ボス 増減:-1",
            "@はなこ /pc 引き継ぐ 名前:ノラ",
            "@たろう /pc 引き継ぐ 名前:ノラ",
            "@たろう /pc 削除 名前:ノラ",
            "/砦 状況",
        )
    )
    done = console(tmp_path / "owners.db", script + "\n", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[:10] == [
        "戦闘を読み込みました(toride.fort/1)。",
        "⚠ ガルドは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。",
        "⚠ ガルドは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。",
        "ガルドのHP: 40→35。",
        "⚠ リナは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。",
        "リナが移動: F0(砦上部) → F0(砦内部)、10m(位置の変更)。",  # F-MAP-6: a change of position is 10 m
        "⚠ ボスはGMのPCです。操作できるのはGMだけです。",
        "はなこがPC ノラを引き継ぎました。",
        "⚠ PC ノラはすでにはなこのPCです。持ち主を変えられるのはGMだけです(/gm 上書き)。",
        "⚠ ノラは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。",
    ]
    # the status the GM reads: each PC with its player
    f0 = (
        "F0: 砦上部: ガルド 35/40(たろう) / 砦内部: リナ 30/30(@はなこ)、ボス 50/50(GM) / 砦外部: "
        "ノラ 25/25(はなこ)"
    )
    assert f0 in lines
    assert "GM: gm" in lines


def test_the_same_battle_in_english(tmp_path: Path) -> None:
    (tmp_path / "fort.json").write_text(json.dumps(export_state(prepared())), encoding="utf-8")
    script = (
        "/fort import file:fort.json\n"
        "@hanako /pc remove name:ガルド\n"
        "@taro /pc claim name:ノラ\n"
        "@hanako /pc claim name:ノラ\n"
        "/gm undo\n"
        "@hanako /pc claim name:ノラ\n"
    )
    done = console(tmp_path / "owners.db", script, "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Battle imported (toride.fort/1).",
        "⚠ ガルド is another player's PC. Only its owner or a GM may run it.",
        "taro claims PC ノラ.",
        "⚠ PC ノラ is already taro's. Only a GM may give it to another player (/gm set).",
        "Took back 1 action.",
        "  #2 taro: /pc claim name:ノラ",
        "hanako claims PC ノラ.",
    ]
