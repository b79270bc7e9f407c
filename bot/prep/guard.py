"""Only the prep page itself may talk to its server (issue 34, item 0).

A web page the GM visits elsewhere can send a form to ``http://127.0.0.1:PORT/api/save`` (a "simple"
cross-site request: ``text/plain``, no preflight), and a DNS-rebinding page can make its own name point
at 127.0.0.1 and read the answers. So every request must name this server in ``Host`` (127.0.0.1 or
localhost, with the port it listens on): 421 otherwise. Every ``/api/`` request carries the token made
for this start (``X-Toride-Token``; the page reads it from its own HTML, which no other origin can read),
and every POST the page's own ``Origin`` and ``Content-Type: application/json``: 403 otherwise, before
any handler runs, so nothing is read, planned or written. Every answer carries headers that keep the
page out of frames, caches and other pages' referrers, and no ``Server`` banner.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from bot.i18n import t

TOKEN_HEADER = "X-Toride-Token"
LOCAL_NAMES = ("127.0.0.1", "localhost")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; style-src 'self'; "
        "font-src 'self'; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class Guard:
    """The checks of one start: its token, and the port it listens on (set once it is bound)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.token = secrets.token_urlsafe(32)
        self.port: int | None = None

    def hosts(self) -> set[str]:
        """The ``Host`` values that name this server."""
        return {f"{name}:{self.port}" for name in LOCAL_NAMES}

    def origins(self) -> set[str]:
        return {f"http://{host}" for host in self.hosts()}

    def refusal(self, request: web.Request) -> web.Response | None:
        """Why a request is not the page's own (its answer), or None when it is."""
        host = request.headers.get("Host", "").lower()
        if self.port is None or host not in self.hosts():
            return self._answer(421, "prep.guard.host")
        if not request.path.startswith("/api/"):
            return None
        if not secrets.compare_digest(request.headers.get(TOKEN_HEADER, ""), self.token):
            return self._answer(403, "prep.guard.token")
        if request.method == "GET" or request.method == "HEAD":
            return None
        if request.headers.get("Origin", "") not in self.origins():
            return self._answer(403, "prep.guard.origin")
        if request.content_type != "application/json":
            return self._answer(415, "prep.guard.json")
        return None

    def _answer(self, status: int, key: str) -> web.Response:
        words = t(key, self.lang)
        return web.json_response({"refusals": [{"place": "$", "text": words}]}, status=status)


def guard_middleware(guard: Guard) -> Middleware:
    @web.middleware
    async def guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
        refused = guard.refusal(request)
        if refused is not None:
            return refused
        return await handler(request)

    return guarded


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: the headers above on every answer, refusals and errors included."""
    response.headers.update(SECURITY_HEADERS)
    response.headers.popall("Server", None)
