"""Monster sheets made by ytsheet2 itself (tests/sheets/fixtures/ytsheet2/monsters, written by
tools/ytsheet2_monsters.py through ytsheet2's own monster form) read by engine/sheets/ytsheet.py: each
part's HP, MP, 防護点, 命中力, 打撃点 and 回避力, the core part, 知名度/弱点値, 弱点 (or none), 先制値,
移動速度 and the resistances, exactly as ytsheet2 wrote them.

Where a value comes from is said beside it: ``reputation+`` is ytsheet2's 弱点値 field, ``status{n}Hp``
a row's ＨＰ ... The values are checked against what ytsheet2 itself made of the same sheet too: its
BCDice palette's variables (``//命中1=``) and its unit status (``頭部:HP``).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from sheet_fixtures import FIXTURES

from engine.ruleset import RuleError
from engine.sheets.model import MonsterPart, MonsterSheet
from engine.sheets.ytsheet import mobility_metres, read_sheet

MONSTERS = FIXTURES / "monsters"
NAMES = ("goblin", "boggard", "griffon", "manticore")


def document(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((MONSTERS / f"{name}.json").read_text(encoding="utf-8"))
    return doc


def monster(name: str) -> MonsterSheet:
    read = read_sheet(document(name))
    assert isinstance(read, MonsterSheet)
    return read


def test_every_fixture_is_a_real_ytsheet2_monster() -> None:
    for name in NAMES:
        doc = document(name)
        # what ytsheet2's JSON output adds, and its version (1.26.100 at commit 28d36952)
        assert (doc["result"], doc["type"], doc["gameVersion"], doc["ver"]) == ("OK", "m", "2.5", "1.26.100")
        assert doc["sheetURL"] == f"http://127.0.0.1:8765/ytsheet/sw2.5/index.cgi?id={doc['id']}"
        for suffix in ("palette.bcdice.txt", "palette.bcdice.all.txt"):
            assert (MONSTERS / f"{name}.{suffix}").is_file()


def test_goblin_one_part_with_a_weakness() -> None:
    doc = document("goblin")
    # the form's own field names, as ytsheet2 saved them (all strings)
    assert (doc["reputation"], doc["reputation+"], doc["weakness"]) == ("5", "11", "命中力+1")
    assert (doc["initiative"], doc["mobility"], doc["vitResist"], doc["mndResist"]) == ("11", "12", "4", "3")
    assert (doc["statusNum"], doc["partsNum"]) == ("1", "1")
    assert "parts" not in doc and "coreParts" not in doc  # 武器 names no part: the breakdown is empty
    read = monster("goblin")
    assert (read.name, read.level) == ("ゴブリン", 3)  # monsterName, lv
    assert read.parts == (
        # status1Style, Hp, Mp, Defense, Damage, Accuracy, Evasion: a style without （部位） is its own part
        MonsterPart("武器", "武器", hp=16, mp=12, defense=2, damage="2d+3", accuracy=3, evasion=3),
    )
    assert (read.reputation, read.weakness_value) == (5, 11)  # 知名度／弱点値
    assert (read.weakness, read.stated_weakness) == ("命中力+1", "命中力+1")
    assert read.initiative == 11  # 先制値
    assert (read.mobility, mobility_metres(read.mobility, flying=False)) == ("12", 12)
    assert (read.vit_resist, read.mnd_resist) == (4, 3)  # vitResistFix / mndResistFix are 11 / 10
    assert (doc["vitResistFix"], doc["mndResistFix"]) == ("11", "10")
    assert (read.parts_count, read.parts_text, read.core_part, read.core) == (1, "", "", None)
    assert read.source == doc["sheetURL"]


def test_boggard_one_part_without_a_weakness() -> None:
    doc = document("boggard")
    assert "weakness" not in doc  # an empty field is absent
    assert doc["reputation+"] == "―"  # the form's list offers ― for the 弱点値
    assert "status1Mp" not in doc
    read = monster("boggard")
    assert (read.name, read.level) == ("ボガード", 4)
    assert read.parts == (MonsterPart("武器", "武器", 27, None, 4, "2d+5", 5, 4),)
    assert (read.weakness, read.stated_weakness) == ("", None)
    assert (read.reputation, read.weakness_value) == (10, None)
    assert (read.initiative, read.mobility, read.vit_resist, read.mnd_resist) == (12, "15", 6, 5)
    assert (read.parts_count, read.parts_text, read.core_part, read.core) == (1, "", "", None)


def test_griffon_two_parts_with_the_head_as_core() -> None:
    doc = document("griffon")
    # partsNum / parts as the form's script counts them from the rows; coreParts as typed
    assert (doc["partsNum"], doc["parts"], doc["coreParts"]) == ("2", "頭部／胴体", "頭部")
    # a row added by the form's script carries its mount-only resistances as ―
    assert (doc["status2Vit"], doc["status2Mnd"]) == ("―", "―")
    read = monster("griffon")
    assert (read.name, read.level) == ("グリフォン", 8)
    # style, part, hp, mp, defense, damage, accuracy, evasion
    head = MonsterPart("クチバシ（頭部）", "頭部", 48, 20, 7, "2d+9", 11, 10)
    body = MonsterPart("爪（胴体）", "胴体", 62, None, 8, "2d+8", 10, 9)
    assert read.parts == (head, body)
    assert (read.core_part, read.core) == ("頭部", head)
    assert [read.is_core(p) for p in read.parts] == [True, False]
    assert (read.parts_count, read.parts_text) == (2, "頭部／胴体")
    assert (read.reputation, read.weakness_value, read.stated_weakness) == (14, 19, "命中力+1")
    assert (read.initiative, read.vit_resist, read.mnd_resist) == (14, 10, 9)
    assert read.mobility == "20(飛行40)"  # full-width parentheses read as ASCII
    assert mobility_metres(read.mobility, flying=False) == 20
    assert mobility_metres(read.mobility, flying=True) == 40


def test_manticore_three_parts_with_the_body_as_core() -> None:
    doc = document("manticore")
    assert (doc["statusNum"], doc["partsNum"], doc["parts"], doc["coreParts"]) == (
        "3", "3", "頭部／胴体／尻尾", "胴体",
    )  # fmt: skip
    read = monster("manticore")
    assert (read.name, read.level) == ("マンティコア", 10)
    assert read.parts == (
        # style, part, hp, mp, defense (each its own), damage, accuracy, evasion
        MonsterPart("牙（頭部）", "頭部", 58, 42, 9, "2d+11", 13, 12),
        MonsterPart("爪（胴体）", "胴体", 76, 18, 11, "2d+12", 12, 11),
        MonsterPart("毒針（尻尾）", "尻尾", 44, None, 6, "2d+9", 14, 13),
    )
    assert read.core == read.parts[1] and read.core_part == "胴体"
    assert [read.is_core(p) for p in read.parts] == [False, True, False]
    assert (read.parts_count, read.parts_text) == (3, "頭部／胴体／尻尾")
    assert (read.reputation, read.weakness_value) == (16, 21)
    assert (read.weakness, read.stated_weakness) == ("物理ダメージ+2点", "物理ダメージ+2点")
    assert (read.initiative, read.vit_resist, read.mnd_resist) == (17, 13, 12)
    assert read.mobility == "25(飛行30)"
    assert (mobility_metres(read.mobility, False), mobility_metres(read.mobility, True)) == (25, 30)


_VARIABLE = re.compile(r"^//(.+?)=(.*)$", re.MULTILINE)


@pytest.mark.parametrize("name", NAMES)
def test_the_values_read_are_those_ytsheet2_made_its_palette_and_unit_of(name: str) -> None:
    """ytsheet2's own BCDice palette (every variable) and unit status agree with what is read."""
    read, doc = monster(name), document(name)
    palette = (MONSTERS / f"{name}.palette.bcdice.all.txt").read_text(encoding="utf-8")
    variables = dict(_VARIABLE.findall(palette))
    assert (variables["LV"], variables["生命抵抗"], variables["精神抵抗"]) == (
        str(read.level), str(read.vit_resist), str(read.mnd_resist),
    )  # fmt: skip
    for n, part in enumerate(read.parts, 1):
        assert variables[f"部位{n}"] == part.style
        assert (variables[f"命中{n}"], variables[f"ダメージ{n}"], variables[f"回避{n}"]) == (
            str(part.accuracy), part.damage, str(part.evasion),
        )  # fmt: skip
    status = {k: v for item in doc["unitStatus"] for k, v in item.items()}
    if len(read.parts) == 1:
        part = read.parts[0]
        assert status["HP"] == f"{part.hp}/{part.hp}" and status["防護"] == str(part.defense)
        assert status.get("MP") == (f"{part.mp}/{part.mp}" if part.mp is not None else None)
    else:
        assert doc["unitExceptStatus"] == {"HP": 1, "MP": 1, "防護": 1}
        for part in read.parts:
            assert status[f"{part.part}:HP"] == f"{part.hp}/{part.hp}"
            assert status.get(f"{part.part}:MP") == (f"{part.mp}/{part.mp}" if part.mp is not None else None)
        assert status["メモ"] == "防護:" + "／".join(f"{p.part}{p.defense}" for p in read.parts)


