from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from bot_process import BotProcess
from discord_harness import Dice, Harness

from bot.service import BattleService
from bot.storage import open_storage
from bot.storage.interface import Storage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    storage = await open_storage(str(tmp_path / "battles.db"))
    yield storage
    await storage.close()


@pytest.fixture
def dice() -> Dice:
    return Dice([])


@pytest.fixture
async def harness(storage: Storage, dice: Dice) -> AsyncIterator[Harness]:
    service = BattleService(storage, dice)
    h = await Harness.create(service, defer_after=None)
    yield h
    await h.bot.coalescer.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Each test's reports on the test item (``item.rep_call``): a fixture can tell a failure."""
    report = yield
    setattr(item, "rep_" + report.when, report)
    return report


@pytest.fixture
async def processes(request: pytest.FixtureRequest) -> AsyncIterator[list[BotProcess]]:
    """Every bot process a test starts; whatever still runs at its end is killed, and a failed
    test shows their output."""
    started: list[BotProcess] = []
    yield started
    for process in started:
        await process.kill()
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        for process in started:
            print(f"--- toride run {' '.join(process.args)}\n{process.output()}")
