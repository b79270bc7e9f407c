"""The writer's fast lane (issue 10), on each backend: what it stores is what the ordinary path stores,
and every write it cannot prove still holds runs the ordinary way.

- the rows of one scripted game, through the lane and without it, are equal column by column (an
  action, a snapshot, a discarded redo, a co-GM's action checked against the rights it was decided on);
- another process's write, a co-GM removed or a GM role changed by another process: the lane stores
  nothing of the batch, the command is decided again on the stored battle (F-* rules unchanged);
- a lane failing before its commit leaves the command to the ordinary path, stored once; one failing
  during its commit is reported, never run twice;
- SQLite: a write lock held by another process is waited for in the lane's thread; the log stays small.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.console.parser import parse_line
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import fastlane, upgrade
from bot.storage import repository as repo
from bot.views import ErrorView, EventsView, ExportView, View
from engine.dice import ScriptedDice

HERE = Where("g", "c")
GM = Actor("gm")
BATTLE = {
    "format": "toride.fort/1",
    "title": "lane",
    "rounds": 9,
    "pcs": [{"name": "Alice", "position": "outside"}],
    "units": [
        {"name": f"u{i}", "type": "normal", "area": "A1", "hp": 500, "fort_damage": 1, "strike": "2d+3"}
        for i in range(3)
    ],
}


async def run(service: BattleService, text: str, actor: Actor = GM) -> View:
    line = parse_line(text)
    assert line is not None
    return await service.execute(HERE, actor, Invocation(line.path, line.options, line.text))


async def ok(service: BattleService, text: str, actor: Actor = GM) -> View:
    view = await run(service, text, actor)
    assert not isinstance(view, ErrorView), (text, view)
    return view


async def unit_hp(service: BattleService, name: str = "u0") -> int:
    view = await ok(service, "/fort export")
    assert isinstance(view, ExportView)
    return next(int(u["hp"]) for u in view.document["units"] if u["name"] == name)


async def new_service(engine: AsyncEngine, **kwargs: Any) -> BattleService:
    await upgrade(engine)
    return BattleService(engine, ScriptedDice([3, 4] * 200), **kwargs)


async def holding(engine: AsyncEngine) -> tuple[BattleService, Any]:
    """A service holding the battle at version 2 (one action through the lane), and its lane."""
    service = await new_service(engine)
    await service.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    await ok(service, "/unit hp unit:u0 delta:-1")
    assert service._writer.lane is not None and service._writer.fast_written == 1
    return service, service._writer.lane


async def two_processes(engine_factory: Callable[[], AsyncEngine]) -> tuple[BattleService, BattleService]:
    """Two services on one database (two processes), the battle imported by the first."""
    one = await new_service(engine_factory())
    two = await new_service(engine_factory())
    await one.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    return one, two


async def stored_rows(engine: AsyncEngine) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The battle rows and log rows, every column but ids and clock times."""
    battles, events = repo.battles, repo.events
    skip_b = {"id", "created_at", "updated_at", "ended_at"}
    skip_e = {"id", "battle_id", "created_at"}
    async with engine.connect() as conn:
        b = (await conn.execute(select(*(c for c in battles.c if c.name not in skip_b)))).all()
        e = (
            await conn.execute(
                select(*(c for c in events.c if c.name not in skip_e)).order_by(
                    events.c.battle_id, events.c.seq
                )
            )
        ).all()
        times = (await conn.execute(select(events.c.created_at, battles.c.updated_at).join(battles))).all()
    for created, updated in times:  # stored as the ordinary path stores them: read back as times
        assert created.year >= 2026 and updated.year >= 2026
    return [tuple(r) for r in b], [tuple(r) for r in e]


#: by the co-GM: decided on the rights read (and kept) by the line before, checked when stored
CO_LINE = "/unit hp unit:u2 delta:-1"
SCRIPT = [
    "/unit hp unit:u0 delta:-5",
    "/unit hp unit:u1 delta:-7",
    "/gm add user:co",
    "/unit hp unit:u2 delta:0",
    CO_LINE,
    "/gm undo",
    "/unit hp unit:u0 delta:-2",  # discards the undone action
    "/fort next",
    "/fort next",  # the round ends
] + [f"/unit hp unit:u{i % 3} delta:-1" for i in range(12)]


