"""The bot as a long-running service, without a process: shutdown runs the waiting status edits, a
start refreshes the status messages left behind, shards own their guilds, the health endpoint."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
from discord_harness import CHANNEL_ID, GM, GUILD_ID, Dice, FakeClock, Harness

from bot.discord.client import TorideBot, shard_of
from bot.discord.coalesce import Coalescer
from bot.discord.health import health, start_health_server
from bot.service import BattleService, Where
from bot.storage import open_storage
from bot.storage.interface import Storage

HERE = Where(str(GUILD_ID), str(CHANNEL_ID))


async def test_close_runs_a_waiting_job_at_once_instead_of_dropping_it() -> None:
    clock = FakeClock()
    coalescer = Coalescer(2.0, clock=clock, sleep=clock.sleep)
    ran: list[str] = []

    def job(name: str) -> Any:
        async def run() -> None:
            ran.append(name)

        return run

    coalescer.submit("c1", job("first"))
    await asyncio.sleep(0)
    coalescer.submit("c1", job("second"))  # waits for the rest of the interval (the clock stands still)
    coalescer.submit("c1", job("latest"))
    for _ in range(3):
        await asyncio.sleep(0)
    assert ran == ["first"] and clock.waiting() == 1
    await coalescer.close()
    assert ran == ["first", "latest"]  # run without waiting for the clock, the latest request winning
    # after close, a job submitted (a command answered during the shutdown) runs at once too
    for name in ("late", "later"):
        coalescer.submit("c2", job(name))
        await coalescer.drain()
    assert ran[-2:] == ["late", "later"] and clock.sleeps == [2.0]  # no interval waited out


async def test_close_gives_up_on_a_job_that_hangs_after_its_bound() -> None:
    coalescer = Coalescer(2.0)
    stuck = asyncio.Event()

    async def hangs() -> None:
        stuck.set()
        await asyncio.Event().wait()  # Discord never answers

    coalescer.submit("c1", hangs)
    await stuck.wait()
    await asyncio.wait_for(coalescer.close(within=0.05), timeout=5)  # bounded: the job is cancelled
    assert not coalescer.pending("c1")


async def test_stopping_the_bot_runs_the_edit_that_waits(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=2)
    result = await harness.run(
        GM, "unit add", name="ゴブリン隊", type="normal", area="A2", hp=60, fort_damage=5
    )
    assert result.channel == []  # within two seconds of the first post: the edit waits
    start = len(harness.recorder.requests)
    await harness.bot.coalescer.close()
    (edit,) = [r for r in harness.recorder.requests[start:] if r.via == "http"]
    assert edit.method == "PATCH" and "ゴブリン隊 HP 60/60" in edit.text()


async def test_a_start_refreshes_the_status_messages_behind_their_battles(
    storage: Storage, harness: Harness, dice: Dice
) -> None:
    other = CHANNEL_ID + 1
    await harness.run(GM, "fort start", rounds=2)
    await harness.run(GM, "fort start", rounds=2, channel_id=other)
    harness.clock.advance(10)
    await harness.flush_live()
    service = harness.bot.service
    assert await service.stale_status_messages() == []  # both messages show their battles
    # a change whose edit never ran (the process died within the interval)
    harness.clock.advance(10)
    harness.bot.live.changed = lambda where, new_battle=False: None  # type: ignore[method-assign]
    await harness.run(GM, "unit add", name="ゴブリン隊", type="normal", area="A2", hp=57, fort_damage=5)
    assert await service.stale_status_messages() == [HERE]
    # the next process: at ready, the message behind is edited once; the other is left alone
    restarted = await Harness.create(BattleService(storage, dice), defer_after=None)
    try:
        assert await restarted.bot.live.refresh_stale() == 1
        (edit,) = await restarted.flush_live()
        assert edit.method == "PATCH" and "ゴブリン隊 HP 57/57" in edit.text()
        assert await restarted.bot.service.stale_status_messages() == []
        assert await restarted.bot.live.refresh_stale() == 0
    finally:
        await restarted.bot.coalescer.close()


async def test_a_shard_process_refreshes_only_its_own_guilds(harness: Harness) -> None:
    await harness.run(GM, "fort start", rounds=2)
    harness.clock.advance(10)
    harness.bot.live.changed = lambda where, new_battle=False: None  # type: ignore[method-assign]
    await harness.run(GM, "pc add", name="Alice")
    mine = shard_of(str(GUILD_ID), 4)
    assert await harness.bot.live.refresh_stale(lambda guild: shard_of(guild, 4) != mine) == 0
    assert await harness.bot.service.stale_status_messages() == [HERE]


async def test_guilds_go_to_their_shards_as_discord_sends_them() -> None:
    """Discord: shard_id = (guild_id >> 22) % num_shards; direct messages go to shard 0."""
    assert [shard_of(str(n << 22), 3) for n in range(6)] == [0, 1, 2, 0, 1, 2]
    assert shard_of("dm", 3) == 0
    never_opened = await open_storage("sqlite+aiosqlite://", migrate=False)
    bot = TorideBot(BattleService(never_opened), shard_count=2, shard_ids=[1])
    assert bot.handles(str(1 << 22)) and not bot.handles(str(2 << 22))


async def test_health_says_which_part_is_down(harness: Harness, storage: Storage) -> None:
    ok, body = await health(harness.bot, storage)
    assert not ok and body == {"ok": False, "gateway": False, "database": True, "shards": {}}
    gone = await open_storage("postgresql+asyncpg://nobody@127.0.0.1:1/none", migrate=False)
    try:
        ok, body = await health(harness.bot, gone)
        assert not ok and body["database"] is False
    finally:
        await gone.close()


async def test_the_health_endpoint_answers_on_127_0_0_1(harness: Harness, storage: Storage) -> None:
    runner = await start_health_server(harness.bot, storage, "127.0.0.1", 0)
    try:
        (address,) = [s.getsockname() for site in runner.sites for s in site._server.sockets]  # type: ignore[union-attr]
        assert address[0] == "127.0.0.1"
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{address[1]}/health") as response,
        ):
            assert response.status == 503  # no gateway in this test
            assert (await response.json())["database"] is True
    finally:
        await runner.cleanup()
