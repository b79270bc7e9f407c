from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_harness import Harness, Member
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.service import BattleService
from bot.storage import open_database
from engine.dice import ScriptedDice

GM = Member(400000000000000001, "GM太郎", locale="ja")
ALICE = Member(400000000000000002, "Alice", locale="en-US")
BOB = Member(400000000000000003, "ボブ", locale="ja")
MOD = Member(400000000000000004, "Mod", locale="ja", permissions=(1 << 4) | (1 << 11))


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = await open_database(str(tmp_path / "battles.db"))
    yield engine
    await engine.dispose()


class Dice(ScriptedDice):
    """Scripted dice a test feeds as it goes (the service gives back the dice of a refused command)."""

    def feed(self, *values: int) -> None:
        self._values.extend(values)


@pytest.fixture
def dice() -> Dice:
    return Dice([])


@pytest.fixture
async def harness(engine: AsyncEngine, dice: Dice) -> AsyncIterator[Harness]:
    service = BattleService(engine, dice)
    h = await Harness.create(service, defer_after=None)
    yield h
    await h.bot.coalescer.close()
