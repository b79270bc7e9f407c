"""Reading ゆとシートⅡ SW2.5 sheets (engine/sheets/ytsheet.py, ytsheet_pc.py) made by ytsheet2 itself: the
values the fort and the palettes use, the escaping of the real format, and refusals.

Where a value comes from is said beside it: ``hpTotal`` is ytsheet2's ``calc-chara.pl`` total,
``weapon{n}AccTotal`` its 命中力 ... (see sheet_fixtures.py for how the sheets were made).
"""

from __future__ import annotations

import copy

import pytest
from sheet_fixtures import CHARACTERS, character, fixture

from engine.ruleset import RuleError
from engine.sheets.model import (
    CommonClass,
    Defence,
    MonsterPart,
    MonsterSheet,
    Weapon,
    sheet_from_json,
    sheet_to_json,
)
from engine.sheets.ytsheet import mobility_metres, read_sheet


def test_fighter_values() -> None:
    read = character("fighter")
    assert read.name == "ガルド"  # characterName
    assert read.hp == 35  # hpTotal
    assert read.move == 15  # mobilityTotal
    assert read.palette is None  # no chatPalette: the generated palette is used
    sheet = read.sheet
    assert sheet.source == "http://127.0.0.1:8765/ytsheet/sw2.5/index.cgi?id=w49Czd"  # sheetURL
    assert (sheet.level, sheet.mp, sheet.max_mp) == (5, 12, 12)  # level, mpTotal
    assert (sheet.vit_resist, sheet.mnd_resist, sheet.initiative, sheet.monster_lore) == (8, 7, 5, 0)
    # defenseTotal1Eva/Def with armour checked; column 2 has no armour and no evasion class
    assert sheet.defences == (Defence(7, 8, "", True, 1), Defence(0, 0, "", False, 2))
    assert (sheet.evasion, sheet.defense) == (7, 8)
    assert sheet.weapons == (
        # weapon{n}: Rate, Crit as written, AccTotal / DmgTotal the sheet's totals; row 2 has no name: the
        # same sword wielded 2H
        Weapon("バスタードソード", "1H", acc=7, rate=17, crit=10, dmg=9, category="ソード", row=1),
        Weapon("バスタードソード", "2H", acc=7, rate=27, crit=10, dmg=9, category="ソード", row=2),
    )
    assert sheet.values == (
        ("器用度", 16), ("器用度増強", 0), ("敏捷度", 15), ("敏捷度増強", 0), ("筋力", 21), ("筋力増強", 0),
        ("生命力", 20), ("生命力増強", 0), ("知力", 10), ("知力増強", 0), ("精神力", 12), ("精神力増強", 0),
        ("ファイター", 5), ("スカウト", 3), ("エンハンサー", 2),  # lvFig, lvSco, lvEnh
    )  # fmt: skip
    formulas = dict(sheet.formulas)
    # as ytsheet2's generator writes them: masterySword 1 adds to 追加D
    assert formulas["命中1"] == "({ファイター}+({器用}+{器用増強})/6+0)"
    assert formulas["追加D1"] == "({ファイター}+({筋力}+{筋力増強})/6+1+0)"
    assert formulas["回避1"] == "({ファイター}+({敏捷}+{敏捷増強})/6+0)"
    assert formulas["スカウト運動"] == "{スカウト}+{敏捷B}"
    assert formulas["生命抵抗"] == "({冒険者}+{生命B})"
    assert sheet.data.feats == ("[宣]《全力攻撃Ⅰ》",)  # combatFeatsLv3; 武器習熟Ａ／ソード is not declared
    assert sheet.palette_insert is None  # paletteInsertType exchange


