"""The storage reader: what a command reads outside a job, off the event loop.

The service holds the battles it used last (``bot.service.cache``). To decide an action or answer a
read it needs the channel's battle as stored now: its head (the latest battle of the channel, at
which version), and, when it does not hold that version, the battle itself (its state with the
patches since its snapshot: ``battles.read_latest``), and the rights of whoever runs the command; a
read command, the log; a reply, the rows its summaries are made of; a front-end, the settings.
``StorageReader.run`` runs such a read, a statement function of a synchronous connection, in a
transaction of its own on a thread of its own (``bot.storage.thread``), on one synchronous
SQLAlchemy Core connection: one hop of the event loop to the thread and back. A job runs the same
statement functions in its own transaction (``bot.storage.jobs``): each read has one definition.

Reads do not wait behind the writer's batches (their COMMIT and fsync are on the writer's thread).
How a read sees one committed version is the family's (its connection's isolation): SQLite reads in a
plain ``BEGIN`` in WAL mode, PostgreSQL in autocommit, each statement seeing what was committed when
it began, so what must agree is read in one statement (``battles.read_latest``).

A failure reaches the caller as the driver's own exception (as ``bot.storage.failures`` reads it), after
the connection is dropped; a kept connection found dead (a server restarted while it was idle) is
replaced at once and the read run again on the new one. SQLite's busy timeout applies to reads too,
and a file held by another program is waited for as by the writer (``bot.storage.held``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy.engine import Connection

from bot.storage.held import Held
from bot.storage.interface import Counts
from bot.storage.thread import StorageThread, found_dead

P = ParamSpec("P")
T = TypeVar("T")


class StorageReader:
    def __init__(self, thread: StorageThread, counts: Counts, held: Held | None = None) -> None:
        self._thread = thread
        self._counts = counts
        #: the database file held by another program: told, and waited for (``bot.storage.held``)
        self._held = held or Held()

    async def run(
        self, read: Callable[Concatenate[Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``read(connection, *args)`` in a transaction of its own on the reader's thread: what it
        returns, or what the database raised."""
        return await self._thread.call(lambda: self._transaction(read, *args, **kwargs))

    async def close(self) -> None:
        await self._thread.close()

    # ---------------------------------------------------------------------------------------------
    # on the reader's thread

    def _transaction(
        self, read: Callable[Concatenate[Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        self._counts.reads += 1
        fresh = self._thread.opened() is None
        deadline = self._held.deadline()
        while True:
            try:
                conn = self._thread.connection()
                with conn.begin():
                    found = read(conn, *args, **kwargs)
                self._held.over()
                return found
            except Exception as error:
                self._thread.drop()
                if self._held.held(error) and self._held.waits(deadline):
                    self._counts.read_retries += 1
                    continue  # another program holds the file: said, and waited for
                # the kept connection found dead (a server restarted while it was idle): once more, at
                # once, on a new one; nothing was read
                if fresh or not found_dead(error):
                    raise
                fresh = True
                self._counts.read_retries += 1
