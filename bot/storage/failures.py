"""What went wrong with the storage, in one word a user can be told: a full disk, an I/O error, a
damaged or read-only database, a lost connection to the database server.

``storage_failure(error)`` reads an exception as the front-ends receive it from the service (raised by
SQLAlchemy, the SQLite or PostgreSQL drivers — psycopg on the storage's threads, asyncpg for the
schema upgrade at start — or the operating system) and answers the catalogue key of the one line
that says what happened and that nothing was changed (``storage.disk_full`` ...), or None for an
error that is not the storage's. It
looks along the whole chain (``__cause__``, ``__context__``, SQLAlchemy's ``orig``) and at codes, not
at the English of messages where a code exists: SQLite's result code (``sqlite_errorcode``),
PostgreSQL's SQLSTATE (``sqlstate``), ``errno``.
Nothing is imported here: the console and the bot call it on any error.

``unopened(error, db)`` says the same of a database that could not be opened at all, with where: a
SQLite file whose folder is missing or read-only (SQLite's "unable to open database file"), a URL of
a database the bot has no storage for.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from typing import Any

from bot.storage.url import database_url

DISK_FULL = "storage.disk_full"
IO_ERROR = "storage.io_error"
CORRUPT = "storage.corrupt"
READ_ONLY = "storage.read_only"
CONNECTION_LOST = "storage.connection_lost"
BUSY = "storage.busy"
#: every key ``storage_failure`` may answer
KEYS = (DISK_FULL, IO_ERROR, CORRUPT, READ_ONLY, CONNECTION_LOST, BUSY)
#: a database that could not be opened (``unopened``): its folder is missing, or read-only; the file
#: may not be read; the URL names a database the bot has no storage for
FOLDER_MISSING = "storage.folder_missing"
FOLDER_READ_ONLY = "storage.folder_read_only"
FILE_UNREADABLE = "storage.file_unreadable"
UNSUPPORTED = "storage.unsupported"
#: SQLITE_CANTOPEN: SQLite could not open (or create) the file, or its journal beside it
_SQLITE_CANTOPEN = 14

#: SQLite's primary result codes (the low byte of an extended code)
_SQLITE = {
    13: DISK_FULL,  # SQLITE_FULL
    10: IO_ERROR,  # SQLITE_IOERR
    11: CORRUPT,  # SQLITE_CORRUPT
    26: CORRUPT,  # SQLITE_NOTADB: the file is not a database (any more)
    8: READ_ONLY,  # SQLITE_READONLY
    5: BUSY,  # SQLITE_BUSY: another process held the write lock past the busy timeout
    6: BUSY,  # SQLITE_LOCKED
}
#: PostgreSQL's SQLSTATEs (a class of two characters, or one code)
_SQLSTATE = {
    "08": CONNECTION_LOST,  # connection exception
    "57P01": CONNECTION_LOST,  # admin_shutdown
    "57P02": CONNECTION_LOST,  # crash_shutdown
    "57P03": CONNECTION_LOST,  # cannot_connect_now (starting up, shutting down)
    "53100": DISK_FULL,  # disk_full
    "58030": IO_ERROR,  # io_error
    "25006": READ_ONLY,  # read_only_sql_transaction (a standby, default_transaction_read_only)
    "XX001": CORRUPT,  # data_corrupted
    "XX002": CORRUPT,  # index_corrupted
}
_ERRNO = {
    errno.ENOSPC: DISK_FULL,
    errno.EDQUOT: DISK_FULL,
    errno.EFBIG: DISK_FULL,
    errno.EIO: IO_ERROR,
    errno.EROFS: READ_ONLY,
}
#: SQLite's messages where the driver gave no code (older Pythons, aiosqlite wrapping)
_SQLITE_TEXT = {
    "database or disk is full": DISK_FULL,
    "disk i/o error": IO_ERROR,
    "database disk image is malformed": CORRUPT,
    "file is not a database": CORRUPT,
    "attempt to write a readonly database": READ_ONLY,
    "database is locked": BUSY,
}


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    todo = [error]
    while todo:
        current = todo.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        for linked in (getattr(current, "orig", None), current.__cause__, current.__context__):
            if isinstance(linked, BaseException):
                todo.append(linked)


#: SQLite's extended codes for a write that did not go through (the file may have reached its limit)
_SQLITE_WRITE = (778, 1034, 1546)  # SQLITE_IOERR_WRITE, _FSYNC, _TRUNCATE


def _size_limited() -> bool:
    """Does this process have a file size limit (``ulimit -f``, a quota of the container)? Then a
    write refused by the operating system (EFBIG, which SQLite reports as an I/O error) means the
    file is as large as it may grow: to the user, the disk is full."""
    try:
        import resource
    except ImportError:  # not on this system
        return False
    return resource.getrlimit(resource.RLIMIT_FSIZE)[0] != resource.RLIM_INFINITY


def _one(error: BaseException) -> str | None:
    code = getattr(error, "sqlite_errorcode", None)
    if code in _SQLITE_WRITE and _size_limited():
        return DISK_FULL
    if isinstance(code, int) and code & 0xFF in _SQLITE:
        return _SQLITE[code & 0xFF]
    state = getattr(error, "sqlstate", None) or getattr(error, "pgcode", None)
    if isinstance(state, str):
        found = _SQLSTATE.get(state) or _SQLSTATE.get(state[:2])
        if found is not None:
            return found
    if getattr(error, "connection_invalidated", False):  # SQLAlchemy saw the connection go
        return CONNECTION_LOST
    module = type(error).__module__
    if module.startswith("asyncpg") and type(error).__name__ in (
        "InterfaceError",
        "ConnectionDoesNotExistError",
        "InternalClientError",
    ):
        return CONNECTION_LOST
    if module.startswith("psycopg") and type(error).__name__ == "OperationalError" and state is None:
        # the storage's driver on PostgreSQL: an OperationalError with no SQLSTATE is one the
        # client raised itself (the server refused or closed the connection), not the server's answer
        return CONNECTION_LOST
    if isinstance(error, ConnectionError | TimeoutError) and _raised_in_storage(error):
        return CONNECTION_LOST
    if isinstance(error, OSError) and error.errno in _ERRNO:
        return _ERRNO[error.errno]
    if module.startswith("sqlite3"):
        text = str(error).lower()
        for words, key in _SQLITE_TEXT.items():
            if words in text:
                return key
    return None


#: the modules whose errors are the storage's (a network error of Discord's HTTP client is not)
_STORAGE_MODULES = ("sqlalchemy", "asyncpg", "psycopg", "aiosqlite", "sqlite3", "bot.storage")


def _raised_in_storage(error: BaseException) -> bool:
    """Was ``error`` (a connection refused, a timeout) raised by the database's code?"""
    tb = error.__traceback__
    while tb is not None:
        name = str(tb.tb_frame.f_globals.get("__name__", ""))
        if name.startswith(_STORAGE_MODULES):
            return True
        tb = tb.tb_next
    return False


