"""Writers racing on one database, each case of the issue on each backend (SQLite; PostgreSQL when
TORIDE_TEST_DATABASE_URL is set). Two storages on one database stand for two processes.
"""

from __future__ import annotations

import asyncio
from typing import Any

from db_under_test import Database
from service_lines import run
from sqlalchemy.exc import DBAPIError, IntegrityError

from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.battles import read_latest_head
from bot.storage.interface import Transaction
from bot.storage.log import read_log
from bot.storage.models import ACTION
from bot.storage.plans import plan_write
from bot.storage.records import BattleHead, NewRow, Settings, VersionConflict, Written
from bot.storage.settings import read_settings
from bot.views import ErrorView, ExportView, NoticeView, View
from engine.dice import SeededDice


async def two_services(database: Database) -> tuple[BattleService, BattleService]:
    first = database.storage()
    await first.migrate()
    return BattleService(first, SeededDice(1)), BattleService(database.storage(), SeededDice(2))


async def test_on_postgresql_co_gm_changes_are_lost(database: Database) -> None:
    """The issue's case: a /gm remove racing a /gm add was undone 45 times in 50 (a read-modify-write
    of one server-wide list). Now each is one statement on the battle's own co-GM rows."""
    one, two = await two_services(database)
    await run(one, "/fort start rounds:3")
    for n in range(50):
        await run(one, f"/gm add user:old{n}")
        added, removed = await asyncio.gather(
            run(one, f"/gm add user:new{n}"), run(two, f"/gm remove user:old{n}")
        )
        assert isinstance(added, NoticeView) and isinstance(removed, NoticeView), (added, removed)
        view = await run(two, "/fort status")
        assert f"new{n}" in view.gms and f"old{n}" not in view.gms  # type: ignore[attr-defined]
    refused = await run(one, "/fort next", Actor("old7"))
    assert isinstance(refused, ErrorView) and refused.key == "service.gm_only"


async def test_two_processes_creating_the_settings_row_at_once(database: Database) -> None:
    """The issue's case: both inserted the missing row and one raised an uncaught IntegrityError."""
    one, two = await two_services(database)
    admin = Actor("admin", manage_guild=True)
    engine = database.engine()
    for n in range(20):
        guild = f"new-guild-{n}"
        results = await asyncio.gather(
            one.set_language(guild, "en"),
            two.execute(Where(guild, "c"), admin, Invocation("gm role", {"role": "r1"})),
        )
        assert isinstance(results[1], NoticeView)
        async with engine.connect() as conn:
            assert await conn.run_sync(read_settings, guild) == Settings(guild, "en", "r1")


async def test_a_stale_process_writes_into_an_ended_battle(database: Database) -> None:
    """The issue's case: a process with the old battle cached wrote into it after another process had
    ended it and started a new one (and /gm set target:turn value:pc raised IntegrityError)."""
    one, two = await two_services(database)
    await run(one, "/fort start rounds:3 title:first")
    await run(one, "/unit add name:Old type:normal area:A2 hp:10 fort_damage:1")
    assert isinstance(await run(one, "/fort status"), View)  # one has battle 1 cached
    await run(two, "/fort end")
    await run(two, "/fort start rounds:2 title:second")
    engine = database.engine()
    async with engine.connect() as conn:
        first, second = (
            (await conn.run_sync(read_log, 1, 100)),
            await conn.run_sync(read_latest_head, "g", "c"),
        )
    assert second is not None and second.id == 2
    # the stale process acts on the channel's current battle, never on the ended one
    view = await run(one, "/unit hp unit:Old delta:-1")
    assert isinstance(view, ErrorView) and view.key == "fort.unit_unknown"
    view = await run(one, "/gm set target:turn value:pc")
    assert not isinstance(view, ErrorView), view
    view = await run(one, "/fort export")
    assert isinstance(view, ExportView) and view.document["title"] == "second"
    async with engine.connect() as conn:
        assert await conn.run_sync(read_log, 1, 100) == first
    # and the storage refuses a write naming the old battle, even at its latest version
    stale = BattleHead(1, "fort", "ended", len(first), "gm")
    row = NewRow(ACTION, "gm", "/x", {}, [], {"x": 1})
    writer = database.storage()

    async def write_stale(transaction: Transaction) -> Written:
        snapshots = await transaction.snapshots(stale.id)
        plan = plan_write(
            stale, state={"x": 1}, status="running", row=row, discard_redo=False, snapshots=snapshots
        )
        return await transaction.write(plan)

    try:
        await writer.run(write_stale)
    except VersionConflict:
        pass
    else:
        raise AssertionError("a write into an ended battle went through")


