"""The database: URL, engine with the SQLite pragmas, and schema upgrades by alembic.

Every start checks the schema, so the check is cheap: a database already at ``SCHEMA_HEAD`` is told by
one plain ``SELECT`` of ``alembic_version``, and alembic (35-50 ms to import) is loaded only when there is
something to upgrade (a new, empty or older database).
"""

from __future__ import annotations

import asyncio
import json
import time
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import create_engine, event, func, select, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

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


#: the ``connect_args`` each engine of ``make_engine`` was made with (the storage writer's engine
#: connects with the same settings, as a PostgreSQL schema's search_path)
_CONNECT_ARGS: weakref.WeakKeyDictionary[Engine, dict[str, Any]] = weakref.WeakKeyDictionary()


def make_engine(url: str | None = None, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url``; SQLite: WAL, foreign keys, busy timeout, BEGIN IMMEDIATE for writes."""
    url = database_url(url)
    engine = create_async_engine(url, json_serializer=_dumps, **kwargs)
    _CONNECT_ARGS[engine.sync_engine] = dict(kwargs.get("connect_args") or {})
    if is_sqlite(engine):
        _sqlite_setup(engine.sync_engine)
    return engine


def thread_engine(engine: AsyncEngine, *, writes: bool) -> Engine:
    """A synchronous engine on ``engine``'s database, for a thread of the storage's own (the writer's,
    ``writes``: every SQLite transaction takes the write lock at BEGIN, BEGIN IMMEDIATE; the
    reader's: a plain BEGIN): SQLite's own driver, PostgreSQL's psycopg (the async engine's server
    settings as its options). Raises ``ValueError`` for an in-memory SQLite database, which a second
    connection would not see."""
    url = engine.url
    connect_args = dict(_CONNECT_ARGS.get(engine.sync_engine, {}))
    if is_sqlite(engine):
        database = url.database or ""
        if database in ("", ":memory:") or "mode=memory" in database:
            raise ValueError("an in-memory SQLite database has no storage thread")
        sync = create_engine(url.set(drivername="sqlite"), poolclass=NullPool, connect_args=connect_args)
        _sqlite_setup(sync, always_write=writes)
        return sync
    if engine.dialect.name != "postgresql":
        raise ValueError(f"no storage thread for {engine.dialect.name}")
    settings = connect_args.pop("server_settings", None) or {}
    if settings:
        connect_args["options"] = " ".join(f"-c {key}={value}" for key, value in settings.items())
    # the reader's statements each see what was committed when they began, as in a READ COMMITTED
    # transaction (what must agree is read in one statement, ``repo.read_latest``): in autocommit,
    # without the BEGIN and COMMIT, two round trips to the server fewer
    isolation = {} if writes else {"isolation_level": "AUTOCOMMIT"}
    return create_engine(
        url.set(drivername="postgresql+psycopg"), poolclass=NullPool, json_serializer=_dumps,
        connect_args=connect_args, **isolation,
    )  # fmt: skip


def _sqlite_setup(sync_engine: Engine, *, always_write: bool = False) -> None:
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


#: how long a SQLite connection waits for another's write lock before it fails
BUSY_TIMEOUT_MS = 10_000


def sqlite_pragmas(dbapi_connection: Any) -> None:
    """The settings of every SQLite connection (the engine's, and the storage writer's)."""
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
