"""Jobs (``bot.storage.jobs``, issue 33), on each backend: the rare commands' transactions run on the
storage writer's thread and connection, one at a time with its batches.

- a job and a batch never share a transaction: a plan that comes while a job is open is stored after
  the job ends, and stored although the job is refused;
- a job cancelled while its transaction is open leaves none open: the next write goes through (on
  SQLite another process can take the write lock at once);
- a passing failure during a job's COMMIT is reported and the job never run again;
- PostgreSQL: a job on a kept connection killed while idle (a server restart) runs on a new one.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from db_under_test import terminate_backend
from service_lines import BATTLE, GM, HERE, new_service, ok
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.service import BattleService, Invocation
from bot.storage.interface import Transaction
from bot.storage.records import Settings
from bot.storage.sql import SqlStorage
from bot.views import EventsView, NoticeView


async def imported(storage: SqlStorage) -> BattleService:
    """A service on ``storage`` holding ``BATTLE`` in ``HERE``, one action stored."""
    service = await new_service(storage)
    await service.execute(HERE, GM, Invocation("fort import", {"file": BATTLE}))
    await ok(service, "/unit hp unit:u0 delta:-1")
    return service


async def test_a_plan_that_comes_while_a_job_is_open_is_stored_after_it(
    storage_factory: Callable[[], SqlStorage],
) -> None:
    storage = storage_factory()
    service = await imported(storage)
    opened, release = asyncio.Event(), asyncio.Event()

    async def slow(transaction: Transaction) -> None:
        await transaction.set_language("g", "en")
        opened.set()
        await release.wait()  # its transaction open, and the writer's connection with it
        raise LookupError("refused after writing")

    job = asyncio.ensure_future(storage.run(slow))
    await opened.wait()
    batches = storage.counts.batches
    action = asyncio.ensure_future(ok(service, "/unit hp unit:u0 delta:-2"))
    for _ in range(20):  # the event loop goes on; the plan waits for the job's turn to end
        await asyncio.sleep(0.005)
    assert not action.done() and storage.counts.batches == batches
    release.set()
    with pytest.raises(LookupError):
        await job
    view = await action
    assert isinstance(view, EventsView) and view.seq == 3
    assert storage.counts.batches == batches + 1
    assert await storage.settings("g") == Settings("g")  # the refused job wrote nothing


async def test_a_job_cancelled_with_its_transaction_open_leaves_none_open(
    storage_factory: Callable[[], SqlStorage], engine_factory: Callable[[], AsyncEngine]
) -> None:
    storage = storage_factory()
    service = await imported(storage)
    opened = asyncio.Event()

    async def stuck(transaction: Transaction) -> None:
        await transaction.set_language("g", "en")
        opened.set()
        await asyncio.Event().wait()  # never set: cancelled here

    job = asyncio.ensure_future(storage.run(stuck))
    await opened.wait()
    job.cancel()
    with pytest.raises(asyncio.CancelledError):
        await job
    view = await ok(service, "/unit hp unit:u0 delta:-2")  # the writer's connection is free again
    assert isinstance(view, EventsView) and view.seq == 3
    assert await storage.settings("g") == Settings("g")
    engine = engine_factory()
    if engine.dialect.name == "sqlite":  # and no write lock is left held: another process writes
        path = engine.url.database
        assert path is not None
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        other.close()


def _passing(dialect: Any) -> Exception:
    """What the driver raises for a serialization failure (PostgreSQL 40001) or a busy database."""
    if dialect.name == "postgresql":
        return dialect.loaded_dbapi.errors.SerializationFailure("could not serialize access")
    return dialect.loaded_dbapi.OperationalError("database is locked")


@pytest.mark.parametrize("stored", [False, True], ids=["not-committed", "committed"])
async def test_a_passing_failure_during_a_jobs_commit_is_reported_and_never_run_again(
    storage_factory: Callable[[], SqlStorage], monkeypatch: pytest.MonkeyPatch, stored: bool
) -> None:
    storage = storage_factory()
    service = await imported(storage)
    assert storage.writer.thread._sync is not None
    dialect = storage.writer.thread._sync.dialect
    real = dialect.do_commit
    ran: list[int] = []

    def lost(dbapi_connection: Any) -> None:
        if stored:  # the server committed, and the connection broke before it said so
            real(dbapi_connection)
        raise _passing(dialect)

    async def add_co(transaction: Transaction) -> bool:
        ran.append(1)
        head, _ = await transaction.latest(HERE.guild, HERE.channel)
        assert head is not None
        return await transaction.add_co_gm(head.id, "co", "gm")

    monkeypatch.setattr(dialect, "do_commit", lost)
    with pytest.raises(DBAPIError) as failed:
        await storage.run(add_co, channel=(HERE.guild, HERE.channel))
    monkeypatch.setattr(dialect, "do_commit", real)
    assert storage.transient(failed.value)  # a failure that would be run again before the COMMIT
    assert ran == [1] and storage.counts.job_retries == 0
    status = await service.status(HERE)
    assert status is not None and status.gms == (("gm", "co") if stored else ("gm",))


async def test_postgresql_a_job_on_a_connection_killed_while_idle_runs_on_a_new_one(
    storage_factory: Callable[[], SqlStorage], engine_factory: Callable[[], AsyncEngine]
) -> None:
    engine = engine_factory()
    if engine.dialect.name != "postgresql":
        pytest.skip("a PostgreSQL backend to terminate")
    storage = storage_factory()
    service = await imported(storage)
    await terminate_backend(engine, storage.writer.thread)
    view = await ok(service, "/gm add user:co")
    assert isinstance(view, NoticeView) and view.key == "gm.added"
    assert storage.counts.job_retries == 1  # found dead, run again once, at once
    status = await service.status(HERE)
    assert status is not None and status.gms == ("gm", "co")
