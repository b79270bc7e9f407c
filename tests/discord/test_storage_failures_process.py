"""Issue 27, storage failures in words, in the bot as a real process: its PostgreSQL server (one of
the test's own) stops under it and starts again. Meanwhile a command gets one ephemeral line in the
user's language (the connection to the database is lost, nothing was changed), ``/health`` says 503,
the process stays up; when the server is back the next command works, and every change acknowledged
before is there."""

from __future__ import annotations

import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bot_process import BotProcess
from discord_harness import Member
from fake_discord import Call, FakeDiscord, guild_on_shard
from own_postgres import OwnPostgres, available, own_postgres
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.i18n import t

pytestmark = [
    pytest.mark.skipif(not available(), reason="initdb and pg_ctl are not on PATH"),
    # with the other tests that start several processes: one at a time, on one worker
    pytest.mark.xdist_group("processes"),
]
GUILD = guild_on_shard(0, 1)
CHANNEL = 960000000000000127
GM = Member(970000000000000001, "GM太郎")


@pytest.fixture
async def server() -> AsyncIterator[OwnPostgres]:
    with own_postgres() as started:
        yield started


async def test_a_lost_postgresql_server_is_told_in_words_and_the_bot_goes_on_when_it_is_back(
    server: OwnPostgres, tmp_path: Path
) -> None:
    fake = FakeDiscord([GUILD])
    await fake.start()
    bot = BotProcess(fake, server.url, tmp_path / "bot.log", "--dev-guild", str(GUILD))
    try:
        await bot.start()
        await bot.ready()
        session = fake.session(0)

        async def command(path: str, **options: object) -> Call:
            data = fake.command_data(path, options)
            return await fake.callback(await fake.interact(session, GM, GUILD, CHANNEL, 2, data))

        await command("fort start", rounds=3)
        await command("unit add", name="ゴブリン隊", type="normal", area="A2", hp=100, fort_damage=5)
        assert "100→99" in (await command("unit hp", unit="ゴブリン隊", delta=-1)).text()

        server.stop()
        lost = await command("unit hp", unit="ゴブリン隊", delta=-1)
        assert lost.ephemeral and lost.text() == "⚠ " + t("storage.connection_lost", "ja")
        health = await bot.health()
        assert health is not None and health[0] == 503 and health[1]["database"] is False
        assert bot.process is not None and bot.process.returncode is None  # still up

        server.start()
        back = await command("unit hp", unit="ゴブリン隊", delta=-1)
        assert back.type == 4 and not back.ephemeral and "99→98" in back.text(), back.text()
        health = await bot.health()
        assert health is not None and health[0] == 200
        code, _ = await bot.stop(signal.SIGTERM)
        assert code == 0
        assert "Traceback" not in "".join(c.text() for c in fake.calls)
    finally:
        await bot.kill()
        await fake.stop()
    engine = create_async_engine(server.url)
    try:
        async with engine.connect() as conn:
            (version,) = (await conn.execute(text("SELECT version FROM battles"))).one()
    finally:
        await engine.dispose()
    assert version == 4  # the start, the unit, two HP changes acknowledged; the refused one not there
