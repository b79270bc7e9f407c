"""Storage tests run on a SQLite file, and on PostgreSQL too when TORIDE_TEST_DATABASE_URL is set.

On PostgreSQL each test gets a schema of its own (dropped afterwards), so runs never meet.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.storage import make_engine

PG_URL = os.environ.get("TORIDE_TEST_DATABASE_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])


@pytest.fixture(params=BACKENDS)
async def engine_factory(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Callable[[], AsyncEngine]]:
    """Makes engines on one empty database (no schema yet): a SQLite file, or a fresh PostgreSQL schema.

    Every engine it made is disposed of at the end (and the PostgreSQL schema dropped).
    """
    made: list[AsyncEngine] = []
    if request.param == "sqlite":
        path = str(tmp_path / "storage.db")

        def make() -> AsyncEngine:
            made.append(make_engine(path))
            return made[-1]

        yield make
        for engine in made:
            await engine.dispose()
        return
    assert PG_URL is not None
    schema = "toride_test_" + uuid.uuid4().hex[:12]
    admin = create_async_engine(PG_URL)
    async with admin.begin() as conn:
        await conn.execute(text(f'CREATE SCHEMA "{schema}"'))

    def make_pg() -> AsyncEngine:
        made.append(make_engine(PG_URL, connect_args={"server_settings": {"search_path": schema}}))
        return made[-1]

    try:
        yield make_pg
    finally:
        for engine in made:
            await engine.dispose()
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        await admin.dispose()


@pytest.fixture
def raw_engine(engine_factory: Callable[[], AsyncEngine]) -> AsyncEngine:
    """An engine on an empty database (no schema yet)."""
    return engine_factory()
