"""``GET /metrics`` on the health endpoint (issue 39, item 3): the real server on 127.0.0.1, scraped
over HTTP after commands went through the real discord.py client, read with prometheus_client's own
parser. Counts are exact; durations are only said to be observed (or bounded from below)."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import prometheus_client
import pytest
from discord_harness import BOB, CHANNEL_ID, GM, Dice, Harness
from odds_gate import gated
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from bot.discord.buttons import NEXT
from bot.discord.health import start_health_server
from bot.rulesets.fort.planner.runner import OddsRunner
from bot.service import BattleService
from bot.storage.interface import Storage
from bot.storage.sql import SqlStorage
from bot.storage.writer import StorageWriter

Scrape = Callable[[], Awaitable[list[Sample]]]
COMMANDS = "toride_commands_total"
LATENCY = "toride_reply_latency_seconds"


async def scraper(harness: Harness, storage: Storage) -> AsyncIterator[Scrape]:
    runner = await start_health_server(harness.bot, storage, "127.0.0.1", 0)
    (port,) = [s.getsockname()[1] for site in runner.sites for s in site._server.sockets]  # type: ignore[union-attr]

    async def scrape() -> list[Sample]:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/metrics") as response,
        ):
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
            text = await response.text()
        return [sample for family in text_string_to_metric_families(text) for sample in family.samples]

    try:
        yield scrape
    finally:
        await runner.cleanup()


@pytest.fixture
async def scrape(harness: Harness, storage: Storage) -> AsyncIterator[Scrape]:
    async for it in scraper(harness, storage):
        yield it


def series(samples: list[Sample], name: str, *labels: str) -> dict[tuple[str, ...], float]:
    """The samples named ``name``, by the values of ``labels``."""
    return {tuple(s.labels[k] for k in labels): s.value for s in samples if s.name == name}


def value(samples: list[Sample], name: str, **labels: str) -> float:
    (found,) = [s.value for s in samples if s.name == name and s.labels == labels]
    return found


async def test_each_command_is_counted_by_rule_set_command_and_result_and_its_latency_observed(
    harness: Harness, storage: Storage, dice: Dice, scrape: Scrape, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = await scrape()
    assert series(before, COMMANDS) == {} and series(before, LATENCY + "_count") == {}
    await harness.run(GM, "fort start", rounds=2)
    await harness.run(BOB, "pc add", name="ボブ")
    await harness.run(BOB, "fort next")  # GM only: refused
    await harness.run(GM, "unit add", name="鬼", type="normal", area="F0", hp=5, fort_damage=1)  # F-MAP-7
    await harness.press(GM, NEXT)  # the battle's next turn: the fort's
    await harness.run(GM, "gm undo")  # a shared command, on the channel's fort battle
    dice.feed(3, 4)
    await harness.run(GM, "roll", expr="2d6")  # no rule set
    await harness.complete(GM, "pc move", "name", name="ボ")  # autocomplete is not a command

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(harness.bot.service, "execute", broken)
    await harness.run(GM, "pc add", name="アリス")
    samples = await scrape()
    assert series(samples, COMMANDS, "ruleset", "command", "result") == {
        ("fort", "fort start", "ok"): 1,
        ("fort", "pc add", "ok"): 1,
        ("fort", "fort next", "refused"): 1,
        ("fort", "unit add", "refused"): 1,
        ("fort", "button next", "ok"): 1,
        ("fort", "gm undo", "ok"): 1,
        ("none", "roll", "ok"): 1,
        ("fort", "pc add", "error"): 1,
    }
    # every answer's latency, by rule set: each bucket holds as many as the ones below it or more
    assert series(samples, LATENCY + "_count", "ruleset") == {("fort",): 7, ("none",): 1}
    for ruleset, count in (("fort", 7), ("none", 1)):
        buckets = [s for s in samples if s.name == LATENCY + "_bucket" and s.labels["ruleset"] == ruleset]
        assert buckets[-1].labels["le"] == "+Inf" and buckets[-1].value == count
        assert [b.value for b in buckets] == sorted(b.value for b in buckets)
        assert value(samples, LATENCY + "_sum", ruleset=ruleset) > 0
    # the storage writer: one observation per batch it wrote (the start and the undo are jobs)
    assert storage.counts.batches >= 1
    assert value(samples, "toride_storage_commit_seconds_count") == storage.counts.batches
    assert value(samples, "toride_storage_queue_plans") == 0
    # no gateway in this test, no planner asked: no shard's series, no plan queued
    assert series(samples, "toride_gateway_latency_seconds") == {}
    assert series(samples, "toride_gateway_up") == {}
    assert value(samples, "toride_planner_queued_plans", ruleset="fort") == 0
    # the bot's own registry: nothing of it in prometheus_client's global one
    assert prometheus_client.REGISTRY.get_sample_value(COMMANDS, {"ruleset": "fort"}) is None


async def test_the_storage_queue_shows_the_plans_waiting_for_the_writer(
    harness: Harness, storage: Storage, scrape: Scrape
) -> None:
    channels = (CHANNEL_ID, CHANNEL_ID + 1)  # one plan at a time in a channel: two channels
    for channel in channels:
        await harness.run(GM, "fort start", channel_id=channel, rounds=2)
    assert isinstance(storage, SqlStorage)
    writer: StorageWriter = storage.writer
    async with writer.turn:  # a job holds the writer's connection: the plans wait
        adding = [asyncio.create_task(harness.run(GM, "pc add", channel_id=c, name="A")) for c in channels]
        while writer.queued < 2:
            await asyncio.sleep(0.01)
        assert value(await scrape(), "toride_storage_queue_plans") == 2
    await asyncio.gather(*adding)
    samples = await scrape()
    assert value(samples, "toride_storage_queue_plans") == 0
    assert series(samples, COMMANDS, "command", "result")[("pc add", "ok")] == 2


async def test_gateway_reconnects_are_counted_by_shard_after_the_first_ready(
    harness: Harness, scrape: Scrape
) -> None:
    bot = harness.bot
    await bot.on_shard_ready(0)  # the first connection of each shard is no reconnection
    await bot.on_shard_ready(1)
    await bot.on_shard_resumed(0)
    await bot.on_shard_ready(0)  # a new session
    await bot.on_shard_resumed(1)
    samples = await scrape()
    assert series(samples, "toride_gateway_reconnects_total", "shard") == {("0",): 2, ("1",): 1}
    assert series(samples, "toride_gateway_silent_closes_total") == {}


async def test_a_blocked_event_loop_shows_as_lag(harness: Harness, scrape: Scrape) -> None:
    watchdog = harness.bot.watchdog
    watchdog.start()
    try:
        await asyncio.sleep(0)  # the sampler set its timer, due in LAG_EVERY (0.25 s)
        time.sleep(0.6)  # a callback that holds the loop: the timer runs at least 0.35 s late
        for _ in range(100):
            samples = await scrape()
            if value(samples, "toride_event_loop_lag_seconds_count"):
                break
    finally:
        await watchdog.stop()
    name = "toride_event_loop_lag_seconds"
    count = value(samples, name + "_count")
    assert count >= 1 and value(samples, name + "_sum") >= 0.35
    assert count - value(samples, name + "_bucket", le="0.25") >= 1  # that one is above 0.25 s


@pytest.fixture
async def gated_harness(storage: Storage, dice: Dice) -> AsyncIterator[tuple[Harness, Any]]:
    runner = OddsRunner()
    started, gate = runner.context.Event(), runner.context.Event()
    runner.target = functools.partial(gated, started, gate)
    h = await Harness.create(BattleService(storage, dice, planners={"fort": runner}), defer_after=None)
    yield h, (started, gate)
    gate.set()
    await h.bot.coalescer.close()


async def test_a_plan_running_is_queued_and_counted_but_not_in_the_reply_latency(
    gated_harness: tuple[Harness, Any], storage: Storage
) -> None:
    harness, (started, gate) = gated_harness
    await harness.run(GM, "fort start", rounds=2, fort_hp=40)
    await harness.run(
        GM, "unit add", name="破城槌", type="ram", area="A1", hp=15, fort_damage=0, strike="2d+10"
    )
    async for scrape in scraper(harness, storage):
        payload = harness._base(GM, 2, harness.command_data("fort odds", {"runs": 1000, "seed": 1}))
        harness.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        assert await asyncio.to_thread(started.wait, 60)  # held in its worker
        samples = await scrape()
        assert value(samples, "toride_planner_queued_plans", ruleset="fort") == 1
        gate.set()
        await harness.settle()
        samples = await scrape()
        assert value(samples, "toride_planner_queued_plans", ruleset="fort") == 0
        assert series(samples, COMMANDS, "command", "result") == {
            ("fort start", "ok"): 1,
            ("unit add", "ok"): 1,
            ("fort odds", "ok"): 1,
        }
        # deferred at once by design, its seconds are the planner's: not a reply latency
        assert series(samples, LATENCY + "_count", "ruleset") == {("fort",): 2}


async def test_chat_dice_are_counted_as_the_command_chat(storage: Storage) -> None:
    """A chat dice message answered counts once (``chat``, of no rule set, with its reply's latency); a
    message that is no dice command (or one too large to roll, which chat leaves alone) not at all."""
    import discord
    from chat_payloads import chat_message
    from discord_harness import Member

    from engine.dice import SeededDice

    admin = Member(400000000000000091, "Admin", permissions=(1 << 10) | (1 << 11) | (1 << 31) | (1 << 5))
    h = await Harness.create(BattleService(storage, SeededDice(7)), defer_after=None, chat_dice=True)
    try:
        async for scrape in scraper(h, storage):
            await h.run(admin, "settings", chat_dice=True)
            state = h.bot._connection
            channel = discord.PartialMessageable(state=state, id=CHANNEL_ID, guild_id=h.guild_id)
            for text in ("2d6+3", "こんにちは", "2d6+3 命中", "99999d6"):
                payload = chat_message(BOB, text, h.guild_id, CHANNEL_ID)
                await h.bot.chat.on_message(discord.Message(state=state, channel=channel, data=payload))  # type: ignore[arg-type]
            samples = await scrape()
            chat = {
                k: v
                for k, v in series(samples, COMMANDS, "ruleset", "command", "result").items()
                if k[1] == "chat"
            }
            assert chat == {("none", "chat", "ok"): 2}
            assert value(samples, LATENCY + "_count", ruleset="none") == 3  # and /settings
    finally:
        await h.bot.coalescer.close()
