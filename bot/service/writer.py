"""Writes to the database: jobs in group-committed transactions, one writer per channel at a time.

A *job* is a function of an open write transaction: it reads what it needs there (the channel's
current battle and its version, GM rights), decides, and then writes; a refusal (one of the
writer's ``clean`` exceptions) comes before its first write. Jobs that arrive while a transaction
is being written go together into the next one (group commit: one fsync per batch, not per
command). One job's failure never fails the others: a job that fails after writing rolls the batch
back, which is run again with a savepoint per job, so that only the failing one is rolled back
(savepoints cost two round trips a job, so a batch runs without them until one is needed; without
them, the log rows the batch's writes made are inserted in one statement at its end, and a failure
there too runs the batch again carefully). Each caller is answered only after the commit: an
acknowledged action is on disk.

Across processes every job first takes its channel's lock (``repo.lock_channels``: an advisory lock
on PostgreSQL, all of a batch's at its start, in one statement; on SQLite the write transaction
already holds the database's one write lock), in a fixed order, so writers of one channel wait for
each other instead of conflicting, and batches never deadlock. A transaction that fails for a
passing reason all the same (a deadlock or serialisation failure reported by PostgreSQL, SQLite busy
past its timeout) is run again, after each job's effects outside the database (scripted dice) are
reset.

A job decided beforehand (``run``'s ``plan``: the rules applied to the battle this process holds,
``bot.service.battles``) goes first, with the others so decided, through the fast lane
(``bot.storage.fastlane``): its write alone, on the driver's own connection. If one of them no longer
holds there (another process wrote the battle, or the rights it was decided on changed), or the lane
fails before its commit, none of them is stored, and they run as ordinary jobs, deciding again on
the stored battle.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.storage import repository as repo
from bot.storage.db import WRITE_OPTION, is_sqlite
from bot.storage.fastlane import CommitUnknown, FastLane, lane_for

T = TypeVar("T")
Job = Callable[[AsyncConnection], Awaitable[T]]

#: how many times a batch is tried in all when it fails for a passing reason
ATTEMPTS = 6
#: PostgreSQL: serialization_failure, deadlock_detected, lock_not_available
_PG_TRANSIENT = frozenset({"40001", "40P01", "55P03"})
#: SQLite: SQLITE_BUSY, SQLITE_LOCKED
_SQLITE_TRANSIENT = frozenset({5, 6})


def transient(error: BaseException) -> bool:
    """Would the same transaction succeed if run again (a deadlock, a busy database)?"""
    if not isinstance(error, DBAPIError):
        return False
    original = error.orig
    if getattr(original, "sqlstate", None) in _PG_TRANSIENT:
        return True
    code = getattr(original, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _SQLITE_TRANSIENT
    return "database is locked" in str(original)


@dataclass(slots=True)
class _Pending:
    channel: tuple[str, str] | None
    job: Job[Any]
    reset: Callable[[], None] | None
    future: asyncio.Future[Any]
    #: decided beforehand: the write, and the job's answer if it is stored
    plan: repo.WritePlan | None = None
    planned: Any = None
    #: the order jobs came in (their effects outside the database are undone in the reverse order)
    number: int = 0

    def order(self) -> tuple[int, int]:
        """Jobs without a channel first, then by lock key: every transaction locks in this order."""
        if self.channel is None:
            return (0, 0)
        return (1, repo.channel_lock_key(*self.channel))


class Writer:
    def __init__(
        self,
        engine: AsyncEngine,
        *,
        clean: tuple[type[Exception], ...] = (),
        attempts: int = ATTEMPTS,
        fast: bool = True,
    ) -> None:
        self.engine = engine
        #: where jobs decided beforehand are written (None: this database has no fast lane)
        self.lane: FastLane | None = lane_for(engine) if fast else None
        #: what jobs raise before they write anything (refusals): no rollback is needed for them
        self.clean = clean
        self.attempts = attempts
        # SQLite has one writer at a time: queue this process's writers here rather than in its
        # busy handler (which does not queue fairly)
        self._lock: asyncio.Lock | None = asyncio.Lock() if is_sqlite(engine) else None
        # jobs waiting for the next transaction
        self._pending: list[_Pending] = []
        self._drainer: asyncio.Task[None] | None = None
        self._submitted = 0
        #: how many batches were run again after a passing failure (for tests and benchmarks)
        self.retries = 0
        #: how many jobs the fast lane stored, and how many it gave back to run as ordinary jobs
        self.fast_written = 0
        self.fast_returned = 0

    async def close(self) -> None:
        """Close the fast lane's connection (the engine's are the engine's)."""
        if self.lane is not None:
            await self.lane.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction (on SQLite: BEGIN IMMEDIATE, one at a time in this process)."""
        lock = self._lock if self._lock is not None else contextlib.nullcontext()
        async with lock, self.engine.connect() as conn:
            await conn.execution_options(**{WRITE_OPTION: True})
            async with conn.begin():
                yield conn

    async def run(
        self,
        job: Job[T],
        *,
        channel: tuple[str, str] | None = None,
        reset: Callable[[], None] | None = None,
        plan: repo.WritePlan | None = None,
        planned: T | None = None,
    ) -> T:
        """Run ``job`` in the next group-committed transaction, under ``channel``'s lock if given.

        Returns what the job returned, after the commit; raises what it raised, with nothing of it
        written and the rest of the batch unaffected. ``reset`` undoes the job's effects outside the
        database (scripted dice), before the batch is run again.

        ``plan`` (with ``channel``): the job was decided beforehand, and this is its write; if the fast
        lane stores it, the answer is ``planned``, else ``job`` runs (after ``reset``).
        """
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        if self.lane is None or channel is None:
            plan = None
        self._submitted += 1
        self._pending.append(_Pending(channel, job, reset, future, plan, planned, self._submitted))
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            batch.sort(key=_Pending.order)
            if any(p.plan is not None for p in batch):
                batch = await self._fast(batch)
                if not batch:
                    continue
            try:
                outcomes = await self._commit(batch)
            except BaseException as error:  # the transaction failed: nothing of the batch is stored
                for pending in batch:
                    if not pending.future.done():
                        pending.future.set_exception(error)
                if not isinstance(error, Exception):
                    raise
                continue
            # answers only after the commit
            for pending, (ok, value) in zip(batch, outcomes, strict=True):
                if pending.future.done():
                    continue
                if ok:
                    pending.future.set_result(value)
                else:
                    pending.future.set_exception(value)

    async def _fast(self, batch: list[_Pending]) -> list[_Pending]:
        """The batch's jobs decided beforehand, through the fast lane; returns the jobs left to run the
        ordinary way (the others, and these if the lane did not store them)."""
        assert self.lane is not None
        fast = [p for p in batch if p.plan is not None]
        keys = [repo.channel_lock_key(*p.channel) for p in fast if p.channel is not None]
        try:
            lock = self._lock if self._lock is not None else contextlib.nullcontext()
            async with lock:
                stored = await self.lane.commit([p.plan for p in fast if p.plan is not None], keys)
        except CommitUnknown as unknown:  # perhaps stored: not run again, the callers are told
            for pending in fast:
                if not pending.future.done():
                    pending.future.set_exception(unknown.error)
            return [p for p in batch if p.plan is None]
        except BaseException as error:
            if not isinstance(error, Exception):  # cancelled: nobody is left to run the batch
                for pending in batch:
                    if not pending.future.done():
                        pending.future.set_exception(error)
                raise
            stored = False  # nothing stored: the ordinary way reports or survives what it was
        if stored:
            self.fast_written += len(fast)
            for pending in fast:
                if not pending.future.done():
                    pending.future.set_result(pending.planned)
            return [p for p in batch if p.plan is None]
        self.fast_returned += len(fast)
        _reset(fast)
        for pending in fast:
            pending.plan, pending.planned = None, None
        return batch

    async def _commit(self, batch: list[_Pending]) -> list[tuple[bool, Any]]:
        attempt, careful = 1, False
        while True:
            try:
                return await self._attempt(batch, careful=careful)
            except _Unclean as unclean:
                if len(batch) == 1:  # rolled back, and nobody else was in the batch
                    return [(False, unclean.error)]
                careful = True
            except Exception as error:
                if not transient(error) or attempt >= self.attempts:
                    raise
                self.retries += 1
                attempt += 1
                # a little random wait, so that the processes that collided do not collide again
                await asyncio.sleep(random.uniform(0, 0.005 * 2**attempt))
            _reset(batch)

    async def _attempt(self, batch: list[_Pending], *, careful: bool) -> list[tuple[bool, Any]]:
        """The batch in one transaction. Careful: each job in a savepoint, a failing one rolled back
        alone. Else no savepoints (they cost two round trips a job): a job's refusal (``clean``) left
        nothing to roll back, and any other failure rolls the batch back (``_Unclean``) to run it
        again carefully."""
        outcomes: list[tuple[bool, Any]] = []
        async with self.transaction() as conn:
            # every channel's lock of the batch, in key order, in one statement
            await repo.lock_channels(conn, [p.channel for p in batch if p.channel is not None])
            # not careful: the log rows of the batch's writes are inserted together, at its end (a job
            # never reads a row of this batch: the commands of one channel wait for each other, and
            # each job's version check is its own UPDATE, at once); careful: each job inserts its own
            deferred: list[dict[str, Any]] | None = None if careful else []
            if deferred is not None:
                conn.info[repo.DEFERRED_ROWS] = deferred
            try:
                await self._jobs(conn, batch, outcomes, careful=careful)
            finally:
                conn.info.pop(repo.DEFERRED_ROWS, None)
            if deferred:
                try:
                    await repo.insert_rows(conn, deferred)
                except Exception as error:
                    if transient(error):
                        raise
                    raise _Unclean(error) from error  # run again carefully: the failing job alone fails
        return outcomes

    async def _jobs(
        self, conn: AsyncConnection, batch: list[_Pending], outcomes: list[tuple[bool, Any]], *, careful: bool
    ) -> None:
        for pending in batch:
            try:
                if careful:
                    async with conn.begin_nested():
                        outcomes.append((True, await pending.job(conn)))
                else:
                    outcomes.append((True, await pending.job(conn)))
            except Exception as error:
                if transient(error):
                    raise
                if not careful and not isinstance(error, self.clean):
                    raise _Unclean(error) from error
                outcomes.append((False, error))


def _reset(batch: list[_Pending]) -> None:
    """Undo the jobs' effects outside the database, the last job's first."""
    for pending in sorted(batch, key=lambda p: p.number, reverse=True):
        if pending.reset is not None:
            pending.reset()


class _Unclean(Exception):
    """A job failed after it may have written (not one of the writer's ``clean`` refusals)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


class ChannelLocks:
    """This process's lock per channel, kept only while a command holds or waits for it.

    So the table holds the channels in use right now, never every channel ever seen.
    """

    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @contextlib.asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)
