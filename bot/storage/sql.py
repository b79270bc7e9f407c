"""``Storage`` on a SQL database, the part every backend family shares: the statements
(``bot.storage.battles``, ``log``, ``plans``, ``rights``, ``settings``, ``status``: SQLAlchemy Core, the
same on every database), the storage reader's thread for the reads, the storage writer's for the
write plans and the jobs.

What differs between databases is each family's, in its own module (``bot.storage.sqlite``,
``bot.storage.postgresql``): its connections (driver, isolation, SQLite's pragmas and write lock at
BEGIN), its channel locks, its ON CONFLICT insert, which errors are passing, and how its schema
upgrades wait for each other. The async engine (aiosqlite, asyncpg) is the schema upgrade's alone:
alembic runs on it at start, and it is disposed of after (``migrate``); no command uses it.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

from prometheus_client.registry import Collector
from sqlalchemy import Table, text
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.storage import log, schema, secrets, settings, status, user_sheets
from bot.storage.held import Held
from bot.storage.interface import Counts, Job
from bot.storage.jobs import run_job
from bot.storage.reader import StorageReader
from bot.storage.reads import StatementReads
from bot.storage.records import KeptSecret, RegisteredSheet, Settings, WritePlan
from bot.storage.thread import StorageThread
from bot.storage.writer import StorageWriter

P = ParamSpec("P")
T = TypeVar("T")


def _ping(conn: Connection) -> None:
    conn.execute(text("SELECT 1"))


class SqlStorage(StatementReads):
    def __init__(
        self, url: URL, *, schema: str | None = None, on_held: Callable[[], None] | None = None
    ) -> None:
        """``on_held``: run on the event loop (the one running now) when a command starts waiting for
        the database file, held by another program (``bot.storage.held``)."""
        self.url = url
        #: PostgreSQL: the schema (search_path) to work in; None: the server's default
        self.schema = schema
        self.counts = Counts()
        self.held_file = Held(self.held, on_held)
        reading = StorageThread(lambda: self.thread_engine(writes=False), name="toride-storage-reader")
        writing = StorageThread(lambda: self.thread_engine(writes=True), name="toride-storage-writer")
        self.reader = StorageReader(reading, self.counts, self.held_file)
        self.writer = StorageWriter(
            writing, lock_channels=self.lock_channels, transient=self.transient, counts=self.counts,
            held=self.held_file,
        )  # fmt: skip

    # ---------------------------------------------------------------------------------------------
    # the family's

    @staticmethod
    @abstractmethod
    def insert(table: Table) -> Any:
        """The family's INSERT into ``table`` that can say ON CONFLICT."""

    @classmethod
    @abstractmethod
    def async_engine(cls, url: URL, **kwargs: Any) -> AsyncEngine:
        """An async engine on ``url`` with the family's settings (the schema upgrade's, and tests')."""

    @abstractmethod
    def engine_options(self) -> dict[str, Any]:
        """What ``async_engine`` is given to work where this storage does (its PostgreSQL schema)."""

    @abstractmethod
    def thread_engine(self, *, writes: bool) -> Engine:
        """The synchronous engine of the writer's thread (``writes``) or the reader's."""

    @staticmethod
    @abstractmethod
    def lock_channels(conn: Connection, channels: Sequence[tuple[str, str]]) -> None:
        """Serialise the writers of ``channels`` across processes until the open transaction ends,
        taking the locks in one fixed order (so that two transactions never wait for each other)."""

    @staticmethod
    @abstractmethod
    def transient(error: BaseException) -> bool:
        """Would the same transaction succeed if run again (a deadlock, a busy database)?"""

    @staticmethod
    @abstractmethod
    def held(error: BaseException) -> bool:
        """Did ``error`` find the database file held by another program (to say so, and wait)?"""

    @staticmethod
    @abstractmethod
    async def upgrade_lock(conn: AsyncConnection) -> None:
        """Hold the schema upgrade's lock until the upgrade's transaction ends."""

    @staticmethod
    @abstractmethod
    def upgrade_waits(error: BaseException) -> bool:
        """Did the upgrade fail because another process is upgrading (to wait, and try again)?"""

    # ---------------------------------------------------------------------------------------------
    # the schema

    @classmethod
    async def upgrade(
        cls, engine: AsyncEngine, revision: str = "head", waiting: Callable[[], object] | None = None
    ) -> None:
        await schema.upgrade(
            engine, revision, lock=cls.upgrade_lock, waits=cls.upgrade_waits, waiting=waiting
        )

    async def migrate(self, revision: str = "head") -> None:
        """Bring the schema up to ``revision`` on an async engine of its own, disposed of after."""
        engine = self.async_engine(self.url, **self.engine_options())
        try:
            await self.upgrade(engine, revision, waiting=lambda: self.held_file.waits(math.inf))
        finally:
            await engine.dispose()

    # ---------------------------------------------------------------------------------------------
    # Storage

    async def _call(
        self, statement: Callable[Concatenate[Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        return await self.reader.run(statement, *args, **kwargs)

    async def live_event_lists(
        self, battle_id: int, before_seq: int, limit: int
    ) -> list[tuple[int, list[dict[str, Any]]]]:
        return await self._call(log.read_live_event_lists, battle_id, before_seq, limit)

    async def live_events(self, battle_id: int) -> list[dict[str, Any]]:
        return await self._call(log.read_live_events, battle_id)

    async def settings(self, guild: str) -> Settings:
        return await self._call(settings.read_settings, guild)

    async def secrets(self, guild: str, channel: str, now: datetime) -> list[KeptSecret]:
        return await self._call(secrets.read_secrets, guild, channel, now)

    async def secret(self, guild: str, channel: str, number: int, now: datetime) -> KeptSecret | None:
        return await self._call(secrets.read_secret, guild, channel, number, now)

    async def chat_dice(self, guild: str, channel: str) -> bool:
        return await self._call(settings.read_chat_dice, guild, channel)

    async def user_sheets(self, guild: str, user: str) -> list[RegisteredSheet]:
        return await self._call(user_sheets.read_user_sheets, guild, user)

    async def status_message(self, battle_id: int) -> int | None:
        return await self._call(status.read_status_message, battle_id)

    async def stale_status_messages(self) -> list[tuple[str, str]]:
        return await self._call(status.read_stale_status_messages)

    async def store(self, plan: WritePlan, channel: tuple[str, str]) -> bool:
        return await self.writer.store(plan, channel)

    async def run(
        self, job: Job[T], *, channel: tuple[str, str] | None = None, reset: Callable[[], None] | None = None
    ) -> T:
        return await run_job(self.writer, self.insert, job, channel=channel, reset=reset, counts=self.counts)

    async def ping(self) -> None:
        await self._call(_ping)

    def collectors(self) -> Sequence[Collector]:
        return self.writer.collectors()

    async def close(self) -> None:
        await self.writer.close()
        await self.reader.close()
