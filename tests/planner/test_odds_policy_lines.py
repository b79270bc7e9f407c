"""Issue 23, item 8: ``/fort odds`` states the policy it assumed as a heading and short lines, one rule a
line (not one run-on sentence), in the reader's language; focus and equipment add their own lines."""

# ruff: noqa: E501  (the expected lines are kept whole)
from __future__ import annotations

from pathlib import Path

from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.storage.interface import Storage
from engine.dice import ScriptedDice

SETUP = (
    "/fort start rounds:2 fort_hp:40",
    "/unit add name:破城槌 type:ram area:A1 hp:15 fort_damage:0 strike:2d+10",
    "/commander add name:隊長 hp:20 area:A2",
)

JA_POLICY = [
    "方針:",
    "　・PC側: 手番ごとに、各ダメージを1回の攻撃として与えます。",
    "　・狙い: 砦に最も早くダメージを与えるユニット(同じなら1回の砦ダメージが大きい順、次に登録順)。",
    "　・ダメージ: 物理は防護点を引き、弱点を加えます。対象は1体で、HPを超えた分は失われます。",
    "　・兵士: 砦外部の兵士は、F0の敵ユニットのうち最も早い脅威(飛行以外)にユニット攻撃をします。",
    "　・敵: 自動前進します(混乱中は移動なし)。そのあとF0のユニットが砦外部の兵士を攻撃します(命中とします)。",
]
JA_FOCUS = [
    "　・集中先は指揮官: 立っている指揮官のうち残りHPが最も少ない者(同じなら先に登録した者)を狙い、全員倒れたら脅威に移ります。",
    "　・指揮官の防護点: この戦闘にないため0とします。",
    "　・指揮官が全員倒れると、敵の次の手番は混乱します。",
]
JA_EQUIPMENT = [
    "　・緊急修繕: 砦HPが最大未満で、そのラウンドの修繕がまだなら行います。",
    "　・大砲: 弾が入っていれば最も早い脅威に撃ちます。",
    "　・バリスタ: 装填済みなら最も早い脅威に撃ちます(命中とし、巻き込みはダイスで)。空なら装填します(最初は〈魔力の太矢〉)。",
    "　・大砲の装填: 行動していない兵士が、満杯でない最初の大砲に装填します。PCは大砲に装填しません。",
    "　・担当: 修繕・射撃・バリスタの装填は砦上部の兵士が行います。いなければ砦上部のPCが、与えるダメージとは別に行います。",
]
EN_POLICY = [
    "Policy:",
    "  • PCs: each PC turn, every damage given is one attack.",
    "  • Target: the unit that would damage the fort soonest (of those equally soon, the most fort damage per hit, then the one added first).",
    "  • Damage: physical damage loses the defence, a weakness adds. One target each: damage beyond its HP is lost.",
    "  • Soldiers: soldiers outside at F0 make a unit attack on the soonest threat at F0 (not a flying one).",
    "  • Enemy: it auto-advances (not while confused), then its units at F0 attack the soldiers outside (every attack hits).",
]


async def _policy(storage: Storage, tmp_path: Path, lang: str, odds: str) -> list[str]:
    """The lines of the odds reply from the policy's heading to the first line after its rules."""
    console = ConsoleSession(
        BattleService(storage, ScriptedDice([])), channel="north", lang=lang, base_dir=tmp_path
    )
    for line in SETUP:
        reply = await console.handle(line)
        assert reply is not None and reply.ok, line
    reply = await console.handle(odds)
    assert reply is not None and reply.ok
    lines = reply.text.splitlines()
    start = lines.index("方針:" if lang == "ja" else "Policy:")
    end = start + 1
    while end < len(lines) and lines[end].startswith(("　・", "  • ")):
        end += 1
    return lines[start:end]


async def test_the_policy_is_a_heading_and_one_short_line_a_rule(storage: Storage, tmp_path: Path) -> None:
    assert await _policy(storage, tmp_path, "ja", "/fort odds runs:100 seed:4") == JA_POLICY


async def test_focus_and_equipment_add_their_own_lines(storage: Storage, tmp_path: Path) -> None:
    got = await _policy(storage, tmp_path, "ja", "/fort odds runs:100 seed:4 focus:commanders repair:true")
    assert got == JA_POLICY + JA_FOCUS + JA_EQUIPMENT


async def test_the_english_policy_reads_as_lines_too(storage: Storage, tmp_path: Path) -> None:
    assert await _policy(storage, tmp_path, "en", "/fort odds runs:100 seed:4") == EN_POLICY