async def play(service: BattleService) -> None:
    view = await service.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    assert not isinstance(view, ErrorView), view
    for line in SCRIPT:
        await ok(service, line, Actor("co") if line in (CO_LINE, "/unit hp unit:u2 delta:0") else GM)


async def test_the_lane_stores_what_the_ordinary_path_stores(
    engine_factory: Callable[[], AsyncEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a snapshot every few actions, so that the lane writes whole states too
    monkeypatch.setattr(repo, "SNAPSHOT_EVERY", 5)
    fast_engine = engine_factory()
    fast = await new_service(fast_engine)
    await play(fast)
    assert fast._writer.fast_written >= 15 and fast._writer.fast_returned == 0
    fast_rows = await stored_rows(fast_engine)
    await fast.close()

    # the same game on an empty database of the same backend, the lane off
    async with fast_engine.begin() as conn:
        await conn.execute(repo.gms.delete())
        await conn.execute(repo.events.delete())
        await conn.execute(repo.battles.delete())
    plain = await new_service(engine_factory(), fast_lane=False)
    await play(plain)
    assert plain._writer.fast_written == 0
    plain_rows = await stored_rows(plain.engine)

    assert fast_rows == plain_rows
    _, events = fast_rows
    assert len(events) == len(SCRIPT)  # the import and every line but /gm add (no battle state)
    assert any(row[-1] is not None for row in events[2:])  # a snapshot went through the lane
    statuses = [row[2] for row in events]
    assert "discarded" in statuses


async def test_another_process_wrote_the_battle_the_command_is_decided_again(
    engine_factory: Callable[[], AsyncEngine],
) -> None:
    one, two = await two_processes(engine_factory)
    await ok(one, "/unit hp unit:u0 delta:-5")  # one holds the battle at version 2
    await ok(two, "/unit hp unit:u0 delta:-10")  # the other process writes version 3
    view = await ok(one, "/unit hp unit:u0 delta:-1")  # decided on version 2: not stored so
    assert isinstance(view, EventsView) and view.seq == 4
    assert one._writer.fast_returned == 1 and one.conflicts == 1
    assert await unit_hp(one) == await unit_hp(two) == 500 - 16


async def test_a_co_gm_removed_by_another_process_is_a_player_at_once(
    engine_factory: Callable[[], AsyncEngine],
) -> None:
    """#9's rule, kept by the lane: the rights a command was decided on are checked when it is stored."""
    one, two = await two_processes(engine_factory)
    await ok(one, "/gm add user:co")
    await ok(one, "/unit hp unit:u0 delta:-1", Actor("co"))  # one keeps co's rights (a co-GM)
    written = one._writer.fast_written
    await ok(one, "/unit hp unit:u0 delta:-1", Actor("co"))  # through the lane, on them
    assert one._writer.fast_written == written + 1
    await ok(two, "/gm remove user:co")
    view = await run(one, "/unit hp unit:u0 delta:-1", Actor("co"))
    assert isinstance(view, ErrorView) and view.key == "service.gm_only"
    assert one._writer.fast_returned == 1
    assert await unit_hp(one) == 498


async def test_a_gm_role_given_by_another_process_counts_at_once(
    engine_factory: Callable[[], AsyncEngine],
) -> None:
    one, two = await two_processes(engine_factory)
    player = Actor("p", roles=frozenset({"gms"}))
    refused = await run(one, "/unit hp unit:u0 delta:-1", player)  # one keeps p's rights: a player
    assert isinstance(refused, ErrorView) and refused.key == "service.gm_only"
    await ok(two, "/gm role role:gms", Actor("owner", manage_guild=True))
    await ok(one, "/unit hp unit:u0 delta:-1", player)
    assert await unit_hp(one) == 499
    await ok(two, "/gm role", Actor("owner", manage_guild=True))  # no GM role again
    refused = await run(one, "/unit hp unit:u0 delta:-1", player)
    assert isinstance(refused, ErrorView) and refused.key == "service.gm_only"
    assert await unit_hp(one) == 499


async def test_a_lane_failing_before_its_commit_leaves_the_command_to_the_ordinary_path(
    engine_factory: Callable[[], AsyncEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, lane = await holding(engine_factory())

    async def failing(plans: Any, keys: Any) -> bool:
        raise ConnectionResetError("the lane's connection went away")

    monkeypatch.setattr(lane, "commit", failing)
    view = await ok(service, "/unit hp unit:u0 delta:-2")
    assert isinstance(view, EventsView) and view.seq == 3
    assert service._writer.fast_returned == 1
    assert await unit_hp(service) == 497  # stored once


async def test_a_lane_failing_during_its_commit_is_reported_and_not_run_again(
    engine_factory: Callable[[], AsyncEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, lane = await holding(engine_factory())

    async def unknown(plans: Any, keys: Any) -> bool:
        raise fastlane.CommitUnknown(ConnectionResetError("gone during COMMIT"))

    monkeypatch.setattr(lane, "commit", unknown)
    with pytest.raises(ConnectionResetError):
        await run(service, "/unit hp unit:u0 delta:-2")
    monkeypatch.undo()
    assert service._writer.fast_returned == 0
    assert await unit_hp(service) == 499  # not run the ordinary way after it


async def test_sqlite_a_write_lock_held_elsewhere_is_waited_for_in_the_thread(tmp_path: Path) -> None:
    from bot.storage import make_engine

    path = tmp_path / "lock.db"
    service = await new_service(make_engine(f"sqlite+aiosqlite:///{path}"))
    await service.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    await ok(service, "/unit hp unit:u0 delta:-1")
    lane = service._writer.lane
    assert isinstance(lane, fastlane._SqliteLane)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    command = asyncio.ensure_future(run(service, "/unit hp unit:u0 delta:-2"))
    await asyncio.sleep(0.3)  # the event loop goes on meanwhile
    assert not command.done()  # waiting for the lock, in the thread
    other.execute("COMMIT")
    view = await command
    assert isinstance(view, EventsView) and view.seq == 3
    assert lane.waited == 1 and service._writer.fast_returned == 0
    assert await unit_hp(service) == 497
    other.close()
    await service.close()
    await service.engine.dispose()


async def test_sqlite_the_log_does_not_grow_with_the_lane(tmp_path: Path) -> None:
    """The lane's connection has SQLite's checkpoint off; its own, in the thread, keeps the log small."""
    from bot.storage import make_engine

    path = tmp_path / "wal.db"
    service = await new_service(make_engine(f"sqlite+aiosqlite:///{path}"))
    await service.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    sizes = []
    for n in range(4 * fastlane.CHECKPOINT_EVERY * 2):
        await ok(service, f"/unit hp unit:u{n % 3} delta:-1")
        if n % (2 * fastlane.CHECKPOINT_EVERY) == 2 * fastlane.CHECKPOINT_EVERY - 1:
            await asyncio.sleep(0.05)  # the thread's checkpoint
            sizes.append(Path(str(path) + "-wal").stat().st_size)
    assert service._writer.fast_written >= 4 * fastlane.CHECKPOINT_EVERY * 2 - 1
    # the file keeps its largest size, reached between two checkpoints: without them it would have
    # grown fourfold from the first size to the last
    assert sizes[-1] <= 2 * sizes[0], sizes
    await service.close()
    await service.engine.dispose()


def test_an_in_memory_sqlite_database_has_no_lane() -> None:
    from bot.storage import make_engine

    assert fastlane.lane_for(make_engine("sqlite+aiosqlite://")) is None
    assert fastlane.lane_for(make_engine("sqlite+aiosqlite:///:memory:")) is None
