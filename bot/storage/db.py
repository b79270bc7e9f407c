"""The database: URL, engine with the SQLite pragmas, and schema upgrades by alembic.

Every start checks the schema, so the check is cheap: a database already at ``SCHEMA_HEAD`` is told by
one plain ``SELECT`` of ``alembic_version``, and alembic (35-50 ms to import) is loaded only when there is
something to upgrade (a new, empty or older database).
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import event, func, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.storage.url import DEFAULT_FILE, ENV_URL, database_url  # noqa: F401 (re-exported)

if TYPE_CHECKING:
    from alembic.config import Config

#: execution option that makes a SQLite transaction take the write lock at BEGIN
WRITE_OPTION = "toride_write"
MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
#: the newest revision in ``MIGRATIONS`` (a test keeps it equal to alembic's head): a database whose
#: ``alembic_version`` says this needs no upgrade, and alembic is not even imported
SCHEMA_HEAD = "0006"
#: PostgreSQL advisory lock key held while a process upgrades the schema (any fixed 64-bit number)
UPGRADE_LOCK = 0x746F72696465  # "toride"
#: how long a process starting beside others waits its turn to upgrade a SQLite file (each wait is
#: SQLite's busy timeout; a slow machine with several processes upgrading may need more than one)
UPGRADE_WAIT_S = 120.0


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def is_sqlite(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "sqlite"


def make_engine(url: str | None = None, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url``; SQLite: WAL, foreign keys, busy timeout, BEGIN IMMEDIATE for writes."""
    url = database_url(url)
    engine = create_async_engine(url, json_serializer=_dumps, **kwargs)
    if is_sqlite(engine):
        _sqlite_setup(engine)
    return engine


def _sqlite_setup(engine: AsyncEngine) -> None:
    sync_engine = engine.sync_engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # We emit BEGIN ourselves (below), so the driver must not.
        dbapi_connection.isolation_level = None
        sqlite_pragmas(dbapi_connection)

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if conn.get_execution_options().get(WRITE_OPTION):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


#: how long a SQLite connection waits for another's write lock before it fails
BUSY_TIMEOUT_MS = 10_000


def sqlite_pragmas(dbapi_connection: Any) -> None:
    """The settings of every SQLite connection (the engine's, and the writer's fast lane's)."""
    cursor = dbapi_connection.cursor()
    # first: switching a new file to WAL waits for another process's connection, not fails
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # WAL + FULL: every acknowledged commit is on disk, even across a power cut or an OS
    # crash (NORMAL would survive a killed process only). Group commit keeps it cheap.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def _upgrade_sync(connection: Connection, revision: str) -> None:
    from alembic import command

    command.upgrade(alembic_config(connection), revision)


async def schema_versions(engine: AsyncEngine) -> frozenset[str]:
    """The revisions ``alembic_version`` holds, by plain SQL (empty: no such table, a new database)."""
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT version_num FROM alembic_version"))
            return frozenset(str(row[0]) for row in rows)
    except DBAPIError:
        # no table (SQLite: OperationalError; PostgreSQL: ProgrammingError): nothing upgraded yet. A
        # database that is locked or cannot be opened at all is left to the upgrade, which waits its
        # turn or reports the error
        return frozenset()


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the schema up to ``revision`` (the app does this at start; ``toride db upgrade`` by hand).

    Several processes starting at once upgrade one at a time: on PostgreSQL under an advisory lock,
    on SQLite in a write transaction (BEGIN IMMEDIATE); the later ones find the schema up to date.
    A database already at ``SCHEMA_HEAD`` is left alone without loading alembic.
    """
    if revision == "head" and await schema_versions(engine) == {SCHEMA_HEAD}:
        return
    deadline = time.monotonic() + UPGRADE_WAIT_S
    while True:
        try:
            async with engine.connect() as conn:
                await conn.execution_options(**{WRITE_OPTION: True})
                async with conn.begin():
                    if conn.dialect.name == "postgresql":
                        await conn.execute(select(func.pg_advisory_xact_lock(UPGRADE_LOCK)))
                    await conn.run_sync(_upgrade_sync, revision)
            return
        except OperationalError as error:
            # SQLite: another process held the file past the busy timeout (it is upgrading): wait again
            if not is_sqlite(engine) or "locked" not in str(error) or time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)
