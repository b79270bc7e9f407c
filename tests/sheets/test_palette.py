"""Chat palettes (engine/palette.py): variables, nesting, BCDice's arithmetic, refusals, full width, and every
line of the fixtures' palettes expanded and rolled with scripted dice, against BCDice's own result text.

The BCDice texts below are BCDice's output format for the expanded command (the same engine/dice is checked
against BCDice's SwordWorld2.5 test vectors in tests/dice): a sum echoes its arithmetic as written and
rounds ``/`` down (``/U`` up, ``/R`` to the nearest); a rating roll shows ``KeyNo.`` and rounds up.
"""

from __future__ import annotations

import pytest
from sheet_fixtures import fixture

from engine.common import fold
from engine.dice import ScriptedDice, roll
from engine.palette import MAX_LINES, choices, expand_line, find_line, parse_palette
from engine.ruleset import RuleError
from engine.sheets.palette_gen import combined_palette, sheet_variables
from engine.sheets.ytsheet import CharacterRead, read_sheet


def expanded(text: str, line: str, values: dict[str, str] | None = None) -> str:
    palette = parse_palette(text)
    folded = {fold(k): v for k, v in (values or {}).items()}
    return expand_line(palette, find_line(palette, line), folded).command


def rolled(command: str, *dice: int) -> str:
    source = ScriptedDice(dice)
    text = roll(command, source).text
    assert source.remaining == 0
    return text


def test_lines_variables_headings_and_labels() -> None:
    palette = parse_palette("### ■見出し\n//命中=7\n\n// メモ\n2d+{命中} 命中力／剣\r\nk20+5\n")
    assert palette.variables == (("命中", "7"),)
    assert [(line.number, line.text, line.label) for line in palette.lines] == [
        (1, "2d+{命中} 命中力／剣", "命中力／剣"),
        (2, "k20+5", "k20+5"),  # no comment: the line is its own label
    ]


def test_a_variable_is_replaced_by_its_text() -> None:
    assert expanded("//命中=7\n2d+{命中} 命中", "命中") == "2d+7"
    # the sheet's values come after the palette's own definitions
    assert expanded("2d+{命中1} 命中", "命中", {"命中1": "9"}) == "2d+9"
    assert expanded("//命中1=5\n2d+{命中1} 命中", "命中", {"命中1": "9"}) == "2d+5"
    # a name defined twice: the later line counts
    assert expanded("//a=1\n//a=2\n2d+{a} x", "x") == "2d+2"


def test_nested_variables_expand_until_none_is_left() -> None:
    text = "//器用={器用度}+{器用増強}\n//器用B=(({器用})/6)\n//命中={ファイター}+{器用B}\n2d+{命中} 命中"
    command = expanded(text, "命中", {"器用度": "16", "器用増強": "2", "ファイター": "5"})
    assert command == "2d+5+((16+2)/6)"
    assert rolled(command, 3, 4) == "(2D6+5+((16+2)/6)) ＞ 7[3,4]+5+((16+2)/6) ＞ 15"


def test_arithmetic_and_division_as_bcdice_does() -> None:
    palette = "//x=13\n2d+{x}/2 下\n2d+{x}/2U 上\n2d+{x}/2R 四捨五入\nk20+{x}/2 威力表\n2d+{x}*2-3 掛け算"
    # a sum: 13/2 rounds down to 6, /U up to 7, /R to the nearest (7)
    assert rolled(expanded(palette, "下"), 3, 4) == "(2D6+13/2) ＞ 7[3,4]+13/2 ＞ 13"
    assert rolled(expanded(palette, "上"), 3, 4) == "(2D6+13/2U) ＞ 7[3,4]+13/2U ＞ 14"
    assert rolled(expanded(palette, "四捨五入"), 3, 4) == "(2D6+13/2R) ＞ 7[3,4]+13/2R ＞ 14"
    # BCDice's rating parser rounds its modifier up: +13/2 is +7
    assert rolled(expanded(palette, "威力表"), 3, 4) == "KeyNo.20c[10]+7 ＞ 2D:[3,4]=7 ＞ 5+7 ＞ 12"
    assert rolled(expanded(palette, "掛け算"), 3, 4) == "(2D6+13*2-3) ＞ 7[3,4]+13*2-3 ＞ 30"


def test_a_missing_variable_is_named() -> None:
    with pytest.raises(RuleError) as caught:
        expanded("//a={b}+1\n2d+{a} 判定", "判定")
    assert caught.value.key == "palette.variable_missing"
    assert caught.value.values == {"name": "b", "line": "判定"}
    # in the comment an unknown name is text and stays as written
    palette = parse_palette("2d+1 {誰か}の判定")
    assert expand_line(palette, palette.lines[0], {}).text == "2d+1 {誰か}の判定"


def test_a_variable_that_refers_to_itself_is_refused() -> None:
    with pytest.raises(RuleError) as caught:
        expanded("//a={b}\n//b={a}+1\n2d+{a} x", "x")
    assert caught.value.key == "palette.variable_cycle"
    assert caught.value.values["names"] == "a → b → a"


