"""Issue 23: a Japanese table's own words, through ``toride console`` in Japanese: the inputs quoted in the
issue, each reply exact (commands, options and choices in Japanese, the bot's own choice words taken,
near misses suggested, a dice comment with a colon, both of two exclusive options, /help of a command
with only its own options); F-CAN-2's 1ゾロ and 6ゾロ named, and a soldier's load that fits one shell."""

# ruff: noqa: E501  (the expected replies are kept whole, one per line)
from __future__ import annotations

from pathlib import Path

import pytest
from console_run import console

from bot.commands import convert_value
from bot.registry import commands

SCRIPT = '/砦 開始 ラウンド:3\n/砦 開始 ラウンド数:0\n/砦 開始 ラウンド数:2 先攻:敵\n/部隊 追加 名前:ゴブリン タイプ:ゴブリン エリア:A1 hp:10 砦ダメージ:5\n/部隊 追加 名前:兵士隊 タイプ:兵士 エリア:F0 hp:10 砦ダメージ:0\n/部隊 追加 名前:槌 タイプ:ラム エリア:B1 hp:10 砦ダメージ:5 打撃点:2d\n/砦 攻城 効果:固定値 量:10\n/砦 攻城 効果:固定量 量:1\n/砦 状態\n/fort strat\n/pc 追加 名前:アリス 位置:上部\n/罠 設置 種類:バリケード 経路:A1-F0 回数:1\n/攻撃 範囲 部隊:槌 ダメージ:3 半径:1 種類:確定 属性:火 行動者:アリス\n/ロール 式:2d6+5 命中:ゴブリンへ\n/pc hp 名前:アリス 増減:-5 設定値:10\n/ヘルプ 千幻抄 隠密\n'

REPLIES = [
    '⚠ /砦 開始 にラウンドというオプションはありません。ラウンド数: のことですか? 使えるもの: ラウンド数、砦hp、大砲の数、先攻、タイトル',
    '⚠ 「ラウンド数:」は1から99までです(「0」)。',
    '砦防衛戦開始: 全2ラウンド、砦HP 300、大砲2門、先攻は敵側。',
    '第1ラウンド、敵側の手番です。',
    '⚠ 「タイプ:」は通常・破城槌・飛行・兵士のどれかです(「ゴブリン」)。',
    'ユニット 兵士隊(兵士、PC側)をF0(砦上部)に配置: HP 10、砦ダメージ 0、防護点 0、移動 10m。',
    'ユニット 槌(破城槌、敵側)をB1に配置: HP 10、砦ダメージ 5、防護点 0、移動 10m、打撃点 2D。',
    '構造物破壊効果(確定ダメージ): 砦に10ダメージ(HP 300→290)。',
    '構造物破壊効果(確定ダメージ): 砦に1ダメージ(HP 290→289)。',
    '⚠ /砦 に「状態」はありません。/砦 状況 のことですか? 使えるもの: 終了、書き出し、回復、読み込み、記録、戦場図、次へ、防衛予測、修繕、攻城、開始、状況',
    '⚠ /砦 に「strat」はありません。/砦 開始 のことですか? 使えるもの: 終了、書き出し、回復、読み込み、記録、戦場図、次へ、防衛予測、修繕、攻城、開始、状況',
    'PC アリスが参加しました(持ち主 gm、位置 砦上部)。',
    'A1-F0にバリケードを設置しました(残り1回)。',
    'アリスの範囲攻撃(B1、半径1、確定ダメージ・炎属性): 狙いは槌。ユニット: 槌。 〔手番外: 敵側の手番〕',
    '槌に3ダメージ(HP 10→7)。 〔手番外: 敵側の手番〕',
    'gm: (2D6+5) ＞ 7[3,4]+5 ＞ 12  命中:ゴブリンへ',
    '⚠ 増減、設定値は一緒には使えません。どちらか一方を指定してください。',
    '/千幻抄 隠密 名前:<テキスト> ダイス数:<0〜30> [基本値:<-99〜999>]',
    '  隠れます(身体+〈隠密〉、GMと持ち主だけに表示)。',
    '    名前(必須): 対象の名前(戦闘での名前)',
    '    ダイス数(必須): 払うDP(振るダイスの数)',
    '    基本値: 特性値+技能+修正',
    '  例: /千幻抄 隠密 名前:魔理沙 ダイス数:3 基本値:2',
]


