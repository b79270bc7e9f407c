from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import make_engine, open_storage
from bot.storage.interface import Storage


@pytest.fixture
def sg_path(tmp_path: Path) -> Path:
    return tmp_path / "sg.db"


@pytest.fixture
async def sg_storage(sg_path: Path) -> AsyncIterator[Storage]:
    """A SQLite battle database in a file, upgraded like the bot's."""
    storage = await open_storage(str(sg_path))
    yield storage
    await storage.close()


@pytest.fixture
async def sg_db(sg_storage: Storage, sg_path: Path) -> AsyncIterator[AsyncEngine]:
    """An engine on ``sg_storage``'s database, to look at what it stored."""
    engine = make_engine(str(sg_path))
    yield engine
    await engine.dispose()
