"""``toride map BATTLE.json [-o FILE.png]``: draw an exported fort battle (or a scenario) as a PNG.

For GMs preparing a scenario: the file is read as ``/fort import`` reads it (``toride.fort/1``; a
scenario may leave out everything but ``rounds``), and drawn as ``/fort map`` draws a battle. It
needs neither the database nor Discord, and imports neither (``bot.cli`` comes here first).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.commands import JsonRefused, load_json
from bot.i18n import DEFAULT_LANG, LANGUAGES, t
from bot.render.common import os_error_text, os_error_word, refusal_text
from engine.errors import EngineError
from engine.limits import IMPORT_MAX_BYTES

if TYPE_CHECKING:
    from engine.fort.state import FortState


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("battle", type=Path, help="an exported fort battle: /fort export, or a scenario file")
    p.add_argument("-o", "--output", type=Path, default=None, help="the PNG to write (default: BATTLE.png)")
    p.add_argument("--lang", choices=list(LANGUAGES), default=DEFAULT_LANG, help="language of the picture")


def add_map_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("map", help="draw an exported fort battle as a picture (PNG)")
    _arguments(p)
    p.set_defaults(func=run_map)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="toride map", description="Draw an exported fort battle as a PNG.")
    _arguments(parser)
    return run_map(parser.parse_args(argv))


def read_battle(path: Path) -> dict[str, object]:
    """The battle document of ``path``, checked and completed as ``/fort import`` would."""
    from engine.fort.export import export_state

    return export_state(read_state(path))


def read_state(path: Path) -> FortState:
    """The battle of ``path`` (an export or a scenario), read as ``/fort import`` reads it and held to
    the same limits (COMMANDS.md, Conventions): a file the bot would refuse is refused here, in words."""
    from engine.fort.export import import_state
    from engine.fort.limits import check_state

    try:
        with path.open("rb") as file:
            data = file.read(IMPORT_MAX_BYTES + 1)
        if len(data) > IMPORT_MAX_BYTES:
            raise EngineError("map.file_too_large", path=str(path), max=IMPORT_MAX_BYTES // 1000)
        text = data.decode("utf-8-sig")
    except FileNotFoundError:
        raise EngineError("map.file_missing", path=str(path)) from None
    except IsADirectoryError:
        raise EngineError("console.file_directory", path=str(path)) from None
    except UnicodeDecodeError:
        raise EngineError("console.file_not_text", path=str(path)) from None
    except OSError as error:
        raise EngineError("console.file_unreadable", path=str(path), error=os_error_word(error)) from None
    try:
        document = load_json(text)
    except json.JSONDecodeError as error:
        raise EngineError("map.bad_json", path=str(path), line=error.lineno, column=error.colno) from None
    except JsonRefused as refused:  # too deep, a number no battle means, a lone surrogate
        raise EngineError(refused.key, option=str(path), **refused.values) from None
    if not isinstance(document, dict):
        raise EngineError("map.not_a_battle", path=str(path))
    state = import_state(document)
    check_state(state)  # as the bot's import: counts, names, title, numbers
    return state


def run_map(args: argparse.Namespace) -> int:
    from bot.render.picture.draw import map_png

    lang = args.lang
    output: Path = args.output or args.battle.with_suffix(".png")
    try:
        png = map_png(read_battle(args.battle), lang)
    except EngineError as error:
        return _refused(refusal_text(error.key, error.values, lang), lang)
    try:
        output.write_bytes(png)
    except OSError as error:
        reason = os_error_text(error, lang)
        return _refused(t("console.file_unwritable", lang, path=str(output), error=reason), lang)
    print(t("map.written", lang, path=str(output)))
    return 0


def _refused(reason: str, lang: str) -> int:
    print(t("render.refused", lang, reason=reason), file=sys.stderr)
    return 2
