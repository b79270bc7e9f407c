"""The ``toride`` command line: ``roll``, ``bench``, ``console``, ``db``, ``run``, ``sync``, ``map``,
``odds``, ``prep``.

Start-up is where a person waits, so a tool imports only what it uses: the table ``TOOLS`` names each
subcommand, its one-line help and the ``module:function`` that registers its full parser. ``toride
--help`` lists the table without importing any tool; ``toride COMMAND ...`` imports the one module of
``COMMAND`` (``toride roll`` loads the dice engine, not the database, Discord or the console). ``toride
map`` and ``toride odds`` go straight to their own ``main``.

A closed pipe (``toride odds b.json | head``) ends the tool quietly with exit status 141 (128 + SIGPIPE,
what a shell reports for a Unix tool killed by that signal, and what ``toride console`` returns): no
traceback, and what was printed before stays printed. (``--help`` into a closed pipe exits 0: argparse
drops a help it cannot write.)
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import NamedTuple

#: exit status after the reader of standard output went away (128 + SIGPIPE)
EXIT_BROKEN_PIPE = 141

Adder = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


class Tool(NamedTuple):
    name: str
    help: str
    #: ``module:function`` registering the tool's parser (``function(sub)`` calls ``sub.add_parser``)
    adder: str


#: every subcommand in ``--help`` order; a test checks each help against its module's parser
TOOLS: tuple[Tool, ...] = (
    Tool(
        "roll", "roll a BCDice SwordWorld2.5 command (K40+12@10, 2d+10, ...)", "bot.roll_cli:add_roll_parser"
    ),
    Tool("bench", "run a benchmark and print its numbers", "bot.bench:add_bench_parser"),
    Tool("console", "play battles offline with the bot's commands", "bot.console.app:add_console_parser"),
    Tool("db", "database maintenance", "bot.console.app:add_db_parser"),
    Tool("run", "run the Discord bot (token from DISCORD_TOKEN)", "bot.discord.cli:add_parser"),
    Tool(
        "sync",
        "register the slash commands with Discord (globally, or in one guild)",
        "bot.discord.cli:add_parser",
    ),
    Tool("map", "draw an exported fort battle as a picture (PNG)", "bot.map_cli:add_map_parser"),
    Tool(
        "odds",
        "will the fort hold? play an exported battle many times",
        "bot.rulesets.fort.planner.cli:add_odds_parser",
    ),
    Tool(
        "prep", "the GM's prep table: build a fort battle in a local web page", "bot.prep.cli:add_prep_parser"
    ),
)
_BY_NAME = {tool.name: tool for tool in TOOLS}
#: the bot talks to sockets: a broken pipe there is its own error, not a reader of its output gone
_OWN_ERRORS = frozenset({"run", "sync"})


def resolve(adder: str) -> Adder:
    """The function named by ``module:function`` (imports the module)."""
    module, _, function = adder.partition(":")
    found: Adder = getattr(importlib.import_module(module), function)
    return found


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``toride`` parser; only ``command``'s module is imported to register its full parser, the
    other tools appear by name and help (``None``: none is imported)."""
    parser = argparse.ArgumentParser(
        prog="toride",
        description="Toride (砦): Sword World 2.5 dice and fort battles",
        epilog="With no COMMAND: `toride run` (the Discord bot) when DISCORD_TOKEN is set, else "
        "`toride console` (offline play in the terminal). `toride COMMAND --help` shows a command's "
        "options.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if command in _BY_NAME:
        resolve(_BY_NAME[command].adder)(sub)
    for tool in TOOLS:
        if tool.name not in sub.choices:
            sub.add_parser(tool.name, help=tool.help)
    return parser


def _command(words: Sequence[str]) -> str | None:
    """The subcommand a command line names: its first word that is one (``toride`` has no options of
    its own but ``--help``)."""
    for word in words:
        if not word.startswith("-"):
            return word if word in _BY_NAME else None
    return None


def _dispatch(words: list[str]) -> int:
    if words[:1] == ["map"]:
        from bot.map_cli import main as map_main

        return map_main(words[1:])
    if words[:1] == ["odds"]:
        from bot.rulesets.fort.planner.cli import main as odds_main

        return odds_main(words[1:])
    args = build_parser(_command(words)).parse_args(words)
    func = getattr(args, "func", None)
    if func is None:
        # plain ``toride``: the bot when it has a token, else the offline console
        from bot.discord.settings import token_from_env

        default = "run" if token_from_env() else "console"
        args = build_parser(default).parse_args([default])
        func = args.func
    result: int = func(args)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            result = _dispatch(words)
        finally:
            sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
    except BrokenPipeError:
        if _command(words) in _OWN_ERRORS:
            raise
        # the reader went away (``toride odds b.json | head``): stop quietly, as a Unix tool does; the
        # interpreter's own flush at exit must not fail again, so standard output becomes /dev/null
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE
    if argv is None:
        # the process ends now (``toride`` itself, not a caller in Python): the objects it made are
        # left out of the collection at exit, which walks every one of them (0.1 s after the console)
        # and frees nothing the operating system does not free anyway
        gc.freeze()
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
