"""The storage writer (``bot.storage.writer``, issue 22), on each backend: what its batches store is
what a job's transaction stores, and a plan that no longer holds is decided again.

- the rows of one scripted game stored by the writer's batches, and by a job's ``write`` (each plan a
  job of its own), are equal column by column (an action, a snapshot, a discarded redo, a co-GM's
  action checked against the rights it was decided on);
- another process's write, a co-GM removed or a GM role changed by another process: the plan does not
  hold, nothing of it is stored, the command is decided again on the stored battle;
- a failure before the COMMIT reaches the caller as the driver's error, nothing stored, and the next
  command is stored on a new connection; one during the COMMIT is reported and never run again;
- SQLite: a write lock held by another process is waited for in the writer's thread, the event loop
  going on meanwhile.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from db_under_test import terminate_backend
from service_lines import BATTLE, GM, HERE, new_service, ok, run, two_processes, unit_hp
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.service import Actor, BattleService, Invocation, Where
from bot.storage import plans as plans_module
from bot.storage.backends import storage_for
from bot.storage.battles import read_latest_head
from bot.storage.interface import Transaction
from bot.storage.log import read_log
from bot.storage.plans import plan_write
from bot.storage.records import BattleHead, NewRow, WritePlan
from bot.storage.sql import SqlStorage
from bot.storage.tables import battles, events, gms
from bot.views import ErrorView, EventsView


async def holding(storage: SqlStorage) -> tuple[BattleService, Any]:
    """A service holding the battle at version 2 (one action stored by the writer), and the dialect
    of the writer's own engine."""
    service = await new_service(storage)
    await service.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    await ok(service, "/unit hp unit:u0 delta:-1")
    assert storage.counts.stored == 1
    sync = storage.writer.thread._sync
    assert sync is not None
    return service, sync.dialect


async def stored_rows(engine: AsyncEngine) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The battle rows and log rows, every column but ids and clock times."""
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


async def test_the_writer_stores_what_a_transaction_stores(
    engine_factory: Callable[[], AsyncEngine],
    storage_factory: Callable[[], SqlStorage],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a snapshot every few actions, so that the writer stores whole states too
    monkeypatch.setattr(plans_module, "SNAPSHOT_EVERY", 5)
    first_engine = engine_factory()
    written = await new_service(storage_factory())
    await play(written)
    assert written.storage.counts.stored >= 15 and written.storage.counts.returned == 0
    writer_rows = await stored_rows(first_engine)
    await written.close()

    # the same game on an empty database of the same backend, each plan stored by a job's
    # transaction (a job of its own) instead
    async with first_engine.begin() as conn:
        await conn.execute(gms.delete())
        await conn.execute(events.delete())
        await conn.execute(battles.delete())
    plain = await new_service(storage_factory())

    async def in_a_transaction(plan: WritePlan, channel: tuple[str, str]) -> bool:
        async def job(transaction: Transaction) -> bool:
            await transaction.write(plan)
            return True

        return await plain.storage.run(job, channel=channel)

    monkeypatch.setattr(plain.storage, "store", in_a_transaction)
    await play(plain)
    assert plain.storage.counts.stored == 0
    plain_rows = await stored_rows(first_engine)

    assert writer_rows == plain_rows
    _, logged = writer_rows
    assert len(logged) == len(SCRIPT)  # the import and every line but /gm add (no battle state)
    assert any(row[-1] is not None for row in logged[2:])  # a snapshot stored by the writer
    statuses = [row[2] for row in logged]
    assert "discarded" in statuses


async def test_another_process_wrote_the_battle_the_command_is_decided_again(
    storage_factory: Callable[[], SqlStorage],
) -> None:
    one, two = await two_processes(storage_factory)
    await ok(one, "/unit hp unit:u0 delta:-5")  # one holds the battle at version 2
    await ok(two, "/unit hp unit:u0 delta:-10")  # the other process writes version 3
    view = await ok(one, "/unit hp unit:u0 delta:-1")  # decided on version 2: not stored so
    assert isinstance(view, EventsView) and view.seq == 4
    assert one.storage.counts.returned == 1 and one.actions.conflicts == 1
    assert await unit_hp(one) == await unit_hp(two) == 500 - 16


async def test_a_co_gm_removed_by_another_process_is_a_player_at_once(
    storage_factory: Callable[[], SqlStorage],
) -> None:
    """#9's rule: the rights a command was decided on are checked when it is stored."""
    one, two = await two_processes(storage_factory)
    await ok(one, "/gm add user:co")
    await ok(one, "/unit hp unit:u0 delta:-1", Actor("co"))  # one keeps co's rights (a co-GM)
    stored = one.storage.counts.stored
    await ok(one, "/unit hp unit:u0 delta:-1", Actor("co"))  # decided on them, no read
    assert one.storage.counts.stored == stored + 1
    await ok(two, "/gm remove user:co")
    view = await run(one, "/unit hp unit:u0 delta:-1", Actor("co"))
    assert isinstance(view, ErrorView) and view.key == "service.gm_only"
    assert one.storage.counts.returned == 1
    assert await unit_hp(one) == 498


