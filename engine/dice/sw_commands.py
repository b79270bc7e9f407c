"""The other Sword World 2.5 commands of BCDice: 超越判定 ``2D6@10``, 成長 ``Gr``, ``Dru[...]``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.dice.arith import (
    Cursor,
    ParseFailure,
    Round,
    format_modifier,
    parse_add,
    parse_modifier,
    tokenize,
)
from engine.dice.result import RollKind, RollResult
from engine.dice.source import DiceError, DiceSource

MAX_GROWTH = 5_000  # two dice each: BCDice's limit of 10,000 dice per command


def _parse_suffix(
    cur: Cursor, rounding: Round, allow_critical: bool
) -> tuple[int | None, int, str | None, int | None]:
    """BCDice's Command::Parser tail: ``@crit`` and ``+bonus`` in either order, then ``>=target``."""
    critical: int | None = None
    modifier = 0
    seen_modifier = False
    while True:
        if allow_critical and critical is None and cur.accept("@"):
            critical = cur.number()
        elif not seen_modifier and cur.peek() in ("+", "-"):
            # The whole run of terms is one bonus, folded into a number.
            modifier = parse_modifier(cur, rounding)
            seen_modifier = True
        else:
            break
    cmp_op: str | None = None
    target: int | None = None
    a, b = cur.peek(), cur.peek(1)
    if a == ">" and b == "=":
        cur.pos += 2
        cmp_op = ">="
    elif a == ">":
        cur.pos += 1
        cmp_op = ">"
    if cmp_op is not None:
        target = parse_add(cur, rounding)
    if not cur.at_end():
        raise ParseFailure
    return critical, modifier, cmp_op, target


@dataclass(frozen=True, slots=True)
class TranscendentCommand:
    """超越判定: 2D6 rolled again while the last pair reaches the critical value."""

    critical: int
    modifier: int
    cmp_op: str | None
    target: int | None

    @property
    def expression(self) -> str:
        lhs = f"2D6@{self.critical}{format_modifier(self.modifier)}"
        return f"{lhs}{self.cmp_op}{self.target}" if self.cmp_op is not None else lhs

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        if self.critical < 3:
            raise DiceError("dice.transcendent_critical_too_small", expression=self.expression, minimum=3)
        rands: list[tuple[int, int]] = []
        groups: list[tuple[int, int]] = []
        while True:
            a, b = dice.roll(6), dice.roll(6)
            rands.append((6, a))
            rands.append((6, b))
            groups.append((a, b))
            if a + b < self.critical:
                break
        fumble_roll = groups[0] == (1, 1)
        critical_roll = groups[0] == (6, 6)
        dice_sum = sum(a + b for a, b in groups)
        total = dice_sum + self.modifier
        parts = [
            f"({self.expression})",
            f"{dice_sum}{''.join(f'[{a},{b}]' for a, b in groups)}{format_modifier(self.modifier)}",
            str(total),
        ]
        critical = fumble = success = failure = False
        if self.cmp_op is not None and self.target is not None:
            if fumble_roll:
                verdict, fumble, failure = "自動的失敗", True, True
            elif critical_roll:
                verdict, critical, success = "自動的成功", True, True
            elif (total >= self.target) if self.cmp_op == ">=" else (total > self.target):
                verdict, success = ("超成功" if len(groups) >= 2 and total >= 41 else "成功"), True
            else:
                verdict, failure = "失敗", True
            parts.append(verdict)
        return RollResult(
            kind=RollKind.TRANSCENDENT,
            command=command,
            text=" ＞ ".join(parts),
            total=total,
            critical=critical,
            fumble=fumble,
            success=success,
            failure=failure,
            secret=secret,
            rands=tuple(rands),
            comment=comment,
        )


_TRANSCENDENT_HEAD = re.compile(r"2D6?(?=@)")


def parse_transcendent(source: str) -> TranscendentCommand:
    head = _TRANSCENDENT_HEAD.match(source)
    if not head:
        raise ParseFailure
    cur = Cursor(tokenize(source[head.end() :]))
    critical, modifier, cmp_op, target = _parse_suffix(cur, Round.CEIL, allow_critical=True)
    if critical is None:
        raise ParseFailure
    return TranscendentCommand(critical, modifier, cmp_op, target)


ABILITIES = ("器用度", "敏捷度", "筋力", "生命力", "知力", "精神力")


@dataclass(frozen=True, slots=True)
class GrowthCommand:
    """成長: two d6 per growth, each naming an ability."""

    count: int

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        rands: list[tuple[int, int]] = []
        steps = []
        for _ in range(self.count):
            a, b = dice.roll(6), dice.roll(6)
            rands.append((6, a))
            rands.append((6, b))
            x, y = ABILITIES[a - 1], ABILITIES[b - 1]
            steps.append(f"[{a},{b}]->({x} or {y})" if x != y else f"[{a},{b}]->({x})")
        return RollResult(
            kind=RollKind.GROWTH,
            command=command,
            text=" | ".join(steps),
            total=None,
            secret=secret,
            rands=tuple(rands),
            comment=comment,
        )


_GROWTH = re.compile(r"GR(\d+)?")


def parse_growth(source: str) -> GrowthCommand:
    m = _GROWTH.fullmatch(source)
    if not m:
        raise ParseFailure
    count = int(m.group(1)) if m.group(1) else 1
    if count == 0:
        raise ParseFailure
    if count > MAX_GROWTH:
        raise DiceError("dice.too_many_dice", limit=MAX_GROWTH * 2)
    return GrowthCommand(count)


@dataclass(frozen=True, slots=True)
class DruidCommand:
    """ドルイドの物理魔法: 2D picks one of three powers (2-6, 7-9, 10-12), plus the bonus."""

    powers: tuple[int, int, int]
    modifier: int

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        a, b = dice.roll(6), dice.roll(6)
        dice_total = a + b
        power = self.powers[0 if dice_total <= 6 else 1 if dice_total <= 9 else 2]
        total = power + self.modifier
        mod = format_modifier(self.modifier)
        p = self.powers
        text = " ＞ ".join(
            [f"(Dru[{p[0]},{p[1]},{p[2]}]{mod})", f"2D[{a},{b}]={dice_total}", f"{power}{mod}", str(total)]
        )
        return RollResult(
            kind=RollKind.DRUID,
            command=command,
            text=text,
            total=total,
            secret=secret,
            rands=((6, a), (6, b)),
            comment=comment,
        )


_DRUID_HEAD = re.compile(r"DRU\[(\d+),(\d+),(\d+)\]")


def parse_druid(source: str) -> DruidCommand:
    head = _DRUID_HEAD.match(source)
    if not head:
        raise ParseFailure
    cur = Cursor(tokenize(source[head.end() :]))
    _, modifier, cmp_op, _ = _parse_suffix(cur, Round.CEIL, allow_critical=False)
    if cmp_op is not None:
        raise ParseFailure
    powers = (int(head.group(1)), int(head.group(2)), int(head.group(3)))
    return DruidCommand(powers, modifier)
