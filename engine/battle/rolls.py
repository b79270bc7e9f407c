"""Rolling an amount or a check with the dice passed in (through the command's ``EventRecorder``, so the
next event carries every die)."""

from __future__ import annotations

from typing import Any

from engine.common import EventRecorder
from engine.dice import RollResult
from engine.dice.command import ParsedCommand


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


def roll_amount(amount: int | ParsedCommand, rec: EventRecorder) -> tuple[int, dict[str, Any] | None]:
    """B-DMG-1: what an amount deals: the number given, or the roll's damage."""
    # A rating roll's automatic failure (1ゾロ) deals 0.
    if isinstance(amount, int):
        return amount, None
    result = amount.roll(rec)
    return result.damage, roll_record(result)


def roll_check(check: int | ParsedCommand, rec: EventRecorder) -> tuple[int, dict[str, Any] | None]:
    """B-KNOW-1, B-INIT-1: a check's total: the number given, or the roll's total."""
    if isinstance(check, int):
        return check, None
    result = check.roll(rec)
    return result.total or 0, roll_record(result)