def test_full_width_input() -> None:
    text = "／／Ｃ値＝９\n//命中１=7\nｋ１０［｛Ｃ値｝］＋｛命中1｝ 全角"
    command = expanded(text, "全角")
    assert command == "k10[9]+7"  # NFKC: full-width letters, digits, brackets and braces
    assert rolled(command, 6, 6, 1, 2) == "KeyNo.10c[9]+7 ＞ 2D:[6,6 1,2]=12,3 ＞ 7,1+7 ＞ 1回転 ＞ 15"
    assert expanded(text, "１") == "k10[9]+7"  # the line's number, full width


def test_find_line_by_number_label_text_or_part() -> None:
    palette = parse_palette("2d+1 命中力／剣\nk20+3 ダメージ／剣\n2d+2 命中力／弓\nk20+3 ダメージ／剣")
    assert find_line(palette, "1").label == "命中力／剣"
    assert find_line(palette, "命中力／弓").number == 3
    assert find_line(palette, "弓").number == 3  # part of one label only
    assert find_line(palette, "4 ダメージ／剣").number == 4  # as autocomplete offers a label used twice
    assert choices(palette) == ["命中力／剣", "2 ダメージ／剣", "命中力／弓", "4 ダメージ／剣"]
    for selector, key in (("ダメージ／剣", "palette.line_ambiguous"), ("命中", "palette.line_ambiguous"),
                          ("魔法", "palette.line_unknown")):  # fmt: skip
        with pytest.raises(RuleError) as caught:
            find_line(palette, selector)
        assert caught.value.key == key
    with pytest.raises(RuleError) as caught:
        find_line(parse_palette("//a=1\n### 見出しだけ"), "a")
    assert caught.value.key == "palette.empty"


def test_limits() -> None:
    with pytest.raises(RuleError) as caught:
        parse_palette("2d\n" * (MAX_LINES + 1))
    assert caught.value.key == "palette.too_long"
    with pytest.raises(RuleError) as caught:
        expanded("//a={b}{b}{b}{b}{b}{b}{b}{b}{b}{b}\n//b=" + "1" * 300 + "\n2d+{a} x", "x")
    assert caught.value.key == "palette.expanded_too_long"


def _lines(name: str) -> list[tuple[str, str]]:
    read = read_sheet(fixture(name))
    assert isinstance(read, CharacterRead)
    palette = parse_palette(combined_palette(read.sheet, read.palette))
    values = {fold(k): v for k, v in sheet_variables(read.sheet, read.hp, read.hp, read.move).items()}
    return [(line.label, expand_line(palette, line, values).command) for line in palette.lines]


def test_every_line_of_the_fighters_generated_palette_rolls_as_bcdice() -> None:
    lines = _lines("fighter")
    assert lines == [
        ("先制力", "2d+6"),
        ("命中力／バスタードソード1H", "2d+7+0"),
        ("ダメージ／バスタードソード1H", "k17[(10+0)]+8+0$+0#0"),
        ("命中力／バスタードソード2H", "2d+7+0"),
        ("ダメージ／バスタードソード2H", "k27[(10+0)]+8+0$+0#0"),
        ("生命抵抗力", "2d+8+0"),
        ("精神抵抗力", "2d+7+0"),
        ("回避力", "2d+7+0"),
    ]
    bcdice = [
        "(2D6+6) ＞ 7[3,4]+6 ＞ 13",
        "(2D6+7+0) ＞ 7[3,4]+7+0 ＞ 14",
        "KeyNo.17c[10]+8 ＞ 2D:[3,4]=7 ＞ 5+8 ＞ 13",
        "(2D6+7+0) ＞ 7[3,4]+7+0 ＞ 14",
        "KeyNo.27c[10]+8 ＞ 2D:[3,4]=7 ＞ 6+8 ＞ 14",
        "(2D6+8+0) ＞ 7[3,4]+8+0 ＞ 15",
        "(2D6+7+0) ＞ 7[3,4]+7+0 ＞ 14",
        "(2D6+7+0) ＞ 7[3,4]+7+0 ＞ 14",
    ]
    assert [rolled(command, 3, 4) for _, command in lines] == bcdice
    # a critical: 6+4 is 10, C値 10, the weapon's key number again
    assert rolled(lines[2][1], 6, 4, 2, 3) == "KeyNo.17c[10]+8 ＞ 2D:[6,4 2,3]=10,5 ＞ 7,3+8 ＞ 1回転 ＞ 18"


