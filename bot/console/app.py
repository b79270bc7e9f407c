"""``toride console``: read lines (a terminal with history and completion, or a pipe), print replies."""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from bot.console.quit import Quit, is_quit
from bot.i18n import DEFAULT_LANG, LANGUAGES, t
from bot.i18n.words import say
from bot.render.storage_text import unopened_text
from bot.storage import open_storage
from bot.storage.url import shown_url
from engine import limits
from engine.dice import DiceSource, ScriptedDice, SeededDice
from engine.errors import EngineError

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

    from bot.console.session import ConsoleSession
    from bot.storage.interface import Storage

HISTORY = Path.home() / ".toride_history"
#: the longest line the console reads from a pipe (a longer one is refused)
LINE_MAX = 10_000
#: ``--strict``: the exit status is the number of refused lines, at most this
STRICT_MAX = 100


def __getattr__(name: str) -> Any:
    # ``bot.console.app.CommandCompleter`` without importing prompt_toolkit with this module
    if name == "CommandCompleter":
        from bot.console.completion import CommandCompleter

        return CommandCompleter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def add_console_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("console", help="play battles offline with the bot's commands")
    p.add_argument("--db", help="database file or URL (default: TORIDE_DATABASE_URL, else ./toride.db)")
    p.add_argument("--dice", help="every die the bot rolls takes the next number of this list: 3,4,6,...")
    p.add_argument("--seed", type=int, default=None, help="seed for random dice")
    p.add_argument("--channel", default="console", help="the channel name (one battle per channel)")
    p.add_argument("--lang", choices=list(LANGUAGES), default=DEFAULT_LANG, help="language of the replies")
    p.add_argument("--user", default="gm", help="who acts when a line has no @name (default gm)")
    p.add_argument(
        "--strict",
        action="store_true",
        help=f"for scripts: exit with the number of refused lines (at most {STRICT_MAX}; 0: none refused)",
    )
    p.set_defaults(func=run_console)


def add_db_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("db", help="database maintenance")
    dbsub = p.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    up = dbsub.add_parser("upgrade", help="bring the database schema up to date (alembic)")
    up.add_argument("--db", help="database file or URL (default: TORIDE_DATABASE_URL, else ./toride.db)")
    up.set_defaults(func=run_db_upgrade)


def run_db_upgrade(args: argparse.Namespace) -> int:
    async def go() -> None:
        storage = await open_storage(args.db)
        await storage.close()

    try:
        asyncio.run(go())
    except Exception as error:
        reason = unopened_text(error, args.db, DEFAULT_LANG)
        if reason is None:
            raise
        print(t("console.db_error", DEFAULT_LANG, db=shown_url(args.db), error=reason), file=sys.stderr)
        return 2
    print(shown_url(args.db))
    return 0


def dice_source(args: argparse.Namespace) -> DiceSource:
    if args.dice is not None:
        from bot.roll_cli import parse_dice_list

        return ScriptedDice(parse_dice_list(args.dice))
    return SeededDice(args.seed)


def run_console(args: argparse.Namespace) -> int:
    for option, value in (("--channel", args.channel), ("--user", args.user)):
        if not value or limits.text_problem(value, limits.NAME_MAX) is not None:
            print(t("console.name_invalid", args.lang, option=option, max=limits.NAME_MAX), file=sys.stderr)
            return 2
    try:
        dice = dice_source(args)
    except EngineError as error:
        print(t(error.key, args.lang, **error.values), file=sys.stderr)
        return 2
    try:
        return asyncio.run(console_main(args, dice))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``toride console < script | head``): stop quietly, as a Unix tool does;
        # every reply already printed was committed first, so nothing acknowledged is lost
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


class DatabaseUnavailable(Exception):
    """The database could not be opened (or its schema upgraded): the reason, in words, without the
    database's password."""


def _import_service() -> None:
    """Import what a session needs (SQLAlchemy, the service, the renderers) and install the rule sets
    (``bot.rulesets.builtin``): in a terminal this runs in a thread while the prompt is up. The prompt
    imports none of these meanwhile (its completer waits for the session)."""
    import bot.console.session
    import bot.storage.backends  # noqa: F401
    from bot.rulesets.builtin import ensure_builtin

    ensure_builtin()


