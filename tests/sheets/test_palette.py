"""Chat palettes (engine/palette.py): variables, nesting, BCDice's arithmetic, refusals, full width; the
palette ytsheet2 makes for a sheet, line for line as ytsheet2 itself served it (engine/sheets/palette_gen.py);
and the lines of real sheets' palettes, the players' own among them, expanded and rolled with scripted dice,
against BCDice's own result text.

The BCDice texts below are BCDice's output format for the expanded command (the same engine/dice is checked
against BCDice's SwordWorld2.5 test vectors in tests/dice): a sum echoes its arithmetic as written and
rounds ``/`` down (``/U`` up, ``/R`` to the nearest); a rating roll shows ``KeyNo.`` and rounds up.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sheet_fixtures import CHARACTERS, FIXTURES, GENERATED, character, fixture_text

from engine.common import fold
from engine.dice import ScriptedDice, roll
from engine.palette import MAX_LINES, choices, expand_line, find_line, parse_palette
from engine.ruleset import RuleError
from engine.sheets.palette_gen import combined_palette, sheet_variables, ytsheet_palette


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


#: the sheets ytsheet2 made for ../shared/reference/ytsheet2 (copied into tests/sheets/fixtures/ytsheet2)
SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "reference" / "ytsheet2"


@pytest.mark.parametrize("name", GENERATED)
def test_the_generated_palette_is_ytsheets_line_for_line(name: str) -> None:
    """A sheet without a palette of its own: the palette is the one ytsheet2 serves for BCDice
    (``mode=palette&tool=bcdice``), every line in its order, and with ``propertiesall=1`` every definition."""
    read = character(name)
    assert read.palette is None
    served = fixture_text(name, "palette.bcdice.txt")
    assert ytsheet_palette(read.sheet, None, read.hp).split("\n") == served.split("\n")
    every = fixture_text(name, "palette.bcdice.all.txt")
    assert ytsheet_palette(read.sheet, None, read.hp, all_properties=True).split("\n") == every.split("\n")


@pytest.mark.parametrize("name", [n for n in CHARACTERS if n not in GENERATED])
def test_a_sheets_own_palette_is_placed_as_ytsheet_places_it(name: str) -> None:
    """``paletteInsertType`` begin (ミナ), end (リオ, with inserts) and exchange (ジャック): the same text as
    ytsheet2 serves, line for line."""
    read = character(name)
    assert read.palette is not None
    served = fixture_text(name, "palette.bcdice.txt")
    assert ytsheet_palette(read.sheet, read.palette, read.hp).split("\n") == served.split("\n")
    every = fixture_text(name, "palette.bcdice.all.txt")
    assert ytsheet_palette(read.sheet, read.palette, read.hp, all_properties=True).split("\n") == every.split(
        "\n"
    )


def test_the_shared_sheets_are_the_fixtures() -> None:
    """The copies in tests/sheets/fixtures/ytsheet2 are the files of ../shared/reference/ytsheet2."""
    if not SHARED.is_dir():
        pytest.skip("../shared/reference/ytsheet2 is not here")
    for path in SHARED.iterdir():
        if path.suffix in (".json", ".txt"):
            assert (FIXTURES / path.name).read_bytes() == path.read_bytes(), path.name


def _rolls(name: str) -> list[tuple[str, str, str]]:
    """Each line of the sheet's palette: its label, its command expanded, BCDice's text for 3 and 4."""
    read = character(name)
    palette = parse_palette(combined_palette(read.sheet, read.palette, read.hp))
    values = {fold(k): v for k, v in sheet_variables(read.sheet, read.hp, read.hp, read.move).items()}
    out = []
    for line in palette.lines:
        command = expand_line(palette, line, values).command
        out.append((line.label, command, rolled(command, 3, 4) if line.label[:1] != "[" else ""))
    return out


def test_every_line_of_the_fighters_palette_rolls_as_bcdice() -> None:
    """ガルド: ytsheet's formulas, filled in from its own definitions, roll as BCDice rolls them."""
    assert _rolls("fighter") == [
        ("冒険者＋器用", "2d+5+((16+0)/6)", "(2D6+5+((16+0)/6)) ＞ 7[3,4]+5+((16+0)/6) ＞ 14"),
        ("冒険者＋敏捷", "2d+5+((15+0)/6)", "(2D6+5+((15+0)/6)) ＞ 7[3,4]+5+((15+0)/6) ＞ 14"),
        ("冒険者＋筋力", "2d+5+((21+0)/6)", "(2D6+5+((21+0)/6)) ＞ 7[3,4]+5+((21+0)/6) ＞ 15"),
        ("冒険者＋知力", "2d+5+((10+0)/6)", "(2D6+5+((10+0)/6)) ＞ 7[3,4]+5+((10+0)/6) ＞ 13"),
        ("スカウト技巧", "2d+3+((16+0)/6)", "(2D6+3+((16+0)/6)) ＞ 7[3,4]+3+((16+0)/6) ＞ 12"),
        ("スカウト運動", "2d+3+((15+0)/6)", "(2D6+3+((15+0)/6)) ＞ 7[3,4]+3+((15+0)/6) ＞ 12"),
        ("スカウト観察", "2d+3+((10+0)/6)", "(2D6+3+((10+0)/6)) ＞ 7[3,4]+3+((10+0)/6) ＞ 11"),
        ("[宣]《全力攻撃Ⅰ》", "[宣]《全力攻撃I》", ""),  # a declaration, not a roll
        ("命中力／バスタードソード1H", "2d+(5+(16+0)/6+0)+0",
         "(2D6+(5+(16+0)/6+0)+0) ＞ 7[3,4]+(5+(16+0)/6+0)+0 ＞ 14"),
        ("ダメージ／バスタードソード1H", "k17[(10+0)]+(5+(21+0)/6+1+0)+0$+0#0",
         "KeyNo.17c[10]+10 ＞ 2D:[3,4]=7 ＞ 5+10 ＞ 15"),
        ("命中力／バスタードソード2H", "2d+(5+(16+0)/6+0)+0",
         "(2D6+(5+(16+0)/6+0)+0) ＞ 7[3,4]+(5+(16+0)/6+0)+0 ＞ 14"),
        ("ダメージ／バスタードソード2H", "k27[(10+0)]+(5+(21+0)/6+1+0)+0$+0#0",
         "KeyNo.27c[10]+10 ＞ 2D:[3,4]=7 ＞ 6+10 ＞ 16"),
        ("生命抵抗力", "2d+(5+((20+0)/6))+0", "(2D6+(5+((20+0)/6))+0) ＞ 7[3,4]+(5+((20+0)/6))+0 ＞ 15"),
        ("精神抵抗力", "2d+(5+((12+0)/6))+0", "(2D6+(5+((12+0)/6))+0) ＞ 7[3,4]+(5+((12+0)/6))+0 ＞ 14"),
        ("回避力", "2d+(5+(15+0)/6+0)+0", "(2D6+(5+(15+0)/6+0)+0) ＞ 7[3,4]+(5+(15+0)/6+0)+0 ＞ 14"),
    ]  # fmt: skip
    # a critical: 6+4 is 10, C値 10, the weapon's key number again
    assert rolled("k17[(10+0)]+(5+(21+0)/6+1+0)+0$+0#0", 6, 4, 2, 3) == (
        "KeyNo.17c[10]+10 ＞ 2D:[6,4 2,3]=10,5 ＞ 7,3+10 ＞ 1回転 ＞ 20"
    )


