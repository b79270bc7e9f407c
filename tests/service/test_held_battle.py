"""What the service holds of a channel's battle between commands (issue 22): the state and the
document as stored, serialised piece by piece, and no document beside them; a battle read from the
database keeps the document as read until its first action, whose patch goes from it."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.battles import read_latest_head, read_state_at
from bot.storage.docpatch import Encoded, apply
from bot.storage.interface import Storage
from bot.storage.log import read_live_actions
from bot.storage.records import BattleHead
from bot.views import ErrorView
from engine.dice import ScriptedDice

HERE = Where("guild", "held")
GM = Actor("gm")
KEY = (HERE.guild, HERE.channel)


async def run(service: BattleService, line: str) -> None:
    parsed = parse_line(line)
    assert parsed is not None
    view = await service.execute(HERE, GM, Invocation(parsed.path, parsed.options, parsed.text))
    assert not isinstance(view, ErrorView), view


async def stored(engine: AsyncEngine) -> tuple[BattleHead, dict[str, Any]]:
    async with engine.connect() as conn:
        head = await conn.run_sync(read_latest_head, HERE.guild, HERE.channel)
        assert head is not None
        return head, await conn.run_sync(read_state_at, head.id, head.version)


async def test_a_held_battle_is_its_state_and_the_stored_text(storage: Storage, engine: AsyncEngine) -> None:
    service = BattleService(storage, ScriptedDice([]))
    await run(service, "/fort start rounds:3 fort_hp:200 title:T")
    for i in range(5):
        await run(service, f"/unit add name:G{i} type:normal area:A1 hp:40 fort_damage:10")
    await run(service, "/unit hp unit:G3 delta:-7")
    live = service.cache.get(KEY)
    assert live is not None and isinstance(live.stored, Encoded)
    _head, document = await stored(engine)
    assert json.loads(live.stored.text) == document
    assert live.document() == document
    # the encoding's elements are the state's own: a unit not changed is not exported again
    assert live.stored.sources["units"] is live.state.units
    assert [u["hp"] for u in document["units"]] == [40, 40, 40, 33, 40]


async def test_a_battle_read_from_the_database_is_patched_from_the_document_read(
    storage: Storage, engine: AsyncEngine
) -> None:
    first = BattleService(storage, ScriptedDice([]))
    await run(first, "/fort start rounds:3 fort_hp:200 title:T")
    await run(first, "/unit add name:G1 type:normal area:A1 hp:40 fort_damage:10")
    head, before = await stored(engine)
    # another process: it reads the battle, answers a read from the document as read
    second = BattleService(storage, ScriptedDice([]))
    status = await second.status(HERE)
    assert status is not None and status.document == before
    live = second.cache.get(KEY)
    assert live is not None and live.stored == before
    await run(second, "/unit hp unit:G1 set:12")
    live = second.cache.get(KEY)
    assert live is not None and isinstance(live.stored, Encoded)
    after_head, after = await stored(engine)
    async with engine.connect() as conn:
        rows = await conn.run_sync(read_live_actions, head.id, 1)
    assert rows[0].seq == after_head.version == head.version + 1
    assert rows[0].delta == {"l": {"units": [{"i": 0, "o": {"hp": 40}, "v": {"hp": 12}}]}}
    assert rows[0].delta is not None and apply(before, rows[0].delta) == after