@contextmanager
def _no_collection() -> Iterator[None]:
    """Start-up makes many objects and frees few: no garbage collection walks them all meanwhile."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


class SessionLoader:
    """The console's session, made when it is first needed: the database opened (``database``), the
    service imported and the session built (``session``, raising ``DatabaseUnavailable``).

    In a terminal ``start`` begins it behind the prompt: the service imported in a worker thread, the
    database opened on the loop, while the person types; ``on_failure`` (set by the prompt) is told as
    soon as the database fails, so the error shows at once, not after the first line. ``close`` waits
    for a load under way and closes the database."""

    def __init__(self, args: argparse.Namespace, dice: DiceSource) -> None:
        self.args = args
        self.dice = dice
        self.ready: ConsoleSession | None = None
        self.on_failure: Callable[[BaseException], None] | None = None
        self._task: asyncio.Task[ConsoleSession] | None = None
        self._storage: Storage | None = None

    def start(self, background: bool = True) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._load(background))
            self._task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[ConsoleSession]) -> None:
        error = None if task.cancelled() else task.exception()
        if error is not None and self.on_failure is not None:
            self.on_failure(error)

    def _held(self) -> None:
        """A command waits for the database file, which another program holds: said at once."""
        print(t("storage.held", self.args.lang), file=sys.stderr, flush=True)

    async def database(self) -> Storage:
        if self._storage is None:
            with _no_collection():
                try:
                    self._storage = await open_storage(self.args.db, on_held=self._held)
                except Exception as error:
                    reason = unopened_text(error, self.args.db, self.args.lang)
                    if reason is None:
                        raise
                    raise DatabaseUnavailable(reason) from error
        return self._storage

    async def _load(self, background: bool) -> ConsoleSession:
        with _no_collection():
            if background:
                await asyncio.get_running_loop().run_in_executor(None, _import_service)
            else:
                _import_service()
            storage = await self.database()
            from bot.console.session import ConsoleSession
            from bot.service import BattleService

            args = self.args
            self.ready = ConsoleSession(
                BattleService(storage, self.dice), channel=args.channel, lang=args.lang, user=args.user
            )
            return self.ready

    async def session(self) -> ConsoleSession:
        """The session (loaded now, in this thread, if ``start`` has not begun it)."""
        self.start(background=False)
        assert self._task is not None
        return await self._task

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            # Ctrl-D or /quit before the load finished: let it end, so nothing is left half-open
            await asyncio.wait([self._task])
        if self.ready is not None:
            await self.ready.service.close()
        if self._storage is not None:
            await self._storage.close()


def _db_error(args: argparse.Namespace, error: DatabaseUnavailable) -> int:
    print(t("console.db_error", args.lang, db=shown_url(args.db), error=str(error)), file=sys.stderr)
    return 2


async def console_main(args: argparse.Namespace, dice: DiceSource, stdin: TextIO | None = None) -> int:
    source = stdin or sys.stdin
    loader = SessionLoader(args, dice)
    try:
        if source.isatty() and sys.stdout.isatty():
            refused = await _interactive(loader, args)
            # Ctrl-D before the load finished: it ends first, and a database that failed is still told
            await loader.session()
        else:
            await loader.database()  # a database that cannot be opened is told before any line is read
            refused = await _lines(loader, source)
        if isinstance(dice, ScriptedDice) and dice.remaining:
            left = {"count": dice.remaining, "total": dice.total}
            print(say("console.dice_left", args.lang, **left), file=sys.stderr)
    except DatabaseUnavailable as error:
        return _db_error(args, error)
    finally:
        await loader.close()
    if not getattr(args, "strict", False):
        return 0
    if refused:
        key = "console.refused_one" if refused == 1 else "console.refused_many"
        print(t(key, args.lang, count=refused), file=sys.stderr)
    return min(refused, STRICT_MAX)


def _read_line(source: TextIO | BinaryIO, limit: int) -> str | bytes | None:
    """One line of at most ``limit`` characters (bytes), empty at the end; None for a longer line,
    whose rest is read and dropped."""
    line = source.readline(limit + 1)
    if len(line) <= limit or line[-1:] in ("\n", b"\n"):
        return line
    while True:
        rest = source.readline(limit)
        if not rest or rest[-1:] in ("\n", b"\n"):
            return None


async def _lines(session: ConsoleSession | SessionLoader, source: TextIO) -> int:
    """Every line of ``source`` through the session, read as UTF-8 bytes where it has them: a line
    that is not UTF-8, or too long, is refused (and the next one read), never a crash. Answers how many
    lines were refused. The session loads with the first line but ``/quit``."""
    loop = asyncio.get_running_loop()
    lang = session.args.lang if isinstance(session, SessionLoader) else session.lang
    binary: BinaryIO | None = getattr(source, "buffer", None)
    number = 0
    refused = 0
    while True:
        raw = await loop.run_in_executor(None, _read_line, binary or source, LINE_MAX)
        if raw is not None and not raw:
            return refused
        number += 1
        refusal = None
        if raw is None:
            refusal = ("console.line_too_long", {"max": LINE_MAX})
        elif isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError:
                refusal = ("console.not_utf8", {"line": number})
        if refusal is not None:
            key, values = refusal
            print(t("render.refused", lang, reason=t(key, lang, **values)), flush=True)
            refused += 1
            continue
        assert isinstance(raw, str)
        if is_quit(raw):
            return refused
        ready = await session.session() if isinstance(session, SessionLoader) else session
        try:
            reply = await ready.handle(raw)
        except Quit:
            return refused
        if reply is not None:
            refused += not reply.ok
            # printed (and flushed) only after the service committed it
            print(reply.text, flush=True)


async def _interactive(loader: SessionLoader, args: argparse.Namespace) -> int:
    """The terminal: the prompt first, the session loading behind it (``SessionLoader``)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    from bot.console.completion import CommandCompleter

    prompt: PromptSession[str] = PromptSession(
        history=FileHistory(str(HISTORY)),
        completer=CommandCompleter(
            lambda: None if loader.ready is None else loader.ready.document,
            lambda: loader.ready is not None,
            args.lang,
        ),
        complete_while_typing=True,
    )
    print(t("console.welcome", args.lang, channel=args.channel, db=shown_url(args.db)))
    return await play(loader, prompt, f"{args.user}@{args.channel}> ")


