"""The SQLite family of ``Storage``: one file, one writer at a time.

- connections: SQLite's own driver on the storage's threads (aiosqlite for the schema upgrade), each
  with WAL, foreign keys, a busy timeout and ``synchronous=FULL`` (``sqlite_pragmas``); we emit BEGIN
  ourselves: the writer's (and an upgrade's) is BEGIN IMMEDIATE, which takes the database's one write
  lock at once, the reader's a plain BEGIN, which in WAL mode sees one committed version throughout
  and never waits for a writer;
- channel locks: none to take, the write transaction already holds the write lock of the whole file;
- passing errors: SQLITE_BUSY and SQLITE_LOCKED (another process held the file past the busy timeout);
- upgrades: one at a time by the write lock; a process that found the file locked waits and tries again.

An in-memory database has no storage: each connection would see a database of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Table, create_engine, event
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from bot.storage.schema import WRITE_OPTION
from bot.storage.sql import SqlStorage
from bot.storage.tables import dumps

#: how long a SQLite connection waits for another's write lock before it fails: a second, so that a
#: file held by another program is told at once (``bot.storage.held``), then waited for again
BUSY_TIMEOUT_MS = 1_000
#: SQLITE_BUSY, SQLITE_LOCKED
_TRANSIENT = frozenset({5, 6})


def sqlite_pragmas(dbapi_connection: Any) -> None:
    """The settings of every SQLite connection (the storage's threads', and the upgrade's)."""
    cursor = dbapi_connection.cursor()
    # first: switching a new file to WAL waits for another process's connection, not fails
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # WAL + FULL: every acknowledged commit is on disk, even across a power cut or an OS
    # crash (NORMAL would survive a killed process only). Group commit keeps it cheap.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def _setup(sync_engine: Engine, *, always_write: bool = False) -> None:
    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # We emit BEGIN ourselves (below), so the driver must not.
        dbapi_connection.isolation_level = None
        sqlite_pragmas(dbapi_connection)

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if always_write or conn.get_execution_options().get(WRITE_OPTION):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


class SQLiteStorage(SqlStorage):
    @staticmethod
    def insert(table: Table) -> Any:
        return sqlite.insert(table)

    def __init__(
        self, url: URL, *, schema: str | None = None, on_held: Callable[[], None] | None = None
    ) -> None:
        if schema is not None:
            raise ValueError("a SQLite database has no schemas")
        super().__init__(url, on_held=on_held)

    @classmethod
    def async_engine(cls, url: URL, **kwargs: Any) -> AsyncEngine:
        engine = create_async_engine(url.set(drivername="sqlite+aiosqlite"), json_serializer=dumps, **kwargs)
        _setup(engine.sync_engine)
        return engine

    def engine_options(self) -> dict[str, Any]:
        return {}

    def thread_engine(self, *, writes: bool) -> Engine:
        """Raises ``ValueError`` for an in-memory database, which a second connection would not see."""
        database = self.url.database or ""
        if database in ("", ":memory:") or "mode=memory" in database:
            raise ValueError("an in-memory SQLite database has no storage thread")
        engine = create_engine(self.url.set(drivername="sqlite"), poolclass=NullPool)
        _setup(engine, always_write=writes)
        return engine

    @staticmethod
    def lock_channels(conn: Connection, channels: Sequence[tuple[str, str]]) -> None:
        """Nothing to take: the write transaction (BEGIN IMMEDIATE) holds the file's one write lock."""

    @staticmethod
    def transient(error: BaseException) -> bool:
        if not isinstance(error, DBAPIError):
            return False
        code = getattr(error.orig, "sqlite_errorcode", None)
        if code is not None:
            return (code & 0xFF) in _TRANSIENT
        return "database is locked" in str(error.orig)

    @classmethod
    def held(cls, error: BaseException) -> bool:
        """SQLITE_BUSY or SQLITE_LOCKED past the busy timeout: another connection holds the file."""
        return cls.transient(error)

    @staticmethod
    async def upgrade_lock(conn: AsyncConnection) -> None:
        """Nothing to take: the upgrade's transaction (BEGIN IMMEDIATE) holds the write lock."""

    @staticmethod
    def upgrade_waits(error: BaseException) -> bool:
        # another process held the file past the busy timeout: it is upgrading
        return isinstance(error, OperationalError) and "locked" in str(error)