@pytest.mark.parametrize(
    ("changed", "core", "weakness"),
    [
        ({"coreParts": "なし", "weakness": "なし"}, None, None),  # both as ytsheet's lists offer none
        ({"coreParts": "―", "weakness": "－"}, None, None),
        ({"coreParts": "尻尾", "weakness": "炎属性ダメージ+3点"}, 2, "炎属性ダメージ+3点"),
        ({"coreParts": "翼"}, None, "物理ダメージ+2点"),  # no row of that part
    ],
)
def test_core_and_weakness_written_as_none(
    changed: dict[str, str], core: int | None, weakness: str | None
) -> None:
    read = read_sheet(document("manticore") | changed)
    assert isinstance(read, MonsterSheet)
    assert read.core == (None if core is None else read.parts[core])
    assert read.stated_weakness == weakness
    assert read.weakness == changed.get("weakness", "物理ダメージ+2点")  # as written, kept


def test_a_core_of_every_part_of_a_name() -> None:
    """ytsheet's list of core parts offers ``脚（すべて）`` for ``脚×2``: each 脚 row is core."""
    doc = copy.deepcopy(document("manticore"))
    doc |= {"status1Style": "蹴り（脚）", "status2Style": "蹴り（脚）", "parts": "脚×2／尻尾"}
    read = read_sheet(doc | {"coreParts": "脚（すべて）"})
    assert isinstance(read, MonsterSheet)
    assert [read.is_core(p) for p in read.parts] == [True, True, False]
    assert read.core == read.parts[0] and read.parts_text == "脚×2／尻尾"


