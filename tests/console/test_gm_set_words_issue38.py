"""Issue 38, item 3: ``/gm 上書き`` in the reader's words, in every rule set (``bot.gm_targets``): targets
typed in Japanese (砦HP, 大砲1.砲弾, ゴブリン隊.HP), the English paths still taken, a value the rules
cannot mean refused saying what is allowed, one that means something more said (a unit destroyed, a PC
down), an unknown target refused with the targets listed as the reader types them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.storage import open_storage
from engine.dice import SeededDice


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[ConsoleSession]:
    storage = await open_storage(str(tmp_path / "g.db"))
    try:
        yield ConsoleSession(BattleService(storage, SeededDice(1)), lang="ja", base_dir=tmp_path)
    finally:
        await storage.close()


async def said(session: ConsoleSession, line: str) -> str:
    reply = await session.handle(line)
    assert reply is not None
    return reply.text


async def fort(session: ConsoleSession) -> None:
    for line in (
        "/砦 開始 ラウンド数:3",
        "/ユニット 追加 名前:ゴブリン隊 タイプ:通常 エリア:A1 hp:30 砦ダメージ:5",
        "/pc 追加 名前:アリス",
        "/指揮官 追加 名前:ボス エリア:A2 hp:20",
    ):
        assert (await session.handle(line)).ok, line  # type: ignore[union-attr]


async def test_fort_targets_typed_in_japanese(session: ConsoleSession) -> None:
    """The fort's targets as the table says them; the English paths too, from the same reader."""
    await fort(session)
    assert await said(session, "/gm 上書き 対象:砦HP 値:250") == "GMが砦HPを300から250に変更しました。"
    assert await said(session, "/gm 上書き 対象:大砲1.砲弾 値:3") == "GMが大砲1の砲弾を0から3に変更しました。"
    assert await said(session, "/gm 上書き 対象:ゴブリン隊.行動済み 値:はい") == (
        "GMがゴブリン隊の行動済みをいいえからはいに変更しました。"
    )
    assert await said(session, "/gm 上書き 対象:ゴブリン隊.エリア 値:A2") == (
        "GMがゴブリン隊のエリアをA1からA2に変更しました。"
    )
    assert await said(session, "/gm 上書き 対象:アリス.HP 値:25") == (
        "GMがアリスのHPをなしから25に変更しました。"
    )
    assert await said(session, "/gm 上書き 対象:ラウンド 値:2") == "GMがラウンドを1から2に変更しました。"
    assert await said(session, "/gm set target:fort.hp value:240") == "GMが砦HPを250から240に変更しました。"
    assert await said(session, "/gm 上書き 対象:unit.ゴブリン隊.moved_m 値:5") == (
        "GMがゴブリン隊の移動距離を0から5に変更しました。"
    )


async def test_fort_values_the_rules_cannot_mean_are_refused(session: ConsoleSession) -> None:
    """F-UNIT-6: a unit's HP below 0 means nothing more than 0 (the old code took -10 and destroyed the
    unit without a word); shells below 0 and a round outside the battle are refused, naming the range."""
    await fort(session)
    assert await said(session, "/gm 上書き 対象:unit.ゴブリン隊.hp 値:-10") == (
        "⚠ unit.ゴブリン隊.hpに「-10」は設定できません(0から30までの整数にしてください)。"
    )
    assert await said(session, "/gm 上書き 対象:ゴブリン隊.HP 値:-10") == (
        "⚠ ゴブリン隊.HPに「-10」は設定できません(0から30までの整数にしてください)。"
    )
    assert await said(session, "/gm 上書き 対象:大砲1.砲弾 値:-1") == (
        "⚠ 大砲1.砲弾に「-1」は設定できません(0から5までの整数にしてください)。"
    )
    assert await said(session, "/gm 上書き 対象:ラウンド 値:9") == (
        "⚠ ラウンドに「9」は設定できません(1から3までの整数にしてください)。"
    )
    assert await said(session, "/gm 上書き 対象:ボス.HP 値:-1") == (
        "⚠ ボス.HPに「-1」は設定できません(0から20までの整数にしてください)。"
    )
    roster = await said(session, "/ユニット 一覧")
    assert "ゴブリン隊(通常・敵側) A1 HP 30/30" in roster  # nothing changed


async def test_fort_a_value_that_means_more_says_so(session: ConsoleSession) -> None:
    """F-UNIT-6: HP 0 destroys the unit, HP above 0 brings it back, each said as /unit hp says it;
    F-UNIT-12: the last commander at 0 confuses the enemy."""
    await fort(session)
    assert await said(session, "/gm 上書き 対象:ゴブリン隊.HP 値:0") == (
        "GMがゴブリン隊のHPを30から0に変更しました。\nゴブリン隊を撃破しました(A1)。"
    )
    assert await said(session, "/gm 上書き 対象:ゴブリン隊.HP 値:12") == (
        "GMがゴブリン隊のHPを0から12に変更しました。\nゴブリン隊が戦線に戻りました(A1)。"
    )
    assert await said(session, "/gm 上書き 対象:ゴブリン隊.撃破済み 値:はい") == (
        "GMがゴブリン隊.撃破済みをいいえからはいに変更しました。\nゴブリン隊を撃破しました(A1)。"
    )
    assert await said(session, "/gm 上書き 対象:ボス.HP 値:0") == (
        "GMがボスのHPを20から0に変更しました。\n指揮官が全員倒れました。敵は混乱し、第1ラウンドの敵の手番には移動しません。"
    )