def test_caster_values() -> None:
    read = character("caster")
    assert (read.name, read.hp, read.move, read.palette) == ("蒼月", 24, 17, None)  # ruby dropped
    sheet = read.sheet
    assert (sheet.level, sheet.mp, sheet.vit_resist, sheet.mnd_resist, sheet.monster_lore) == (5, 42, 6, 8, 6)
    assert sheet.defences == (Defence(0, 3, "", True, 1), Defence(0, 0, "", False, 2))
    # weapon1Acc and weapon1Dmg absent: ytsheet's //命中1= and //追加D1= are empty
    assert sheet.weapons == (
        Weapon("メイジスタッフ", "2H", acc=0, rate=11, crit=12, dmg=0, category="スタッフ", row=1),
    )
    assert dict(sheet.formulas)["命中1"] == ""
    assert ("真語魔法", 9) in sheet.values and ("神聖魔法", 7) in sheet.values  # magicPowerSor, magicPowerPri
    # magicPowerEnhance 1 (魔力強化Ⅰ) is in ytsheet's formula
    assert dict(sheet.formulas)["真語魔法"] == "({ソーサラー}+({知力}+{知力増強})/6)+1+{魔力修正}"


def test_real_escaping_unescape_first_then_new_lines() -> None:
    """ytsheet stores ``<br>`` and then HTML-escapes: ``&lt;br&gt;`` is a new line, ``&amp;`` ``&lt;``
    ``&quot;`` are the characters the player typed."""
    raw = fixture("fighter_custom")["chatPalette"]
    assert "&lt;br&gt;" in raw and "\n" not in raw
    assert character("fighter_custom").palette == (
        "### ■ミナの攻撃\n//命中=7\n//追加ダメージ={追加D1}+1\n"
        "2d+{命中}+{命中修正} 命中力<バスタードソード>\nk17[10]+{追加ダメージ} ダメージ\n2d6/2U 半分切り上げ"
    )
    read = character("escapes")
    assert read.name == 'ジャック"&<ロ>'
    assert read.sheet.weapons[0].name == '<拳> "A&B"' and read.sheet.weapons[0].note == '<注意> & "メモ"'
    assert read.palette is not None and read.palette.split("\n")[0] == '### ■"ジャック" & <仲間>'
    assert character("escapes_generated").sheet.data.inserts == (("general", '2d6 <挿入> & "x"'),)


def test_inserts_common_classes_and_fairy_rank() -> None:
    sheet = character("ranger_inserts").sheet
    assert sheet.palette_insert == "end"
    # chatPaletteInsert{n} with its Position ("" is first)
    assert sheet.data.inserts == (
        ("", "### ■最初に\n2d6 運試し"),
        ("attack", "//矢の数=12\nC({矢の数}-1) 矢を使う"),
    )
    # commonClass1 猟師(ハンター): the name without its reading, lvCommon1, the palette's checks
    assert sheet.data.common == (CommonClass("猟師", 3, ("器用", "知力")),)
    assert sheet.data.feats == ("[宣][準]《かばうⅠ》",)  # かばう is declared and prepared
    assert sheet.data.fairy_rank == 3 and sheet.data.fairy_earth  # 4 contracts at level 3: rank 3


def test_monsters() -> None:
    read = read_sheet(fixture("monster"), source="monster.json")
    assert read == MonsterSheet(
        name="グリフォン",  # monsterName
        level=8,  # lv
        parts=(
            # status{n}Style, Hp, Mp, Defense, Damage, Accuracy, Evasion
            MonsterPart(
                "クチバシ（頭部）", "頭部", hp=48, mp=20, defense=7, damage="2d+9", accuracy=11, evasion=10
            ),
            MonsterPart(
                "爪（胴体）", "胴体", hp=62, mp=None, defense=8, damage="2d+8", accuracy=10, evasion=9
            ),
        ),
        mobility="20(飛行40)",  # mobility, full-width parentheses read as ASCII
        weakness="命中力+1",
        source="monster.json",
    )
    assert mobility_metres(read.mobility, flying=False) == 20
    assert mobility_metres(read.mobility, flying=True) == 40
    slow = read_sheet(fixture("monster_slow"))
    assert isinstance(slow, MonsterSheet)
    assert (slow.name, slow.level, slow.mobility, slow.weakness) == ("トレント", 6, "5", "炎属性ダメージ+3点")
    assert slow.parts == (MonsterPart("枝(全身)", "全身", 52, 18, 6, "2d+7", 9, 7),)
    assert mobility_metres(slow.mobility, flying=False) == 5  # the fort rounds it (test_sheet_commands)


