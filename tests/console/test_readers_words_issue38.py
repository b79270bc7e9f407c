"""Issue 38: replies in the reader's own words, as a Japanese GM reads them (items 1, 6, 10, 11): a
table's words for ending the turn end the turn, never the battle; a command of another rule set names
the running one as the reader's client does; yes-or-no options and heals in words."""

from __future__ import annotations

from pathlib import Path

from bot.console.session import ConsoleSession
from bot.service import BattleService
from bot.storage import open_storage
from engine.dice import SeededDice


async def test_turn_end_words_end_the_turn_never_the_battle(tmp_path: Path) -> None:
    """Issue 38, item 1: ``/砦 ターン終了`` was a near miss of ``/砦 終了`` (which ends the battle); it is
    the table's word for ending the side's turn: ``/砦 次へ``."""
    storage = await open_storage(str(tmp_path / "f.db"))
    try:
        session = ConsoleSession(BattleService(storage, SeededDice(1)), lang="ja", base_dir=tmp_path)
        assert (await session.handle("/砦 開始 ラウンド数:2")).ok  # type: ignore[union-attr]
        reply = await session.handle("/砦 ターン終了")
        assert reply is not None and reply.ok and "第1ラウンド、敵側の手番です。" in reply.text, reply
        # and a command of another rule set names the running one as the reader's client does
        other = await session.handle("/戦闘 終了")
        assert (
            other is not None
            and other.text == "⚠ /戦闘 終了 はこのチャンネルの戦闘では使えません(現在の戦闘: /砦)。"
        )
    finally:
        await storage.close()


async def test_a_resistance_is_typed_as_a_table_says_it(tmp_path: Path) -> None:
    """Issue 38, item 6: ``抵抗:半減`` is the fort's ``resisted:true`` (F-UNIT-4), ``抵抗:抵抗なし``
    false; the help shows a yes-or-no option as はい・いいえ."""
    storage = await open_storage(str(tmp_path / "f.db"))
    try:
        session = ConsoleSession(BattleService(storage, SeededDice(1)), lang="ja", base_dir=tmp_path)
        for line in (
            "/砦 開始 ラウンド数:2",
            "/pc 追加 名前:アリス",
            "/ユニット 追加 名前:ゴブリン隊 タイプ:通常 エリア:A1 hp:30 砦ダメージ:5",
        ):
            reply = await session.handle(line)
            assert reply is not None and reply.ok, (line, reply)
        halved = await session.handle("/攻撃 貫通 起点:F0 終点:A2 ダメージ:20 抵抗:半減")
        assert halved is not None and halved.ok, halved
        # pierce halves 20 to 10, the resistance halves it again (F-UNIT-6)
        assert halved.text.endswith("ゴブリン隊に5ダメージ(HP 30→25)。")
        bad = await session.handle("/攻撃 貫通 起点:F0 終点:A2 ダメージ:20 抵抗:たぶん")
        assert (
            bad is not None
            and bad.text == "⚠ 「抵抗:」には「はい」か「いいえ」(true・false)を指定してください(「たぶん」)。"
        )
        usage = await session.handle("/help 攻撃 貫通")
        assert usage is not None and "[抵抗:<はい・いいえ>]" in usage.text
    finally:
        await storage.close()


async def test_a_heal_that_gains_nothing_says_why(tmp_path: Path) -> None:
    """F-FORT-2: a heal under 10 does nothing; at the fort's maximum (280 here) it gains nothing."""
    storage = await open_storage(str(tmp_path / "f.db"))
    try:
        session = ConsoleSession(BattleService(storage, SeededDice(1)), lang="ja", base_dir=tmp_path)
        for line in ("/砦 開始 ラウンド数:2 砦hp:280", "/pc 追加 名前:アリス"):
            assert (await session.handle(line)).ok  # type: ignore[union-attr]
        small = await session.handle("/砦 回復 量:5")
        assert (
            small is not None and small.text == "砦への回復5: 砦HP +0(回復量10未満は効果なし)(HP 280→280)。"
        )
        full = await session.handle("/砦 回復 量:10")
        assert full is not None and full.text == "砦への回復10: 砦HP +0(上限280)(HP 280→280)。"
    finally:
        await storage.close()


def test_a_ram_named_like_its_type_is_named_once() -> None:
    """Issue 38, item 12: 「破城槌 破城槌が…」 read twice; a ram named otherwise keeps its type word."""
    from bot.render.common import event_line
    from bot.rulesets.builtin import ensure_builtin
    from engine.ruleset import Event

    ensure_builtin()
    data = {"edge": "F0-B1", "uses_before": 2, "uses_after": 1}
    assert event_line(Event("trap.rammed", {**data, "unit": "破城槌"}), "ja") == (
        "破城槌がF0-B1のバリケードを突破(残り1回)。"
    )
    assert event_line(Event("trap.rammed", {**data, "unit": "丸太隊"}), "ja") == (
        "破城槌 丸太隊がF0-B1のバリケードを突破(残り1回)。"
    )