def test_the_new_values_are_not_compared() -> None:
    """A sheet read equals one written with the fields before ``reputation`` alone (test_ytsheet.py)."""
    read = monster("goblin")
    assert read == MonsterSheet(read.name, read.level, read.parts, read.mobility, read.weakness, read.source)


@pytest.mark.parametrize(
    ("field", "value", "word"),
    [
        ("reputation", "9" * 5000, "monster_lore"),
        ("reputation+", "-1", "monster_lore"),
        ("initiative", "100001", "initiative"),
        ("vitResist", "-100001", "vit_resist"),
        ("partsNum", "9" * 30, "part"),
    ],
)
def test_numbers_beyond_the_limits_are_refused(field: str, value: str, word: str) -> None:
    with pytest.raises(RuleError) as caught:
        read_sheet(document("griffon") | {field: value})
    assert (caught.value.key, caught.value.values["field"]) == ("sheet.value_invalid", word)


def test_texts_that_are_no_numbers_read_as_none() -> None:
    """命中・回避・抵抗に数値以外を入力 (``statusTextInput``) lets a sheet write words there."""
    read = read_sheet(document("griffon") | {"statusTextInput": "1", "vitResist": "なし", "initiative": "―"})
    assert isinstance(read, MonsterSheet)
    assert (read.vit_resist, read.initiative, read.mnd_resist) == (None, None, 9)
    with pytest.raises(RuleError) as caught:
        read_sheet(document("griffon") | {"coreParts": "頭部&lt;br&gt;x"})
    assert caught.value.key == "sheet.text_control"