def storage_failure(error: BaseException) -> str | None:
    """The catalogue key saying what happened to the storage, or None: ``error`` is not the storage's."""
    for linked in _chain(error):
        found = _one(linked)
        if found is not None:
            return found
    return None


class UnsupportedDatabase(ValueError):
    """A URL whose database the bot has no storage for (``postgres://``, ``mysql://``)."""

    def __init__(self, backend: str) -> None:
        super().__init__(f"no storage for {backend} databases (SQLite or PostgreSQL)")
        self.backend = backend


def sqlite_path(db: str | None) -> str | None:
    """The file a SQLite URL (as ``database_url`` finds it) names; None: not a SQLite file."""
    scheme, _, rest = database_url(db).partition("://")
    if not scheme.startswith("sqlite"):
        return None
    path = rest.removeprefix("/").partition("?")[0]
    return path if path and path != ":memory:" else None


def _cannot_open(path: str) -> tuple[str, dict[str, Any]]:
    """Why SQLite could not open or create ``path``, read off the file system."""
    folder = os.path.dirname(os.path.abspath(path))
    where = {"file": path, "folder": folder}
    if not os.path.isdir(folder):
        return FOLDER_MISSING, where
    if os.path.exists(path) and not os.access(path, os.R_OK):
        return FILE_UNREADABLE, where
    return FOLDER_READ_ONLY, where  # the file, or the journal beside it, cannot be created there


def unopened(error: BaseException, db: str | None) -> tuple[str, dict[str, Any]] | None:
    """The catalogue key and values saying why the database ``db`` could not be opened; None: the
    error is not the storage's."""
    for linked in _chain(error):
        if isinstance(linked, UnsupportedDatabase):
            return UNSUPPORTED, {"backend": linked.backend}
        path = sqlite_path(db)
        if path is not None and getattr(linked, "sqlite_errorcode", None) == _SQLITE_CANTOPEN:
            return _cannot_open(path)
    key = storage_failure(error)
    return None if key is None else (key, {})
