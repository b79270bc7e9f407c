"""Issue 27: ``bot.storage.failures`` reads what went wrong with the storage from the exception the
front-ends receive: SQLite's result codes from real SQLite errors, PostgreSQL's SQLSTATEs from
asyncpg's own exception classes (as SQLAlchemy wraps them), ``errno`` from the operating system. An
error that is not the storage's (a bug, Discord's network) is not mistaken for one."""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Callable
from pathlib import Path

import aiohttp
import asyncpg.exceptions as pg
import pytest
from sqlalchemy.exc import DBAPIError, OperationalError

from bot.i18n import LANGUAGES, t
from bot.storage.failures import (
    BUSY,
    CONNECTION_LOST,
    CORRUPT,
    DISK_FULL,
    IO_ERROR,
    KEYS,
    READ_ONLY,
    storage_failure,
)


def raised(action: Callable[[], object]) -> BaseException:
    try:
        action()
    except BaseException as error:
        return error
    raise AssertionError("nothing raised")


def test_real_sqlite_errors(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (x)")
    read_only = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    assert storage_failure(raised(lambda: read_only.execute("INSERT INTO t VALUES (1)"))) == READ_ONLY
    read_only.close()
    (tmp_path / "junk.db").write_bytes(b"\x5a" * 8192)
    junk = sqlite3.connect(tmp_path / "junk.db")
    assert storage_failure(raised(lambda: junk.execute("SELECT * FROM t"))) == CORRUPT
    junk.close()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    other = sqlite3.connect(db, timeout=0, isolation_level=None)
    assert storage_failure(raised(lambda: other.execute("BEGIN IMMEDIATE"))) == BUSY
    holder.close()
    other.close()
    # as SQLAlchemy hands it on: the driver's error is its ``orig``
    wrapped = OperationalError("INSERT ...", {}, sqlite3.OperationalError("database or disk is full"))
    assert storage_failure(wrapped) == DISK_FULL


@pytest.mark.parametrize(
    ("error", "key"),
    [
        (pg.DiskFullError("no space left on device"), DISK_FULL),
        (pg.PostgresIOError("could not read block"), IO_ERROR),
        (pg.ReadOnlySQLTransactionError("read-only transaction"), READ_ONLY),
        (pg.DataCorruptedError("invalid page"), CORRUPT),
        (pg.AdminShutdownError("terminating connection"), CONNECTION_LOST),
        (pg.CannotConnectNowError("the database system is starting up"), CONNECTION_LOST),
        (pg.ConnectionDoesNotExistError("connection was closed"), CONNECTION_LOST),
        (OSError(errno.ENOSPC, "No space left on device"), DISK_FULL),
        (OSError(errno.EIO, "Input/output error"), IO_ERROR),
        (OSError(errno.EROFS, "Read-only file system"), READ_ONLY),
    ],
)
def test_postgresql_and_the_operating_system(error: BaseException, key: str) -> None:
    assert storage_failure(error) == key
    wrapped = DBAPIError("SELECT 1", {}, Exception("adapted"))
    wrapped.__cause__ = error
    assert storage_failure(wrapped) == key


def test_what_is_not_the_storages() -> None:
    assert storage_failure(ValueError("a bug")) is None
    assert storage_failure(pg.UniqueViolationError("duplicate key")) is None
    # Discord's network failing is not the database's connection
    assert storage_failure(raised(lambda: (_ for _ in ()).throw(ConnectionResetError("reset")))) is None
    assert storage_failure(aiohttp.ServerDisconnectedError()) is None


def test_every_failure_is_said_in_both_languages() -> None:
    for key in KEYS:
        for lang in LANGUAGES:
            text = t(key, lang)
            assert text != key and ("何も変更していません" in text or "Nothing was changed" in text)


def test_the_storage_writers_postgresql_driver_losing_its_server() -> None:
    """psycopg (the storage writer's driver) refused by a server that is gone: a real error, as
    SQLAlchemy hands it on; a server's own answer (a unique violation) is not a lost connection."""
    import socket

    import psycopg
    from sqlalchemy import create_engine
    from sqlalchemy.exc import OperationalError

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{port}/test")
    try:
        with pytest.raises(OperationalError) as refused:
            engine.connect()
    finally:
        engine.dispose()
    assert isinstance(refused.value.orig, psycopg.OperationalError)
    assert storage_failure(refused.value) == CONNECTION_LOST
    assert storage_failure(psycopg.errors.UniqueViolation("duplicate key")) is None
