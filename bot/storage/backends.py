"""Which family of ``Storage`` a database is (its URL's backend: SQLite or PostgreSQL): the one place
that tells them apart, as Red picks a driver by its backend's name. The rest of the bot opens a
storage here and never asks which."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.failures import UnsupportedDatabase
from bot.storage.interface import Storage
from bot.storage.sql import SqlStorage
from bot.storage.url import database_url


def family(backend: str) -> type[SqlStorage]:
    """The family of a backend (``sqlite``, ``postgresql``: a URL's backend or a dialect's name)."""
    if backend == "sqlite":
        from bot.storage.sqlite import SQLiteStorage

        return SQLiteStorage
    if backend == "postgresql":
        from bot.storage.postgresql import PostgresStorage

        return PostgresStorage
    raise UnsupportedDatabase(backend)


def storage_for(
    url: str | None = None, *, schema: str | None = None, on_held: Callable[[], None] | None = None
) -> SqlStorage:
    """The storage of the database at ``url`` (see ``database_url``), not connected yet; ``schema``:
    the PostgreSQL schema to work in; ``on_held``: told on the running event loop when a command
    starts waiting for the database file, held by another program (``bot.storage.held``)."""
    parsed = make_url(database_url(url))
    return family(parsed.get_backend_name())(parsed, schema=schema, on_held=on_held)


async def open_storage(
    url: str | None = None, *, migrate: bool = True, schema: str | None = None,
    on_held: Callable[[], None] | None = None,
) -> Storage:  # fmt: skip
    """The storage of the database at ``url``, its schema brought up to date (unless not ``migrate``)."""
    storage = storage_for(url, schema=schema, on_held=on_held)
    if migrate:
        await storage.migrate()
    return storage


def make_engine(url: str | None = None, **kwargs: Any) -> AsyncEngine:
    """An async engine on ``url`` with its family's settings (SQLite: its pragmas, BEGIN IMMEDIATE
    for a transaction with ``schema.WRITE_OPTION``): for alembic, and for tests that look at a
    database directly."""
    parsed = make_url(database_url(url))
    return family(parsed.get_backend_name()).async_engine(parsed, **kwargs)
