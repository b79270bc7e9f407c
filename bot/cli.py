"""The ``toride`` command line: ``roll``, ``bench``, ``console``, ``db``, ``run``, ``map`` and ``odds``.

Each subcommand registers its parser through a small ``add_*_parser(sub)`` function of the
module that implements it; the imports stay light so that ``toride roll`` starts fast, and
``toride map`` (a drawing tool) and ``toride odds`` (the planner) go straight to their modules
without the database or Discord.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.roll_cli import add_roll_parser


def _add_bench_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bench", help="run a benchmark and print its numbers")
    p.add_argument("what", choices=["dice"], help="what to measure")
    p.add_argument("--seconds", type=float, default=1.0, help="time per measured command (default 1)")

    def run(args: argparse.Namespace) -> int:
        from bot.bench import bench_dice

        bench_dice(seconds=args.seconds)
        return 0

    p.set_defaults(func=run)


def build_parser() -> argparse.ArgumentParser:
    from bot.console.app import add_console_parser, add_db_parser
    from bot.discord.cli import add_parser as add_discord_parsers
    from bot.map_cli import add_map_parser
    from bot.odds_cli import add_odds_parser

    parser = argparse.ArgumentParser(
        prog="toride",
        description="Toride (砦): Sword World 2.5 dice and fort battles",
        epilog="With no COMMAND: `toride run` (the Discord bot) when DISCORD_TOKEN is set, else "
        "`toride console` (offline play in the terminal). `toride COMMAND --help` shows a command's "
        "options.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_roll_parser(sub)
    _add_bench_parser(sub)
    add_console_parser(sub)
    add_db_parser(sub)
    add_discord_parsers(sub)
    add_map_parser(sub)
    add_odds_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["map"]:
        from bot.map_cli import main as map_main

        return map_main(words[1:])
    if words[:1] == ["odds"]:
        from bot.odds_cli import main as odds_main

        return odds_main(words[1:])
    parser = build_parser()
    args = parser.parse_args(words)
    func = getattr(args, "func", None)
    if func is None:
        # plain ``toride``: the bot when it has a token, else the offline console
        from bot.discord.settings import token_from_env

        args = parser.parse_args(["run" if token_from_env() else "console"])
        func = args.func
    result: int = func(args)
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
