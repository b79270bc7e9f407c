"""The start-up schema check: a database at ``SCHEMA_HEAD`` is told by plain SQL and left alone (alembic
not run), and ``SCHEMA_HEAD`` is alembic's own head, so the shortcut can never skip a migration."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from alembic.script import ScriptDirectory
from db_under_test import Database
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import schema
from bot.storage.schema import SCHEMA_HEAD, alembic_config, schema_versions


def test_schema_head_is_alembics_head() -> None:
    assert ScriptDirectory.from_config(alembic_config()).get_heads() == [SCHEMA_HEAD]


async def _version(engine: AsyncEngine) -> list[str]:
    async with engine.connect() as conn:
        return [row[0] for row in await conn.execute(text("SELECT version_num FROM alembic_version"))]


async def test_a_new_database_is_upgraded_to_head(database: Database, raw_engine: AsyncEngine) -> None:
    assert await schema_versions(raw_engine) == frozenset()
    await database.migrate()
    assert await _version(raw_engine) == [SCHEMA_HEAD]
    assert await schema_versions(raw_engine) == {SCHEMA_HEAD}


async def test_an_older_database_is_upgraded(database: Database, raw_engine: AsyncEngine) -> None:
    await database.migrate("0003")
    assert await schema_versions(raw_engine) == {"0003"}
    await database.migrate()
    assert await _version(raw_engine) == [SCHEMA_HEAD]
    async with raw_engine.connect() as conn:
        # 0006's columns are there
        found = await conn.execute(text("SELECT count(*) FROM battles WHERE state_seq = 1"))
        assert found.scalar_one() == 0


async def test_a_database_at_head_does_not_run_alembic(
    database: Database, engine_factory: Callable[[], AsyncEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    await database.migrate()
    ran: list[str] = []
    monkeypatch.setattr(schema, "_upgrade_sync", lambda _connection, revision: ran.append(revision))
    await database.migrate()
    assert ran == []
    # an explicit revision still goes through alembic
    await database.migrate("0005")
    assert ran == ["0005"]
