from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from counter_rules import register
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import open_database

register()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "battles.db"


@pytest.fixture
async def engine(db_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = await open_database(str(db_path))
    yield engine
    await engine.dispose()
