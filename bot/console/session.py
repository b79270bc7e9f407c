"""One console session: a line in, a reply text out, through the same service as the bot."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.commands import OptType, commands, lookup, usage
from bot.console.parser import Line, parse_line
from bot.i18n import t
from bot.render.common import refusal_values
from bot.render.text import render
from bot.service import Actor, BattleService, Invocation, Where
from bot.views import View
from engine.errors import EngineError
from engine.limits import IMPORT_MAX_BYTES

#: the console's guild (a console battle lives beside Discord ones in the same database)
CONSOLE_GUILD = "console"
QUIT_WORDS = frozenset({"/quit", "/exit"})


class Quit(Exception):
    """``/quit``: the session ends."""


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
    ) -> None:
        self.service = service
        self.where = Where(guild, channel)
        self.lang = lang
        self.user = user
        self.base_dir = base_dir or Path.cwd()

    async def handle(self, text: str) -> Reply | None:
        """The reply to one line; None for a blank line or a comment. Raises ``Quit``."""
        text = text.removeprefix("\ufeff")  # a file saved with a UTF-8 BOM
        stripped = text.strip()
        if stripped.casefold() in QUIT_WORDS:
            raise Quit()
        if stripped.casefold() == "/help":
            return Reply(self.help(), True)
        try:
            line = parse_line(text)
            if line is None:
                return None
            invocation = self._invocation(line)
        except EngineError as error:
            reason = t(error.key, self.lang, **refusal_values(error.values, self.lang))
            return Reply(t("render.refused", self.lang, reason=reason), False)
        actor = Actor(id=line.user or self.user)
        view = await self.service.execute(self.where, actor, invocation)
        return Reply(render(view, self.lang), view.ok, view)

    def _invocation(self, line: Line) -> Invocation:
        spec = lookup(line.path)
        options: dict[str, object] = dict(line.options)
        for name, value in line.options.items():
            opt = spec.option(name)
            if opt is not None and opt.type is OptType.FILE:
                options[name] = self._read(value, name)
        return Invocation(path=line.path, options=options, text=line.text)

    def _read(self, value: str, option: str) -> str:
        """A local file's text (UTF-8, a BOM dropped), read no further than an import may be long."""
        path = Path(value).expanduser()
        if not path.is_absolute():
            path = self.base_dir / path
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
            raise EngineError(
                "console.file_unreadable", path=str(path), error=error.strerror or str(error)
            ) from None

    def help(self) -> str:
        lines = [t("console.help_header", self.lang)]
        for _, spec in sorted(commands().items()):
            gm = " " + t("console.help_gm", self.lang) if spec.gm else ""
            lines.append(f"  {usage(spec)}{gm}")
        return "\n".join(lines)