async def test_a_gm_role_given_by_another_process_counts_at_once(
    storage_factory: Callable[[], SqlStorage],
) -> None:
    one, two = await two_processes(storage_factory)
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


async def test_a_failure_before_the_commit_reaches_the_caller_and_the_writer_recovers(
    storage_factory: Callable[[], SqlStorage], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, dialect = await holding(storage_factory())
    real = dialect.do_execute

    def failing(cursor: Any, statement: str, parameters: Any, context: Any = None) -> None:
        raise dialect.loaded_dbapi.OperationalError("disk I/O error")

    monkeypatch.setattr(dialect, "do_execute", failing)
    with pytest.raises(OperationalError, match="disk I/O error"):  # the driver's error, as it was
        await run(service, "/unit hp unit:u0 delta:-2")
    monkeypatch.setattr(dialect, "do_execute", real)
    assert await unit_hp(service) == 499  # nothing stored
    view = await ok(service, "/unit hp unit:u0 delta:-2")  # the storage is back: so is the writer
    assert isinstance(view, EventsView) and view.seq == 3
    assert await unit_hp(service) == 497


@pytest.mark.parametrize("stored", [False, True], ids=["not-committed", "committed"])
async def test_a_failure_during_the_commit_is_reported_and_never_run_again(
    storage_factory: Callable[[], SqlStorage], monkeypatch: pytest.MonkeyPatch, stored: bool
) -> None:
    service, dialect = await holding(storage_factory())
    real = dialect.do_commit

    def lost(dbapi_connection: Any) -> None:
        if stored:  # the server committed, and the connection broke before it said so
            real(dbapi_connection)
        raise dialect.loaded_dbapi.OperationalError("connection lost during COMMIT")

    monkeypatch.setattr(dialect, "do_commit", lost)
    with pytest.raises(OperationalError, match="during COMMIT"):
        await run(service, "/unit hp unit:u0 delta:-2")
    monkeypatch.setattr(dialect, "do_commit", real)
    assert service.storage.counts.returned == 0 and service.actions.conflicts == 0  # not decided again
    assert await unit_hp(service) == (497 if stored else 499)  # stored once, or not at all
    view = await ok(service, "/unit hp unit:u0 delta:-1")
    assert isinstance(view, EventsView) and view.seq == (4 if stored else 3)


async def test_sqlite_a_write_lock_held_elsewhere_is_waited_for_in_the_thread(tmp_path: Path) -> None:
    path = tmp_path / "lock.db"
    storage = storage_for(f"sqlite+aiosqlite:///{path}")
    service = await new_service(storage)
    await service.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    await ok(service, "/unit hp unit:u0 delta:-1")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    command = asyncio.ensure_future(run(service, "/unit hp unit:u0 delta:-2"))
    ticks = 0
    while storage.counts.batches < 2 or ticks < 20:  # the event loop goes on meanwhile
        await asyncio.sleep(0.01)
        ticks += 1
    assert not command.done()  # waiting for the lock, in the writer's thread
    other.execute("COMMIT")
    view = await command
    assert isinstance(view, EventsView) and view.seq == 3
    assert storage.counts.returned == 0
    assert await unit_hp(service) == 497
    other.close()
    await service.close()
    await storage.close()


def test_an_in_memory_sqlite_database_has_no_storage_writer() -> None:
    for url in ("sqlite+aiosqlite://", "sqlite+aiosqlite:///:memory:"):
        with pytest.raises(ValueError, match="in-memory"):
            storage_for(url).thread_engine(writes=True)


async def plans_on_channels(
    service: BattleService, count: int, *, stale: frozenset[int] = frozenset()
) -> list[tuple[WritePlan, tuple[str, str]]]:
    """A plan (a title changed) for each of ``count`` channels ``c0`` ... with a battle imported,
    decided on its stored version; those numbered in ``stale`` on the version before it."""
    plans = []
    for n in range(count):
        where = Where("g", f"c{n}")
        await service.execute(where, GM, Invocation("fort import", {"file": BATTLE}))
        head, _ = await service.storage.latest(where.guild, where.channel)
        assert head is not None
        snapshots = await service.storage.snapshots(head.id)
        if n in stale:  # decided on a version the battle is no longer at
            head = BattleHead(head.id, head.ruleset, head.status, head.version - 1, head.started_by)
        row = NewRow("action", "gm", f"/x {n}", {}, [], {"v": {"title": f"t{n}"}})
        state = {**BATTLE, "title": f"t{n}"}
        plan = plan_write(
            head, state=state, status="running", row=row, discard_redo=False, snapshots=snapshots
        )
        plans.append((plan, (where.guild, where.channel)))
    return plans


async def test_a_batch_stores_the_plans_that_hold_and_nothing_of_one_that_does_not(
    engine_factory: Callable[[], AsyncEngine], storage_factory: Callable[[], SqlStorage]
) -> None:
    engine = engine_factory()
    service = await new_service(storage_factory())
    plans = await plans_on_channels(service, 3, stale=frozenset({1}))
    channels = [channel for _, channel in plans]
    writer = storage_factory()  # a writer of its own
    held = await asyncio.gather(*(writer.store(p, c) for p, c in plans))
    assert held == [True, False, True] and writer.counts.batches == 1
    async with engine.connect() as conn:
        versions = [(await conn.run_sync(read_latest_head, g, c)).version for g, c in channels]  # type: ignore[union-attr]
        logged = [[r.command_text for r in await conn.run_sync(read_log, n + 1, 10)] for n in range(3)]
    assert versions == [2, 1, 2]
    assert logged == [["/fort import", "/x 0"], ["/fort import"], ["/fort import", "/x 2"]]
    await service.close()


async def test_postgresql_a_writer_connection_killed_while_idle_is_replaced(
    engine_factory: Callable[[], AsyncEngine], storage_factory: Callable[[], SqlStorage]
) -> None:
    """A server restart (here: the writer's backend terminated) between two batches: the next batch
    finds the kept connection dead before writing anything, and runs on a new one."""
    engine = engine_factory()
    if engine.dialect.name != "postgresql":
        pytest.skip("a PostgreSQL backend to terminate")
    storage = storage_factory()
    service, _ = await holding(storage)
    await terminate_backend(engine, storage.writer.thread)
    view = await ok(service, "/unit hp unit:u0 delta:-2")
    assert isinstance(view, EventsView) and view.seq == 3
    assert storage.counts.retries == 1  # found dead, run again once
    assert await unit_hp(service) == 497
    await service.close()


@pytest.mark.parametrize("cap", [5, 1000])
async def test_a_batch_waits_for_plans_still_coming_up_to_its_cap(
    storage_factory: Callable[[], SqlStorage], monkeypatch: pytest.MonkeyPatch, cap: int
) -> None:
    """Plans that keep coming, one in each pause of the event loop: the writer goes on gathering
    them into one batch while they come, and takes it at once when it holds ``GATHERED_MAX``."""
    from bot.storage import writer as writer_module

    monkeypatch.setattr(writer_module, "GATHERED_MAX", cap)
    service = await new_service(storage_factory())
    plans = await plans_on_channels(service, 12)
    writer = storage_factory().writer  # a writer of its own
    sizes: list[int] = []
    real = writer._run

    def run(batch: list[Any]) -> list[Any]:
        sizes.append(len(batch))
        return real(batch)

    writer._run = run  # type: ignore[method-assign]

    async def one_a_pause() -> list[bool]:
        stores = []
        for plan, channel in plans:
            stores.append(asyncio.ensure_future(writer.store(plan, channel)))
            await writer_module.after_due_timers()
        return list(await asyncio.gather(*stores))

    assert await one_a_pause() == [True] * 12
    assert sum(sizes) == 12
    if cap == 5:  # taken once it held 5 (a plan more may come in the same pause), not all 12
        assert 5 <= sizes[0] <= 6 and len(sizes) >= 2
    else:  # no cap reached: one batch, gathered while they came
        assert sizes == [12]
    await service.close()
