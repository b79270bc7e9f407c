"""BCDice's common dice pools as its SwordWorld2.5 game system rolls them, byte for byte:
バラバラロール (``3B6>=4``), 個数振り足し (``3R6[5]>=5``) and 上方無限 (``2U6[6]+2``).

The grammars are BCDice's own (``lib/bcdice/common_command/{barabara,reroll,upper}_dice``): every
number in them is a constant, so a command is evaluated whole when it is parsed, and its refusals
(a missing reroll condition, an upper threshold of 1 or less, a division by zero) come before any
die is rolled. SwordWorld2.5 sets none of BCDice's defaults for these (no sorting, no default
threshold, no default comparison), and rounds divisions down.

Limits: BCDice rolls nothing for more than 200 dice in one B or R group and stops at 10,000 dice in
all (``TooManyRandsError``); Toride refuses both in words (``dice.too_many_dice``), refuses a reroll
that rerolls every face (``1R1=1``, which BCDice rolls 10,000 times), and refuses dice with fewer than
1 or more than 10,000 sides, which BCDice "rolls" as 0 (``dice.bad_sides``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.dice.arith import ParseFailure
from engine.dice.result import RollKind, RollResult
from engine.dice.source import DiceError, DiceSource

#: BCDice's Randomizer::UPPER_LIMIT_DICE_TIMES: the most dice of one B or R group
MAX_GROUP = 200
#: BCDice's Randomizer::UPPER_LIMIT_DICE_SIDES
MAX_SIDES = 10_000
#: BCDice's Randomizer::UPPER_LIMIT_RANDS: the most dice one command rolls
MAX_ROLLS = 10_000
#: BCDice's RerollDice::REROLL_LIMIT: the most groups a reroll rolls
REROLL_LIMIT = 10_000
#: the deepest parentheses Toride reads (BCDice's LALR parser takes any; a recursive descent must stop)
MAX_NESTING = 50

_SEP = " ＞ "
_TOKEN = re.compile(r"[0-9]+|[<>!=]+|.", re.S)

# --- the lexer and the arithmetic (BCDice's CommonCommand::Lexer, Arithmetic::Node) ---------------


def _cmp_op(text: str) -> str | None:
    """BCDice's Normalize.comparison_operator on a run of ``<>!=``."""
    if "<=" in text or "=<" in text:
        return "<="
    if ">=" in text or "=>" in text:
        return ">="
    if "<>" in text or "!=" in text or "=!" in text:
        return "<>"
    if "<" in text:
        return "<"
    if ">" in text:
        return ">"
    if "=" in text:
        return "="
    return None


_Token = tuple[str, object]  # ("N", int) | ("CMP", op or None) | (char, char)


def _tokens(source: str) -> list[_Token]:
    out: list[_Token] = []
    for text in _TOKEN.findall(source):
        if text[0].isascii() and text[0].isdigit():
            out.append(("N", int(text)))
        elif text[0] in "<>!=":
            out.append(("CMP", _cmp_op(text)))
        else:
            out.append((text, text))
    return out


#: an arithmetic expression, evaluated after the whole command has parsed
_Expr = Callable[[], int]


def _compare(value: int, op: str, target: int) -> bool:
    if op == ">=":
        return value >= target
    if op == ">":
        return value > target
    if op == "<=":
        return value <= target
    if op == "<":
        return value < target
    if op == "=":
        return value == target
    return value != target


