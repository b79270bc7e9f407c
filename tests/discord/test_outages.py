"""Issue 39, item 1: recovery within seconds. The bot as a real process against the stand-in, whose
gateway refuses every upgrade for 8 s (its connections closed first), whose REST API answers 503 to
every call for a while (a storm), or whose name does not resolve for a while (DNS, in a mount
namespace of the bot's own with an ``/etc/hosts`` the test writes): each time the bot is back
(READY or RESUMED, ``/health`` 200) and answers a command within 10 s of Discord answering again,
having said in its log when it would try next."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bot_process import BotProcess, ready_bot
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
    database = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"

    def failed() -> bool:
        report = getattr(request.node, "rep_call", None)
        return report is not None and bool(report.failed)

    async with ready_bot(fake, database, tmp_path / "bot.log", failed, "--dev-guild", str(GUILD)) as process:
        yield process


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


#: the stand-in's names in the bot's own ``/etc/hosts`` (no DNS server knows them): its API's, its
#: gateway's
STAND_IN = "discord-stand-in.test"
STAND_IN_GATEWAY = "gateway-stand-in.test"
#: the bot's HTTP client keeps a name it resolved for 10 s (aiohttp's ``ttl_dns_cache``): the gateway
#: connection is dropped once that has passed, and the name resolves again some seconds later
DNS_CACHED = 11.0
DNS_OUTAGE = 6.0


def _namespaces() -> bool:
    """Can this machine give a process a mount namespace of its own (root, ``unshare``)?"""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.skipif(not _namespaces(), reason="no mount namespace for the bot's own /etc/hosts")
async def test_after_discords_name_did_not_resolve_the_bot_is_back_within_10_s(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    hosts = tmp_path / "hosts"
    resolving = f"127.0.0.1 localhost\n127.0.0.1 {STAND_IN} {STAND_IN_GATEWAY}\n"
    hosts.write_text(resolving)
    fake = FakeDiscord([GUILD], heartbeat_ms=HEARTBEAT_MS)
    fake.host, fake.gateway_host = STAND_IN, STAND_IN_GATEWAY
    await fake.start()
    # the bot in a mount namespace of its own, whose /etc/hosts is the test's file (written in place)
    wrapper = ["unshare", "-m", "sh", "-c", f'mount --bind "{hosts}" /etc/hosts && exec "$@"', "sh"]
    database = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    bot = BotProcess(fake, database, tmp_path / "bot.log", "--dev-guild", str(GUILD), prefix=wrapper)
    try:
        await bot.start()
        await bot.ready()
        with hosts.open("w") as file:  # the same file (the bind mount's inode): the names are gone
            file.write("127.0.0.1 localhost\n")
        await asyncio.sleep(DNS_CACHED)
        await fake.drop(fake.session(0))
        await asyncio.sleep(DNS_OUTAGE)
        with hosts.open("w") as file:
            file.write(resolving)
        resolves = time.monotonic()
        back = await healthy_after(bot, resolves, 90.0)
        assert back - resolves < BACK_WITHIN, back - resolves
        assert (await roll(fake, BACK_WITHIN)).type == 4
        log = bot.output(last=10**6)
        assert "ClientConnectorDNSError" in log and "trying again in" in log  # it met the outage
        assert "Traceback" not in log
    finally:
        await bot.kill()
        await fake.stop()
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            print(bot.output())
