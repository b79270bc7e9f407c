"""What one command uses while it runs: the dice (recorded) and the events it emits.

Every die rolled goes into the next event emitted, so the events of a command carry all of its
dice in the order rolled, and replaying those values reproduces the command exactly.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from engine.common import EventRecorder
from engine.dice import DiceError, RollKind, RollResult, parse_command
from engine.dice.command import ParsedCommand
from engine.ruleset import RuleError

_INTEGER = re.compile(r"[+-]?\d+")


class Context(EventRecorder):
    """The recording dice source and event list of one fort command, with two shorthands."""

    __slots__ = ()

    def d6(self) -> int:
        return self.roll(6)

    def roll_command(self, parsed: ParsedCommand) -> RollResult:
        return parsed.roll(self)


@lru_cache(maxsize=1024)
def parse_damage_expression(text: str) -> ParsedCommand:
    """A dice expression for damage: a rating roll (``K40+12@10``) or a plain sum (``2d+6``)."""
    try:
        parsed = parse_command(text)
    except DiceError as error:
        raise RuleError("fort.dice_invalid", expression=text, reason=error.key) from None
    if parsed.kind not in (RollKind.RATING, RollKind.SUM) or any(c in parsed.command for c in "<>="):
        raise RuleError("fort.dice_invalid", expression=text, reason="not_damage")
    return parsed


def parse_amount(value: int | str) -> int | ParsedCommand:
    """A damage option: a plain integer, or a dice expression to roll (``2d+10``, ``K40+12@10``)."""
    if isinstance(value, int):
        return value
    text = unicodedata.normalize("NFKC", value).strip()
    if _INTEGER.fullmatch(text):
        return int(text)
    return parse_damage_expression(text)


def roll_record(result: RollResult) -> dict[str, Any]:
    """How a roll appears in an event: BCDice's text and the numbers taken from it."""
    return {
        "command": result.command,
        "text": result.text,
        "total": result.total,
        "damage": result.damage,
        "critical": result.critical,
        "fumble": result.fumble,
    }


def amount_value(ctx: Context, amount: int | ParsedCommand) -> tuple[int, dict[str, Any] | None]:
    """F-DICE-1: the damage an amount deals (0 for an automatically failed rating roll)."""
    if isinstance(amount, int):
        return amount, None
    result = ctx.roll_command(amount)
    return result.damage, roll_record(result)
