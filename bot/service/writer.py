"""Writes to the database: one writer at a time on SQLite, and group commit.

Group commit: the writes of different channels that arrive while a transaction is being written
go together into the next one, and each caller is answered only after that commit — so an
acknowledged action is on disk, and a busy table costs one fsync per batch, not per command.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.storage import repository as repo
from bot.storage.db import WRITE_OPTION, is_sqlite


@dataclass(slots=True)
class _Pending:
    write: repo.Write
    future: asyncio.Future[int]


class Writer:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        # SQLite has one writer at a time: queue writers here rather than in its busy handler.
        self._lock: asyncio.Lock | None = asyncio.Lock() if is_sqlite(engine) else None
        # writes of different channels waiting for the next transaction
        self._pending: list[_Pending] = []
        self._drainer: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction (on SQLite: BEGIN IMMEDIATE, one at a time in this process)."""
        lock = self._lock if self._lock is not None else contextlib.nullcontext()
        async with lock, self.engine.connect() as conn:
            await conn.execution_options(**{WRITE_OPTION: True})
            async with conn.begin():
                yield conn

    async def commit(self, write: repo.Write) -> int:
        """Store one write with whatever other channels are writing now, in one transaction.

        Returns the new version after the commit, or raises ``VersionConflict`` (nothing written).
        """
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._pending.append(_Pending(write, future))
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                async with self.transaction() as conn:
                    results = await repo.write_many(conn, [p.write for p in batch])
            except BaseException as error:  # the transaction failed: nothing of the batch is stored
                for pending in batch:
                    if not pending.future.done():
                        pending.future.set_exception(error)
                if not isinstance(error, Exception):
                    raise
                continue
            # answers only after the commit
            for pending, result in zip(batch, results, strict=True):
                if pending.future.done():
                    continue
                if isinstance(result, repo.VersionConflict):
                    pending.future.set_exception(result)
                else:
                    pending.future.set_result(result)
