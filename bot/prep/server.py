"""The prep page's server: aiohttp on 127.0.0.1 only, one GM, the battle in the page, of one rule set
(its ``RuleSet.prep`` binding, its pictures and its planner: the fort's).

Routes: ``/`` the page, ``/static/*`` its script and style, ``/font.otf`` the Japanese font of the pictures,
``/mark/<kind>.png`` the map's marks; ``/api/start`` the battle of FILE (or a new one), ``/api/check`` a
draft checked (and its picture), ``/api/open`` an exported file (``toride.fort/1``) made a draft,
``/api/sheet`` the units of a monster sheet, ``/api/odds`` the planner, ``/api/save`` the document (and
FILE written). A body is at most the import limit; the server reads and writes no file but FILE (and its
own package's). Pictures are drawn in a thread and plans run in worker processes (the rule set's
planner), so the event loop stays free; a new plan asked for cancels the one still running.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from aiohttp import web

from bot import commands as cmd
from bot.commands import Kind, SheetSource
from bot.i18n import t
from bot.prep.binding import PrepBinding
from bot.prep.files import write_atomic
from bot.prep.guard import Guard, guard_middleware, security_headers
from bot.render.common import os_error_text, os_error_word, refusal_text
from bot.ruleset import Planner, RuleSet
from bot.views import RulesetView
from engine.errors import EngineError
from engine.limits import IMPORT_MAX_BYTES

log = logging.getLogger(__name__)
HOST = "127.0.0.1"
STATIC = Path(__file__).with_name("static")
_STATIC_TYPES = {"prep.js": "text/javascript", "prep.css": "text/css"}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Prep:
    """One prep table: its rule set, its language, its FILE (or None) and the plan running for it."""

    def __init__(
        self, ruleset: RuleSet, lang: str, file: Path | None, planner: Planner | None = None
    ) -> None:
        assert ruleset.prep is not None, f"{ruleset.name} has no prep page"
        self.ruleset = ruleset
        self.binding: PrepBinding = ruleset.prep()
        self.lang = lang
        self.file = file
        self._planner = planner
        self._plan: asyncio.Task[Any] | None = None
        #: this start's token and the Host/Origin checks (``bot.prep.guard``)
        self.guard = Guard(lang)

    async def close(self) -> None:
        """Cancels the plan still running (its worker process is killed) and stops the planner."""
        if self._plan is not None and not self._plan.done():
            self._plan.cancel()
            with contextlib.suppress(asyncio.CancelledError, EngineError):
                await self._plan
        if self._planner is not None:
            await self._planner.close()

    # --- the page and what it loads ------------------------------------------------------------

    async def index(self, request: web.Request) -> web.Response:
        page = self.guard.page_with_token(self.binding.html_page(self.lang))
        return web.Response(text=page, content_type="text/html", charset="utf-8")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in _STATIC_TYPES:
            raise web.HTTPNotFound()
        text = STATIC.joinpath(name).read_text(encoding="utf-8")
        return web.Response(text=text, content_type=_STATIC_TYPES[name], charset="utf-8")

    async def font(self, request: web.Request) -> web.FileResponse:
        from bot.render.picture.fonts import font_path

        return web.FileResponse(font_path(), headers={"Content-Type": "font/otf"})

    async def mark(self, request: web.Request) -> web.Response:
        kind = request.match_info["kind"]
        png = self.binding.mark_png(kind)
        if png is None:
            raise web.HTTPNotFound()
        return web.Response(body=png, content_type="image/png")

    # --- the battle ---------------------------------------------------------------------------

    async def start(self, request: web.Request) -> web.Response:
        """The battle of FILE as a draft when there is one, else a new battle's."""
        binding = self.binding
        document = binding.new_document()
        if self.file is not None and self.file.exists():
            try:
                data = await asyncio.to_thread(_read_limited, self.file)
                document = _document(data)
                binding.imported(document)
            except EngineError as error:
                return self._refused(error, status=200, draft=binding.forms_of(binding.new_document()))
        return web.json_response({"draft": binding.forms_of(document), "file": _name(self.file)})

    async def check(self, request: web.Request) -> web.Response:
        draft = await self._json(request)
        checked = await asyncio.to_thread(self.binding.check, draft, self.lang)
        answer = checked.to_json()
        if checked.document is not None:
            png = await asyncio.to_thread(self._map_png, checked.document)
            if png is not None:
                answer["map"] = png_data(png)
        return web.json_response(answer)

    async def open(self, request: web.Request) -> web.Response:
        """An exported file (a ``/fort export``) as a draft, refused as ``/fort import`` would."""
        data = await _body(request)
        try:
            document = _document(data)
            state = self.binding.imported(document)
        except EngineError as error:
            return self._refused(error)
        return web.json_response({"draft": self.binding.draft_of(state)})

    async def sheet(self, request: web.Request) -> web.Response:
        """The units of a monster sheet (its text, or a URL fetched under the bot's policy)."""
        asked = await self._json(request)
        url, text = asked.get("url"), asked.get("text")
        try:
            if isinstance(url, str) and url.strip():
                from bot.sheet_fetch import FetchPolicy, fetch_sheet

                source = await fetch_sheet(url, FetchPolicy.from_env())
            elif isinstance(text, str) and text.strip():
                source = SheetSource(text, str(asked.get("filename") or ""))
            else:
                raise cmd.UserError("sheet.required")
        except EngineError as error:
            words = refusal_text(error.key, error.values, self.lang)
            return web.json_response({"document": None, "refusals": [{"place": "$.sheet", "text": words}]})
        form = asked.get("form") if isinstance(asked.get("form"), Mapping) else {}
        draft = asked.get("draft") if isinstance(asked.get("draft"), Mapping) else {}
        assert isinstance(form, Mapping) and isinstance(draft, Mapping)
        return web.json_response(self.binding.sheet(source, form, draft, self.lang))

    async def odds(self, request: web.Request) -> web.Response:
        """The planner on the battle being built: a new request cancels the plan still running."""
        asked = await self._json(request)
        if self._plan is not None and not self._plan.done():
            self._plan.cancel()
        task = asyncio.ensure_future(self._odds(asked))
        self._plan = task
        try:
            answer = await task
        except asyncio.CancelledError:
            if task.cancelled() and self._plan is not task:
                return web.json_response({"replaced": True})
            raise
        return web.json_response(answer)

    async def _odds(self, asked: Mapping[str, Any]) -> dict[str, Any]:
        from bot.render.picture.pictures import view_picture
        from bot.render.text import render

        draft = asked.get("draft") if isinstance(asked.get("draft"), Mapping) else {}
        assert isinstance(draft, Mapping)
        checked = await asyncio.to_thread(self.binding.check, draft, self.lang)
        if checked.document is None:
            return checked.to_json()
        plan = next(spec for spec in self.ruleset.commands if spec.kind is Kind.PLAN)
        raw = asked.get("options") if isinstance(asked.get("options"), Mapping) else {}
        assert isinstance(raw, Mapping)
        given = {k: v for k, v in raw.items() if v not in (None, "", False) and plan.option(k) is not None}
        try:
            if self._planner is None:
                assert self.ruleset.planner is not None, f"{self.ruleset.name} has no planner"
                self._planner = self.ruleset.planner()
            request = self._planner.request(cmd.convert(plan, given))
            state = self.binding.imported(checked.document)
            view = await self._planner.answer(request, state, checked.document, None, "prep")
        except EngineError as error:
            place = f"$.odds.{error.values['option']}" if "option" in error.values else "$.odds"
            words = refusal_text(error.key, error.values, self.lang)
            return {"document": None, "refusals": [{"place": place, "text": words}]}
        text = render(view, self.lang)
        picture = None
        if isinstance(view, RulesetView):
            picture = await asyncio.to_thread(view_picture, view, self.lang)
        answer = {"document": checked.document, "refusals": [], "text": text}
        if picture is not None:
            answer["chart"] = png_data(picture[0])
        return answer

    async def save(self, request: web.Request) -> web.Response:
        """The document, when nothing is refused (and FILE written with it, when given)."""
        draft = await self._json(request)
        checked = await asyncio.to_thread(self.binding.check, draft, self.lang)
        answer = checked.to_json()
        if checked.document is not None and self.file is not None:
            text = json.dumps(checked.document, ensure_ascii=False, indent=2) + "\n"
            try:
                await asyncio.to_thread(write_atomic, self.file, text)
            except OSError as error:
                words = t("console.file_unwritable", self.lang, path=str(self.file),
                          error=os_error_text(error, self.lang))  # fmt: skip
                answer = {"document": None, "refusals": [{"place": "$", "text": words}]}
            else:
                answer["written"] = t("prep.written", self.lang, path=str(self.file))
        return web.json_response(answer)

    # --- reading requests ---------------------------------------------------------------------

    async def _json(self, request: web.Request) -> dict[str, Any]:
        data = await _body(request)
        try:
            value = cmd.load_json(data.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise web.HTTPBadRequest() from None
        if not isinstance(value, dict):
            raise web.HTTPBadRequest()
        return value

    def _map_png(self, document: Mapping[str, Any]) -> bytes | None:
        """The battlefield of a checked draft's document (None: the rule set draws none)."""
        from bot.render.picture.pictures import DRAWING, pictures_of

        pictures = pictures_of(self.ruleset.name)
        if pictures is None:
            return None
        with DRAWING:
            return pictures.map(document, self.lang)

    def _refused(self, error: EngineError, status: int = 422, **more: Any) -> web.Response:
        words = refusal_text(error.key, error.values, self.lang)
        return web.json_response({"refusals": [{"place": "$", "text": words}], **more}, status=status)

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/", self.index),
            web.get("/static/{name}", self.static),
            web.get("/font.otf", self.font),
            web.get("/mark/{kind}.png", self.mark),
            web.get("/api/start", self.start),
            web.post("/api/check", self.check),
            web.post("/api/open", self.open),
            web.post("/api/sheet", self.sheet),
            web.post("/api/odds", self.odds),
            web.post("/api/save", self.save),
        ]


