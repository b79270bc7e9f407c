"""The sheet commands through the console and the service: /pc add sheet:, /pc sheet, /pc palette, /pc roll,
/unit add sheet:, /gm set of sheet values, undo, export and import — with scripted dice and exact replies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from sheet_fixtures import FIXTURES

from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.storage.interface import Storage
from bot.views import PaletteView
from engine.dice import ScriptedDice


class Table:
    def __init__(self, storage: Storage, tmp_path: Path, lang: str = "en") -> None:
        for fixture in FIXTURES.glob("*.json"):
            shutil.copy(fixture, tmp_path / fixture.name)
        self.dice = ScriptedDice([])
        self.session = ConsoleSession(BattleService(storage, self.dice), lang=lang, base_dir=tmp_path)
        self.dir = tmp_path

    async def ok(self, line: str, *dice: int) -> str:
        self.dice._values.extend(dice)  # the console's --dice, fed as the test goes
        reply = await self.session.handle(line)
        assert reply is not None and reply.ok, (line, reply)
        assert self.dice.remaining == 0, line
        return reply.text

    async def refused(self, line: str) -> str:
        before = await self.document()
        reply = await self.session.handle(line)
        assert reply is not None and not reply.ok, (line, reply)
        assert await self.document() == before, line  # a refusal changes nothing
        return reply.text

    async def document(self) -> dict[str, Any]:
        reply = await self.session.handle("/fort export")
        assert reply is not None and reply.ok
        document: dict[str, Any] = json.loads(reply.text)
        return document


@pytest.fixture
async def table(storage: Storage, tmp_path: Path) -> Table:
    t = Table(storage, tmp_path)
    await t.ok("/fort start rounds:3")
    return t


async def test_a_pc_added_from_a_sheet(table: Table) -> None:
    assert await table.ok("/pc add sheet:fighter.json") == (
        "PC ガルド joins (owner gm, position top, HP 35).\n"
        "ガルド's sheet read: HP 35/35, MP 12/12, defence 8, evasion 7, fortitude 8, willpower 7, "
        "initiative 5, movement 15. Weapons: バスタードソード1H acc 7 power 17 crit 10 dmg +9, "
        "バスタードソード2H acc 7 power 27 crit 10 dmg +9. Chat palette: 15 lines."
    )
    # the options given win over the sheet's values
    text = await table.ok("@bob /pc add name:Lily file:caster.json position:inside hp:20")
    assert text.startswith(
        "PC Lily joins (owner bob, position inside, HP 20).\nLily's sheet read: HP 20/20, MP 42/42"
    )
    status = await table.ok("/fort status")
    assert (
        "F0: top: ガルド 35/35 MP 12/12 def 8 eva 7 (gm) / inside: Lily 20/20 MP 42/42 def 3 eva 0 (bob)"
        in status
    )
    pc = (await table.document())["pcs"][0]
    assert (pc["hp"], pc["max_hp"], pc["move"], pc["palette"]) == (35, 35, 15, None)
    assert pc["sheet"]["weapons"][1] == {
        "name": "バスタードソード", "usage": "2H", "acc": 7, "rate": 27, "crit": 10, "dmg": 9,
        "category": "ソード", "note": "", "row": 2,
    }  # fmt: skip


async def test_rolling_palette_lines(table: Table) -> None:
    await table.ok("/pc add sheet:fighter.json")
    # ytsheet's formula, filled in from the palette's own definitions, as BCDice reads it
    assert await table.ok("/pc roll name:ガルド line:命中力／バスタードソード1H", 3, 4) == (
        'gm: ガルド "命中力／バスタードソード1H" 2d+(5+(16+0)/6+0)+0 → '
        "(2D6+(5+(16+0)/6+0)+0) ＞ 7[3,4]+(5+(16+0)/6+0)+0 ＞ 14"
    )
    # by number, full width; a critical of the 2H swing
    assert await table.ok("/pc roll name:ガルド line:１２ secret:true", 6, 5, 1, 2) == (
        'gm (secret): ガルド "ダメージ／バスタードソード2H" k27[(10+0)]+(5+(21+0)/6+1+0)+0$+0#0 → '
        "KeyNo.27c[10]+10 ＞ 2D:[6,5 1,2]=11,3 ＞ 9,2+10 ＞ 1回転 ＞ 21\n"
        "Kept in this channel as secret roll #1 (for 30 days). The GMs see it with /roll secrets; to show "
        "it to the channel: /roll reveal number:1"
    )
    # a roll changes nothing in the battle and is not in its log
    assert "/pc roll" not in await table.ok("/fort log")
    assert await table.refused("/pc roll name:ガルド line:ダメージ") == (
        '⚠ Several lines match "ダメージ" (lines 10, 12). Name one by its number.'
    )
    assert await table.refused("/pc roll name:ガルド line:魔法") == (
        '⚠ The chat palette has no line "魔法" (15 lines). Name a line by its label or its number (1-15).'
    )
    # ytsheet's 宣言特技 lines are a declaration to post, not a roll
    assert await table.refused("/pc roll name:ガルド line:全力") == (
        '⚠ "全力" expands to [宣]《全力攻撃I》, which is not a dice command.'
    )


async def test_a_palette_of_its_own(table: Table) -> None:
    await table.ok("@bob /pc add file:caster.json")
    assert await table.ok(r"@bob /pc palette name:蒼月 text:2d+{知力B}+{セージ}+{x} 見識\n//x=1") == (
        "蒼月's chat palette set (palette lines: 1, a palette of its own: yes)."
    )
    # instead of ytsheet's (paletteInsertType exchange), with the definitions it uses from the sheet
    assert await table.ok("@bob /pc roll name:蒼月 line:見識", 2, 2) == (
        'bob: 蒼月 "見識" 2d+((20+0)/6)+3+1 → (2D6+((20+0)/6)+3+1) ＞ 4[2,2]+((20+0)/6)+3+1 ＞ 11'
    )
    reply = await table.session.handle("/pc palette name:蒼月")
    assert reply is not None and isinstance(reply.view, PaletteView) and reply.view.ephemeral
    assert reply.text.split("\n")[:3] == [
        "蒼月's chat palette (its own, palette lines: 1):",
        "  1. 2d+{知力B}+{セージ}+{x} 見識",
        "Variables:",
    ]
    assert reply.text.split("\n")[3].startswith(
        "  x=1 知力=20 知力増強=0 セージ=3 知力B=(({知力}+{知力増強})/6) HP=24 最大HP=24 移動力=17 MP=42"
    )
    assert await table.ok("@bob /pc palette name:蒼月 text:-") == (
        "蒼月's chat palette set (palette lines: 21, a palette of its own: no)."
    )


async def test_a_players_palette_and_inserts_rolled(table: Table) -> None:
    """ミナ's own lines come first (begin), リオ's after ytsheet's (end) with her inserts where ytsheet puts
    them; a variable nobody defines is named."""
    await table.ok("/pc add sheet:fighter_custom.json")
    assert await table.ok("/pc roll name:ミナ line:1", 3, 4) == (
        'gm: ミナ "命中力<バスタードソード>" 2d+7+0 → (2D6+7+0) ＞ 7[3,4]+7+0 ＞ 14'
    )
    assert await table.ok("/pc roll name:ミナ line:ダメージ", 3, 4) == (
        'gm: ミナ "ダメージ" k17[10]+(5+(21+0)/6+1+0)+1 → KeyNo.17c[10]+11 ＞ 2D:[3,4]=7 ＞ 5+11 ＞ 16'
    )
    await table.ok("/pc add sheet:ranger_inserts.json")
    assert await table.ok("/pc roll name:リオ line:1", 3, 4) == 'gm: リオ "運試し" 2d6 → (2D6) ＞ 7[3,4] ＞ 7'
    assert await table.ok("/pc roll name:リオ line:狙い撃ち", 3, 4) == (
        'gm: リオ "狙い撃ち" 2d+(5+(17+0)/6+1)+2 → (2D6+(5+(17+0)/6+1)+2) ＞ 7[3,4]+(5+(17+0)/6+1)+2 ＞ 17'
    )
    await table.ok(r"/pc palette name:リオ text:2d+{会心} 未定義の変数")
    assert await table.refused("/pc roll name:リオ line:未定義の変数") == (
        '⚠ "未定義の変数" cannot be expanded: the variable {会心} is not defined. '
        "Write //会心=value in the palette, or read the sheet."
    )


async def test_only_the_owner_or_a_gm(table: Table) -> None:
    await table.ok("/pc add sheet:fighter.json")
    for line in ("@bob /pc roll name:ガルド line:1", "@bob /pc palette name:ガルド text:2d6",
                 "@bob /pc sheet name:ガルド file:caster.json", "@bob /pc palette name:ガルド"):  # fmt: skip
        assert (
            await table.refused(line) == "⚠ ガルド is another player's PC. Only its owner or a GM may run it."
        )


async def test_reading_a_sheet_again(table: Table) -> None:
    await table.ok("/pc add name:ガルド hp:20 move:10")
    await table.ok("/pc hp name:ガルド delta:-5")
    text = await table.ok("/pc sheet name:ガルド file:fighter.json")
    # HP already tracked keeps its value (15 of now 35); 移動力 from the sheet
    assert text.startswith("ガルド's sheet read: HP 15/35, MP 12/12")
    assert "movement 15" in text
    await table.ok("/gm set target:pc.ガルド.mp value:3")
    await table.ok("/pc sheet name:ガルド file:fighter.json")
    pc = (await table.document())["pcs"][0]
    assert (pc["hp"], pc["max_hp"], pc["sheet"]["mp"], pc["sheet"]["max_mp"]) == (15, 35, 3, 12)
    await table.ok("/gm undo steps:2")
    pc = (await table.document())["pcs"][0]
    assert (pc["hp"], pc["max_hp"], pc["sheet"]["mp"]) == (15, 35, 12)


async def test_sheet_refusals(table: Table) -> None:
    await table.ok("/pc add name:ガルド")
    assert (
        await table.refused("/pc sheet name:ガルド")
        == "⚠ Give the sheet with sheet: (a URL) or file: (a file)."
    )
    assert await table.refused("/pc sheet name:ガルド file:fighter.json sheet:fighter.json") == (
        "⚠ sheet: and file: cannot both be given. Give one of them."
    )
    assert await table.refused("/pc sheet name:ガルド file:monster.json") == (
        "⚠ グリフォン is a monster sheet. Give a PC a character sheet; use monsters with /unit add sheet:."
    )
    (table.dir / "broken.json").write_text("{", encoding="utf-8")
    assert await table.refused("/pc sheet name:ガルド sheet:broken.json") == (
        "⚠ broken.json is not a JSON sheet. Give ゆとシートⅡ's JSON output (?id=…&mode=json)."
    )
    (table.dir / "other.json").write_text('{"result": "OK", "gameVersion": "3"}', encoding="utf-8")
    assert await table.refused("/pc sheet name:ガルド file:other.json") == (
        "⚠ This is not a Sword World 2.5/2.0 sheet (gameVersion 3)."
    )
    assert await table.refused("/pc sheet name:誰か file:fighter.json") == '⚠ There is no PC "誰か".'


async def test_units_from_a_monster_sheet(table: Table) -> None:
    assert await table.refused("/unit add type:flying area:A2 fort_damage:10 sheet:monster.json") == (
        "⚠ グリフォン is a monster of several parts. Choose one with part: 1: クチバシ（頭部）, 2: 爪（胴体）"
    )
    assert await table.refused(
        "/unit add type:normal area:A1 fort_damage:5 sheet:monster.json part:尻尾"
    ) == ('⚠ There is no part "尻尾". The parts: 1: クチバシ（頭部）, 2: 爪（胴体）')
    assert await table.refused("/unit add type:normal area:A1 fort_damage:5 file:fighter.json") == (
        "⚠ ガルド is a character sheet. /unit add takes a monster sheet."
    )
    assert (await table.refused("/unit add type:normal area:A1 fort_damage:5")).startswith(
        "⚠ /unit add needs name:."
    )
    # flying: 移動速度 20（飛行40） gives 40; the part's HP, 防護点, strike, 弱点 (命中力+1: shown, no
    # damage), and its レベル, 命中力, 回避力 in the reply
    assert await table.ok("/unit add type:flying area:A2 fort_damage:10 sheet:monster.json part:2") == (
        "Unit グリフォン(胴体) (flying, enemy side) placed at A2: HP 62, fort damage 10, defense 8, "
        "move 40 m, strike 2D+8, weakness 命中力+1, level 8, accuracy 10, evasion 9."
    )
    # options given win over the sheet's
    await table.ok("/unit add name:嘴 type:normal area:A1 fort_damage:5 file:monster.json part:頭部 hp:30")
    # even the defaults: defense:0 and move:10 given are kept
    claws = "/unit add name:爪 type:normal area:A1 fort_damage:5 file:monster.json part:2"
    await table.ok(claws + " defense:0 move:10")
    # without a sheet, the command's own defaults
    await table.ok("/unit add name:素 type:normal area:A1 fort_damage:5 hp:9")
    units = (await table.document())["units"]
    picked = [(u["name"], u["type"], u["hp"], u["defense"], u["strike"], u["move"]) for u in units]
    assert picked == [
        ("グリフォン(胴体)", "flying", 62, 8, "2D+8", 40),
        ("嘴", "normal", 30, 7, "2D+9", 20),
        ("爪", "normal", 62, 0, "2D+8", 10),
        ("素", "normal", 9, 0, None, 10),
    ]
    assert [u["weakness"] for u in units] == ["命中力+1", "命中力+1", "命中力+1", None]


async def test_a_slow_monster_with_a_damage_weakness(table: Table) -> None:
    """トレント: 移動速度 5 is 10 m (the multiple of 10 below, at least 10), and the reply says so; its 弱点
    炎属性ダメージ+3点 is the unit's weakness (F-UNIT-15), as if typed with weakness:."""
    assert await table.ok("/unit add type:normal area:A1 fort_damage:5 sheet:monster_slow.json") == (
        "Unit トレント (normal, enemy side) placed at A1: HP 52, fort damage 5, defense 6, move 10 m, "
        "strike 2D+7, weakness 炎属性ダメージ+3点, level 6, accuracy 9, evasion 7.\n"
        "トレント: movement 5 → 10 m (moves go in steps of 10 m)."
    )
    unit = (await table.document())["units"][0]
    assert (unit["move"], unit["weakness"]) == (10, "炎属性ダメージ+3点")
    # move: typed by hand follows the same Convention
    assert (await table.ok("/unit add name:遅い type:normal area:A1 fort_damage:5 hp:9 move:25")).endswith(
        "遅い: movement 25 → 20 m (moves go in steps of 10 m)."
    )


