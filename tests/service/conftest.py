from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from counter_rules import register
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import make_engine, open_storage
from bot.storage.interface import Storage

register()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "battles.db"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    storage = await open_storage(str(db_path))
    yield storage
    await storage.close()


@pytest.fixture
async def engine(storage: Storage, db_path: Path) -> AsyncIterator[AsyncEngine]:
    """An engine on ``storage``'s database, to look at what it stored."""
    engine = make_engine(str(db_path))
    yield engine
    await engine.dispose()
