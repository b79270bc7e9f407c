"""A command line typed as the console reads it, run through the service in the storage tests' one
channel (``HERE``) by its GM unless told otherwise; and the battle, the services and the export
the storage writer's and reader's tests share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.sql import SqlStorage
from bot.views import ErrorView, ExportView, View
from engine.dice import ScriptedDice

HERE = Where("g", "c")
GM = Actor("gm")


async def run(service: BattleService, text: str, actor: Actor = GM, where: Where = HERE) -> View:
    line = parse_line(text)
    assert line is not None
    return await service.execute(where, actor, Invocation(line.path, line.options, line.text))


async def ok(service: BattleService, text: str, actor: Actor = GM, where: Where = HERE) -> View:
    """``run``, and the command was not refused."""
    view = await run(service, text, actor, where)
    assert not isinstance(view, ErrorView), (text, view)
    return view


#: three units of 500 HP at A1 (``u0`` ... ``u2``)
BATTLE = {
    "format": "toride.fort/1",
    "title": "stored",
    "rounds": 9,
    "pcs": [{"name": "Alice", "position": "outside"}],
    "units": [
        {"name": f"u{i}", "type": "normal", "area": "A1", "hp": 500, "fort_damage": 1, "strike": "2d+3"}
        for i in range(3)
    ],
}


async def new_service(storage: SqlStorage, **kwargs: Any) -> BattleService:
    """A service (a process) on ``storage``'s database, the schema upgraded, its dice scripted."""
    await storage.migrate()
    return BattleService(storage, ScriptedDice([3, 4] * 200), **kwargs)


async def two_processes(storage_factory: Callable[[], SqlStorage]) -> tuple[BattleService, BattleService]:
    """Two services on one database (two processes, each with a storage of its own), ``BATTLE``
    imported by the first."""
    one = await new_service(storage_factory())
    two = await new_service(storage_factory())
    await one.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    return one, two


async def unit_hp(service: BattleService, name: str = "u0", actor: Actor = GM) -> int:
    """The unit's HP in the channel's battle as ``actor`` exports it."""
    view = await ok(service, "/fort export", actor)
    assert isinstance(view, ExportView), view
    return next(int(u["hp"]) for u in view.document["units"] if u["name"] == name)
