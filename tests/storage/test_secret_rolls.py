"""A channel's secret rolls as the storage keeps them (revision 0008), on every backend: numbered in
their channel, 30 days, at most 1,000 a channel (the oldest dropped and returned, so that their
rollers can be told)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from db_under_test import Database
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.interface import Transaction
from bot.storage.records import Kept
from bot.storage.secrets import CAP, KEEP, keep_secret, read_secrets

NOW = datetime(2026, 12, 2, 18, 0, tzinfo=UTC)


async def test_kept_numbered_per_channel_and_read_back(database: Database) -> None:
    storage = database.storage()
    await storage.migrate()
    kept: list[Kept] = []

    async def job(transaction: Transaction) -> None:
        kept.append(await transaction.keep_secret("g", "c1", "alice", "(2D6) ＞ 7[3,4] ＞ 7", NOW))
        kept.append(await transaction.keep_secret("g", "c1", "bob", "(2D6) ＞ 12[6,6] ＞ 12", NOW))
        kept.append(await transaction.keep_secret("g", "c2", "alice", "(1D6) ＞ 1", NOW))

    await storage.run(job, channel=("g", "c1"))
    assert [(k.secret.number, k.secret.roller, k.dropped) for k in kept] == [
        (1, "alice", ()),
        (2, "bob", ()),
        (1, "alice", ()),
    ]
    later = NOW + timedelta(hours=1)
    assert [(s.number, s.text) for s in await storage.secrets("g", "c1", later)] == [
        (1, "(2D6) ＞ 7[3,4] ＞ 7"),
        (2, "(2D6) ＞ 12[6,6] ＞ 12"),
    ]
    found = await storage.secret("g", "c1", 2, later)
    assert found is not None and found.roller == "bob" and found.created_at == NOW
    assert await storage.secret("g", "c1", 3, later) is None
    assert await storage.secret("h", "c1", 1, later) is None  # another server's channel


async def test_kept_thirty_days(database: Database) -> None:
    storage = database.storage()
    await storage.migrate()

    async def job(transaction: Transaction) -> None:
        await transaction.keep_secret("g", "c", "alice", "old", NOW)
        await transaction.keep_secret("g", "c", "alice", "newer", NOW + timedelta(days=20))

    await storage.run(job, channel=("g", "c"))
    assert [s.text for s in await storage.secrets("g", "c", NOW + KEEP)] == ["old", "newer"]
    past = NOW + KEEP + timedelta(seconds=1)
    assert [s.text for s in await storage.secrets("g", "c", past)] == ["newer"]
    assert await storage.secret("g", "c", 1, past) is None

    async def again(transaction: Transaction) -> None:  # a new roll drops what is past 30 days
        kept = await transaction.keep_secret("g", "c", "bob", "new", past)
        assert kept.secret.number == 3 and kept.dropped == ()

    await storage.run(again, channel=("g", "c"))
    assert [s.number for s in await storage.secrets("g", "c", NOW)] == [2, 3]


async def test_at_most_a_thousand_a_channel_the_oldest_dropped(
    database: Database, raw_engine: AsyncEngine
) -> None:
    await database.migrate()

    def fill(conn: Connection) -> list[Kept]:
        return [
            keep_secret(conn, "g", "c", f"user{n % 3}", f"roll {n}", NOW + timedelta(seconds=n))
            for n in range(1, CAP + 3)
        ]

    async with raw_engine.begin() as conn:
        kept = await conn.run_sync(fill)
    assert all(k.dropped == () for k in kept[:CAP])
    first, second = kept[CAP].dropped, kept[CAP + 1].dropped
    assert [(s.number, s.roller, s.text) for s in first] == [(1, "user1", "roll 1")]
    assert [(s.number, s.roller) for s in second] == [(2, "user2")]
    async with raw_engine.connect() as conn:
        left = await conn.run_sync(read_secrets, "g", "c", NOW + timedelta(days=1))
    assert len(left) == CAP and left[0].number == 3 and left[-1].number == CAP + 2
