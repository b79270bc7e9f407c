"""The rare commands' writes (start, import, undo and redo, co-GM changes, ``/gm role``, settings):
each a *job* in a write transaction of its own, under its channel's lock.

A job is a function of an open write transaction: it reads what it needs there (the channel's
current battle and its version, GM rights), decides, and then writes. Across processes it first
takes its channel's lock (``repo.lock_channels``: an advisory lock on PostgreSQL; on SQLite the
write transaction already holds the database's one write lock), so writers of one channel wait for
each other instead of conflicting. A transaction that fails for a passing reason (a deadlock or a
serialisation failure reported by PostgreSQL, SQLite busy past its timeout) is run again, after the
job's effects outside the database (scripted dice) are reset. The caller is answered after the
commit. Actions do not come here: they are write plans, stored by ``bot.storage.writer``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.storage import repository as repo
from bot.storage.db import WRITE_OPTION, is_sqlite, transient

T = TypeVar("T")
Job = Callable[[AsyncConnection], Awaitable[T]]

#: how many times a job is tried in all when it fails for a passing reason
ATTEMPTS = 6


class Jobs:
    def __init__(self, engine: AsyncEngine, *, attempts: int = ATTEMPTS) -> None:
        self.engine = engine
        self.attempts = attempts
        # SQLite has one writer at a time: queue this process's jobs here rather than in its busy
        # handler (which does not queue fairly)
        self._lock: asyncio.Lock | None = asyncio.Lock() if is_sqlite(engine) else None
        #: how many jobs were run again after a passing failure (for tests and benchmarks)
        self.retries = 0

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
    ) -> T:
        """Run ``job`` in a write transaction, under ``channel``'s lock if given; what it returned,
        after the commit, or what it raised, with nothing of it written. ``reset`` undoes the job's
        effects outside the database (scripted dice) before it is run again."""
        attempt = 1
        while True:
            try:
                async with self.transaction() as conn:
                    if channel is not None:
                        await repo.lock_channels(conn, [channel])
                    return await job(conn)
            except Exception as error:
                if not transient(error) or attempt >= self.attempts:
                    raise
                self.retries += 1
                attempt += 1
                if reset is not None:
                    reset()
                # a little random wait, so that the processes that collided do not collide again
                await asyncio.sleep(random.uniform(0, 0.005 * 2**attempt))


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
