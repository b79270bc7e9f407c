"""``toride prep [FILE] [--port 8765] [--lang ja|en]``: the GM's prep table on http://127.0.0.1:PORT/.

FILE, when given, is opened (if it exists) and written by the page's save; nothing else is read or
written. ``--port 0`` takes any free port; the address is printed either way. Ctrl-C (or SIGTERM) ends it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.i18n import DEFAULT_LANG, LANGUAGES, t

DEFAULT_PORT = 8765


def _arguments(p: argparse.ArgumentParser) -> None:
    opened = "the battle to open and to save to (toride.fort/1, as /fort export writes it)"
    p.add_argument("file", type=Path, nargs="?", default=None, metavar="FILE", help=opened)
    # read as text: a port that is none is refused in the page's language (``run_prep``), not argparse's
    port = f"the port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free port)"
    p.add_argument("--port", default=str(DEFAULT_PORT), help=port)
    p.add_argument("--lang", choices=list(LANGUAGES), default=DEFAULT_LANG, help="language of the page")


def add_prep_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("prep", help="the GM's prep table: build a fort battle in a local web page")
    _arguments(p)
    p.set_defaults(func=run_prep)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="toride prep", description="The GM's prep table (a local web page)."
    )
    _arguments(parser)
    return run_prep(parser.parse_args(argv))


def run_prep(args: argparse.Namespace) -> int:
    """Serves the page until Ctrl-C (0); 2: refused before it started (a port that is none, a FILE that
    is no file, a port in use), in words of ``--lang`` on standard error."""
    lang = args.lang
    port = port_number(str(args.port))
    if port is None:
        return _refused("prep.port_invalid", {"port": str(args.port)}, lang)
    if args.file is not None:
        from bot.prep.files import check_battle_file
        from engine.errors import EngineError

        try:
            check_battle_file(args.file)  # a named pipe as FILE would hang the page's first request
        except EngineError as error:
            return _refused(error.key, error.values, lang)
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(_serve(args, port))
    return 0


def port_number(text: str) -> int | None:
    """``--port``'s port, 0 to 65535 (0: any free port); None: it is none (``99999``, ``http``)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 5:
        return None
    port = int(text)
    return port if port <= 65535 else None


def _refused(key: str, values: Mapping[str, Any], lang: str) -> int:
    from bot.render.common import refusal_text

    print(t("render.refused", lang, reason=refusal_text(key, values, lang)), file=sys.stderr)
    return 2


async def _serve(args: argparse.Namespace, port: int) -> int:
    from bot.prep.app import HOST, Prep, serve
    from bot.rulesets.builtin import ensure_builtin

    # the page builds a battle of the first rule set that has one (the fort's)
    ruleset = next(r for r in ensure_builtin() if r.prep is not None)
    prep = Prep(ruleset, args.lang, args.file)
    try:
        runner = await serve(prep, port)
    except OSError as error:  # the port in use, or not this user's to take
        from bot.render.common import os_error_word

        await prep.close()
        if error.errno == errno.EADDRINUSE:
            return _refused("prep.port_in_use", {"port": port}, args.lang)
        return _refused("prep.port_refused", {"port": port, "error": os_error_word(error)}, args.lang)
    port = runner.addresses[0][1]
    print(t("prep.serving", args.lang, url=f"http://{HOST}:{port}/"), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        await prep.close()
        await runner.cleanup()
    return 0
