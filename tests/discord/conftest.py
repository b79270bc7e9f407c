from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord_harness import Dice, Harness
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.service import BattleService
from bot.storage import open_database


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = await open_database(str(tmp_path / "battles.db"))
    yield engine
    await engine.dispose()


@pytest.fixture
def dice() -> Dice:
    return Dice([])


@pytest.fixture
async def harness(engine: AsyncEngine, dice: Dice) -> AsyncIterator[Harness]:
    service = BattleService(engine, dice)
    h = await Harness.create(service, defer_after=None)
    yield h
    await h.bot.coalescer.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Each test's reports on the test item (``item.rep_call``): a fixture can tell a failure."""
    report = yield
    setattr(item, "rep_" + report.when, report)
    return report