class TooLarge(EngineError):
    """A body beyond the import limit (``command.json_too_large``)."""


async def _body(request: web.Request) -> bytes:
    try:
        return await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise TooLarge("command.json_too_large", option="file", max=IMPORT_MAX_BYTES // 1000) from None


def _read_limited(path: Path) -> bytes:
    """FILE's bytes, at most the import limit (``console.file_*``: why it cannot be read)."""
    try:
        with path.open("rb") as file:
            data = file.read(IMPORT_MAX_BYTES + 1)
    except IsADirectoryError:
        raise EngineError("console.file_directory", path=str(path)) from None
    except OSError as error:
        raise EngineError("console.file_unreadable", path=str(path), error=os_error_word(error)) from None
    if len(data) > IMPORT_MAX_BYTES:
        raise TooLarge("command.json_too_large", option=str(path), max=IMPORT_MAX_BYTES // 1000)
    return data


def _document(data: bytes) -> dict[str, Any]:
    """A file's bytes as ``/fort import`` reads an attachment (``bot.commands.read_json``)."""
    return cmd.read_json("file", data)


def _name(path: Path | None) -> str | None:
    return None if path is None else str(path)


@web.middleware
async def refusals(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A body too large answered with the bot's sentence (413), in the page's language."""
    try:
        return await handler(request)
    except TooLarge as error:
        prep: Prep = request.app[PREP]
        words = refusal_text(error.key, error.values, prep.lang)
        return web.json_response({"refusals": [{"place": "$", "text": words}]}, status=413)


PREP = web.AppKey("prep", Prep)


def make_app(prep: Prep) -> web.Application:
    app = web.Application(
        client_max_size=IMPORT_MAX_BYTES, middlewares=[guard_middleware(prep.guard), refusals]
    )
    app.on_response_prepare.append(security_headers)
    app[PREP] = prep
    app.add_routes(prep.routes())
    return app


async def serve(prep: Prep, port: int) -> web.AppRunner:
    """The app listening on 127.0.0.1:``port`` (0: any free port; ``runner.addresses`` says which)."""
    runner = web.AppRunner(make_app(prep), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, HOST, port)
    await site.start()
    prep.guard.port = runner.addresses[0][1]
    return runner


def png_data(png: bytes) -> str:
    """A PNG as a ``data:`` URL (the page shows it without another request)."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")
