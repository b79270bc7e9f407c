"""A rule set that is one folder (``tests/toy_ruleset``) and one line in a registry: installed beside the
built-in ones, it gets console commands (in both languages), a slash command and a status, with no
generic module touched."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from toy import TOY

from bot.console.session import ConsoleSession
from bot.registry import Registry
from bot.render.text import render
from bot.rulesets.builtin import BUILTIN
from bot.service import BattleService
from bot.storage import open_storage
from bot.storage.interface import Storage
from bot.views import StatusView
from engine.dice import ScriptedDice

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "discord"))
from discord_harness import ALICE, GM, Harness


@pytest.fixture
def toy_registry(use_registry: Callable[[Registry], Registry]) -> Registry:
    return use_registry(Registry((*BUILTIN, TOY)))


@pytest.fixture
async def storage(tmp_path: Path, toy_registry: Registry) -> AsyncIterator[Storage]:
    storage = await open_storage(str(tmp_path / "battles.db"))
    yield storage
    await storage.close()


async def test_the_console_runs_its_commands_in_either_language(storage: Storage) -> None:
    service = BattleService(storage, ScriptedDice([4, 3, 6]))
    console = ConsoleSession(service, channel="toys", lang="en")
    said = []
    for line in ("/toy start goal:10", "/toy add count:2", "/集計 状況", "/toy add", "/toy add"):
        reply = await console.handle(line)
        assert reply is not None
        said.append(reply.text)
    assert said == [
        "A tally towards 10 begins.",
        "+7: the tally is at 7. (dice 4,3)",
        "Tally 7/10\nRolls: 4 3\nGM: gm",
        "+6: the tally is at 13. (dice 6)\nThe tally reached 13 of 10: it is over.\n\n"
        "━━ Battle result ━━\n  +6: the tally is at 13. (dice 6)\n  The tally reached 13 of 10: it is over.",
        "⚠ The tally is over.",
    ]
    japanese = ConsoleSession(service, channel="toys", lang="ja")
    reply = await japanese.handle("/集計 記録 件数:2")
    # the log in the reader's words, whichever language the commands were typed in
    assert reply is not None and reply.text.splitlines() == [
        "直近 2件の記録:",
        "#2 gm: /集計 加算 個数:2",
        "    +7: 集計は7です。 (出目 4,3)",
        "#3 gm: /集計 加算",
        "    +6: 集計は13です。 (出目 6)",
        "    集計が目標10に達しました(13)。集計は終わりです。",
    ]
    await service.close()


def test_its_status_renders_in_the_console(toy_registry: Registry) -> None:
    view = StatusView(ruleset="toy", document={"goal": 10, "total": 7, "rolls": [4, 3]}, gms=("gm",))
    assert render(view, "ja") == "集計 7/10\n出目: 4 3\nGM: gm"


async def test_its_slash_commands_and_their_answers(storage: Storage) -> None:
    harness = await Harness.create(BattleService(storage, ScriptedDice([5])), defer_after=None)
    try:
        (toy,) = [c for c in harness.bot.tree.get_commands() if c.name == "toy"]
        payload: dict[str, Any] = toy.to_dict(harness.bot.tree)
        start = next(o for o in payload["options"] if o["name"] == "start")
        assert start["description"] == "(GM) Start a tally in this channel."
        assert start["options"] == [
            {
                "type": 4,
                "name": "goal",
                "description": "Where the tally ends (1-100)",
                "required": True,
                "min_value": 1,
                "max_value": 100,
            }
        ]
        assert sorted(o["name"] for o in payload["options"]) == [
            "add", "export", "import", "log", "start", "status",
        ]  # fmt: skip
        started = await harness.run(GM, "toy start", goal=3)
        assert started.embeds[0]["title"] == "/集計 開始 目標:3"
        assert started.embeds[0]["description"] == "目標3の集計を始めます。"
        added = await harness.run(ALICE, "toy add")
        assert added.embeds[0]["description"] == (
            "+5: the tally is at 5. (dice 5)\nThe tally reached 5 of 3: it is over."
        )
        status = await harness.run(ALICE, "toy status")
        assert status.embeds[0]["title"] == "Tally 5/3"
        assert status.embeds[0]["description"] == "Rolls: 5\nGM: <@400000000000000001>"
    finally:
        await harness.bot.coalescer.close()