def _divide(a: int, b: int, rounding: str) -> int:
    if b == 0:
        raise DiceError("dice.division_by_zero")
    if rounding in ("U", "C"):
        return -(-a // b)
    if rounding == "R":
        # Ruby's Float#round: half away from zero
        q, r = divmod(abs(a), abs(b))
        q += 2 * r >= abs(b)
        return q if (a >= 0) == (b > 0) else -q
    return a // b


def _modifier(value: int) -> str:
    return "" if value == 0 else f"+{value}" if value > 0 else str(value)


class _Parser:
    def __init__(self, source: str) -> None:
        self.tokens = _tokens(source)
        self.pos = 0
        self.depth = 0

    def peek(self) -> str:
        return self.tokens[self.pos][0] if self.pos < len(self.tokens) else "$"

    def accept(self, kind: str) -> bool:
        if self.peek() == kind:
            self.pos += 1
            return True
        return False

    def expect(self, kind: str) -> None:
        if not self.accept(kind):
            raise ParseFailure

    def cmp(self) -> str:
        """A comparison BCDice can read (``!`` alone is none: a parse error)."""
        op = self.tokens[self.pos][1]
        self.pos += 1
        if op is None:
            raise ParseFailure
        assert isinstance(op, str)
        return op

    def end(self) -> None:
        if self.pos != len(self.tokens):
            raise ParseFailure

    def add(self) -> _Expr:
        node = self.mul()
        while self.peek() in ("+", "-"):
            sign = 1 if self.tokens[self.pos][0] == "+" else -1
            self.pos += 1
            node = _binary(node, self.mul(), sign)
        return node

    def mul(self) -> _Expr:
        node = self.unary()
        while True:
            if self.accept("*"):
                node = _product(node, self.unary())
            elif self.accept("/"):
                rhs = self.unary()
                rounding = ""
                if self.peek() in ("U", "C", "R", "F"):
                    rounding = self.peek()
                    self.pos += 1
                node = _quotient(node, rhs, rounding)
            else:
                return node

    def unary(self) -> _Expr:
        negative = False
        while self.peek() in ("+", "-"):  # a loop, not recursion: ``------1`` is one frame
            negative ^= self.peek() == "-"
            self.pos += 1
        body = self.term()
        return (lambda: -body()) if negative else body

    def term(self) -> _Expr:
        if self.accept("("):
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise ParseFailure
            body = self.add()
            self.expect(")")
            self.depth -= 1
            return body
        if self.peek() != "N":
            raise ParseFailure
        value = self.tokens[self.pos][1]
        if not isinstance(value, int):  # the letter N typed, not a number
            raise ParseFailure
        self.pos += 1
        return lambda: value

    def dice(self, letter: str) -> tuple[_Expr, _Expr]:
        times = self.term()
        self.expect(letter)
        return times, self.term()

    def notations(self, letter: str) -> list[tuple[_Expr, _Expr]]:
        out = [self.dice(letter)]
        while self.accept("+"):
            out.append(self.dice(letter))
        return out

    def target(self) -> tuple[str | None, _Expr | None]:
        if self.peek() != "CMP":
            return None, None
        op = self.cmp()
        return op, self.add()


def _binary(lhs: _Expr, rhs: _Expr, sign: int) -> _Expr:
    return lambda: lhs() + sign * rhs()


def _product(lhs: _Expr, rhs: _Expr) -> _Expr:
    return lambda: lhs() * rhs()


def _quotient(lhs: _Expr, rhs: _Expr, rounding: str) -> _Expr:
    return lambda: _divide(lhs(), rhs(), rounding)


def _zero() -> int:
    return 0


def _check_sides(sides: int) -> None:
    if not 1 <= sides <= MAX_SIDES:
        raise DiceError("dice.bad_sides", sides=sides)


def _check_group(times: int, sides: int) -> None:
    if times > MAX_GROUP:
        raise DiceError("dice.too_many_dice", limit=MAX_GROUP)
    _check_sides(sides)


def _too_many() -> DiceError:
    return DiceError("dice.too_many_dice", limit=MAX_ROLLS)


def _result(
    kind: RollKind,
    command: str,
    parts: list[str],
    total: int | None,
    secret: bool,
    rands: list[tuple[int, int]],
    comment: str,
) -> RollResult:
    return RollResult(
        kind=kind,
        command=command,
        text=_SEP.join(parts),
        total=total,
        secret=secret,
        rands=tuple(rands),
        comment=comment,
    )


# --- nBx ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BarabaraCommand:
    """``3B6>=4``: each die alone, and how many of them meet the target."""

    groups: tuple[tuple[int, int], ...]
    cmp_op: str | None
    target: int | None

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        rands: list[tuple[int, int]] = []
        values: list[int] = []
        for times, sides in self.groups:
            for _ in range(times):
                value = dice.roll(sides)
                rands.append((sides, value))
                values.append(value)
        notation = "+".join(f"{t}B{s}" for t, s in self.groups)
        target = "" if self.target is None else str(self.target)
        parts = [f"({notation}{self.cmp_op or ''}{target})", ",".join(map(str, values))]
        total = None
        if self.cmp_op is not None:
            assert self.target is not None
            op, goal = self.cmp_op, self.target
            total = sum(_compare(v, op, goal) for v in values)
            parts.append(f"成功数{total}")
        return _result(RollKind.BARABARA, command, parts, total, secret, rands, comment)


def parse_barabara(source: str) -> BarabaraCommand:
    p = _Parser(source)
    p.accept("S")
    notations = p.notations("B")
    op, target = p.target()
    p.end()
    groups = tuple((times(), sides()) for times, sides in notations)
    goal = target() if target is not None else None
    for times, sides in groups:
        _check_group(times, sides)
    if sum(max(t, 0) for t, _ in groups) > MAX_ROLLS:
        raise _too_many()
    return BarabaraCommand(groups, op, goal)


# --- nRx ----------------------------------------------------------------------------------------


def _rerolls(op: str, threshold: int) -> Callable[[int], bool]:
    return lambda value: _compare(value, op, threshold)


@dataclass(frozen=True, slots=True)
class RerollCommand:
    """``3R6[5]>=5``: dice that meet the reroll condition are rolled again, as a new group."""

    groups: tuple[tuple[int, int], ...]
    cmp_op: str | None
    target: int | None
    reroll_op: str
    threshold: int

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        rands: list[tuple[int, int]] = []
        lists: list[list[int]] = []
        queue = list(self.groups)
        reroll_op, threshold = self.reroll_op, self.threshold
        loops = 0
        while queue and loops < REROLL_LIMIT:
            times, sides = queue.pop(0)
            loops += 1
            if len(rands) + times > MAX_ROLLS:
                raise _too_many()
            values = [dice.roll(sides) for _ in range(times)] if times > 0 else []
            rands.extend((sides, v) for v in values)
            lists.append(values)
            again = sum(_compare(v, reroll_op, threshold) for v in values)
            if again:
                queue.append((again, sides))
        success = 0
        if self.cmp_op is not None:
            assert self.target is not None
            op, goal = self.cmp_op, self.target
            success = sum(_compare(v, op, goal) for values in lists for v in values)
        notation = "+".join(f"{t}R{s}" for t, s in self.groups)
        reroll_text = "" if reroll_op == self.cmp_op else reroll_op
        target = "" if self.target is None else str(self.target)
        parts = [
            f"({notation}[{reroll_text}{threshold}]{self.cmp_op or ''}{target})",
            " + ".join(",".join(map(str, values)) for values in lists),
            f"成功数{success}",
        ]
        return _result(RollKind.REROLL, command, parts, success, secret, rands, comment)


def _valid_reroll(op: str, threshold: int | None, sides: int) -> bool:
    """BCDice's RerollCondition#valid?"""
    if threshold is None:
        return False
    if op == "<=":
        return threshold < sides
    if op == "<":
        return threshold <= sides
    if op == ">=":
        return threshold > 1
    if op == ">":
        return threshold >= 1
    if op == "<>":
        return 1 <= threshold <= sides
    return True


def parse_reroll(source: str) -> RerollCommand:
    p = _Parser(source)
    p.accept("S")
    notations = p.notations("R")
    reroll_op: str | None = None
    reroll: _Expr | None = None
    bracket = p.accept("[")
    if bracket:
        if p.peek() == "CMP":
            reroll_op = p.cmp()
        reroll = p.add()
        p.expect("]")
    op, target = p.target()
    if not bracket and p.accept("@"):
        if p.peek() == "CMP":
            reroll_op = p.cmp()
        reroll = p.add()
    p.end()
    groups = tuple((times(), sides()) for times, sides in notations)
    goal = target() if target is not None else None
    threshold = reroll() if reroll is not None else goal
    condition = reroll_op or op or ">="
    if not all(_valid_reroll(condition, threshold, sides) for _, sides in groups):
        # BCDice echoes the command as typed (its first word)
        raise DiceError("dice.reroll_condition", command=source)
    assert threshold is not None
    for times, sides in groups:
        _check_group(times, sides)
        if times > 0 and all(_compare(face, condition, threshold) for face in range(1, sides + 1)):
            raise DiceError("dice.endless_reroll", command=source)
    if sum(max(t, 0) for t, _ in groups) > MAX_ROLLS:
        raise _too_many()
    return RerollCommand(groups, op, goal, condition, threshold)


# --- nUx ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UpperCommand:
    """``2U6[6]+2``: each die is rolled again while it comes up at the threshold or more, and adds up."""

    groups: tuple[tuple[int, int], ...]
    threshold: int
    modifier: int
    cmp_op: str | None
    target: int | None
    expression: str

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        rands: list[tuple[int, int]] = []
        rolls: list[list[int]] = []
        threshold = self.threshold
        for times, sides in self.groups:
            for _ in range(times):
                values: list[int] = []
                while True:
                    if len(rands) >= MAX_ROLLS:
                        raise _too_many()
                    value = dice.roll(sides)
                    rands.append((sides, value))
                    values.append(value)
                    if value < threshold:
                        break
                rolls.append(values)
        sums = [sum(values) for values in rolls]
        modifier = self.modifier
        shown = ",".join(
            str(s) if len(v) == 1 else f"{s}[{','.join(map(str, v))}]"
            for s, v in zip(sums, rolls, strict=True)
        )
        if self.cmp_op is not None:
            assert self.target is not None
            op, goal = self.cmp_op, self.target
            total = sum(_compare(s + modifier, op, goal) for s in sums)
            verdict = f"成功数{total}"
        else:
            total = sum(sums) + modifier
            best = str(max(sums) + modifier) if sums else ""
            verdict = f"{best}/{total}(最大/合計)"
        parts = [f"({self.expression})", shown + _modifier(modifier), verdict]
        return _result(RollKind.UPPER, command, parts, total, secret, rands, comment)


def parse_upper(source: str) -> UpperCommand:
    p = _Parser(source)
    p.accept("S")
    notations = [p.dice("U")]
    while p.peek() == "+":
        mark = p.pos, p.depth
        p.pos += 1
        try:
            notations.append(p.dice("U"))
        except ParseFailure:
            p.pos, p.depth = mark
            break
    reroll: _Expr | None = None
    bracket = p.accept("[")
    if bracket:
        reroll = p.add()
        p.expect("]")
    modifier: _Expr = _zero
    while p.peek() in ("+", "-"):
        sign = 1 if p.peek() == "+" else -1
        p.pos += 1
        modifier = _binary(modifier, p.mul(), sign)
    op, target = p.target()
    if not bracket and p.accept("@"):
        reroll = p.add()
    p.end()
    groups = tuple((times(), sides()) for times, sides in notations)
    threshold = reroll() if reroll is not None else 0
    bonus = modifier()
    goal = target() if target is not None else None
    expression = (
        f"{'+'.join(f'{t}U{s}' for t, s in groups)}[{threshold}]{_modifier(bonus)}{op or ''}"
        f"{'' if goal is None else goal}"
    )
    if threshold <= 1:
        raise DiceError("dice.upper_threshold", expression=expression)
    for times, sides in groups:
        if times < 0:
            raise DiceError("dice.negative_dice", count=times)
        _check_sides(sides)
    if sum(t for t, _ in groups) > MAX_ROLLS:
        raise _too_many()
    return UpperCommand(groups, threshold, bonus, op, goal, expression)


def parse_pool(source: str) -> tuple[RollKind, BarabaraCommand | RerollCommand | UpperCommand]:
    """Parse an upper-cased ``nBx``, ``nRx`` or ``nUx`` command (``S`` first for a secret one);
    ParseFailure when it is none of them, DiceError when BCDice would refuse it or it is too big."""
    try:
        return RollKind.BARABARA, parse_barabara(source)
    except ParseFailure:
        pass
    try:
        return RollKind.REROLL, parse_reroll(source)
    except ParseFailure:
        pass
    return RollKind.UPPER, parse_upper(source)
