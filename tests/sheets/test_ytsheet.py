"""Reading ゆとシートⅡ SW2.5 sheets (engine/sheets/ytsheet.py): every value of every fixture, and refusals.

Where a field comes from is said beside each value: ``hpTotal`` is ゆとシート's ``calc-chara.pl`` total,
``weapon{n}AccTotal`` its 命中力 ... (see sheet_fixtures.py).
"""

from __future__ import annotations

import pytest
from sheet_fixtures import character, fixture

from engine.ruleset import RuleError
from engine.sheets.model import (
    Defence,
    MonsterPart,
    MonsterSheet,
    PCSheet,
    Weapon,
    sheet_from_json,
    sheet_to_json,
)
from engine.sheets.ytsheet import mobility_metres, read_sheet


def test_fighter_every_value() -> None:
    read = character("fighter")
    assert read.name == "ガルド"  # characterName
    assert read.hp == 35  # hpTotal
    assert read.move == 15  # mobilityTotal
    assert read.palette is None  # chatPalette is empty: the generated palette is used
    assert read.sheet == PCSheet(
        source="https://yutorize.2-d.jp/ytsheet/sw2.5/?id=yt8a3f2c",  # sheetURL
        level=5,  # level
        mp=12,  # mpTotal
        max_mp=12,
        defences=(
            Defence(evasion=7, defense=7, note="", listed=True),  # defenseTotal1Eva/Def, armour checked
            Defence(evasion=0, defense=0, note="", listed=False),  # column 2: no armour, no evasion class
        ),
        vit_resist=8,  # vitResistTotal
        mnd_resist=7,  # mndResistTotal
        initiative=6,  # initiative
        monster_lore=None,  # monsterLore is ""
        weapons=(
            # weapon1*: Rate, Crit as written, AccTotal / DmgTotal the sheet's totals
            Weapon("バスタードソード", "1H", acc=7, rate=17, crit=10, dmg=8, category="ソード"),
            # weapon2Name is empty: the same weapon wielded 2H; weapon3 is an empty row, skipped
            Weapon("バスタードソード", "2H", acc=7, rate=27, crit=10, dmg=8, category="ソード"),
        ),
        values=(
            ("器用度", 16),
            ("器用度増強", 0),
            ("敏捷度", 15),
            ("敏捷度増強", 0),
            ("筋力", 21),
            ("筋力増強", 1),  # sttAddC 1 + sttEquipC ""
            ("生命力", 20),
            ("生命力増強", 0),
            ("知力", 10),
            ("知力増強", 0),
            ("精神力", 12),
            ("精神力増強", 0),
            ("ファイター", 5),
            ("スカウト", 3),
            ("エンハンサー", 2),  # lvFig, lvSco, lvEnh
        ),
        palette_insert=None,
    )
    assert read.sheet.evasion == 7 and read.sheet.defense == 7


def test_caster_every_value() -> None:
    read = character("caster")
    assert (read.name, read.hp, read.move, read.palette) == ("リリエ", 29, 17, None)
    sheet = read.sheet
    assert (sheet.level, sheet.mp, sheet.max_mp) == (6, 49, 49)
    assert (sheet.vit_resist, sheet.mnd_resist, sheet.initiative, sheet.monster_lore) == (7, 9, None, 6)
    assert sheet.defences == (Defence(0, 3, "", True), Defence(0, 0, "", False))
    assert sheet.weapons == (
        Weapon("メイジスタッフ", "2H", acc=1, rate=11, crit=12, dmg=0, category="スタッフ"),
    )
    assert sheet.values == (
        ("器用度", 13), ("器用度増強", 0), ("敏捷度", 17), ("敏捷度増強", 0), ("筋力", 6), ("筋力増強", 0),
        ("生命力", 11), ("生命力増強", 0), ("知力", 22), ("知力増強", 2), ("精神力", 19), ("精神力増強", 0),
        ("ソーサラー", 6), ("コンジャラー", 3), ("ウィザード", 6), ("プリースト", 2), ("セージ", 2),
        # magicPower{Sor,Con,Wiz,Pri}: the 魔力 of each magic, named as ゆとシート's palette names it
        ("真語魔法", 10), ("操霊魔法", 7), ("深智魔法", 10), ("神聖魔法", 6),
    )  # fmt: skip


