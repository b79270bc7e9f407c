"""Issue 36: ``/help battle``'s examples run as printed, in both languages, in the console: each in a fresh
ordinary battle (a PC, three goblins, an effect on the PC), typed by its GM; ``start`` and ``import`` in a
channel with no battle (the file ``import`` names, the export of such a battle)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.console.session import ConsoleSession
from bot.i18n import catalogue, t
from bot.service import BattleService
from bot.storage import open_storage
from bot.views import ExportView
from engine.dice import SeededDice

LANGS = ("ja", "en")
SETUP = {
    "ja": (
        "/戦闘 開始 タイトル:練習 先攻:PC側",
        "/戦闘 pc 名前:ガルド hp:35 mp:12",
        "/戦闘 魔物 名前:ゴブリン hp:16 知名度:5 弱点値:11 数:3",
        "/戦闘 効果 対象:ガルド 名前:プロテクション ラウンド数:3",
    ),
    "en": (
        "/battle start title:practice first:pc",
        "/battle pc name:Gard hp:35 mp:12",
        "/battle monster name:Goblin hp:16 reputation:5 weakness_value:11 count:3",
        "/battle effect target:Gard name:Protection rounds:3",
    ),
}
#: examples run where no battle is
FRESH = ("help.example.battle.start", "help.example.battle.import")
#: examples run once round 1 has begun (the set-up's last line)
RUNNING = {"ja": "/戦闘 次へ", "en": "/battle next"}
IN_A_ROUND = ("help.example.battle.act",)


def examples(lang: str) -> list[str]:
    return sorted(k for k in catalogue(lang) if k.startswith("help.example.battle."))


async def session_for(tmp_path: Path, lang: str, channel: str) -> ConsoleSession:
    storage = await open_storage(str(tmp_path / f"{channel}.db"))
    service = BattleService(storage, SeededDice(5))
    return ConsoleSession(service, lang=lang, base_dir=tmp_path, channel=channel)


@pytest.mark.parametrize("lang", LANGS)
async def test_every_battle_example_runs_as_printed(tmp_path: Path, lang: str) -> None:
    keys = examples(lang)
    assert len(keys) >= 19
    for n, key in enumerate(keys):
        example = t(key, lang)
        session = await session_for(tmp_path, lang, f"c{n}")
        try:
            if key in FRESH:
                if key.endswith(".import"):  # the file it names: an export of a battle as set up
                    other = await session_for(tmp_path, lang, f"src{n}")
                    for line in (*SETUP[lang], "/battle export"):
                        done = await other.handle(line)
                        assert done is not None and done.ok, (line, done)
                    await other.service.storage.close()
                    assert isinstance(done.view, ExportView)
                    name = example.rsplit(":", 1)[1]
                    (tmp_path / name).write_text(json.dumps(done.view.document), encoding="utf-8")
            else:
                for line in (*SETUP[lang], *([RUNNING[lang]] if key in IN_A_ROUND else [])):
                    reply = await session.handle(line)
                    assert reply is not None and reply.ok, (line, reply)
            reply = await session.handle(example)
            assert reply is not None and reply.ok, (key, example, reply)
        finally:
            await session.service.storage.close()
