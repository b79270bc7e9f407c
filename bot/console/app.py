"""``toride console``: read lines (a terminal with history and completion, or a pipe), print replies."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from bot.i18n import DEFAULT_LANG, LANGUAGES, t
from bot.storage import database_url, open_database
from engine import limits
from engine.dice import DiceSource, ScriptedDice, SeededDice
from engine.errors import EngineError

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

    from bot.console.session import ConsoleSession

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
        engine = await open_database(args.db)
        await engine.dispose()

    asyncio.run(go())
    print(database_url(args.db))
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


async def console_main(args: argparse.Namespace, dice: DiceSource, stdin: TextIO | None = None) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from bot.console.session import ConsoleSession
    from bot.service import BattleService

    try:
        engine = await open_database(args.db)
    except (SQLAlchemyError, OSError) as error:
        print(
            t("console.db_error", args.lang, db=database_url(args.db), error=str(error).splitlines()[0]),
            file=sys.stderr,
        )
        return 2
    try:
        service = BattleService(engine, dice)
        session = ConsoleSession(service, channel=args.channel, lang=args.lang, user=args.user)
        source = stdin or sys.stdin
        if source.isatty() and sys.stdout.isatty():
            refused = await _interactive(session, args)
        else:
            refused = await _lines(session, source)
        if isinstance(dice, ScriptedDice) and dice.remaining:
            print(t("console.dice_left", args.lang, count=dice.remaining), file=sys.stderr)
    finally:
        await engine.dispose()
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


async def _lines(session: ConsoleSession, source: TextIO) -> int:
    from bot.console.session import Quit

    """Every line of ``source`` through the session, read as UTF-8 bytes where it has them: a line
    that is not UTF-8, or too long, is refused (and the next one read), never a crash. Answers how many
    lines were refused."""
    loop = asyncio.get_running_loop()
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
            print(t("render.refused", session.lang, reason=t(key, session.lang, **values)), flush=True)
            refused += 1
            continue
        assert isinstance(raw, str)
        try:
            reply = await session.handle(raw)
        except Quit:
            return refused
        if reply is not None:
            refused += not reply.ok
            # printed (and flushed) only after the service committed it
            print(reply.text, flush=True)


async def _interactive(session: ConsoleSession, args: argparse.Namespace) -> int:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    from bot.console.completion import CommandCompleter

    prompt: PromptSession[str] = PromptSession(
        history=FileHistory(str(HISTORY)),
        completer=CommandCompleter(lambda: session.document),
        complete_while_typing=True,
    )
    print(t("console.welcome", session.lang, channel=args.channel, db=database_url(args.db)))
    return await play(session, prompt, f"{session.user}@{args.channel}> ")


async def play(session: ConsoleSession, prompt: PromptSession[str], message: str) -> int:
    """Lines from the terminal until ``/quit`` or Ctrl-D: Ctrl-C clears a half-typed line (as a shell
    does) and asks again. Answers how many lines were refused."""
    from bot.console.session import Quit

    refused = 0
    await session.refresh()
    while True:
        try:
            line = await prompt.prompt_async(message)
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        try:
            reply = await session.handle(line)
        except Quit:
            break
        if reply is not None:
            refused += not reply.ok
            print(reply.text, flush=True)
            await session.refresh()
    print(t("console.bye", session.lang))
    return refused
