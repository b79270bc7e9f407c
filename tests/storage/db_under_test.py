"""The database a storage test runs on (tests/storage/conftest.py makes one per backend)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import make_engine
from bot.storage.backends import storage_for
from bot.storage.sql import SqlStorage
from bot.storage.thread import StorageThread


@dataclass
class Database:
    """One empty database (no schema yet): a SQLite file, or a PostgreSQL schema of its own."""

    url: str
    #: the PostgreSQL schema (search_path) to work in; None on SQLite
    schema: str | None = None
    made: list[AsyncEngine] = field(default_factory=list)
    opened: list[SqlStorage] = field(default_factory=list)

    def engine(self) -> AsyncEngine:
        """A new engine on the database, to look at it directly (disposed of at the end of the test)."""
        if self.schema is None:
            self.made.append(make_engine(self.url))
        else:
            self.made.append(
                make_engine(self.url, connect_args={"server_settings": {"search_path": self.schema}})
            )
        return self.made[-1]

    def storage(self) -> SqlStorage:
        """A new storage on the database, as a process of its own has (closed at the end of the
        test); its schema not upgraded by it."""
        self.opened.append(storage_for(self.url, schema=self.schema))
        return self.opened[-1]

    async def migrate(self, revision: str = "head") -> None:
        """The schema brought up (or down) to ``revision`` as a process's start brings it up: by a
        storage of its own."""
        await self.storage().migrate(revision)

    async def close(self) -> None:
        for storage in self.opened:
            await storage.close()
        for engine in self.made:
            await engine.dispose()


async def terminate_backend(engine: AsyncEngine, thread: StorageThread) -> None:
    """A PostgreSQL server restart as ``thread``'s kept connection sees it: its backend terminated
    (by a connection of ``engine``) while it is idle."""
    conn = thread.opened()
    assert conn is not None
    pid = conn.connection.dbapi_connection.info.backend_pid  # type: ignore[union-attr]
    async with engine.connect() as admin:
        await admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
