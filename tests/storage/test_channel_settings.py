"""A channel's chat dice setting (``/settings chat_dice:``, revision 0007), on every backend: off
until set, one upsert per change, per channel; and the upgrade from 0006 makes the table."""

from __future__ import annotations

from db_under_test import Database
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.interface import Transaction


async def test_chat_dice_round_trip(database: Database) -> None:
    storage = database.storage()
    await storage.migrate()
    assert not await storage.chat_dice("g", "c1")

    async def on(transaction: Transaction) -> None:
        await transaction.set_chat_dice("g", "c1", True)  # makes the row
        await transaction.set_chat_dice("g", "c2", True)
        await transaction.set_chat_dice("g", "c2", False)  # changes it

    await storage.run(on)
    assert await storage.chat_dice("g", "c1")
    assert not await storage.chat_dice("g", "c2")
    assert not await storage.chat_dice("h", "c1")  # the same channel id on another server


async def test_0007_makes_the_table_and_goes_back(database: Database, raw_engine: AsyncEngine) -> None:
    await database.migrate("0006")
    await database.migrate()
    async with raw_engine.connect() as conn:
        assert (await conn.execute(text("SELECT count(*) FROM channel_settings"))).scalar_one() == 0
    await database.migrate("0006")
    storage = database.storage()
    await storage.migrate()
    assert not await storage.chat_dice("g", "c1")
