"""One prep table: its rule set's binding, its language, its FILE and the versions of it seen, and the
plan running for it. What the page asks (``bot.prep.handlers`` reads the requests) is answered here as
JSON-ready data: no HTTP, no rule (the rule set's binding has them).

FILE is read and written by ``bot.prep.files`` only: a regular file, at most the import limit, written
whole or not at all. A save names the version it was made from (``bot.prep.versions``); when FILE is
another version now, the save is refused with what changed, and goes ahead only when the page asks to
replace that very version.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import commands as cmd
from bot.commands import Kind, SheetSource
from bot.i18n import t
from bot.i18n.names import CommandName, OptionName
from bot.prep.binding import PrepBinding
from bot.prep.files import read_battle_file, write_atomic
from bot.prep.guard import Guard
from bot.prep.versions import Versions, version_of
from bot.render.common import os_error_text, refusal_text
from bot.ruleset import Planner, RuleSet
from bot.views import RulesetView
from engine.errors import EngineError


@dataclass(slots=True)
class Answer:
    """What a request gets: its JSON and its status."""

    body: dict[str, Any]
    status: int = 200


def refusal(place: str, text: str) -> dict[str, str]:
    return {"place": place, "text": text}


class Prep:
    """One prep table (see the module's docstring)."""

    def __init__(
        self, ruleset: RuleSet, lang: str, file: Path | None, planner: Planner | None = None
    ) -> None:
        assert ruleset.prep is not None, f"{ruleset.name} has no prep page"
        self.ruleset = ruleset
        self.binding: PrepBinding = ruleset.prep()
        self.lang = lang
        self.file = file
        self.versions = Versions()
        self._planner = planner
        self._plan: asyncio.Task[Any] | None = None
        #: one save at a time: its check of the version on disk and its write are one step
        self._saving = asyncio.Lock()
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

    def words(self, error: EngineError) -> str:
        return refusal_text(error.key, error.values, self.lang)

    # --- FILE ---------------------------------------------------------------------------------

    async def _on_disk(self) -> tuple[str | None, bytes | None, dict[str, Any] | None]:
        """FILE's version, bytes and document now (None: no file yet; the document None: not JSON).
        ``EngineError``: FILE cannot be read (not a regular file, too large, no permission)."""
        assert self.file is not None
        if not self.file.exists():
            return None, None, None
        data = await asyncio.to_thread(read_battle_file, self.file)
        version, document = version_of(data), _document_or_none(data)
        self.versions.seen(version, document)
        return version, data, document

    # --- what the page asks ---------------------------------------------------------------------

    async def start(self) -> Answer:
        """The battle of FILE as a draft (when there is one), else a new battle's; its version."""
        binding = self.binding
        info: dict[str, Any] = {"file": self._file_info()}
        document = binding.new_document()
        if self.file is None:
            return Answer({"draft": binding.forms_of(document), **info})
        try:
            version, data, found = await self._on_disk()
            info["version"] = version
            if data is not None:
                if found is None:  # not a JSON object: refused in the import's own words
                    cmd.read_json("file", data)
                assert found is not None
                binding.imported(found)
                document = found
        except EngineError as error:
            draft = binding.forms_of(binding.new_document())
            return Answer({"refusals": [refusal("$", self.words(error))], "draft": draft, **info})
        return Answer({"draft": binding.forms_of(document), **info})

    def _file_info(self) -> dict[str, Any] | None:
        if self.file is None:
            return None
        return {"name": self.file.name, "path": str(self.file)}

    async def check(self, draft: Mapping[str, Any]) -> Answer:
        checked = await asyncio.to_thread(self.binding.check, draft, self.lang)
        answer = checked.to_json()
        drawable = answer.pop("drawable", None) or checked.document
        if drawable is not None:
            drawn = await asyncio.to_thread(self._picture, drawable)
            if drawn is not None:
                answer["map"], answer["regions"] = png_data(drawn[0]), drawn[1]
        return Answer(answer)

    def _picture(self, document: Mapping[str, Any]) -> tuple[bytes, dict[str, Any]] | None:
        from bot.render.picture.pictures import DRAWING

        with DRAWING:
            return self.binding.picture(document, self.lang)

    async def open(self, data: bytes) -> Answer:
        """An exported file (a ``/fort export``) as a draft, refused as ``/fort import`` would."""
        try:
            document = cmd.read_json("file", data)
            state = self.binding.imported(document)
        except EngineError as error:
            return Answer({"refusals": [refusal("$", self.words(error))]}, status=422)
        return Answer({"draft": self.binding.draft_of(state)})

    async def sheet(self, asked: Mapping[str, Any]) -> Answer:
        """The units of a monster sheet (its text, or a URL fetched under the bot's policy)."""
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
            return Answer({"document": None, "refusals": [refusal("$.sheet", self.words(error))]})
        form = _mapping(asked.get("form"))
        draft = _mapping(asked.get("draft"))
        return Answer(await asyncio.to_thread(self.binding.sheet, source, form, draft, self.lang))

    async def odds(self, asked: Mapping[str, Any]) -> Answer:
        """The planner on the battle being built: a new request cancels the plan still running."""
        if self._plan is not None and not self._plan.done():
            self._plan.cancel()
        task = asyncio.ensure_future(self._odds(asked))
        self._plan = task
        try:
            return Answer(await task)
        except asyncio.CancelledError:
            if task.cancelled() and self._plan is not task:
                return Answer({"replaced": True})
            raise

    async def _odds(self, asked: Mapping[str, Any]) -> dict[str, Any]:
        from bot.render.picture.pictures import view_picture
        from bot.render.text import render

        checked = await asyncio.to_thread(self.binding.check, _mapping(asked.get("draft")), self.lang)
        if checked.document is None:
            refused = checked.to_json()
            refused.pop("drawable", None)
            return refused
        plan = next(spec for spec in self.ruleset.commands if spec.kind is Kind.PLAN)
        raw = _mapping(asked.get("options"))
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
            return {"document": None, "refusals": [refusal(place, self.words(error))]}
        text = render(view, self.lang)
        picture = None
        if isinstance(view, RulesetView):
            picture = await asyncio.to_thread(view_picture, view, self.lang)
        answer: dict[str, Any] = {"document": checked.document, "refusals": [], "text": text}
        if picture is not None:
            answer["chart"] = png_data(picture[0])
        return answer

    async def save(self, asked: Mapping[str, Any]) -> Answer:
        """The document, when nothing is refused; FILE written with it when the page edits FILE's
        version (``version``) or asks to replace the one on disk now (``replace``)."""
        checked = await asyncio.to_thread(self.binding.check, _mapping(asked.get("draft")), self.lang)
        answer = checked.to_json()
        answer.pop("drawable", None)
        document = checked.document
        if document is None or self.file is None:
            return Answer(answer)
        text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        async with self._saving:
            try:
                now, _, on_disk = await self._on_disk()
            except EngineError as error:
                now, on_disk = UNREADABLE, None
                if asked.get("replace") != _replaceable(now):
                    return Answer(self._stale(asked, now, on_disk, self.words(error)), status=409)
            if now != asked.get("version") and asked.get("replace") != _replaceable(now):
                return Answer(self._stale(asked, now, on_disk, None), status=409)
            try:
                await asyncio.to_thread(write_atomic, self.file, text)
            except OSError as error:
                words = t("console.file_unwritable", self.lang, path=str(self.file),
                          error=os_error_text(error, self.lang))  # fmt: skip
                return Answer({"document": None, "refusals": [refusal("$", words)]})
            version = version_of(text.encode("utf-8"))
            self.versions.wrote(version, document)
        answer["version"] = version
        answer["written"] = t("prep.written", self.lang, file=self.file.name, path=str(self.file))
        answer["next"] = self.next_step()
        return Answer(answer)

    def next_step(self) -> str:
        command = self.binding.import_command
        return t("prep.next_step", self.lang, command=CommandName(command),
                 option=OptionName("file", command))  # fmt: skip

    def _stale(
        self, asked: Mapping[str, Any], now: str | None, on_disk: Mapping[str, Any] | None, why: str | None
    ) -> dict[str, Any]:
        """The refusal of a save made from a version FILE no longer is: who changed it (this page's other
        tab, or something else), when, and what; and the version the page may choose to replace."""
        lang = self.lang
        name = self.file.name if self.file is not None else ""
        known_now = self.versions.get(now)
        mine = self.versions.get(asked.get("version") if isinstance(asked.get("version"), str) else None)
        if now is None:
            text = t("prep.stale.removed", lang, file=name)
        elif why is not None:
            text = t("prep.stale.unreadable", lang, file=name, reason=why)
        else:
            before = mine.document if mine is not None else None
            changes = self.binding.changes(before, on_disk, lang) if before and on_disk else []
            joined = t("prep.stale.join", lang).join(changes)
            what = t("prep.stale.changes", lang, changes=joined) if changes else ""
            if known_now is not None and known_now.saved_at is not None:
                at = time.strftime("%H:%M:%S", time.localtime(known_now.saved_at))
                text = t("prep.stale.other_tab", lang, file=name, at=at) + what
            else:
                text = t("prep.stale.on_disk", lang, file=name) + what
        return {
            "document": None,
            "refusals": [],
            "stale": {
                "text": text,
                "question": t("prep.stale.question", lang, file=name),
                "replace": _replaceable(now),
            },
        }


#: the version of a FILE that cannot be read (it may still be replaced, when the GM says so)
UNREADABLE = "unreadable"


def _replaceable(version: str | None) -> str:
    """What a page sends to replace ``version`` (``absent``: FILE was removed): never a JSON null, which
    an old page's missing field would also be."""
    return "absent" if version is None else version


def _document_or_none(data: bytes | None) -> dict[str, Any] | None:
    if data is None:
        return None
    try:
        return cmd.read_json("file", data)
    except EngineError:
        return None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def png_data(png: bytes) -> str:
    """A PNG as a ``data:`` URL (the page shows it without another request)."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")
