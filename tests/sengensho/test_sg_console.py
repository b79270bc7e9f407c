"""A short 千幻抄 skirmish in ``toride console`` (in this process: ``console_run``) from a script with
``--dice``, and the text it prints."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bot.render.text import render
from bot.views import StatusView

# ``toride console`` in this process lives with the console tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "console"))
from console_run import console

SKIRMISH = """\
/sg start title:庭 ambush:true gm_fixed:true
/sg join name:霊夢 body:3 endurance:2 intellect:4 sense:5 will:3 hp:20
/sg join name:魔理沙 dp_max:16 recovery:4 hp:18
@bob /sg join name:妖精 dp_max:12 recovery:3 hp:8 side:enemy
/sg join name:妖精 dp_max:12 recovery:3 hp:8 side:enemy
/sg hide name:妖精 base:6 dice:2
@bob /sg turn
/sg turn
/sg search name:霊夢 base:8 dice:2 target:妖精
/sg surprise attacker:妖精 target:魔理沙 distance:20 wary:true
/sg roll name:妖精 base:6 dice:2 kind:attack
/sg roll name:魔理沙 base:7 dice:3 kind:evasion against:妖精 label:回避
/sg item name:魔理沙 holder:霊夢
/sg damage name:妖精 amount:9
/sg damage name:妖精 amount:9 mercy:hp1
/sg status
/sg turn
/sg join name:咲夜 dp_max:17 recovery:4
/sg export
"""


def last_document(out: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(out[out.rindex("\n{\n") + 1 :])
    return document


def test_a_skirmish_from_a_script(tmp_path: Path) -> None:
    done = console(tmp_path / "sg.db", SKIRMISH, "--dice", "4,5,6,1,2", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # refusals answer and change nothing: bob may not add an enemy nor start turns; mercy is asked
    assert "⚠ 敵側のキャラクター(妖精)を加えられるのはGMだけです。" in out
    assert "⚠ /千幻抄 ターン はGMだけが使えます(この戦闘のGM: gm)。" in out
    mercy = "「手加減:気絶」「手加減:HP1で戦闘不能」「手加減:選ばない」"
    assert f"⚠ 妖精のHPが0になります。攻撃側が選んでください: {mercy}のどれか" in out
    # the fixed GM rolls, dice paid and DP left
    assert "妖精が潜伏しました: 身体+〈隠密〉 6+2D(固定 7) = 13 【DP −2 → 残り10/12 [████████░░]】" in out
    assert "霊夢の知覚判定(探索): 8+2D[4,5] = 17 【DP −2 → 残り16/18 [█████████░]】 (出目 4,5)" in out
    # S-HIDE-1: the console's user is the GM here, and reads what is secret, marked so
    assert "🔒 あなたにだけ見えています:\n(秘匿)霊夢の知覚 17 対 妖精の隠密 13 → 発見!" in out
    assert (
        "(秘匿)潜伏中の妖精: DP回復 妖精 10(不意打ちの初ターン)、隠密 13。このターンの知覚判定: 霊夢、魔理沙"
        in out
    )
    # S-CORE-3: the GM's roll out of step is carried out and marked
    assert (
        "妖精の攻撃: 6+2D(固定 7) = 13 【DP −2 → 残り8/12 [███████░░░]】"
        " ※手番外(いまはイニシアティブ 18の霊夢の手番)" in out
    )
    assert "▶ いまの手番: イニシアティブ 18 — 霊夢" in out
    assert (
        # S-SUR-5: 妖精 appeared (霊夢 found it) before the attack: 魔理沙 has found it, no −5
        "[回避] 魔理沙の回避: 7+3D[6,1,2] = 16(対抗 妖精 13: 勝ち) 【DP −3 → 残り13/16 [████████░░]】" in out
    )
    # the turn order with DP bars
    assert "16 魔理沙(PC側) DP [█████░░░░░] 8/16 HP 18/18 [霊夢の所持品]" in out
    assert "18 霊夢(PC側) DP [█████████░] 16/18 HP 20/20 [スペカ" not in out
    assert "18 霊夢(PC側) DP [█████████░] 16/18 HP 20/20" in out
    assert "━━ ターン2 ━━ DP回復: 霊夢 16→18、魔理沙 8(所持品)、妖精 8(戦闘不能)" in out
    doc = last_document(out)
    assert doc["format"] == "toride.sengensho/1"
    characters = {c["name"]: c for c in doc["characters"]}
    assert characters["咲夜"]["dp"] == 12  # a reinforcement: recovery 4 × 3
    assert (characters["妖精"]["hp"], characters["妖精"]["down"]) == (1, "hp1")
    assert characters["妖精"]["owner"] == "gm"


def test_status_text_lists_ties_together_and_the_waiting() -> None:
    document = {
        "format": "toride.sengensho/1",
        "title": "",
        "turn": 0,
        "characters": [
            {"name": "A", "side": "pc", "dp": 5, "dp_max": 10, "declared": None, "hp": None},
            {"name": "B", "side": "enemy", "dp": 10, "dp_max": 10, "declared": None, "hidden": {"total": 9}},
        ],
        "spell_cards": {"pc": 0, "enemy": 0, "allowance": {"pc": 0, "enemy": 0}},
    }
    text = render(StatusView(ruleset="sengensho", document=document), "en")
    assert text.splitlines() == [
        "[千幻抄 battle] 千幻抄 turn not started",
        "Characters (before the turns):",
        "-- A (PC side) DP [█████░░░░░] 5/10",
        "Hidden (shown to the GM and the owner only):",
        "-- B (enemy side) DP [██████████] 10/10 [hidden, stealth 9]",
        "Spell cards: PC side 0 (0 left), enemy side 0 (0 left) (may still declare: PC side 0, enemy side 0)",
    ]
    document["turn"] = 2
    document["step"] = 5
    document["characters"][0]["declared"] = 5  # type: ignore[index]
    document["characters"].append(  # type: ignore[attr-defined]
        {"name": "C", "side": "enemy", "dp": 8, "dp_max": 10, "declared": 5, "acted": True}
    )
    lines = render(StatusView(ruleset="sengensho", document=document), "en").splitlines()
    assert lines[1:5] == [
        "▶ Now acting: initiative 5 — A & C",
        "Order (highest declared DP first, ties act together):",
        "5 A (PC side) DP [█████░░░░░] 5/10",
        " ″ C (enemy side) DP [████████░░] 8/10 [acted]",
    ]


def test_status_text_shows_the_spell_cards_and_warns_when_the_sides_differ() -> None:
    document = {
        "format": "toride.sengensho/1",
        "title": "庭",
        "turn": 0,
        "characters": [
            {
                "name": "霊夢",
                "side": "pc",
                "dp": 18,
                "dp_max": 18,
                "spell_cards": [
                    {"name": "霊符「夢想封印」", "used": True},
                    {"name": "夢符「封魔陣」", "used": False},
                ],
            },
        ],
        "spell_cards": {
            "pc": 2,
            "enemy": 1,
            "unused": {"pc": 1, "enemy": 1},
            "allowance": {"pc": 0, "enemy": 1},
        },
    }
    lines = render(StatusView(ruleset="sengensho", document=document), "ja").splitlines()
    assert lines[2:] == [
        "-- 霊夢(PC側) DP [██████████] 18/18 [スペカ 霊符「夢想封印」(使用済)、夢符「封魔陣」]",
        "スペルカード: PC側 2枚(残り1)、敵側 1枚(残り1)(追加で宣言できる枠: PC側 0、敵側 1)",
        "⚠ スペルカードの枚数が違います(PC側 2、敵側 1): 新しく宣言する側がそろえます。",
    ]
