"""Dice paid with DP, and contests (S-CORE-4, S-GM-1): shared by checks, hiding and searching."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.common import EventRecorder
from engine.ruleset import RuleError
from engine.sengensho.lookup import non_negative
from engine.sengensho.state import Character, GMFixed, RollKind, SengenshoState, Side


@dataclass(frozen=True, slots=True)
class Throw:
    """The dice of one check: the values rolled (none when fixed), their sum, the DP paid."""

    count: int
    values: tuple[int, ...]
    dice_total: int
    paid: int
    fixed: bool


def fixed_dice(count: int) -> int:
    """S-GM-1: the GM side's N dice count N × 3.5, rounded down."""
    return count * 7 // 2


def pays_dp(kind: RollKind) -> bool:
    """S-CORE-4: N dice cost N DP; DP is never paid for damage dice."""
    return kind is not RollKind.DAMAGE


def gm_fixed(state: SengenshoState, c: Character, kind: RollKind) -> bool:
    """S-GM-1: the GM side's checks count N × 3.5; its damage dice too only with ``gm_fixed:all``."""
    if c.side is not Side.ENEMY or state.gm_fixed is GMFixed.OFF:
        return False
    return kind is not RollKind.DAMAGE or state.gm_fixed is GMFixed.ALL


def throw(state: SengenshoState, c: Character, count: int, kind: RollKind, rec: EventRecorder) -> Throw:
    """S-CORE-4 and S-GM-1: pay the DP (refused if short) and roll the dice, or count them fixed."""
    non_negative("dice", count)
    paid = count if pays_dp(kind) else 0
    if paid > c.dp and c.dp == 0:  # S-CORE-4 (DP 0): a character at 0 DP still rolls 0D, its base alone
        raise RuleError("sg.dp_none", name=c.name, dice=count, dp=c.dp)
    if paid > c.dp:
        raise RuleError("sg.dp_short", name=c.name, dice=count, dp=c.dp)
    if gm_fixed(state, c, kind):
        return Throw(count, (), fixed_dice(count), paid, True)
    values = tuple(rec.roll(6) for _ in range(count))
    return Throw(count, values, sum(values), paid, False)


def contest_won(total: int, other: int, roller_defends: bool) -> bool:
    """S-CORE-4: a contest goes to the higher total; a tie goes to the defender."""
    return total > other or (total == other and roller_defends)


def throw_record(c: Character, t: Throw, base: int, total: int) -> dict[str, Any]:
    """What an event says of a throw: base, dice, DP paid and left, the total."""
    return {
        "name": c.name,
        "base": base,
        "dice": t.count,
        "values": list(t.values),
        "fixed": t.fixed,
        "dice_total": t.dice_total,
        "paid": t.paid,
        "dp_before": c.dp,
        "dp": c.dp - t.paid,
        "dp_max": c.dp_max,
        "total": total,
    }


def rolled_record(
    c: Character,
    t: Throw,
    base: int,
    total: int,
    kind: RollKind,
    *,
    label: str = "",
    check: str | None = None,
    modifier: int = 0,
    surprise: str | None = None,
    target: int | None = None,
    against: Character | None = None,
    won: bool | None = None,
    aim: str | None = None,
    out_of_step: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What ``sg.rolled`` says of a roll (``/sg roll``, and the damage of ``/sg attack``)."""
    return {
        **throw_record(c, t, base, total),
        "kind": kind.value,
        "label": label,
        "check": check,
        "modifier": modifier,
        "surprise": surprise,
        "target": target,
        "success": None if target is None else total >= target,
        "against": against.name if against else None,
        "against_total": against.last_roll.total if against and against.last_roll else None,
        "won": won,
        "aim": aim,
        "out_of_step": out_of_step,
    }