def test_the_issues_inputs_in_japanese_each_with_its_exact_reply(tmp_path: Path) -> None:
    done = console(tmp_path / "b.db", SCRIPT, "--dice", "3,4", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == REPLIES


def test_f_can_2_double_ones_and_double_sixes_are_named_and_a_soldier_load_says_what_fitted(tmp_path: Path) -> None:
    """F-CAN-2: a rolled check of 1ゾロ fails (the loader takes K40+12@10), 6ゾロ loads though its total is
    under 15; a soldier's 2 shells into a cannon holding 4: one fits."""
    script = (
        "/fort start rounds:2\n/pc add name:アリス position:top hp:40\n"
        "/unit add name:兵 type:soldier area:F0 hp:10 fort_damage:0\n"
        "/cannon load cannon:1 by:アリス\n/gm set target:cannon.1.shells value:4\n"
        "/cannon load cannon:1 by:兵\n/cannon load cannon:2 bonus:-3 by:アリス\n"
    )
    done = console(tmp_path / "b.db", script, "--dice", "1,1,3,3,6,6", "--lang", "ja")
    assert done.stdout.splitlines()[4:] == [
        "大砲1の装填失敗(筋力判定 2(1ゾロ: 自動的失敗)): 砲弾を落としました。 《(2D6) ＞ 2[1,1] ＞ 2》",
        "アリスに19ダメージ(HP 40→21)。 《KeyNo.40c[10]+12 ＞ 2D:[3,3]=6 ＞ 7+12 ＞ 19》",
        "GMが大砲1の砲弾を0から4に変更しました。",
        "大砲1に装填: 兵(兵士、判定なし)、1発装填(砲弾 4→5)(大砲には5発まで: 2発のうち1発)。",
        "大砲2に装填: 筋力判定 9(6ゾロ: 自動的成功)、1発装填(砲弾 0→1)。 《(2D6-3) ＞ 12[6,6]-3 ＞ 9》",
    ]


#: (command, option, what a table types, the choice): the words the bot prints, short forms included
SYNONYMS = [
    ("unit add", "type", "兵士", "soldier"),
    ("unit add", "type", "兵士(PC側)", "soldier"),
    ("unit add", "type", "破城槌", "ram"),
    ("unit add", "type", "ラム", "ram"),
    ("unit add", "type", "ram", "ram"),
    ("fort siege", "effect", "固定値", "fixed"),
    ("fort siege", "effect", "固定量", "fixed"),
    ("fort start", "first", "敵", "enemy"),
    ("fort start", "first", "敵側", "enemy"),
    ("fort start", "first", "Enemies", "enemy"),
    ("pc add", "position", "上部", "top"),
    ("pc add", "position", "砦上部", "top"),
    ("fort end", "outcome", "成功", "success"),
    ("fort end", "outcome", "防衛成功", "success"),
    ("attack area", "element", "火", "fire"),
    ("attack area", "element", "炎", "fire"),
    ("attack area", "kind", "確定", "fixed"),
    ("attack area", "kind", "確定ダメージ", "fixed"),
    # item 7: the bot says 確定ダメージ (and 物理ダメージ, 魔法ダメージ); the earlier words are still taken
    ("attack area", "kind", "固定値", "fixed"),
    ("attack area", "kind", "固定量", "fixed"),
    ("attack area", "kind", "物理", "physical"),
    ("attack area", "kind", "物理ダメージ", "physical"),
    ("attack area", "kind", "魔法", "magic"),
    ("attack area", "kind", "魔法ダメージ", "magic"),
    ("fort siege", "effect", "確定ダメージ", "fixed"),
    ("fort siege", "effect", "確定", "fixed"),
    ("sg damage", "mercy", "HP1で戦闘不能", "hp1"),
    ("sg damage", "mercy", "HP1で行動不能", "hp1"),
    ("sg start", "opening", "不意打ち", "ambush"),
    ("sg start", "opening", "奇襲", "ambush"),
    ("trap set", "kind", "バリケード", "barricade"),
]


@pytest.mark.parametrize(("path", "option", "word", "choice"), SYNONYMS)
def test_a_choice_takes_every_word_the_bot_prints_for_it(path: str, option: str, word: str, choice: str) -> None:
    spec = commands()[path]
    opt = spec.option(option)
    assert opt is not None
    assert convert_value(spec, opt, word) == choice


@pytest.mark.parametrize(
    ("line", "ja"),
    [
        ("/砦 開始 ラウンド:3", "⚠ /砦 開始 にラウンドというオプションはありません。ラウンド数: のことですか? 使えるもの: ラウンド数、砦hp、大砲の数、先攻、タイトル"),
        ("/砦 状態", "⚠ /砦 に「状態」はありません。/砦 状況 のことですか? 使えるもの: 終了、書き出し、回復、読み込み、記録、戦場図、次へ、防衛予測、修繕、攻城、開始、状況"),
        ("/fort strat", "⚠ /砦 に「strat」はありません。/砦 開始 のことですか? 使えるもの: 終了、書き出し、回復、読み込み、記録、戦場図、次へ、防衛予測、修繕、攻城、開始、状況"),
        ("/砦 開始 ラウンド数:2 先攻:てき", "⚠ 「先攻:」はPC側・敵側のどれかです(「てき」)。"),
        ("/砦 開始 ラウンド数:2 先攻:敵がわ", "⚠ 「先攻:」はPC側・敵側のどれかです(「敵がわ」)。敵側 のことですか?"),
        ("/fort start rounds:2 first:enemey", "⚠ 「先攻:」はPC側・敵側のどれかです(「enemey」)。敵側 のことですか?"),
    ],
)
def test_a_near_miss_in_either_language_gets_a_suggestion(tmp_path: Path, line: str, ja: str) -> None:
    done = console(tmp_path / "b.db", line + "\n", "--lang", "ja")
    assert done.stdout.splitlines() == [ja]


def test_f_fort_3_a_repair_says_what_it_gained_under_the_forts_maximum(tmp_path: Path) -> None:
    script = (
        "/fort start rounds:2\n/pc add name:アリス position:top\n"
        "/gm set target:fort.hp value:292\n/fort repair by:アリス\n"
    )
    done = console(tmp_path / "b.db", script, "--lang", "ja")
    assert done.stdout.splitlines()[-1] == "アリスの緊急修繕: 砦HP +8(上限300)(HP 292→300)。"


def test_a_redo_shows_what_it_redid_as_redone(tmp_path: Path) -> None:
    script = "/fort start rounds:2\n/fort heal amount:12\n/gm undo\n/gm redo\n"
    done = console(tmp_path / "b.db", script, "--lang", "ja")
    assert done.stdout.splitlines()[-2:] == ["1件の操作をやり直しました。", "  #2 gm: /砦 回復 量:12 (やり直し済み)"]


def test_renamed_japanese_commands_and_options_keep_working_in_the_console(tmp_path: Path) -> None:
    """One term for one thing (issue 23): /ロール is /ダイス (ロール is the Discord role), 部隊 is ユニット,
    矢弾 is 太矢, 鼓砲 is 鼓咆; the earlier names are still taken."""
    script = (
        "/ロール 式:2d6\n/ダイス 式:2d6\n/砦 開始 ラウンド数:1\n"
        "/部隊 追加 名前:a タイプ:通常 エリア:A1 hp:5 砦ダメージ:1\n"
        "@bob /部隊 移動 部隊:a 移動先:F0\n@bob /ユニット 移動 ユニット:a 移動先:F0\n"
        "/指揮官 追加 名前:隊長 hp:10 鼓砲:命中+1\n/pc 追加 名前:アリス\n/バリスタ 装填 矢弾:銀の太矢 行動者:アリス\n"
    )
    done = console(tmp_path / "b.db", script, "--dice", "1,2,3,4", "--lang", "ja")
    lines = done.stdout.splitlines()
    assert lines[:2] == ["gm: (2D6) ＞ 3[1,2] ＞ 3", "gm: (2D6) ＞ 7[3,4] ＞ 7"]
    assert lines[5:7] == ["⚠ /ユニット 移動 はGMだけが使えます(この戦闘のGM: gm)。"] * 2
    assert lines[7].startswith("指揮官 隊長がA2に配置されました") and "鼓咆: 命中+1" in lines[7]
    assert not any(line.startswith("⚠") for line in lines[7:])


def test_f_end_1_the_gm_ending_round_1_of_2_charges_every_standing_unit_wherever_it_stands(tmp_path: Path) -> None:
    """F-END-1 (issue 23): `/砦 終了` in round 1 of 2 is not "the last round's end", and a unit standing at
    B1 (not at F0) reads as what it is: the end of the battle's fort damage."""
    script = (
        "/砦 開始 ラウンド数:2\n"
        "/ユニット 追加 名前:オーガ隊 タイプ:通常 エリア:B1 hp:30 砦ダメージ:15\n"
        "/ユニット 追加 名前:ゴブリン タイプ:通常 エリア:A1 hp:10 砦ダメージ:5\n"
        "/砦 終了\n"
    )
    done = console(tmp_path / "b.db", script, "--lang", "ja")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[4:7] == [
        "戦闘の終わり(まだ立っている敵ユニットの砦ダメージ): オーガ隊が砦に15ダメージ(HP 300→285)。",
        "戦闘の終わり(まだ立っている敵ユニットの砦ダメージ): ゴブリンが砦に5ダメージ(HP 285→280)。",
        "戦闘終了(GMの判断): 防衛成功。砦HP 280/300。",
    ]
    assert "    オーガ隊(戦闘の終わりの砦ダメージ): −15" in lines
    assert "    ゴブリン(戦闘の終わりの砦ダメージ): −5" in lines
    assert not any("最終ラウンド" in line for line in lines)
