"""``toride console``: read lines (a terminal with history and completion, or a pipe), print replies."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO, TextIO

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from sqlalchemy.exc import SQLAlchemyError

from bot.commands import OptType, commands, norm_word
from bot.console.session import ConsoleSession, Quit
from bot.i18n import DEFAULT_LANG, LANGUAGES, t
from bot.service import BattleService
from bot.storage import database_url, open_database
from engine import limits
from engine.dice import DiceSource, ScriptedDice, SeededDice
from engine.errors import EngineError

HISTORY = Path.home() / ".toride_history"
#: the longest line the console reads from a pipe (a longer one is refused)
LINE_MAX = 10_000


class CommandCompleter(Completer):
    """Completes ``/group sub`` from the command table, then its option names and choices."""

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        if text.startswith("@"):
            _, _, text = text.partition(" ")
        table = commands()
        word = document.get_word_before_cursor(WORD=True)
        if not text.startswith("/"):
            return
        head = text[1:]
        spec = None
        for path in sorted(table, key=len, reverse=True):
            if head.startswith(path + " "):
                spec = table[path]
                break
        if spec is None:
            for path in sorted(table):
                if path.startswith(norm_word(head)):
                    yield Completion("/" + path + " ", start_position=-len(text))
            return
        if ":" in word:
            name, _, value = word.partition(":")
            opt = spec.option(norm_word(name))
            if opt is not None:
                for choice in (*opt.choices, *(("true", "false") if opt.type is OptType.BOOL else ())):
                    if choice.startswith(value):
                        yield Completion(f"{name}:{choice}", start_position=-len(word))
            return
        used = {part.partition(":")[0] for part in text.split() if ":" in part}
        for opt in spec.options:
            if opt.name not in used and opt.name.startswith(word):
                yield Completion(opt.name + ":", start_position=-len(word))


def add_console_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("console", help="play battles offline with the bot's commands")
    p.add_argument("--db", help="database file or URL (default: TORIDE_DATABASE_URL, else ./toride.db)")
    p.add_argument("--dice", help="every die the bot rolls takes the next number of this list: 3,4,6,...")
    p.add_argument("--seed", type=int, default=None, help="seed for random dice")
    p.add_argument("--channel", default="console", help="the channel name (one battle per channel)")
    p.add_argument("--lang", choices=list(LANGUAGES), default=DEFAULT_LANG, help="language of the replies")
    p.add_argument("--user", default="gm", help="who acts when a line has no @name (default gm)")
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
            await _interactive(session, args)
        else:
            await _lines(session, source)
        if isinstance(dice, ScriptedDice) and dice.remaining:
            print(t("console.dice_left", args.lang, count=dice.remaining), file=sys.stderr)
    finally:
        await engine.dispose()
    return 0


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


async def _lines(session: ConsoleSession, source: TextIO) -> None:
    """Every line of ``source`` through the session, read as UTF-8 bytes where it has them: a line
    that is not UTF-8, or too long, is refused (and the next one read), never a crash."""
    loop = asyncio.get_running_loop()
    binary: BinaryIO | None = getattr(source, "buffer", None)
    number = 0
    while True:
        raw = await loop.run_in_executor(None, _read_line, binary or source, LINE_MAX)
        if raw is not None and not raw:
            return
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
            continue
        assert isinstance(raw, str)
        try:
            reply = await session.handle(raw)
        except Quit:
            return
        if reply is not None:
            # printed (and flushed) only after the service committed it
            print(reply.text, flush=True)


async def _interactive(session: ConsoleSession, args: argparse.Namespace) -> None:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    prompt: PromptSession[str] = PromptSession(
        history=FileHistory(str(HISTORY)), completer=CommandCompleter(), complete_while_typing=True
    )
    print(t("console.welcome", session.lang, channel=args.channel, db=database_url(args.db)))
    while True:
        try:
            line = await prompt.prompt_async(f"{session.user}@{args.channel}> ")
        except (EOFError, KeyboardInterrupt):
            break
        try:
            reply = await session.handle(line)
        except Quit:
            break
        if reply is not None:
            print(reply.text, flush=True)
    print(t("console.bye", session.lang))
