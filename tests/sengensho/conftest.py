from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import open_database


@pytest.fixture
async def sg_db(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """A SQLite battle database in a file, upgraded like the bot's."""
    engine = await open_database(str(tmp_path / "sg.db"))
    yield engine
    await engine.dispose()
