"""Issue 39, item 1: recovery within seconds. The bot as a real process against the stand-in, whose
gateway refuses every upgrade for 8 s (its connections closed first), whose REST API answers 503 to
every call for a while (a storm), or whose name does not resolve for a while (DNS, in a mount
namespace of the bot's own with an ``/etc/hosts`` the test writes): each time the bot is back
(READY or RESUMED, ``/health`` 200) and answers a command within 10 s of Discord answering again,
having said in its log when it would try next."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bot_process import BotProcess
from discord_harness import Member
from fake_discord import IDENTIFY, RESUME, Call, FakeDiscord, guild_on_shard

GUILD = guild_on_shard(0, 1)
CHANNEL = 960000000000000039
GM = Member(970000000000000001, "GM太郎")
#: how soon after Discord answers again the bot must be back (issue 39)
BACK_WITHIN = 10.0
#: a short heartbeat (Discord's is 41.25 s), so that a test needs not wait a long one
HEARTBEAT_MS = 2000
#: with the other tests that start processes: one at a time, on one worker
pytestmark = pytest.mark.xdist_group("processes")


@pytest.fixture
async def bot(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[BotProcess]:
    fake = FakeDiscord([GUILD], heartbeat_ms=HEARTBEAT_MS)
    await fake.start()
    database = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    process = BotProcess(fake, database, tmp_path / "bot.log", "--dev-guild", str(GUILD))
    try:
        await process.start()
        await process.ready()
        yield process
    finally:
        await process.kill()
        await fake.stop()
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            print(process.output())


async def healthy_after(bot: BotProcess, since: float, timeout: float) -> float:
    """When (``time.monotonic``) ``/health`` first said 200 after ``since``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = await bot.health()
        now = time.monotonic()
        if now > since and answer is not None and answer[0] == 200:
            return now
        await asyncio.sleep(0.05)
    raise AssertionError(f"/health not 200 within {timeout:g} s:\n{bot.output()}")


async def roll(fake: FakeDiscord, timeout: float = 15.0) -> Call:
    """``/roll 2d6`` on the current session, answered."""
    data = fake.command_data("roll", {"expr": "2d6"})
    return await fake.callback(await fake.interact(fake.session(0), GM, GUILD, CHANNEL, 2, data), timeout)


async def test_after_the_gateway_refused_for_8_s_the_bot_is_back_within_10_s(bot: BotProcess) -> None:
    fake = bot.fake
    await fake.refuse_gateway(8.0)
    answering = fake.gateway_refused_until
    back = await healthy_after(bot, answering, 90.0)
    refused = len(fake.refused_upgrades)
    print(f"\nback {back - answering:.2f} s after the gateway answered again; {refused} upgrades refused")
    assert back - answering < BACK_WITHIN, (back - answering, fake.refused_upgrades)
    assert len(fake.refused_upgrades) >= 3  # it kept trying meanwhile, every few seconds
    reopened = [c for c in fake.connections[1:] if c.session is not None and not c.closed]
    assert reopened and reopened[-1].opened_with in (IDENTIFY, RESUME)
    assert (await roll(fake, BACK_WITHIN)).type == 4
    # the log says when it tries next, each time, in a line of words (no traceback)
    log = bot.output(last=10**6)
    waits = [
        float(w)
        for w in re.findall(r"shard 0: the gateway did not answer .*; trying again in ([\d.]+) s", log)
    ]
    assert len(waits) >= 3 and max(waits) <= 5.0, waits
    assert "Traceback" not in log


async def test_after_a_rest_storm_commands_are_answered_within_10_s(bot: BotProcess) -> None:
    """Every REST call answers 503 for 8 s: a command that comes meanwhile is answered once Discord
    answers again (discord.py tries a 5xx again after 1, 3, 5, 7 and 9 s), one after it at once."""
    fake = bot.fake
    fake.storm(8.0)
    answering = fake.rest_failing_until
    data = fake.command_data("roll", {"expr": "2d6"})
    during = await fake.interact(fake.session(0), GM, GUILD, CHANNEL, 2, data)
    await asyncio.sleep(max(0.0, answering - time.monotonic()))
    after = await roll(fake, BACK_WITHIN)
    assert after.type == 4 and after.at - answering < BACK_WITHIN

    def answered() -> list[Call]:
        return [c for c in fake.callbacks(during) if c.status == 200]

    (first,) = await fake.wait_for(answered, "the command of the storm answered", BACK_WITHIN)
    assert first.at - answering < BACK_WITHIN and first.type == 4
    assert [c.status for c in fake.callbacks(during)][:-1] == [503] * (len(fake.callbacks(during)) - 1)
    health = await bot.health()
    assert health is not None and health[0] == 200