def test_the_casters_magic_and_a_weapon_without_a_class() -> None:
    """蒼月: 真語魔法 9 from ytsheet's formula (ソーサラー5 + 知力B 3 + 魔力強化 1); the staff has no
    class, so ytsheet's ``//命中1=`` is empty and the sheet's 命中 (0) is used."""
    rolls = {label: (command, text) for label, command, text in _rolls("caster")}
    assert rolls["真語魔法行使"] == (
        "2d+(5+(20+0)/6)+1+0+0",
        "(2D6+(5+(20+0)/6)+1+0+0) ＞ 7[3,4]+(5+(20+0)/6)+1+0+0 ＞ 16",
    )
    assert rolls["半減／神聖魔法"] == (
        "k10[(13)]+(3+(20+0)/6)+1+0h+(+0)",
        "KeyNo.10+8 ＞ 2D:[3,4]=7 ＞ (3+8)/2 ＞ 6",
    )
    assert rolls["回復量"] == ("k10[(13)]+(3+(20+0)/6)+1+0+0", "KeyNo.10+8 ＞ 2D:[3,4]=7 ＞ 3+8 ＞ 11")
    assert rolls["命中力／メイジスタッフ2H"] == ("2d+0+0", "(2D6+0+0) ＞ 7[3,4]+0+0 ＞ 7")


