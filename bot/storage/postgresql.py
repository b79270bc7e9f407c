"""The PostgreSQL family of ``Storage``: one server, many processes.

- connections: psycopg (3) on the storage's threads (asyncpg for the schema upgrade), in the schema
  the storage was given (``search_path``); the writer's in READ COMMITTED transactions, the reader's
  in autocommit: each statement sees what was committed when it began, so what must agree is read in
  one statement (``battles.read_latest``), and a read costs no BEGIN and COMMIT;
- channel locks: a transaction-level advisory lock per channel (``channel_lock_key``), all of a
  transaction's taken in one statement in key order, so that a writer waits for another instead of
  conflicting, and two never deadlock;
- passing errors: serialization_failure, deadlock_detected, lock_not_available;
- upgrades: one at a time under an advisory lock (``UPGRADE_LOCK``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table, create_engine, func, select, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from bot.storage.sql import SqlStorage
from bot.storage.tables import dumps

#: advisory lock key held while a process upgrades the schema (any fixed 64-bit number)
UPGRADE_LOCK = 0x746F72696465  # "toride"
#: serialization_failure, deadlock_detected, lock_not_available
_TRANSIENT = frozenset({"40001", "40P01", "55P03"})
_LOCK_MANY = text("SELECT count(pg_advisory_xact_lock(k)) FROM unnest(CAST(:keys AS bigint[])) AS t(k)")


def channel_lock_key(guild: str, channel: str) -> int:
    """The 64-bit advisory lock key of a channel (stable across processes and Python versions)."""
    digest = hashlib.blake2b(f"{guild}\x00{channel}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PostgresStorage(SqlStorage):
    @staticmethod
    def insert(table: Table) -> Any:
        return postgresql.insert(table)

    @classmethod
    def async_engine(cls, url: URL, **kwargs: Any) -> AsyncEngine:
        return create_async_engine(url.set(drivername="postgresql+asyncpg"), json_serializer=dumps, **kwargs)

    def engine_options(self) -> dict[str, Any]:
        if self.schema is None:
            return {}
        return {"connect_args": {"server_settings": {"search_path": self.schema}}}

    def thread_engine(self, *, writes: bool) -> Engine:
        connect_args = {} if self.schema is None else {"options": f"-c search_path={self.schema}"}
        isolation = {} if writes else {"isolation_level": "AUTOCOMMIT"}
        return create_engine(
            self.url.set(drivername="postgresql+psycopg"), poolclass=NullPool, json_serializer=dumps,
            connect_args=connect_args, **isolation,
        )  # fmt: skip

    @staticmethod
    def lock_channels(conn: Connection, channels: Sequence[tuple[str, str]]) -> None:
        """The channels' advisory locks in one statement, in ``channel_lock_key`` order (the order of
        the keys in the array: an SRF in FROM yields its rows in order), so that a batch of writes
        waits once for all its locks instead of a round trip per channel."""
        keys = sorted({channel_lock_key(guild, channel) for guild, channel in channels})
        if len(keys) == 1:
            conn.execute(select(func.pg_advisory_xact_lock(keys[0])))
        elif keys:
            conn.execute(_LOCK_MANY, {"keys": keys})

    @staticmethod
    def transient(error: BaseException) -> bool:
        return isinstance(error, DBAPIError) and getattr(error.orig, "sqlstate", None) in _TRANSIENT

    @staticmethod
    def held(error: BaseException) -> bool:
        """Never: a PostgreSQL lock waits for its holder (the channels', the upgrade's)."""
        return False

    @staticmethod
    async def upgrade_lock(conn: AsyncConnection) -> None:
        await conn.execute(select(func.pg_advisory_xact_lock(UPGRADE_LOCK)))

    @staticmethod
    def upgrade_waits(error: BaseException) -> bool:
        """Never: a process upgrading holds the advisory lock, and the others wait for it there."""
        return False
