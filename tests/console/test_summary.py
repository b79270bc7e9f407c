"""Round summaries through the service, as the console prints them (scripted dice): posted once, right after
the round's end and before the next round's first line; every action with who ran it and its dice; the
GM's override and undo; the fort HP's changes add up to end − start."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.storage import open_storage
from engine.dice import ScriptedDice


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[ConsoleSession]:
    storage = await open_storage(str(tmp_path / "s.db"))
    # the failed cannon load's damage K40+12 rolls 2,4; the mine's 2D6+10 rolls 3,4; the ballista is not used
    service = BattleService(storage, ScriptedDice([2, 4, 3, 4]))
    yield ConsoleSession(service, lang="ja", base_dir=tmp_path)
    await storage.close()


async def play(session: ConsoleSession, script: str) -> list[str]:
    out: list[str] = []
    for line in script.strip().splitlines():
        reply = await session.handle(line)
        assert reply is not None
        out.append(reply.text)
    return out


ROUND_1 = """
/fort start rounds:2 fort_hp:300 cannons:1
@alice /pc add name:アリス position:top
/unit add name:ゴブリン type:normal area:A1 hp:20 fort_damage:10 defense:2
/trap set kind:mine edge:A1-F0 uses:2
@alice /cannon load cannon:1 check:5
/gm set target:fort.hp value:250
/fort heal amount:12
/gm undo
/fort next
/unit advance
/fort next
"""


async def test_a_round_summary_lists_every_action_and_adds_up(session: ConsoleSession) -> None:
    replies = await play(session, ROUND_1)
    last = replies[-1].splitlines()
    # the end of the round, once; then the summary; then the next round's first line
    end = "第1ラウンド終了時: 砦HP 240/300。マップ上の敵ユニット: ゴブリン。大砲の砲弾: 0。"
    assert last.count(end) == 1
    title = last.index("━━ 第1ラウンドのまとめ ━━")
    assert last.index(end) < title < last.index("第2ラウンド、PC側の手番です。")
    assert last[-1] == "第2ラウンド、PC側の手番です。"
    summary = last[title : last.index("第2ラウンド、PC側の手番です。")]
    text = "\n".join(summary)
    # every action with who ran it, in order: the failed load with its dice, the override, the undo; each
    # command in the reader's words, though typed in English (issue 23, item 8)
    heads = [line.strip() for line in summary if re.match(r"\s+#\d+ ", line)]
    assert heads == [
        "#1 gm: /砦 開始 ラウンド数:2 砦hp:300 大砲の数:1",
        "#2 alice: /pc 追加 名前:アリス 位置:砦上部",
        "#3 gm: /ユニット 追加 名前:ゴブリン タイプ:通常 エリア:A1 hp:20 砦ダメージ:10 防護点:2",
        "#4 gm: /罠 設置 種類:地雷 経路:A1-F0 回数:2",
        "#5 alice: /大砲 装填 砲番号:1 判定値:5",
        "#6 gm: /gm 上書き 対象:fort.hp 値:250",
        "#8 gmが取り消しました: #7 /砦 回復 量:12",
        "#9 gm: /砦 次へ",
        "#10 gm: /ユニット 前進",
        "#11 gm: /砦 次へ",
    ]
    assert "      大砲1の装填失敗(筋力判定 5): 砲弾を落としました。" in summary
    assert any(
        "アリスに19ダメージ" in line and "《KeyNo.40c[10]+12 ＞ 2D:[2,4]=6" in line for line in summary
    )
    assert "      GMが砦HPを300から250に変更しました。" in summary
    assert any("《(2D6+10) ＞ 7[3,4]+10 ＞ 17》" in line for line in summary)
    # the table: 300 → 240, −10 by the goblin entering, −50 by the GM (the undone heal is not counted)
    assert "  砦HP: 300 → 240/300(−60)" in summary
    changes = [line.strip() for line in summary[summary.index("  砦HP: 300 → 240/300(−60)") + 1 :]]
    assert changes[:2] == ["ゴブリンのF0侵入: −10", "GMの変更: −50"]
    assert -10 - 50 == 240 - 300
    assert "  使われた罠: 地雷 A1-F0 1回(残り1回)" in summary
    # the round's end line is not repeated in the summary
    assert end not in text


async def test_the_final_summary_follows_the_last_round(session: ConsoleSession) -> None:
    await play(session, ROUND_1)
    replies = await play(session, "/fort next\n/fort next")
    last = replies[-1].splitlines()
    round_title, final_title = last.index("━━ 第2ラウンドのまとめ ━━"), last.index("━━ 戦闘の結果 ━━")
    assert round_title < final_title
    round_part = last[round_title:final_title]
    # round 2: the goblin at F0 at the enemy turn's start (10), nothing else
    assert "  砦HP: 240 → 230/300(−10)" in round_part
    assert "    ゴブリン(手番開始時にF0): −10" in round_part
    final = last[final_title:]
    assert "  砦HP: 230 → 220/300(−10)" in final
    assert "    ゴブリン(戦闘の終わりの砦ダメージ): −10" in final  # F-END-1: every standing unit, anywhere
    assert last.count("━━ 第2ラウンドのまとめ ━━") == 1 and last.count("━━ 戦闘の結果 ━━") == 1


async def test_a_battle_ended_by_the_gm_mid_round_sums_up_the_round(session: ConsoleSession) -> None:
    await play(session, "/fort start rounds:3 fort_hp:100\n/fort siege effect:fixed amount:30")
    (ended,) = await play(session, "/fort end outcome:retreat")
    lines = ended.splitlines()
    final = lines[lines.index("━━ 戦闘の結果 ━━") :]
    assert "  砦HP: 100 → 70/100(−30)" in final
    assert "    構造物破壊(確定ダメージ): −30" in final
    assert any(line.strip() == "#2 gm: /砦 攻城 効果:確定ダメージ 量:30" for line in final)
