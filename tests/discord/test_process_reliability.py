"""Issue 27: the bot as a real process recovers by itself. A gateway connection that goes silent (open,
but no HEARTBEAT_ACK and no event: a zombie) is closed and RESUMEd within two heartbeat intervals,
``/health`` says 503 from the missed ACK until the shard is back, and the interaction sent meanwhile
is answered after the RESUME. SIGTERM during a burst of commands: every acknowledged change is
stored, those that came after the signal are told to try again, and the status message shows the
last change. Counts and order are asserted, not durations (``benchmarks/discord_process.py`` times
them)."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bot_process import BotProcess, fresh_database, ready_bot
from discord_harness import Member
from fake_discord import IDENTIFY, RESUME, Call, FakeDiscord, Interaction, guild_on_shard
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.i18n import t

PG_URL = os.environ.get("TORIDE_TEST_DATABASE_URL")
GUILD = guild_on_shard(0, 1)
CHANNEL = 960000000000000027
GM = Member(970000000000000001, "GM太郎")
#: a short heartbeat (Discord's is 41.25 s), so a zombie shows within a test
HEARTBEAT_MS = 1000
#: a channel's bucket for message edits (Discord's: 5 per 5 s) with only two left in any 5 s, as when
#: the table was busy just before: a stop that edits once per change runs into a 429 and its wait
EDIT_LIMIT = (2, 5.0)

#: with the other tests that start several processes: one at a time, on one worker (the warm starts
#: their deadlines come from measured once)
pytestmark = pytest.mark.xdist_group("processes")


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[str]:
    async with fresh_database(tmp_path, PG_URL) as url:
        yield url


@pytest.fixture
async def bot(tmp_path: Path, database: str, request: pytest.FixtureRequest) -> AsyncIterator[BotProcess]:
    fake = FakeDiscord([GUILD], heartbeat_ms=HEARTBEAT_MS, edit_limit=EDIT_LIMIT)

    def failed() -> bool:
        report = getattr(request.node, "rep_call", None)
        return report is not None and bool(report.failed)

    async with ready_bot(fake, database, tmp_path / "bot.log", failed, "--dev-guild", str(GUILD)) as process:
        yield process


async def test_a_silent_gateway_is_resumed_within_two_heartbeats_and_health_says_503_meanwhile(
    bot: BotProcess,
) -> None:
    fake = bot.fake
    session = fake.session(0)
    await fake.wait_for(
        lambda: fake.connections[0].heartbeats.count(True) >= 2, "two acknowledged heartbeats"
    )
    statuses: list[int] = []

    async def poll() -> None:
        while True:
            answer = await bot.health()
            statuses.append(answer[0] if answer is not None else 0)
            await asyncio.sleep(0.02)

    polling = asyncio.create_task(poll())
    try:
        zombie = fake.silence(session)
        data = fake.command_data("roll", {"expr": "2d6"})
        missed = await fake.interact(session, GM, GUILD, CHANNEL, 2, data)  # not delivered: silent
        resumed = await fake.wait_for(
            lambda: next((c for c in fake.connections[1:] if c.opened_with == RESUME), None), "a RESUME"
        )
        answered = await fake.callback(missed)  # replayed on the RESUME, then answered
        await fake.wait_for(lambda: statuses and statuses[-1] == 200, "health 200 again")
    finally:
        polling.cancel()
    # the bot closed the zombie itself (resumable code), having sent at most two heartbeats unanswered
    assert zombie.closed and zombie.close_code == 4000
    assert 1 <= zombie.heartbeats.count(False) <= 2, zombie.heartbeats
    assert [op for op, _ in fake.gateway_ops] == [IDENTIFY, RESUME] and session.resumes == 1
    assert resumed.session is session and session.replayed >= 1 and answered.type == 4
    # health: 200, then 503 from the missed ACK, then 200 once resumed
    first_down = statuses.index(503)
    assert 200 not in statuses[first_down : statuses.index(200, first_down)]
    assert statuses[-1] == 200
    # /metrics (issue 39, item 3): the silent connection closed and the RESUME, on shard 0; the roll
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value for s in await bot.metrics()}
    shard = (("shard", "0"),)
    assert samples[("toride_gateway_silent_closes_total", shard)] == 1
    assert samples[("toride_gateway_reconnects_total", shard)] == 1
    assert samples[("toride_gateway_up", shard)] == 1
    assert samples[("toride_gateway_latency_seconds", shard)] >= 0
    labels = (("command", "roll"), ("result", "ok"), ("ruleset", "none"))
    assert samples[("toride_commands_total", labels)] == 1
    assert samples[("toride_event_loop_lag_seconds_count", ())] >= 1


async def test_sigterm_during_a_burst_of_20_commands_keeps_every_acknowledged_change_and_the_status(
    bot: BotProcess, database: str
) -> None:
    fake = bot.fake
    session = fake.session(0)

    async def command(path: str, **options: object) -> Call:
        data = fake.command_data(path, options)
        return await fake.callback(await fake.interact(session, GM, GUILD, CHANNEL, 2, data))

    await command("fort start", rounds=3, title="北の砦")
    await command("unit add", name="ゴブリン隊", type="normal", area="A2", hp=1000, fort_damage=5)
    await fake.wait_for(lambda: fake.messages.get(CHANNEL), "the status message")
    (status_id,) = fake.messages[CHANNEL]
    sent: list[Interaction] = []
    for n in range(20):
        data = fake.command_data("unit hp", {"unit": "ゴブリン隊", "delta": -1})
        sent.append(await fake.interact(session, GM, GUILD, CHANNEL, 2, data))
        if n == 9:
            assert bot.process is not None
            bot.process.send_signal(signal.SIGTERM)  # in the middle of the burst
        await asyncio.sleep(0.05)  # a burst of a second: 20 commands at a busy table
    code, stopped = await bot.stop(signal.SIGTERM)
    assert code == 0, bot.output()
    edits = [(round(c.at - sent[0].sent_at, 2), c.status) for c in fake.channel_calls(CHANNEL, "PATCH")]
    print(f"\nstatus edits (s after the burst began, HTTP status): {edits}; stopped in {stopped:.2f} s")
    acknowledged, turned_away, unanswered = 0, 0, 0
    restarting = t("discord.restarting", "ja")
    for interaction in sent:
        answers = fake.callbacks(interaction)
        if not answers:
            unanswered += 1  # came after the gateway closed: never delivered, nothing done
        elif restarting in answers[0].text():
            assert answers[0].ephemeral
            turned_away += 1
        else:
            assert answers[0].type == 4 and "→" in answers[0].text()
            acknowledged += 1
    print(
        f"\nburst: {acknowledged} acknowledged, {turned_away} told to try again, {unanswered} not delivered"
    )
    assert acknowledged >= 5 and acknowledged + turned_away + unanswered == 20
    # every acknowledged change is stored: one version each after the start and the unit
    engine = create_async_engine(database)
    try:
        async with engine.connect() as conn:
            (version,) = (await conn.execute(text("SELECT version FROM battles"))).one()
    finally:
        await engine.dispose()
    assert version == 2 + acknowledged
    # the status message shows the last acknowledged change
    assert f"HP {1000 - acknowledged}/1000" in Call("PATCH", "", fake.messages[CHANNEL][status_id], 0).text()
