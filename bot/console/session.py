"""One console session: a line in, a reply text out, through the same service as the bot."""

from __future__ import annotations

import logging
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.commands import Kind, OptType, SheetSource, nfkc, norm_word
from bot.console.parser import Line, parse_line
from bot.console.quit import QUIT_WORDS, Quit, is_quit
from bot.i18n import t
from bot.registry import lookup
from bot.render.common import echo, os_error_text, os_error_word, refusal_text
from bot.render.text import render
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.failures import storage_failure
from bot.views import EventsView, ExportView, MapView, RulesetView, View
from engine.errors import EngineError
from engine.limits import IMPORT_MAX_BYTES

if TYPE_CHECKING:
    from bot.render.picture.pictures import PictureCache
    from bot.sheet_fetch import FetchPolicy

__all__ = ["QUIT_WORDS", "ConsoleSession", "Quit", "Reply"]
log = logging.getLogger(__name__)

#: the console's guild (a console battle lives beside Discord ones in the same database)
CONSOLE_GUILD = "console"


@dataclass(frozen=True, slots=True)
class Reply:
    text: str
    ok: bool
    view: View | None = None


class ConsoleSession:
    def __init__(
        self,
        service: BattleService,
        *,
        channel: str = "console",
        guild: str = CONSOLE_GUILD,
        lang: str = "ja",
        user: str = "gm",
        base_dir: Path | None = None,
        fetch_policy: FetchPolicy | None = None,
    ) -> None:
        self.service = service
        self.where = Where(guild, channel)
        self.lang = lang
        self.user = user
        self.base_dir = base_dir or Path.cwd()
        self._fetch_policy = fetch_policy
        self._pictures: PictureCache | None = None
        #: the channel's battle as its document, for Tab completion (``refresh``); None: no battle
        self.document: dict[str, Any] | None = None

    # the picture library and the sheet fetcher load with the first line that needs them, not at start

    @property
    def fetch_policy(self) -> FetchPolicy:
        if self._fetch_policy is None:
            from bot.sheet_fetch import FetchPolicy

            self._fetch_policy = FetchPolicy.from_env()
        return self._fetch_policy

    @property
    def pictures(self) -> PictureCache:
        if self._pictures is None:
            from bot.render.picture.pictures import PictureCache

            self._pictures = PictureCache()
        return self._pictures

    async def refresh(self) -> None:
        """Read the channel's battle again for completion (what this session's user may read); a
        storage that fails leaves the last one (the next line says what happened)."""
        try:
            view = await self.service.status(self.where, Actor(id=self.user))
        except Exception as error:
            if storage_failure(error) is None:
                raise
            log.info("reading the battle for completion failed", exc_info=error)
            return
        self.document = None if view is None else view.document

    def storage_failed(self, error: BaseException) -> Reply | None:
        """The storage failed (a full disk, a lost connection ...): the line saying so, the details to
        the log; None for an error that is not the storage's."""
        key = storage_failure(error)
        if key is None:
            return None
        log.info("the storage failed (%s)", key, exc_info=error)
        return Reply(t("render.refused", self.lang, reason=t(key, self.lang)), False)

    async def handle(self, text: str) -> Reply | None:
        """The reply to one line; None for a blank line or a comment. Raises ``Quit``."""
        text = text.removeprefix("\ufeff")  # a file saved with a UTF-8 BOM
        stripped = text.strip()
        if is_quit(text):
            raise Quit()
        try:
            topic = _help_topic(stripped)
            if topic is not None:
                from bot.render.help_text import help_text

                return Reply(help_text(self.lang, topic), True)
            line = parse_line(text)
            if line is None:
                return None
            invocation, write_to = await self._invocation(line)
        except EngineError as error:
            reason = refusal_text(error.key, error.values, self.lang)
            return Reply(t("render.refused", self.lang, reason=reason), False)
        # the console's own user runs the machine, as a server's owner would: the rights Discord gives
        # with Manage Channels and Manage Server are theirs (``@name`` lines act as plain players)
        own = line.user is None or line.user == self.user
        actor = Actor(id=line.user or self.user, manage_channels=own, manage_guild=own)
        try:
            view = await self.service.execute(self.where, actor, invocation)
        except Exception as error:
            failed = self.storage_failed(error)
            if failed is None:
                raise
            return failed
        if write_to is not None and isinstance(view, ExportView):
            return self._write_export(view, write_to)
        if isinstance(view, MapView):
            png = self.pictures.status_map(view.status, self.lang)
            return self._written(view.filename, png, "map.written", view)
        text = render(view, self.lang)
        if isinstance(view, RulesetView):  # a view of a rule set's own may have a picture (odds' chart)
            from bot.render.picture.pictures import view_picture

            picture = view_picture(view, self.lang)
            if picture is not None:
                drawn, filename, sentence = picture
                written = self._written(filename, drawn, sentence, view)
                return Reply(text + "\n" + written.text, written.ok, view)
        if isinstance(view, EventsView) and view.summaries:
            from bot.render.picture.pictures import final_chart, pictures_of

            for summary in view.summaries:
                chart = final_chart(view.ruleset, summary, self.lang)
                pictures = pictures_of(view.ruleset)
                if chart is not None and pictures is not None:
                    stem = pictures.chart_file.removesuffix(".png")
                    name = f"{stem}-{self.where.channel}-{view.seq}.png"
                    text += "\n" + self._written(name, chart, pictures.chart_written, view).text
        return Reply(text, view.ok, view)

    def _written(self, filename: str, png: bytes | None, key: str, view: View) -> Reply:
        """A picture written as ``filename`` in the session's folder, and the sentence saying where."""
        path = self.base_dir / filename
        if png is None:  # a rule set without a map
            return Reply(t("map.no_map", self.lang), False, view)
        try:
            path.write_bytes(png)
        except OSError as error:
            error_text = os_error_text(error, self.lang)
            text = t("console.file_unwritable", self.lang, path=str(path), error=error_text)
            return Reply(t("render.refused", self.lang, reason=text), False, view)
        return Reply(t(key, self.lang, path=str(path)), True, view)

    async def _invocation(self, line: Line) -> tuple[Invocation, str | None]:
        """The invocation of a line, its local files read and sheet URLs fetched; and for ``/… export
        file:PATH`` the file to write the export to (the console's own option)."""
        spec = lookup(line.path)
        options: dict[str, object] = dict(line.options)
        write_to = None
        if spec.kind is Kind.EXPORT and spec.option("file") is None:
            # the console's own option, by its name in either language (``ファイル:`` as ``file:``)
            for key in [k for k in options if k in _file_words()]:
                write_to = str(options.pop(key))
        from bot.sheet_fetch import fetch_sheet_options, is_url

        for name, value in line.options.items():
            opt = spec.option(name)
            if opt is not None and opt.type in (OptType.FILE, OptType.TEXTFILE):
                options[name] = self._read(value, name)
            elif opt is not None and opt.type is OptType.SHEET and not is_url(value):
                options[name] = SheetSource(self._read(value, name), Path(value).name)
        await fetch_sheet_options(spec, options, self.fetch_policy)
        return Invocation(path=line.path, options=options, text=line.text), write_to

    def _write_export(self, view: ExportView, target: str) -> Reply:
        path = self._path(target)
        text = view.text if view.text is not None else render(view, self.lang)
        try:
            path.write_text(text + "\n", encoding="utf-8")
        except ValueError:  # a NUL or a lone surrogate names no file
            reason = t("console.file_missing", self.lang, path=echo(str(path)))
            return Reply(t("render.refused", self.lang, reason=reason), False, view)
        except OSError as error:
            why = os_error_text(error, self.lang)
            reason = t("console.file_unwritable", self.lang, path=str(path), error=why)
            return Reply(t("render.refused", self.lang, reason=reason), False, view)
        return Reply(t("console.export_written", self.lang, path=str(path)), True, view)

    def _path(self, value: str) -> Path:
        path = Path(value)
        with suppress(RuntimeError):  # ~name of no user (or no home): the name is taken as written
            path = path.expanduser()
        return path if path.is_absolute() else self.base_dir / path

    def _read(self, value: str, option: str) -> str:
        """A local file's text (UTF-8, a BOM dropped), read no further than an import may be long."""
        path = self._path(value)
        try:
            with path.open("rb") as file:
                data = file.read(IMPORT_MAX_BYTES + 1)
            if len(data) > IMPORT_MAX_BYTES:
                raise EngineError("command.json_too_large", option=option, max=IMPORT_MAX_BYTES // 1000)
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise EngineError("console.file_not_text", path=str(path)) from None
        except (FileNotFoundError, ValueError):  # ValueError: a NUL or a lone surrogate names no file
            raise EngineError("console.file_missing", path=str(path)) from None
        except IsADirectoryError:
            raise EngineError("console.file_directory", path=str(path)) from None
        except OSError as error:
            raise EngineError("console.file_unreadable", path=str(path), error=os_error_word(error)) from None


#: ``/help`` in the languages the console reads (``/ヘルプ``)
HELP_WORDS = frozenset({"/help", "/ヘルプ"})


def _help_topic(line: str) -> str | None:
    """The topic of a ``/help [topic]`` line (``command:fort`` as Discord would write it, or ``fort``);
    None for any other line."""
    head, _, rest = nfkc(line).partition(" ")
    if head.casefold() not in HELP_WORDS:
        return None
    rest = rest.strip()
    name, sep, value = rest.partition(":")
    if sep and norm_word(name) in ("command", "コマンド"):
        rest = value
    return rest.strip()


def _file_words() -> frozenset[str]:
    """``file`` and its name in each language (``ファイル``): the console's export option."""
    from bot.commands import norm_word
    from bot.i18n import LANGUAGES, catalogue

    return frozenset(
        {"file", *(norm_word(catalogue(lang).get("opt.file.name", "file")) for lang in LANGUAGES)}
    )