async def play(session: ConsoleSession | SessionLoader, prompt: PromptSession[str], message: str) -> int:
    """Lines from the terminal until ``/quit`` or Ctrl-D: Ctrl-C clears a half-typed line (as a shell
    does) and asks again. Answers how many lines were refused.

    With a ``SessionLoader`` the prompt is drawn first and the loader started right after; the first
    line waits for it. A database that fails to open ends the prompt at once (``DatabaseUnavailable``).
    """
    loader = session if isinstance(session, SessionLoader) else None
    ready = None if isinstance(session, SessionLoader) else session
    pre_run: Callable[[], None] | None = None
    if loader is not None:

        def failed(error: BaseException) -> None:
            if prompt.app.is_running and not prompt.app.future.done():  # type: ignore[union-attr]
                prompt.app.exit(exception=error)

        loader.on_failure = failed

        def pre_run() -> None:
            # called before the first drawing, in the same step of the loop: the load starts after it
            asyncio.get_running_loop().call_soon(loader.start)

    else:
        assert ready is not None
        await ready.refresh()
    refused = 0
    lang = session.args.lang if isinstance(session, SessionLoader) else session.lang
    while True:
        try:
            line = await prompt.prompt_async(message, pre_run=pre_run)
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        if ready is None:
            assert loader is not None
            ready = await loader.session()
        try:
            reply = await ready.handle(line)
        except Quit:
            break
        if reply is not None:
            refused += not reply.ok
            print(reply.text, flush=True)
            await ready.refresh()
    print(t("console.bye", lang))
    return refused