def test_every_line_of_the_casters_generated_palette_rolls_as_bcdice() -> None:
    lines = _lines("caster")
    assert [label for label, _ in lines] == [
        "魔物知識",
        "真語魔法行使",
        *["ダメージ／真語魔法"] * 3,
        *["半減／真語魔法"] * 3,
        "操霊魔法行使",
        "ダメージ／操霊魔法",
        "半減／操霊魔法",
        "回復量",
        "深智魔法行使",
        "神聖魔法行使",
        "回復量",
        "命中力／メイジスタッフ2H",
        "ダメージ／メイジスタッフ2H",
        "生命抵抗力",
        "精神抵抗力",
        "回避力",
    ]
    commands = [command for _, command in lines]
    assert commands[1:8] == [
        "2d+10+0+0",  # {真語魔法}=10 (magicPowerSor), {魔力修正}=0, {行使修正}=0
        "k10[(10)]+10+0+0",
        "k20[(10)]+10+0+0",
        "k30[(10)]+10+0+0",
        "k10[(13)]+10+0h+(+0)",
        "k20[(13)]+10+0h+(+0)",
        "k30[(13)]+10+0h+(+0)",
    ]
    assert [rolled(command, 3, 4) for command in commands] == [
        "(2D6+6) ＞ 7[3,4]+6 ＞ 13",
        "(2D6+10+0+0) ＞ 7[3,4]+10+0+0 ＞ 17",
        "KeyNo.10c[10]+10 ＞ 2D:[3,4]=7 ＞ 3+10 ＞ 13",
        "KeyNo.20c[10]+10 ＞ 2D:[3,4]=7 ＞ 5+10 ＞ 15",
        "KeyNo.30c[10]+10 ＞ 2D:[3,4]=7 ＞ 7+10 ＞ 17",
        "KeyNo.10+10 ＞ 2D:[3,4]=7 ＞ (3+10)/2 ＞ 7",  # halved, rounded up
        "KeyNo.20+10 ＞ 2D:[3,4]=7 ＞ (5+10)/2 ＞ 8",
        "KeyNo.30+10 ＞ 2D:[3,4]=7 ＞ (7+10)/2 ＞ 9",
        "(2D6+7+0+0) ＞ 7[3,4]+7+0+0 ＞ 14",
        "KeyNo.0c[10]+7 ＞ 2D:[3,4]=7 ＞ 2+7 ＞ 9",
        "KeyNo.0+7 ＞ 2D:[3,4]=7 ＞ (2+7)/2 ＞ 5",
        "KeyNo.0+7 ＞ 2D:[3,4]=7 ＞ 2+7 ＞ 9",
        "(2D6+10+0+0) ＞ 7[3,4]+10+0+0 ＞ 17",
        "(2D6+6+0+0) ＞ 7[3,4]+6+0+0 ＞ 13",
        "KeyNo.10+6 ＞ 2D:[3,4]=7 ＞ 3+6 ＞ 9",
        "(2D6+1+0) ＞ 7[3,4]+1+0 ＞ 8",
        "KeyNo.11c[12] ＞ 2D:[3,4]=7 ＞ 3",
        "(2D6+7+0) ＞ 7[3,4]+7+0 ＞ 14",
        "(2D6+9+0) ＞ 7[3,4]+9+0 ＞ 16",
        "(2D6+0+0) ＞ 7[3,4]+0+0 ＞ 7",
    ]


def test_every_line_of_a_custom_palette_rolls_as_bcdice() -> None:
    """ミナ's own palette comes after the generated one (``paletteInsertType`` end); its last line names a
    variable nobody defines."""
    read = read_sheet(fixture("custom_palette"))
    assert isinstance(read, CharacterRead)
    palette = parse_palette(combined_palette(read.sheet, read.palette))
    values = {fold(k): v for k, v in sheet_variables(read.sheet, read.hp, read.hp, read.move).items()}
    own = palette.lines[6:]
    results = [expand_line(palette, line, values) for line in own[:-1]]
    assert [(e.command, e.comment) for e in results] == [
        ("2d+7+0", "命中力<レイピア>"),  # {命中} from the palette itself, {命中修正} from the generated part
        ("k10[9]+5+1", "ダメージ"),  # {追加ダメージ}={追加D1}+1, {Ｃ値}=９ full width
        ("2d+(19+0)/6", "器用ボーナスつき判定"),
        ("2d6/2U", "半分切り上げ"),
        ("k10+5", "全角のダメージ"),
    ]
    assert [rolled(e.command, 3, 4) for e in results] == [
        "(2D6+7+0) ＞ 7[3,4]+7+0 ＞ 14",
        "KeyNo.10c[9]+6 ＞ 2D:[3,4]=7 ＞ 3+6 ＞ 9",
        "(2D6+(19+0)/6) ＞ 7[3,4]+(19+0)/6 ＞ 10",
        "(2D6/2U) ＞ 7[3,4]/2U ＞ 4",
        "KeyNo.10c[10]+5 ＞ 2D:[3,4]=7 ＞ 3+5 ＞ 8",
    ]
    with pytest.raises(RuleError) as caught:
        expand_line(palette, own[-1], values)
    assert (caught.value.key, caught.value.values) == (
        "palette.variable_missing",
        {"name": "会心", "line": "未定義の変数"},
    )