def test_the_players_own_palette_is_kept_line_by_line_and_rolled() -> None:
    """ミナ (``begin``): her lines first, as she wrote them, with her ``//`` variables; then ytsheet's."""
    read = character("fighter_custom")
    palette = parse_palette(combined_palette(read.sheet, read.palette, read.hp))
    assert palette.variables[:2] == (("命中", "7"), ("追加ダメージ", "{追加D1}+1"))
    assert [line.text for line in palette.lines[:3]] == [
        "2d+{命中}+{命中修正} 命中力<バスタードソード>",
        "k17[10]+{追加ダメージ} ダメージ",
        "2d6/2U 半分切り上げ",
    ]
    assert [label for label, _, _ in _rolls("fighter_custom")][3] == "冒険者＋器用"  # ytsheet's after hers
    assert _rolls("fighter_custom")[:3] == [
        ("命中力<バスタードソード>", "2d+7+0", "(2D6+7+0) ＞ 7[3,4]+7+0 ＞ 14"),
        ("ダメージ", "k17[10]+(5+(21+0)/6+1+0)+1", "KeyNo.17c[10]+11 ＞ 2D:[3,4]=7 ＞ 5+11 ＞ 16"),
        ("半分切り上げ", "2d6/2U", "(2D6/2U) ＞ 7[3,4]/2U ＞ 4"),
    ]
    # ジャック (``exchange``): his palette alone, its & < " as he typed them
    assert _rolls("escapes") == [
        (
            '殴る <全力> & "叫ぶ"',
            "2d+(4+(14+0)/6+0)+2",
            "(2D6+(4+(14+0)/6+0)+2) ＞ 7[3,4]+(4+(14+0)/6+0)+2 ＞ 15",
        ),
        ('判定 "A&B"', "2d6>=7", "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"),
        ("ダメージ&<拳>", "k20[10]+(4+(17+0)/6+0)", "KeyNo.20c[10]+7 ＞ 2D:[3,4]=7 ＞ 5+7 ＞ 12"),
    ]


def test_inserts_go_where_ytsheet_puts_them() -> None:
    """リオ: insert 1 (position first) before 非戦闘系, insert 2 (after 武器攻撃系) after its last line, and
    her own palette after all of ytsheet's (``end``)."""
    read = character("ranger_inserts")
    lines = combined_palette(read.sheet, read.palette, read.hp).split("\n")
    assert lines[:3] == ["### ■最初に", "2d6 運試し", "### ■非戦闘系"]
    at = lines.index("//出目修正=$+{クリレイ}#{必殺効果}")
    assert lines[at + 1 : at + 4] == ["//矢の数=12", "C({矢の数}-1) 矢を使う", "### ■抵抗回避"]
    mine = lines.index("### ■リオの手札")
    assert lines[mine - 2 : mine] == ["2d+{回避1}+{回避修正} 回避力", ""]
    assert lines[mine + 1 : mine + 4] == [
        "//狙い=2",
        "2d+{命中1}+{狙い} 狙い撃ち",
        "choice[右,左] 逃げる方向",
    ]
    rolls = {label: (command, text) for label, command, text in _rolls_safe("ranger_inserts")}
    assert rolls["運試し"] == ("2d6", "(2D6) ＞ 7[3,4] ＞ 7")
    assert rolls["狙い撃ち"] == (
        "2d+(5+(17+0)/6+1)+2",
        "(2D6+(5+(17+0)/6+1)+2) ＞ 7[3,4]+(5+(17+0)/6+1)+2 ＞ 17",
    )


def _rolls_safe(name: str) -> list[tuple[str, str, str]]:
    """``_rolls`` for lines the dice know (BCDice's ``C()`` and ``choice`` are not among them)."""
    read = character(name)
    palette = parse_palette(combined_palette(read.sheet, read.palette, read.hp))
    values = {fold(k): v for k, v in sheet_variables(read.sheet, read.hp, read.hp, read.move).items()}
    out = []
    for line in palette.lines:
        command = expand_line(palette, line, values).command
        if command[:1] in "2k":
            out.append((line.label, command, rolled(command, 3, 4)))
    return out
