from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import open_storage
from bot.storage.interface import Storage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    """A fresh SQLite database of battles (migrated), for the tests that play through the service."""
    storage = await open_storage(str(tmp_path / "battles.db"))
    yield storage
    await storage.close()
