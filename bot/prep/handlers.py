"""The prep page's HTTP handlers: each reads its request, asks the table (``bot.prep.table``) and
answers its JSON. A body is at most the import limit; one that is not a JSON object is refused in words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web

from bot import commands as cmd
from bot.i18n import t
from bot.prep.table import Answer, Prep, refusal
from engine.errors import EngineError
from engine.limits import IMPORT_MAX_BYTES

STATIC = Path(__file__).with_name("static")
PREP = web.AppKey("prep", Prep)
#: the page's own words its script uses (``prep.<key>``), beside its rule set's (``page_data``)
SHELL_WORDS = (
    "checking", "not_saved", "numbered", "help_of", "problems", "problems_short", "add_at", "add_here",
    "more", "moved", "save_to", "save_download", "opened_upload", "downloaded", "restored", "removed",
    "settings", "running", "sheet_added",
)  # fmt: skip
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _prep(request: web.Request) -> Prep:
    return request.app[PREP]


def _json(answer: Answer) -> web.Response:
    return web.json_response(answer.body, status=answer.status)


class TooLarge(EngineError):
    """A body beyond the import limit (``command.json_too_large``)."""


class NotJson(EngineError):
    """A body that is not a JSON object (``prep.not_json``)."""


async def _body(request: web.Request) -> bytes:
    try:
        return await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise TooLarge("command.json_too_large", option="file", max=IMPORT_MAX_BYTES // 1000) from None


async def _object(request: web.Request) -> dict[str, Any]:
    data = await _body(request)
    try:
        value = cmd.load_json(data.decode("utf-8"))
    except (EngineError, ValueError, UnicodeDecodeError):
        raise NotJson("prep.not_json") from None
    if not isinstance(value, dict):
        raise NotJson("prep.not_json")
    return value


async def index(request: web.Request) -> web.Response:
    prep = _prep(request)
    page = prep.binding.page_data(prep.lang)
    shell = {key: t(f"prep.{key}", prep.lang) for key in SHELL_WORDS}
    shell["next"] = prep.next_step()
    context = {
        "lang": prep.lang,
        "token": prep.guard.token,
        "page": page,
        "shell": shell,
        "t": lambda key: t(key, prep.lang),
    }
    return aiohttp_jinja2.render_template("page.html", request, context)


async def font(request: web.Request) -> web.FileResponse:
    from bot.render.picture.fonts import font_path

    return web.FileResponse(font_path(), headers={"Content-Type": "font/otf"})


async def mark(request: web.Request) -> web.Response:
    png = _prep(request).binding.mark_png(request.match_info["kind"])
    if png is None:
        raise web.HTTPNotFound()
    return web.Response(body=png, content_type="image/png")


async def start(request: web.Request) -> web.Response:
    return _json(await _prep(request).start())


async def check(request: web.Request) -> web.Response:
    return _json(await _prep(request).check(await _object(request)))


async def open_file(request: web.Request) -> web.Response:
    return _json(await _prep(request).open(await _body(request)))


async def sheet(request: web.Request) -> web.Response:
    return _json(await _prep(request).sheet(await _object(request)))


async def odds(request: web.Request) -> web.Response:
    return _json(await _prep(request).odds(await _object(request)))


async def save(request: web.Request) -> web.Response:
    return _json(await _prep(request).save(await _object(request)))


@web.middleware
async def refusals(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A body too large (413) or not a JSON object (400) answered with the bot's sentence, in the
    page's language."""
    try:
        return await handler(request)
    except (TooLarge, NotJson) as error:
        prep = _prep(request)
        status = 413 if isinstance(error, TooLarge) else 400
        return web.json_response({"refusals": [refusal("$", prep.words(error))]}, status=status)
