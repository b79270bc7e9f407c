"""``toride roll``: one dice command from the command line, or many as JSON lines.

``toride roll --dice 3,4 '2d+10'`` prints ``(2D6+10) ＞ 7[3,4]+10 ＞ 17``. ``--jsonl`` reads lines
``{"command": "K40+12@10", "rands": [3, 4]}`` and writes one JSON object per line, so any tool
can check Toride against another dice engine.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from bot.i18n import DEFAULT_LANG, t
from bot.i18n.words import say
from engine.dice import (
    DiceError,
    DiceSource,
    RecordingDice,
    RollResult,
    ScriptedDice,
    SeededDice,
    bcdice_text,
    roll,
)


def parse_dice_list(text: str) -> list[int]:
    """``3,4,6`` → [3, 4, 6]; full-width digits and commas are accepted."""
    import unicodedata

    text = unicodedata.normalize("NFKC", text)
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError as error:
        raise DiceError("dice.bad_dice_list", text=text) from error


def result_json(
    result: RollResult | None, rands_used: list[int], error: DiceError | None = None
) -> dict[str, Any]:
    """The JSON line of one result: BCDice's fields, ``text`` null when the line is no command."""
    if result is None:
        text = bcdice_text(error) if error is not None else None
        doc: dict[str, Any] = {
            "text": text,
            "total": None,
            "critical": False,
            "fumble": False,
            "success": False,
            "failure": False,
            # BCDice: an error text of a secret command (``SK19r8@3sf4``) is a secret result
            "secret": text is not None and error is not None and error.secret,
            "rands_used": rands_used,
        }
        if error is not None:
            doc["error"] = error.key
        return doc
    return {
        "text": result.text,
        "total": result.total,
        "critical": result.critical,
        "fumble": result.fumble,
        "success": result.success,
        "failure": result.failure,
        "secret": result.secret,
        "rands_used": rands_used,
    }


def roll_jsonl(lines: TextIO, out: TextIO) -> int:
    """Roll every JSON line of ``lines``; a bad line gets a JSON line with ``error``."""
    from bot.commands import load_json  # the hardened JSON reader (its module is the command table)

    status = 0
    for raw in lines:
        raw = raw.strip()
        if not raw:
            continue
        try:
            doc = load_json(raw)  # a JsonRefused is a ValueError: a bad line
            command = str(doc["command"])
            values = [int(v) for v in doc.get("rands", [])]
        except (ValueError, KeyError, TypeError):
            out.write(json.dumps({"text": None, "error": "roll.bad_jsonl_line"}, ensure_ascii=False) + "\n")
            status = 1
            continue
        source = RecordingDice(ScriptedDice(values))
        try:
            result = roll(command, source)
            line = result_json(result, [v for _, v in source.rolls])
        except DiceError as error:
            line = result_json(None, [v for _, v in source.rolls], error)
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return status


def _run(args: argparse.Namespace) -> int:
    lang = args.lang
    if args.jsonl:
        return roll_jsonl(sys.stdin, sys.stdout)
    if not args.expr:
        print(t("roll.no_expression", lang), file=sys.stderr)
        return 2
    expr = " ".join(args.expr)
    try:
        source: DiceSource = (
            ScriptedDice(parse_dice_list(args.dice)) if args.dice is not None else SeededDice(args.seed)
        )
        recorder = RecordingDice(source)
        result = roll(expr, recorder)
    except DiceError as error:
        print(say(error.key, lang, **error.values), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result_json(result, [v for _, v in recorder.rolls]), ensure_ascii=False))
    else:
        print(f"{result.text}  {result.comment}" if result.comment else result.text)
    return 0


def add_roll_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("roll", help="roll a BCDice SwordWorld2.5 command (K40+12@10, 2d+10, ...)")
    p.add_argument("expr", nargs="*", help="the command; text after a space is a comment")
    p.add_argument("--dice", help="use these dice in order instead of random ones: 3,4,6")
    p.add_argument("--seed", type=int, default=None, help="seed for random dice")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument(
        "--jsonl", action="store_true", help='read {"command": ..., "rands": [...]} lines from stdin'
    )
    p.add_argument("--lang", choices=["ja", "en"], default=DEFAULT_LANG, help="language of messages")
    p.set_defaults(func=_run)