async def test_gm_set_of_sheet_values(table: Table) -> None:
    await table.ok("/pc add sheet:fighter.json")
    assert (
        await table.ok("/gm set target:pc.ガルド.evasion value:9")
        == "The GM set ガルド's evasion from 7 to 9."
    )
    await table.ok("/gm set target:pc.ガルド.命中1 value:8")
    await table.ok("/gm set target:pc.ガルド.weapon2_rate value:30")
    await table.ok("/gm set target:pc.ガルド.器用度 value:18")
    await table.ok("/gm set target:pc.ガルド.生命抵抗 value:9")
    # a value ytsheet writes as a formula is the number the GM set from then on
    assert await table.ok("/pc roll name:ガルド line:回避力", 1, 2) == (
        'gm: ガルド "回避力" 2d+9+0 → (2D6+9+0) ＞ 3[1,2]+9+0 ＞ 12'
    )
    assert await table.ok("/pc roll name:ガルド line:命中力／バスタードソード1H", 1, 2) == (
        'gm: ガルド "命中力／バスタードソード1H" 2d+8+0 → (2D6+8+0) ＞ 3[1,2]+8+0 ＞ 11'
    )
    assert await table.ok("/pc roll name:ガルド line:生命抵抗力", 1, 2) == (
        'gm: ガルド "生命抵抗力" 2d+9+0 → (2D6+9+0) ＞ 3[1,2]+9+0 ＞ 12'
    )
    # 器用度 18 reaches the formulas that name it
    assert await table.ok("/pc roll name:ガルド line:命中力／バスタードソード2H", 1, 2) == (
        'gm: ガルド "命中力／バスタードソード2H" 2d+(5+(18+0)/6+0)+0 → '
        "(2D6+(5+(18+0)/6+0)+0) ＞ 3[1,2]+(5+(18+0)/6+0)+0 ＞ 11"
    )
    sheet = (await table.document())["pcs"][0]["sheet"]
    assert (sheet["weapons"][1]["rate"], sheet["values"]["器用度"], sheet["vit_resist"]) == (30, 18, 9)
    assert await table.refused("/gm set target:pc.ガルド.mp value:99") == (
        '⚠ pc.ガルド.mp cannot be set to "99" (above the maximum).'
    )
    assert await table.refused("/gm set target:pc.ガルド.命中3 value:1") == (
        '⚠ pc.ガルド.命中3 cannot be set to "1" (no weapon of that number).'
    )
    await table.ok("/pc add name:素手")
    assert await table.refused("/gm set target:pc.素手.mp value:1") == (
        '⚠ pc.素手.mp cannot be set to "1" (this PC has no sheet (read one with /pc sheet)).'
    )


async def test_export_and_import_keep_sheets_and_palettes(table: Table) -> None:
    await table.ok("/pc add sheet:fighter_custom.json")
    await table.ok(r"/pc palette name:ミナ text:2d+{命中1} 突き\n//a=1")
    assert await table.ok("/fort export file:saved.json") == f"Written to {table.dir / 'saved.json'}."
    saved = json.loads((table.dir / "saved.json").read_text(encoding="utf-8"))
    assert saved["pcs"][0]["palette"] == "2d+{命中1} 突き\n//a=1"
    await table.ok("/fort end")
    await table.ok("/fort import file:saved.json")
    assert (await table.document())["pcs"] == saved["pcs"]
    assert await table.ok("/pc roll name:ミナ line:突き", 3, 3) == (
        'gm: ミナ "突き" 2d+(5+(16+0)/6+0) → (2D6+(5+(16+0)/6+0)) ＞ 6[3,3]+(5+(16+0)/6+0) ＞ 13'
    )
