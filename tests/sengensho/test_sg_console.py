"""A short 千幻抄 skirmish in ``toride console`` from a script with ``--dice``, and the text it prints."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.render.text import render
from bot.views import StatusView

ROOT = Path(__file__).resolve().parents[2]

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


def console(db: Path, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TORIDE_DATABASE_URL", None)
    command = [sys.executable, "-m", "bot.cli", "console", "--db", str(db), *args]
    return subprocess.run(command, input=script, capture_output=True, text=True, timeout=60, check=False)


def last_document(out: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(out[out.rindex("\n{\n") + 1 :])
    return document


def test_a_skirmish_from_a_script(tmp_path: Path) -> None:
    done = console(tmp_path / "sg.db", SKIRMISH, "--dice", "4,5,6,1,2", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # refusals answer and change nothing: bob may not add an enemy nor start turns; mercy is asked
    assert "⚠ 敵側のキャラクター(妖精)を加えられるのはGMだけです。" in out
    assert "⚠ /sg turn はGM専用です" in out
    assert "⚠ 妖精 のHPが0になります。攻撃側が mercy: を選んでください: unconscious, hp1" in out
    # the fixed GM rolls, dice paid and DP left
    assert "妖精 が潜伏しました: 身体+〈隠密〉 6+2D(固定 7) = 13 【DP −2 → 残り 10/12 [████████░░]】" in out
    assert "霊夢 が 妖精 を探しました: 知覚 8+2D[4,5] = 17 対 隠密 13 → 発見!" in out
    assert (
        "[回避] 魔理沙 の回避: 7+3D[6,1,2] -5(S-SUR-4) = 11(対抗 妖精 13: 負け) "
        "【DP −3 → 残り 13/16 [████████░░]】" in out
    )
    # the turn order with DP bars
    assert "16 魔理沙(PC側) DP [█████░░░░░] 8/16 HP 18/18 [霊夢 の所持品]" in out
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
        "-- B (enemy side) DP [██████████] 10/10 [hidden, stealth 9]",
        "Spell cards: PC side 0, enemy side 0 (may still declare: PC side 0, enemy side 0)",
    ]
    document["turn"] = 2
    document["characters"][0]["declared"] = 5  # type: ignore[index]
    document["characters"][1]["declared"] = 5  # type: ignore[index]
    lines = render(StatusView(ruleset="sengensho", document=document), "en").splitlines()
    assert lines[1:4] == [
        "Order (highest declared DP first, ties act together):",
        "5 A (PC side) DP [█████░░░░░] 5/10",
        " ″ B (enemy side) DP [██████████] 10/10 [hidden, stealth 9]",
    ]
