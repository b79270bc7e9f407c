"""``toride map BATTLE.json [-o FILE.png]``: draw an exported battle (or a scenario) as a PNG.

For GMs preparing a scenario: the file is read as its rule set's import reads it (the rule set with
pictures its ``format`` names, ``toride.fort/1``; a scenario without one, which may leave out
everything but ``rounds``, is the first rule set's that draws a map: the fort's), and drawn as
``/fort map`` draws a battle (``RuleSet.pictures``). It needs neither the database nor Discord, and
imports neither (``bot.cli`` comes here first).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.commands import JsonRefused, load_json
from bot.i18n import DEFAULT_LANG, LANGUAGES, t
from bot.registry import rulesets
from bot.render.common import os_error_text, os_error_word, refusal_text
from bot.ruleset import RuleSet
from engine.errors import EngineError
from engine.limits import IMPORT_MAX_BYTES


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("battle", type=Path, help="an exported battle: /fort export, or a scenario file")
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


@dataclass(frozen=True, slots=True)
class Battle:
    """A battle read from a file: its rule set, its state and its document (as its export writes it)."""

    ruleset: RuleSet
    state: Any
    document: dict[str, Any]


def read_battle(path: Path) -> dict[str, Any]:
    """The battle document of ``path``, checked and completed as its rule set's import would."""
    return read(path).document


def read(path: Path) -> Battle:
    """The battle of ``path`` (an export or a scenario), read as its rule set's import reads it and held
    to the same limits (COMMANDS.md, Conventions): a file the bot would refuse is refused here, in words."""
    document = _document(path)
    drawn = [r for r in rulesets() if r.pictures is not None]
    # the rule set its format names; else (a scenario, or a battle of a rule set without pictures) the
    # first that draws a map, whose import says what is wrong with another format
    named = [r for r in drawn if r.export_format == document.get("format")]
    if not drawn:
        raise EngineError("map.not_a_battle", path=str(path))
    ruleset = (named or drawn)[0]
    state = ruleset.ruleset.import_(document)
    ruleset.check_limits(state)  # as the bot's import: counts, names, title, numbers
    return Battle(ruleset, state, ruleset.export(state))


def _document(path: Path) -> dict[str, Any]:
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
    return document


def run_map(args: argparse.Namespace) -> int:
    from bot.rulesets.builtin import ensure_builtin

    ensure_builtin()
    lang = args.lang
    output: Path = args.output or args.battle.with_suffix(".png")
    try:
        battle = read(args.battle)
        if battle.ruleset.pictures is None:
            raise EngineError("map.not_a_battle", path=str(args.battle))
        png = battle.ruleset.pictures().map(battle.document, lang)
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
