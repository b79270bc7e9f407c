"""A REST proxy in front of Discord (issue 39, item 2): ``TORIDE_DISCORD_API_BASE`` points the bot's
REST calls at it (as at nirn-proxy, shared by all the bot's processes, so that Discord's global limit
and invalid-request count are kept in one place). Here a tiny aiohttp proxy stands in front of the
Discord stand-in: the bot logs in, connects and answers a slash command, and every REST call the
stand-in got came through the proxy (a 429 with its headers too), none around it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from bot_process import BotProcess, fresh_database
from discord_harness import Member
from fake_discord import FakeDiscord, guild_on_shard

GUILD = guild_on_shard(0, 1)
CHANNEL = 960000000000000101
GM = Member(970000000000000101, "GM太郎")
#: headers that belong to one connection, not passed on
HOP = frozenset({"host", "connection", "content-length", "transfer-encoding", "keep-alive"})

pytestmark = pytest.mark.xdist_group("processes")


class Proxy:
    """Forwards ``/api/v10/...`` to the stand-in, as it came; keeps (method, path, status) of each."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.passed: list[tuple[str, str, int]] = []
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self.port = 0

    async def start(self) -> None:
        self._session = aiohttp.ClientSession(auto_decompress=False)
        app = web.Application()
        app.router.add_route("*", "/api/v10/{path:.*}", self._forward)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._session is not None
        path = "/" + request.match_info["path"]
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        async with self._session.request(
            request.method,
            self.upstream + path,
            params=request.query,
            headers=headers,
            data=await request.read(),
        ) as answer:
            body = await answer.read()
            self.passed.append((request.method, path, answer.status))
            back = {k: v for k, v in answer.headers.items() if k.lower() not in HOP}
            return web.Response(body=body, status=answer.status, headers=back)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    stand_in = FakeDiscord([GUILD])
    await stand_in.start()
    yield stand_in
    await stand_in.stop()


async def test_the_bot_talks_to_discord_through_the_proxy_in_toride_discord_api_base(
    fake: FakeDiscord, tmp_path: Path, processes: list[BotProcess]
) -> None:
    proxy = Proxy(fake.api_base)
    await proxy.start()
    try:
        async with fresh_database(tmp_path, None) as database:
            env = {"TORIDE_DISCORD_API_BASE": proxy.api_base}
            bot = BotProcess(fake, database, tmp_path / "bot.log", "--dev-guild", str(GUILD), env=env)
            processes.append(bot)
            await bot.start()
            await bot.ready()
            fake.rate_limit("POST", f"/channels/{CHANNEL}/messages", 0.3)  # the status message: a 429 first
            data = fake.command_data("fort start", {"rounds": 2, "title": "北の砦"})
            interaction = await fake.interact(fake.session(0), GM, GUILD, CHANNEL, 2, data)
            answer = await fake.callback(interaction)
            assert answer.type == 4 and "北の砦" in answer.text()
            await fake.wait_for(lambda: fake.messages.get(CHANNEL), "the status message after its 429")
            code, _ = await bot.stop()
            assert code == 0
    finally:
        await proxy.stop()
    got = [(call.method, call.path, call.status) for call in fake.calls]
    assert got == proxy.passed  # every call through the proxy, in order, with Discord's answer
    paths = {path for _, path, _ in proxy.passed}
    assert {
        "/users/@me",
        "/gateway/bot",
        f"/interactions/{interaction.id}/{interaction.token}/callback",
    } <= paths
    assert ("POST", f"/channels/{CHANNEL}/messages", 429) in proxy.passed
    assert ("POST", f"/channels/{CHANNEL}/messages", 200) in proxy.passed
