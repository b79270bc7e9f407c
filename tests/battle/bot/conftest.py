"""The ordinary battle's bot tests: a storage, scripted dice and, for Discord's payloads, the harness of
tests/discord."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "discord"))

from discord_harness import Dice, Harness

from bot.service import BattleService
from bot.storage import open_storage
from bot.storage.interface import Storage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await open_storage(str(tmp_path / "battles.db"))
    yield opened
    await opened.close()


@pytest.fixture
def dice() -> Dice:
    return Dice([])


@pytest.fixture
async def harness(storage: Storage, dice: Dice) -> AsyncIterator[Harness]:
    h = await Harness.create(BattleService(storage, dice), defer_after=None)
    yield h
    await h.bot.coalescer.close()
