"""Issue 38, item 2: the example ``/help 砦`` prints, ``/砦 書き出し ファイル:out.json``, runs as printed: the
console's own export option is taken by its Japanese name too."""

from __future__ import annotations

import json
from pathlib import Path

from bot.console.session import ConsoleSession
from bot.i18n import t
from bot.service import BattleService
from bot.storage import open_storage
from engine.dice import SeededDice


async def test_export_to_a_file_by_its_japanese_option_name(tmp_path: Path) -> None:
    storage = await open_storage(str(tmp_path / "f.db"))
    try:
        session = ConsoleSession(BattleService(storage, SeededDice(1)), lang="ja", base_dir=tmp_path)
        assert (await session.handle("/砦 開始 ラウンド数:2")).ok  # type: ignore[union-attr]
        example = t("help.console_example.fort.export", "ja")
        assert example == "/砦 書き出し ファイル:saved.json"
        reply = await session.handle(example)
        assert reply is not None and reply.ok, reply
        assert json.loads((tmp_path / "saved.json").read_text(encoding="utf-8"))["format"] == "toride.fort/1"
    finally:
        await storage.close()
