"""The shard leases and IDENTIFY locks on PostgreSQL (``bot.storage.leases``): processes that join at
once share the shards Discord recommends, each shard held by one; a process that stops renewing loses
its shards to the others once its leases expire; a later process adopts the count the live leases were
taken for; a bucket's IDENTIFY lock is held by one process at a time; SQLite has none of this."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from db_under_test import Database

from bot.storage.backends import storage_for
from bot.storage.leases import ShardLeases, fair_share, shard_leases

#: seconds a lease lasts in these tests (the server's clock decides when it has passed)
LEASE = 1.0


@pytest.fixture
async def owners(database: Database) -> AsyncIterator[list[ShardLeases]]:
    if database.schema is None:
        pytest.skip("shard leases are PostgreSQL's")
    await database.migrate()
    made = []
    for _ in range(3):
        leases = shard_leases(database.storage())
        assert leases is not None
        made.append(leases)
    yield made
    for leases in made:
        await leases.close()


def test_sqlite_has_no_shard_leases(tmp_path: Path) -> None:
    assert shard_leases(storage_for(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}")) is None


def test_a_fair_share_is_the_count_divided_rounded_up() -> None:
    assert [fair_share(8, n) for n in (1, 2, 3, 4, 5, 8, 9)] == [8, 4, 3, 2, 2, 1, 1]
    assert fair_share(8, 0) == 8


async def test_processes_that_join_at_once_share_the_shards_each_held_once(owners: list[ShardLeases]) -> None:
    for leases in owners:
        await leases.join(LEASE * 10)
    claims = await asyncio.gather(*(leases.claim(8, LEASE * 10) for leases in owners))
    held = [claim.held for claim in claims]
    assert sorted(s for shards in held for s in shards) == list(range(8))
    assert sorted(len(shards) for shards in held) == [2, 3, 3]  # share: ceil(8 / 3)
    assert all(claim.shard_count == 8 and claim.on_host == 3 for claim in claims)
    # a renewal keeps what each holds and takes nothing more
    again = [await leases.claim(8, LEASE * 10) for leases in owners]
    assert [claim.held for claim in again] == held


async def test_a_process_that_stops_renewing_loses_its_shards_to_the_others(
    owners: list[ShardLeases],
) -> None:
    first, second, third = owners
    for leases in owners:
        await leases.join(LEASE)
    held = {id(leases): (await leases.claim(6, LEASE)).held for leases in owners}
    assert sorted(len(h) for h in held.values()) == [2, 2, 2]
    # the third stops renewing; the others renew until its lease has passed
    deadline = time.monotonic() + LEASE * 1.5
    while time.monotonic() < deadline:
        for leases in (first, second):
            await leases.claim(6, LEASE, take=False)
        await asyncio.sleep(LEASE / 4)
    taken = [await leases.claim(6, LEASE) for leases in (first, second)]
    assert sorted(s for claim in taken for s in claim.held) == list(range(6))
    assert [len(claim.held) for claim in taken] == [3, 3]  # two owners alive: ceil(6 / 2) each
    assert set(held[id(third)]) <= {s for claim in taken for s in claim.held}
    # the third comes back: its leases went to the others, and the share of three takes nothing more
    back = await third.claim(6, LEASE)
    assert back.held == []


async def test_a_later_process_adopts_the_count_of_the_live_leases(owners: list[ShardLeases]) -> None:
    first, second, _ = owners
    await first.join(LEASE * 10)
    assert (await first.claim(2, LEASE * 10)).held == [0, 1]
    later = await second.claim(5, LEASE * 10)  # Discord recommends more now: the others' count holds
    assert later.shard_count == 2 and later.held == []


async def test_a_clean_stop_gives_the_shards_up_at_once(owners: list[ShardLeases]) -> None:
    first, second, _ = owners
    await first.join(LEASE * 10)
    await second.join(LEASE * 10)
    assert (await first.claim(2, LEASE * 10)).held == [0]
    assert (await second.claim(2, LEASE * 10)).held == [1]
    await second.leave()
    assert (await first.claim(2, LEASE * 10)).held == [0, 1]


async def test_a_buckets_identify_lock_is_held_by_one_process_at_a_time(owners: list[ShardLeases]) -> None:
    first, second, _ = owners
    held = await first.lock_bucket(0)
    other_bucket = await second.lock_bucket(1)  # another bucket: at once
    waiting = asyncio.ensure_future(second.lock_bucket(0))
    await asyncio.sleep(0.3)
    assert not waiting.done()
    await first.unlock_bucket(held, 0)
    taken = await asyncio.wait_for(waiting, 5)
    await second.unlock_bucket(taken, 0)
    await second.unlock_bucket(other_bucket, 1)
