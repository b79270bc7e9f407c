"""Storage tests run on a SQLite file, and on PostgreSQL too when TORIDE_TEST_DATABASE_URL is set.

On PostgreSQL each test gets a schema of its own (dropped afterwards), so runs never meet.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.storage import make_engine

PG_URL = os.environ.get("TORIDE_TEST_DATABASE_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])


@pytest.fixture(params=BACKENDS)
async def raw_engine(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """An engine on an empty database (no schema yet)."""
    if request.param == "sqlite":
        engine = make_engine(str(tmp_path / "storage.db"))
        yield engine
        await engine.dispose()
        return
    assert PG_URL is not None
    schema = "toride_test_" + uuid.uuid4().hex[:12]
    admin = create_async_engine(PG_URL)
    async with admin.begin() as conn:
        await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = make_engine(PG_URL, connect_args={"server_settings": {"search_path": schema}})
    try:
        yield engine
    finally:
        await engine.dispose()
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        await admin.dispose()