def test_odd_values_a_real_sheet_can_hold() -> None:
    """What ytsheet's updates and hand edits leave: numbers as numbers, full-width digits, ⑩, −1."""
    doc = copy.deepcopy(fixture("fighter"))
    doc |= {
        "hpTotal": "３５",
        "mobilityTotal": 18,
        "weapon1Crit": "⑩",
        "initiative": "−1",
        "mndResistTotal": "abc",
    }
    read = read_sheet(doc)
    assert not isinstance(read, MonsterSheet)
    assert (read.hp, read.move, read.sheet.weapons[0].crit, read.sheet.initiative) == (35, 18, 10, -1)
    assert read.sheet.mnd_resist is None  # no number: absent
    del doc["weaponNum"]  # no count: the rows that exist are read
    read = read_sheet(doc)
    assert not isinstance(read, MonsterSheet) and len(read.sheet.weapons) == 2


@pytest.mark.parametrize(
    ("field", "value", "key", "values"),
    [
        ("hpTotal", "9" * 5000, "sheet.value_invalid", {"field": "hp", "min": 1, "max": 100_000}),
        ("hpTotal", "-100000", "sheet.value_invalid", {"field": "hp", "value": "-100000"}),
        ("mpTotal", "100001", "sheet.value_invalid", {"field": "mp"}),
        ("mobilityTotal", "1" * 4400, "sheet.value_invalid", {"field": "move"}),
        ("weaponNum", "9" * 5000, None, {}),  # a count: at most MAX_ROWS rows are read
        ("weapon1Name", "剣" * 10_000, "sheet.text_too_long", {"field": "weapon_name", "max": 100}),
        # a <br> in a name would add palette lines
        ("weapon1Name", "剣&lt;br&gt;2d6 注入", "sheet.text_control", {"field": "weapon_name"}),
        ("characterName", "a\u202eb", "sheet.text_control", {"field": "name"}),
        ("chatPalette", "2d6\x1b[31m", "sheet.text_control", {"field": "palette"}),
    ],
)
def test_values_beyond_the_limits_are_refused_by_field(
    field: str, value: str, key: str | None, values: dict[str, object]
) -> None:
    doc = fixture("fighter") | {field: value}
    if key is None:
        read = read_sheet(doc)
        assert not isinstance(read, MonsterSheet) and len(read.sheet.weapons) == 2
        return
    with pytest.raises(RuleError) as caught:
        read_sheet(doc)
    assert caught.value.key == key
    assert values.items() <= caught.value.values.items()


@pytest.mark.parametrize(
    ("doc", "key"),
    [
        ({"result": "リクエストされたシートは見つかりませんでした。(id: x)"}, "sheet.site_error"),
        ({"result": "OK", "gameVersion": "3.0", "hpTotal": "1"}, "sheet.not_sword_world"),
        ({"result": "OK", "type": "i", "itemName": "剣"}, "sheet.unsupported_type"),
        ({"result": "OK", "playerName": "x"}, "sheet.not_a_character"),
        ({"result": "OK", "type": "m", "monsterName": "スライム", "statusNum": "0"}, "sheet.no_parts"),
        ({"result": "OK", "type": "m"}, "sheet.not_a_monster"),
        (fixture("monster") | {"status1Hp": "0"}, "sheet.value_invalid"),
        (fixture("monster") | {"status1Damage": "2d+9&lt;br&gt;x"}, "sheet.text_control"),
        (fixture("monster") | {"status1Damage": "2d+9 と噛みつき"}, "sheet.strike_invalid"),
    ],
)
def test_refusals(doc: dict[str, str], key: str) -> None:
    with pytest.raises(RuleError) as caught:
        read_sheet(doc)
    assert caught.value.key == key


def test_sheet_json_round_trip() -> None:
    for name in CHARACTERS:
        sheet = character(name).sheet
        assert sheet_from_json(sheet_to_json(sheet)) == sheet
