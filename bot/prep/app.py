"""The prep page as a small aiohttp app: ``make_app`` (its routes, templates and static files) and
``serve`` (listening on 127.0.0.1 only, with a header timeout and a cap on connections).

Routes: ``/`` the page (``templates/page.html``, autoescaped), ``/static/*`` its script and style,
``/font.otf`` the Japanese font of the pictures, ``/mark/<kind>.png`` the list's marks; ``/api/start``
the battle of FILE (or a new one) and its version, ``/api/check`` a draft checked (and its picture with
the regions one clicks), ``/api/open`` an exported file made a draft, ``/api/sheet`` the units of a
monster sheet, ``/api/odds`` the planner, ``/api/save`` the document (and FILE written, when the page's
version is FILE's). Every request is the page's own or refused first (``bot.prep.guard``). Pictures are
drawn in a thread and plans run in worker processes, so the event loop stays free.
"""

from __future__ import annotations

import aiohttp_jinja2
import jinja2
from aiohttp import web

from bot.prep import handlers as h
from bot.prep.connections import start_site
from bot.prep.guard import guard_middleware, security_headers
from bot.prep.table import Prep
from engine.limits import IMPORT_MAX_BYTES

__all__ = ["HOST", "Prep", "make_app", "serve"]

HOST = "127.0.0.1"


def make_app(prep: Prep) -> web.Application:
    app = web.Application(
        client_max_size=IMPORT_MAX_BYTES, middlewares=[guard_middleware(prep.guard), h.refusals]
    )
    app.on_response_prepare.append(security_headers)
    app[h.PREP] = prep
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.PackageLoader("bot.prep", "templates"),
        autoescape=jinja2.select_autoescape(default=True),
        undefined=jinja2.StrictUndefined,
    )
    app.add_routes(
        [
            web.get("/", h.index),
            web.static("/static", h.STATIC, append_version=False),
            web.get("/font.otf", h.font),
            web.get("/mark/{kind}.png", h.mark),
            web.get("/api/start", h.start),
            web.post("/api/check", h.check),
            web.post("/api/open", h.open_file),
            web.post("/api/sheet", h.sheet),
            web.post("/api/odds", h.odds),
            web.post("/api/save", h.save),
        ]
    )
    return app


async def serve(prep: Prep, port: int) -> web.AppRunner:
    """The app listening on 127.0.0.1:``port`` (0: any free port; ``runner.addresses`` says which)."""
    runner = web.AppRunner(make_app(prep), access_log=None)
    await runner.setup()
    try:
        await start_site(runner, HOST, port)
    except BaseException:
        await runner.cleanup()
        raise
    prep.guard.port = runner.addresses[0][1]
    return runner