def test_the_help_reads_in_the_readers_words_and_the_order_play_goes() -> None:
    """Issue 38, item 7: an unknown topic lists the groups as the reader's client names them; a group's
    commands in the order play goes (開始 before 終了); a command of its own is no member of /gm; the
    Discord overview has no console line; the help's own description names /砦, not fort."""
    import pytest

    from bot.commands import UserError
    from bot.render.help_text import help_text
    from bot.rulesets.builtin import ensure_builtin

    ensure_builtin()
    with pytest.raises(UserError) as refused:
        help_text("ja", "たいほう")
    assert refused.value.key == "help.unknown"
    assert refused.value.values["groups"].text("ja").startswith("/砦、/pc、/ユニット、/指揮官")
    overview = help_text("ja").splitlines()
    fort = [line.split(" — ")[0] for line in overview if line.startswith("  /砦 ")]
    assert fort.index("  /砦 開始") < fort.index("  /砦 終了")
    assert any(line.startswith("/ダイス — ") for line in overview)
    assert any(line.startswith("/ヘルプ — コマンドの一覧と説明。グループ(/砦 など)") for line in overview)
    assert "「/quit」" in overview[-1]
    assert "「/quit」" not in help_text("ja", console=False).splitlines()[-1]


def test_autocomplete_finds_a_katakana_name_typed_in_hiragana() -> None:
    """Issue 38, item 9: autocomplete ``ごぶ`` offers ゴブリン隊 (full width, case and kana folded)."""
    from bot.discord.status import filter_names

    assert filter_names(["オーガ", "ゴブリン隊", "大ゴブリン"], "ごぶ") == ["ゴブリン隊", "大ゴブリン"]
    assert filter_names(["ゴブリン隊"], "ＧＯＢ") == []


async def test_equipment_refused_away_from_the_top_names_where_the_pc_is(tmp_path: Path) -> None:
    """Issue 38, item 4: ``/バリスタ 発射`` by a PC at A1 read 「リーネはA1のにいます。」 (a PC off the fort
    has no position: the sentence lost its word, F-FORT-3)."""
    storage = await open_storage(str(tmp_path / "f.db"))
    try:
        session = ConsoleSession(BattleService(storage, SeededDice(1)), lang="ja", base_dir=tmp_path)
        for line in ("/砦 開始 ラウンド数:3", "/PC 追加 名前:リーネ", "/PC 移動 名前:リーネ エリア:A1"):
            assert (await session.handle(line)).ok  # type: ignore[union-attr]
        reply = await session.handle("/バリスタ 発射 ユニット:ゴブリン隊")
        assert reply is not None and reply.text == (
            "⚠ リーネはA1にいます。防衛設備は砦上部(F0)のPCか、F0の兵士ユニットが使います。"
        )
    finally:
        await storage.close()


async def test_a_mercy_refusal_lists_the_choices_as_the_reader_types_them(tmp_path: Path) -> None:
    """Issue 38 (Proof: no English choice in a Japanese reply): S-MERCY-1's refusal listed
    ``none, unconscious, hp1``."""
    storage = await open_storage(str(tmp_path / "s.db"))
    try:
        session = ConsoleSession(BattleService(storage, SeededDice(1)), lang="ja", base_dir=tmp_path)
        for line in ("/千幻抄 開始", "/千幻抄 参加 名前:霊夢 hp:10 最大dp:10 回復量:3"):
            assert (await session.handle(line)).ok  # type: ignore[union-attr]
        reply = await session.handle("/千幻抄 ダメージ 名前:霊夢 量:12")
        assert reply is not None and reply.text == (
            "⚠ 霊夢のHPが0になります。攻撃側が選んでください: "
            "「手加減:気絶」「手加減:HP1で戦闘不能」「手加減:選ばない」のどれか"
        )
        chosen = await session.handle("/千幻抄 ダメージ 名前:霊夢 量:12 手加減:気絶")
        assert chosen is not None and chosen.ok and "霊夢は気絶しました(HP 0)。" in chosen.text
    finally:
        await storage.close()


async def test_a_sg_roll_without_a_base_names_its_own_check_option(tmp_path: Path) -> None:
    """Issue 38, item 8: ``/千幻抄 判定 … 種類:攻撃`` asked for ``判定値:`` (the fort's option), which
    /千幻抄 判定 does not have; its option is ``判定:``."""
    storage = await open_storage(str(tmp_path / "s.db"))
    try:
        session = ConsoleSession(BattleService(storage, SeededDice(1)), lang="ja", base_dir=tmp_path)
        for line in ("/千幻抄 開始", "/千幻抄 参加 名前:霊夢 hp:10 最大dp:10 回復量:3"):
            assert (await session.handle(line)).ok  # type: ignore[union-attr]
        reply = await session.handle("/千幻抄 判定 名前:霊夢 ダイス数:2 種類:攻撃")
        assert reply is not None and reply.text == (
            "⚠ 霊夢の基本値がありません。基本値:(数値)か 判定:(例: 感覚+感知)を指定してください。"
        )
        skill = await session.handle("/千幻抄 判定 名前:霊夢 ダイス数:0 判定:感覚+射撃")
        assert skill is not None and "判定値" not in skill.text, skill.text
    finally:
        await storage.close()