def test_custom_palette_sheet() -> None:
    read = character("custom_palette")
    assert (read.name, read.hp, read.move) == ("ミナ", 24, 20)
    assert read.sheet.palette_insert == "end"  # paletteInsertType: the generated palette first
    assert read.sheet.weapons == (Weapon("レイピア", "1H", acc=7, rate=10, crit=9, dmg=5),)
    assert read.sheet.defences == (Defence(8, 2, "", True),)
    # chatPalette: <br> are new lines, &lt; &gt; are < >
    assert read.palette is not None
    assert read.palette.split("\n") == [
        "### ■ミナの攻撃",
        "//命中=7",
        "//追加ダメージ={追加D1}+1",
        "//Ｃ値=９",
        "2d+{命中}+{命中修正} 命中力<レイピア>",
        "k10[{Ｃ値}]+{追加ダメージ} ダメージ",
        "2d+({器用度}+{器用度増強})/6 器用ボーナスつき判定",
        "2d6/2U 半分切り上げ",
        "ｋ１０＋｛追加Ｄ１｝ 全角のダメージ",
        "2d+{会心} 未定義の変数",
    ]


def test_missing_and_odd_fields() -> None:
    read = character("odd")
    assert read.name == "蒼月の<疾風>"  # ruby |蒼月《そうげつ》 dropped, &lt; &gt; unescaped
    assert read.hp == 30  # "３０": full-width digits
    assert read.move == 18  # a number, not a string
    assert read.palette is None  # chatPalette null
    sheet = read.sheet
    assert sheet.source == ""  # no sheetURL
    assert sheet.level is None  # ""
    assert (sheet.mp, sheet.max_mp) == (None, None)  # mpTotal ""
    assert sheet.vit_resist == 5  # "+5"
    assert sheet.mnd_resist is None  # "abc" is no number
    assert sheet.initiative == -1  # "−1" with a minus sign
    # no weaponNum: the rows that exist are read; ⑩ is C値 10; "―" is no 威力
    assert sheet.weapons == (
        Weapon("首切り刀", "", acc=5, rate=20, crit=10, dmg=4),
        Weapon("ナックル", "", acc=5, rate=None, crit=11, dmg=None),
    )
    # defenseNum the number 2; column 2 empty, column 1 has no 防護点
    assert sheet.defences == (Defence(6, None, "ソフトレザー", True),)
    assert sheet.values == (
        ("器用度", 14),
        ("器用度増強", 0),
        ("敏捷度", 18),
        ("敏捷度増強", 0),
        ("グラップラー", 3),
    )


def test_monster_with_two_parts() -> None:
    read = read_sheet(fixture("monster"), source="monster.json")
    assert read == MonsterSheet(
        name="グリフォン",  # characterName is empty: monsterName
        level=8,  # lv
        parts=(
            # status{n}Style, Hp, Mp, Defense, Damage, Accuracy, Evasion
            MonsterPart(
                "クチバシ（頭部）", "頭部", hp=48, mp=20, defense=7, damage="2d+9", accuracy=11, evasion=10
            ),
            # "２ｄ＋８" full width, status2Mp ""
            MonsterPart(
                "爪（胴体）", "胴体", hp=62, mp=None, defense=8, damage="2d+8", accuracy=10, evasion=9
            ),
        ),
        mobility="20(飛行40)",  # mobility, full-width parentheses read as ASCII
        weakness="命中力+1",
        source="monster.json",
    )
    assert mobility_metres("20(飛行40)", flying=False) == 20
    assert mobility_metres("20(飛行40)", flying=True) == 40
    assert mobility_metres("-", flying=False) is None


@pytest.mark.parametrize(
    ("doc", "key"),
    [
        ({"result": "リクエストされたシートは見つかりませんでした。(id: x)"}, "sheet.site_error"),
        ({"result": "OK", "gameVersion": "3.0", "hpTotal": "1"}, "sheet.not_sword_world"),
        ({"result": "OK", "type": "i", "itemName": "剣"}, "sheet.unsupported_type"),
        ({"result": "OK", "playerName": "x"}, "sheet.not_a_character"),
        ({"result": "OK", "type": "m", "monsterName": "スライム", "statusNum": "0"}, "sheet.no_parts"),
        ({"result": "OK", "type": "m"}, "sheet.not_a_monster"),
    ],
)
def test_refusals(doc: dict[str, str], key: str) -> None:
    with pytest.raises(RuleError) as caught:
        read_sheet(doc)
    assert caught.value.key == key


def test_sheet_json_round_trip() -> None:
    for name in ("fighter", "caster", "custom_palette", "odd"):
        sheet = character(name).sheet
        assert sheet_from_json(sheet_to_json(sheet)) == sheet
