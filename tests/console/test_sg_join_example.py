"""Issue 37, item 5: the help's /sg join example runs as printed in both languages, and a join that
lacks attributes names them as the reader's client names the options (耐久、知性、意志), never in English
in a Japanese reply."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.session import ConsoleSession
from bot.i18n import t
from bot.service import BattleService
from bot.storage import open_storage
from engine.dice import SeededDice

START = {"ja": "/千幻抄 開始 タイトル:庭", "en": "/sg start title:garden"}


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_the_join_example_runs_as_printed(tmp_path: Path, lang: str) -> None:
    storage = await open_storage(str(tmp_path / "sg.db"))
    try:
        session = ConsoleSession(BattleService(storage, SeededDice(1)), lang=lang, base_dir=tmp_path)
        assert (await session.handle(START[lang])).ok  # type: ignore[union-attr]
        reply = await session.handle(t("help.example.sg.join", lang))
        assert reply is not None and reply.ok, reply
    finally:
        await storage.close()


async def test_missing_attributes_are_named_as_the_options(tmp_path: Path) -> None:
    storage = await open_storage(str(tmp_path / "sg.db"))
    try:
        session = ConsoleSession(BattleService(storage, SeededDice(1)), lang="ja", base_dir=tmp_path)
        assert (await session.handle(START["ja"])).ok  # type: ignore[union-attr]
        reply = await session.handle("/千幻抄 参加 名前:魔理沙 身体:3 感覚:4 hp:10")
        assert reply is not None and not reply.ok
        assert reply.text == (
            "⚠ 魔理沙の特性値が足りません: 耐久、知性、意志。特性値は5つすべて書いてください"
            "(特性値を書かないときは 最大dp: と 回復量: を直接指定します)。"
        )
    finally:
        await storage.close()
