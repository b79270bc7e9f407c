"""Storage tests run on a SQLite file, and on PostgreSQL too when TORIDE_TEST_DATABASE_URL is set.

On PostgreSQL each test gets a schema of its own (dropped afterwards), so runs never meet.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from db_under_test import Database
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.storage.sql import SqlStorage

PG_URL = os.environ.get("TORIDE_TEST_DATABASE_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """An empty database on each backend; every storage opened on it is closed, every engine made on
    it disposed of, the schema dropped."""
    if request.param == "sqlite":
        db = Database(f"sqlite+aiosqlite:///{tmp_path / 'storage.db'}")
        yield db
        await db.close()
        return
    assert PG_URL is not None
    schema = "toride_test_" + uuid.uuid4().hex[:12]
    admin = create_async_engine(PG_URL)
    async with admin.begin() as conn:
        await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    db = Database(PG_URL, schema)
    try:
        yield db
    finally:
        await db.close()
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        await admin.dispose()


@pytest.fixture
def engine_factory(database: Database) -> Callable[[], AsyncEngine]:
    """Makes engines on one empty database (no schema yet): a SQLite file, or a fresh PostgreSQL schema."""
    return database.engine


@pytest.fixture
def storage_factory(database: Database) -> Callable[[], SqlStorage]:
    """Opens storages on one empty database (no schema yet), each as a process of its own has."""
    return database.storage


@pytest.fixture
def raw_engine(engine_factory: Callable[[], AsyncEngine]) -> AsyncEngine:
    """An engine on an empty database (no schema yet)."""
    return engine_factory()