async def test_one_failing_write_job_does_not_fail_the_others(database: Database) -> None:
    """The issue's case: writes of several channels shared a transaction, and one write's
    IntegrityError failed the whole batch. A job that fails now rolls back alone (each job is a
    transaction of its own; actions, the many writes, are plans: ``test_writer``)."""
    storage = database.storage()
    await storage.migrate()
    service = BattleService(storage, SeededDice(3))
    kinds = ["ok", "fails after writing", "ok", "refused", "ok"]
    for i in range(len(kinds)):
        await run(service, "/fort start rounds:3", where=Where("g", f"c{i}"))
    writer = database.storage()
    engine = database.engine()

    def job(channel: int, kind: str) -> Any:
        async def write(transaction: Transaction) -> int:
            head, loaded = await transaction.latest("g", f"c{channel}")
            assert head is not None and loaded is not None
            if kind == "refused":
                raise LookupError("refused before writing")
            row = NewRow(ACTION, "gm", f"/x {channel}", {}, [], None)
            state, snapshots, _ = loaded
            plan = plan_write(
                head, state=state, status=head.status, row=row, discard_redo=False, snapshots=snapshots
            )
            version = (await transaction.write(plan)).version
            if kind == "fails after writing":  # a co-GM of a battle there is not: the foreign key
                await transaction.add_co_gm(head.id + 1000, "co", "gm")
            return version

        return write

    for rounds in range(2):  # a batch of them all, and each alone
        jobs = [writer.run(job(i, kind), channel=("g", f"c{i}")) for i, kind in enumerate(kinds)]
        if rounds == 0:
            results = await asyncio.gather(*jobs, return_exceptions=True)
        else:
            results = [await asyncio.gather(j, return_exceptions=True) for j in jobs]
            results = [r[0] for r in results]
        assert [type(r).__name__ for r in results] == ["int", "IntegrityError", "int", "LookupError", "int"]
        async with engine.connect() as conn:
            versions = [
                (await conn.run_sync(read_latest_head, "g", f"c{i}")).version for i in range(len(kinds))
            ]  # type: ignore[union-attr]
        # the failed and the refused write left nothing, the others are committed
        assert versions == [2 + rounds, 1, 2 + rounds, 1, 2 + rounds]


async def test_postgresql_deadlocks_between_processes_never_reach_users(database: Database) -> None:
    """The issue's case: rows were locked in arrival order, so two processes writing the same two
    channels in opposite orders deadlocked. Channel locks are taken in one fixed order now."""
    writers = [database.storage(), database.storage()]
    await writers[0].migrate()

    def job(name: str) -> Any:
        async def slow(transaction: Transaction) -> str:
            await asyncio.sleep(0.2)  # holding this channel's lock while the other process comes
            await transaction.set_language(name, "en")
            return name

        return slow

    orders = [("a", "b"), ("b", "a")]
    results = await asyncio.gather(
        *(
            w.run(job(f"{n}{i}"), channel=("g", n))
            for i, (w, order) in enumerate(zip(writers, orders, strict=True))
            for n in order
        )
    )
    assert sorted(results) == ["a0", "a1", "b0", "b1"]
    assert writers[0].counts.job_retries == writers[1].counts.job_retries == 0  # no deadlock, none retried


async def test_a_deadlock_or_a_busy_database_is_retried_inside_the_service(database: Database) -> None:
    dialect = database.engine().dialect.name
    writer = database.storage()
    await writer.migrate()
    failures = [_transient_error(dialect), _transient_error(dialect)]
    resets: list[int] = []

    async def flaky(transaction: Transaction) -> str:
        await transaction.set_language("g", "en")
        if failures:
            raise failures.pop()
        return "done"

    assert await writer.run(flaky, channel=("g", "c"), reset=lambda: resets.append(1)) == "done"
    assert writer.counts.job_retries == 2 and resets == [1, 1]
    assert not writer.transient(IntegrityError("x", {}, Exception("duplicate key")))


class _Original(Exception):
    def __init__(
        self, message: str, sqlstate: str | None = None, sqlite_errorcode: int | None = None
    ) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate
        if sqlite_errorcode is not None:
            self.sqlite_errorcode = sqlite_errorcode


def _transient_error(dialect: str) -> DBAPIError:
    """What the driver raises for a deadlock (PostgreSQL 40P01) or a busy database (SQLITE_BUSY)."""
    if dialect == "postgresql":
        original = _Original("deadlock detected", sqlstate="40P01")
    else:
        original = _Original("database is locked", sqlite_errorcode=5)
    return DBAPIError("COMMIT", {}, original)
