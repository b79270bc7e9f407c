"""Issue 38, item 1 (and 11): a table's words for ending the turn end the turn, never the battle; a
command of another rule set names the running one as the reader's client does."""

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
