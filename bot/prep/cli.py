"""``toride prep [FILE] [--port 8765] [--lang ja|en]``: the GM's prep table on http://127.0.0.1:PORT/.

FILE, when given, is opened (if it exists) and written by the page's save; nothing else is read or
written. ``--port 0`` takes any free port; the address is printed either way. Ctrl-C (or SIGTERM) ends it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.i18n import DEFAULT_LANG, LANGUAGES, t

DEFAULT_PORT = 8765


def _arguments(p: argparse.ArgumentParser) -> None:
    opened = "the battle to open and to save to (toride.fort/1, as /fort export writes it)"
    p.add_argument("file", type=Path, nargs="?", default=None, metavar="FILE", help=opened)
    p.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"the port on 127.0.0.1 (default {DEFAULT_PORT})"
    )
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
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args))
    return 0


async def _serve(args: argparse.Namespace) -> None:
    from bot.prep.server import HOST, Prep, serve
    from bot.rulesets.builtin import ensure_builtin

    # the page builds a battle of the first rule set that has one (the fort's)
    ruleset = next(r for r in ensure_builtin() if r.prep is not None)
    prep = Prep(ruleset, args.lang, args.file)
    try:
        runner = await serve(prep, args.port)
    except OSError as error:
        from bot.render.common import os_error_text

        print(t("render.refused", args.lang, reason=os_error_text(error, args.lang)), file=sys.stderr)
        raise SystemExit(2) from None
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
