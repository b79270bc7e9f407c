"""``/unit list`` (the roster) and ``/unit advance preview:true`` (what auto-advance would do, nothing
changed), through the service as the console prints them, both languages, scripted dice."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.storage import open_storage
from engine.dice import ScriptedDice

SETUP = (
    "/fort start rounds:3 fort_hp:300",
    "/pc add name:アリス position:top",
    "/unit add name:ゴブリン type:normal area:A1 hp:20 fort_damage:10"
    " strike:2d6 defense:2 weakness:炎属性ダメージ+3",
    "/unit add name:オーガ type:ram area:B2 hp:40 fort_damage:30 strike:2d+5 arrive_round:2",
    "/unit add name:兵 type:soldier area:F0 hp:30 fort_damage:0 strike:2d",
    "/unit add name:狼 type:normal area:A2 hp:5 fort_damage:5",
    "/unit hp unit:狼 set:0",
    "/commander add name:隊長 hp:60 area:A2 horn:命中力+1",
    "/commander add name:副長 hp:10 area:B1",
    "/commander hp name:副長 delta:-15",
    "/trap set kind:mine edge:A1-F0 uses:2",
)


@pytest.fixture
async def dice() -> ScriptedDice:
    return ScriptedDice([1, 1, 2, 3])


@pytest.fixture
async def session(tmp_path: Path, dice: ScriptedDice) -> AsyncIterator[ConsoleSession]:
    storage = await open_storage(str(tmp_path / "r.db"))
    session = ConsoleSession(BattleService(storage, dice), lang="ja", base_dir=tmp_path)
    for line in SETUP:
        reply = await session.handle(line)
        assert reply is not None and reply.ok, reply
    yield session
    await storage.close()


async def say(session: ConsoleSession, line: str, lang: str = "ja") -> str:
    session.lang = lang
    reply = await session.handle(line)
    assert reply is not None
    return reply.text


async def test_the_roster_in_japanese(session: ConsoleSession) -> None:
    """F-MAP-7, F-UNIT-12: a reinforcement as "arrives in round n", the destroyed and the fallen as such."""
    assert (await say(session, "/unit list")).splitlines() == [
        "ユニット一覧(第1/3ラウンド PC側の手番)",
        "  ゴブリン(通常・敵側) A1 HP 20/20",
        "      砦ダメージ 10、打撃点 2D6、防護点 2、移動 10m、弱点 炎属性ダメージ+3",
        "  兵(兵士・PC側) F0(砦上部) HP 30/30",
        "      砦ダメージ 0、打撃点 2D、防護点 0、移動 残り10m/10m",
        "      この手番: まだ行動も移動もしていません",
        "  オーガ(破城槌・敵側) 第2ラウンドにB2へ到着予定 HP 40/40",
        "      砦ダメージ 30、打撃点 2D+5、防護点 0、移動 10m",
        "  狼(通常・敵側) 撃破済み(A2)",
        "  指揮官 隊長 A2 HP 60/60 鼓咆: 命中力+1",
        "  指揮官 副長 B1 倒れています",
    ]
    assert (await say(session, "/unit list area:ａ２")).splitlines() == [
        "A2のユニット(第1/3ラウンド PC側の手番)",
        "  狼(通常・敵側) 撃破済み(A2)",
        "  指揮官 隊長 A2 HP 60/60 鼓咆: 命中力+1",
    ]
    # the status too shows a fallen commander as fallen, not as HP -5/10
    assert "B1: 副長 [指揮官] 倒れています" in (await say(session, "/fort status")).splitlines()
    assert (
        await say(session, "/unit list area:Z9")
        == "⚠ エリア「Z9」はありません。使えるもの: A2、A1、F0、B1、B2"
    )


async def test_the_roster_after_moves_and_actions_in_english(session: ConsoleSession) -> None:
    """F-UNIT-1, F-UNIT-2, F-UNIT-14: move left, stopped by a blocker, a main action taken."""
    await say(session, "/fort next")
    await say(session, "/unit advance")  # the mine rolls 1,1; the soldier at F0 stops the goblin there
    await say(session, "/fort next")
    await say(session, "/unit move unit:兵 to:F0 position:outside")  # F-MAP-4: 10 m
    await say(session, "/unit attack attacker:兵 target:ゴブリン hit:true")  # 2d: 2,3 − defence 2
    assert (await say(session, "/unit list area:F0", "en")).splitlines() == [
        "Units in F0 (round 2 of 3, PC side's turn)",
        # the enemy's unit in the PC side's turn: its numbers, not what it did in its own turn
        "  ゴブリン (normal, enemy side) F0 HP 2/20",
        "      fort damage 10, strike 2D6, defence 2, move 10 m, weakness 炎属性ダメージ+3",
        "  兵 (soldier, PC side) F0 (outside) HP 30/30",
        "      fort damage 0, strike 2D, defence 0, move 0 m left of 10 m",
        "      This turn: has acted (unit attack), has moved",
    ]
    await say(session, "/fort next")
    assert (await say(session, "/unit list area:F0", "en")).splitlines()[1:4] == [
        "  ゴブリン (normal, enemy side) F0 HP 2/20",
        "      fort damage 10, strike 2D6, defence 2, move 10 m left of 10 m, weakness 炎属性ダメージ+3",
        "      This turn: has neither acted nor moved yet",
    ]


async def test_a_preview_changes_nothing_and_spends_no_dice(
    session: ConsoleSession, dice: ScriptedDice
) -> None:
    # a goblin the mine cannot kill, whatever it rolls (2D6+10, weakness +3: at most 25)
    await say(session, "/gm set target:unit.ゴブリン.max_hp value:60")
    await say(session, "/unit hp unit:ゴブリン set:60")
    await say(session, "/fort next")
    log_before = await say(session, "/fort log last:5")
    status_before = await say(session, "/fort status")
    left = dice.remaining
    preview = (await say(session, "/unit advance preview:true")).splitlines()
    assert preview[0] == "自動前進のプレビュー(まだ何も変わっていません):"
    assert preview[1] == "  ゴブリンがA1-F0の地雷を踏みました(残り1回)。"
    assert preview[2].startswith("  地雷: ゴブリンに") and "《(2D6+10) ＞ " in preview[2]
    assert preview[3:6] == [
        "  ゴブリンが移動: A1 → F0(10m)。兵に阻まれ、この手番はこれ以上移動できません。",
        "  ゴブリンがF0に侵入: 砦に10ダメージ(HP 300→290)。",
        "  自動前進: 1体が移動(ゴブリン)。",
    ]
    assert (
        preview[-1] == "これは見込みです。地雷などのダイスは見本で、実際の /ユニット 前進 で改めて振ります。"
    )
    # nothing changed: no log row, the same status, the console's scripted dice untouched
    assert await say(session, "/fort log last:5") == log_before
    assert await say(session, "/fort status") == status_before
    assert dice.remaining == left
    # the real advance rolls its own dice (1,1 from the script) and is logged
    done = await say(session, "/unit advance")
    assert "《(2D6+10) ＞ 2[1,1]+10 ＞ 12》" in done
    assert dice.remaining == left - 2
    assert "/ユニット 前進" in await say(session, "/fort log last:1")  # in the reader's words


async def test_a_preview_is_for_gms_and_refused_after_the_end(session: ConsoleSession) -> None:
    assert (await say(session, "@bob /unit advance preview:true")).startswith(
        "⚠ /ユニット 前進 はGMだけが使えます(この戦闘のGM: gm)。"
    )
    await say(session, "/fort end outcome:retreat")
    assert (await say(session, "/unit advance preview:true")).startswith("⚠ この戦闘は終わっています")
