from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import open_database


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """A fresh SQLite database of battles (migrated), for the tests that play through the service."""
    engine = await open_database(str(tmp_path / "battles.db"))
    yield engine
    await engine.dispose()
