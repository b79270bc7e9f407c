"""A command line typed as the console reads it, run through the service in the storage tests' one
channel (``HERE``) by its GM unless told otherwise."""

from __future__ import annotations

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.views import ErrorView, View

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
