"""A local HTTPS server for the sheet-fetching tests: aiohttp on 127.0.0.1 with a certificate from a test-only
certificate authority (trustme), and the ``FetchPolicy`` that trusts it. Production code never turns
verification off: the test policy passes this authority's context instead of the system's."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import trustme
from aiohttp import web
from sheet_fixtures import fixture_text

from bot.sheet_fetch import FetchPolicy


@dataclass
class SheetServer:
    port: int
    policy: FetchPolicy
    requests: list[str]

    def url(self, path: str, host: str = "localhost") -> str:
        return f"https://{host}:{self.port}{path}"


def _app(requests: list[str], slow: float) -> web.Application:
    async def sheet(request: web.Request) -> web.Response:
        requests.append(request.path_qs)
        name = request.match_info["name"]
        return web.Response(text=fixture_text(name), content_type="application/json")

    async def ytsheet(request: web.Request) -> web.Response:
        # ゆとシートⅡ's own address: ?id=…&mode=json gives the JSON
        requests.append(request.path_qs)
        if request.query.get("mode") != "json":
            return web.Response(text="<html>sheet page</html>", content_type="text/html")
        return web.Response(text=fixture_text(request.query["id"]), content_type="application/json")

    async def elsewhere(request: web.Request) -> web.Response:
        requests.append(request.path_qs)
        raise web.HTTPFound(f"https://127.0.0.1:{request.url.port}/sheet/fighter")

    async def inside(request: web.Request) -> web.Response:
        requests.append(request.path_qs)
        raise web.HTTPFound("/sheet/fighter")

    async def large(request: web.Request) -> web.Response:
        requests.append(request.path_qs)
        return web.Response(text='{"a": "' + "x" * 1_100_000 + '"}', content_type="application/json")

    async def streamed(request: web.Request) -> web.StreamResponse:
        """Too large, with no Content-Length to say so in advance."""
        requests.append(request.path_qs)
        response = web.StreamResponse()
        response.enable_chunked_encoding()
        await response.prepare(request)
        for _ in range(30):
            await response.write(b" " * 50_000)
        await response.write_eof()
        return response

    async def slowly(request: web.Request) -> web.Response:
        requests.append(request.path_qs)
        await asyncio.sleep(slow)
        return web.Response(text=fixture_text("fighter"), content_type="application/json")

    async def page(request: web.Request) -> web.Response:
        requests.append(request.path_qs)
        return web.Response(text="<!doctype html><title>ゆとシート</title>", content_type="text/html")

    async def missing(request: web.Request) -> web.Response:
        requests.append(request.path_qs)
        return web.Response(status=404, text="not found")

    app = web.Application()
    app.router.add_get("/sheet/{name}", sheet)
    app.router.add_get("/ytsheet/sw2.5/", ytsheet)
    app.router.add_get("/elsewhere", elsewhere)
    app.router.add_get("/inside", inside)
    app.router.add_get("/large", large)
    app.router.add_get("/streamed", streamed)
    app.router.add_get("/slow", slowly)
    app.router.add_get("/page", page)
    app.router.add_get("/missing", missing)
    return app


@asynccontextmanager
async def sheet_server(*, slow: float = 3.0, timeout: float = 0.5) -> AsyncIterator[SheetServer]:
    """The server, and a policy that allows ``localhost`` (a loopback address, allowed for this test only)."""
    ca = trustme.CA()
    cert = ca.issue_cert("localhost", "127.0.0.1")
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(server_context)
    client_context = ssl.create_default_context()
    ca.configure_trust(client_context)
    requests: list[str] = []
    runner = web.AppRunner(_app(requests, slow))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=server_context)
    await site.start()
    port = runner.addresses[0][1]
    policy = FetchPolicy(
        hosts=frozenset({"localhost"}), timeout=timeout, allow_private=True, ssl=client_context
    )
    try:
        yield SheetServer(port, policy, requests)
    finally:
        await runner.cleanup()
