"""Issue 37, S-HIDE-1: the table's log of an undo that took back a secret action beside one it saw reads
as the undo of what it saw: ``/gm undo`` (not ``/gm undo steps:2``) took back 1 action; the GM's log
keeps the command as typed."""

from __future__ import annotations

from pathlib import Path

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import open_storage
from bot.views import LogView, View
from engine.dice import SeededDice

HERE = Where("g", "sg")
GM = Actor("gm")
PLAYER = Actor("player")


async def run(service: BattleService, actor: Actor, text: str) -> View:
    line = parse_line(text)
    assert line is not None
    return await service.execute(HERE, actor, Invocation(line.path, line.options, line.text))


async def test_an_undo_of_a_secret_action_and_a_seen_one_reads_as_the_seen_one_undone(tmp_path: Path) -> None:
    storage = await open_storage(str(tmp_path / "u.db"))
    try:
        service = BattleService(storage, SeededDice(3))
        for text in (
            "/sg start title:庭",
            "/sg join name:霊夢 dp_max:10 recovery:2",
            "/sg join name:ルーミア dp_max:10 recovery:2 side:enemy hidden:true",
        ):
            assert (await run(service, GM, text)).ok, text
        assert (await run(service, GM, "/gm undo steps:2")).ok
        table = await run(service, PLAYER, "/sg log")
        assert isinstance(table, LogView)
        undo = table.entries[-1]
        assert undo.text == "/gm undo" and [e.data["steps"] for e in undo.events] == [1]
        gm = await run(service, GM, "/sg log gm:true")
        assert isinstance(gm, LogView)
        assert gm.entries[-1].text == "/gm undo steps:2"
        assert [e.data["steps"] for e in gm.entries[-1].events] == [2]
    finally:
        await storage.close()