async def test_fort_an_unknown_target_lists_the_targets_in_japanese(session: ConsoleSession) -> None:
    """The complaint: 砦HP was unknown and the refusal named English paths only."""
    await fort(session)
    refused = await said(session, "/gm 上書き 対象:天気 値:雨")
    assert refused.startswith(
        "⚠ 設定先「天気」が分かりません。使えるもの: 砦HP、砦の最大HP、ラウンド、ラウンド数、手番、"
        "先攻、タイトル、結果、大砲の数、大砲1.砲弾、大砲2.砲弾、バリスタ.装填、"
    )
    assert "、<ユニット名>.HP・エリア・行動済み・移動距離・弱点・位置・足止め・最大HP・" in refused
    assert refused.endswith("、<指揮官名>.HP・エリア・鼓咆・最大HP")
    # a name the battle does not have is the engine's to refuse, with the name it is near
    assert await said(session, "/gm 上書き 対象:ごぶりん隊.HP 値:3") == (
        "⚠ ごぶりん隊.HPに「3」は設定できません(「ごぶりん隊」というユニットはいません。"
        "ゴブリン隊のことですか?)。"
    )


async def test_sengensho_targets_typed_in_japanese(session: ConsoleSession) -> None:
    """千幻抄: a character's DP and HP (S-CORE-1), the turn; HP below 0 refused saying what is allowed."""
    for line in ("/sg start", "/sg join name:霊夢 body:3 endurance:3 intellect:3 sense:3 will:3 hp:20"):
        assert (await session.handle(line)).ok, line  # type: ignore[union-attr]
    assert await said(session, "/gm 上書き 対象:霊夢.DP 値:2") == "GMが霊夢.DPを19から2に変更しました。"
    assert await said(session, "/gm 上書き 対象:ターン 値:2") == "GMがターンを0から2に変更しました。"
    assert await said(session, "/gm set target:霊夢.hp value:15") == "GMが霊夢.HPを20から15に変更しました。"
    assert await said(session, "/gm 上書き 対象:霊夢.HP 値:-1") == (
        "⚠ 霊夢.HPに「-1」は設定できません(0 以上の整数にしてください)。"
    )
    assert await said(session, "/gm 上書き 対象:霊夢.DP 値:20") == (
        "⚠ 霊夢.DPに「20」は設定できません(0から19までの整数にしてください)。"
    )
    assert await said(session, "/gm 上書き 対象:天気 値:雨") == (
        "⚠ 設定先「天気」が分かりません。使えるもの: ターン、手番、開始時DP、GM固定値、宣言枠.PC側、"
        "宣言枠.敵側、<名前>.HP・DP・行動済み・宣言DP・行動不能・潜伏・最大HP・最大DP・回復量・"
        "スペルカード・使用済みカード・露見・"
        "戦闘不能・不意打ち・攻撃制限・技能・能力値・メモ・名前"
    )


async def test_battle_targets_typed_in_japanese(session: ConsoleSession) -> None:
    """The ordinary battle: B-CHAR-3, a PC below 0 HP is 戦闘不能 and a monster at 0 down, each said;
    a round outside the battle refused naming the range."""
    for line in (
        "/battle start",
        "/battle pc name:ガルド hp:24 defense:3 evasion:9",
        "/battle monster name:ゴブリン hp:16 defense:2 reputation:5 weakness_value:11",
    ):
        assert (await session.handle(line)).ok, line  # type: ignore[union-attr]
    assert await said(session, "/gm 上書き 対象:ガルド.HP 値:-3") == (
        "GMがガルド.HPを24から-3に変更しました。\n"
        "ガルドは戦闘不能です(HP -3)。気絶・生死判定は基本ルールどおりに行います。"
    )
    assert await said(session, "/gm set target:ガルド.hp value:10") == (
        "GMがガルド.HPを-3から10に変更しました。\nガルドは戦闘不能から立ち直りました(HP 10)。"
    )
    down = await said(session, "/gm 上書き 対象:ゴブリン.HP 値:0")
    assert down.startswith("ゴブリンは戦闘不能になりました。\n")
    assert down.endswith("GMがゴブリン.HPを16から0に変更しました。")  # the GM's alone (B-KNOW-1)
    assert await said(session, "/gm 上書き 対象:ガルド.HP 値:30") == (
        "⚠ ガルド.HPに「30」は設定できません(24 以下の整数にしてください)。"
    )
    assert await said(session, "/gm 上書き 対象:ラウンド 値:5") == (
        "⚠ ラウンドに「5」は設定できません(0から0までの整数にしてください)。"
    )
    refused = await said(session, "/gm 上書き 対象:ガルド.知名度 値:3")  # a monster's, not a PC's
    assert refused.startswith(
        "⚠ 設定先「ガルド.知名度」が分かりません。使えるもの: ラウンド、手番、先攻、タイトル、"
    )
