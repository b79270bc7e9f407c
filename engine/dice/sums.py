"""Plain sums (加算ロール, ``2D6+10``, ``2D6>=12``) as BCDice's AddDice rolls them,
with Sword World 2.5's automatic success and failure on 2D6."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.dice.arith import Cursor, ParseFailure, Round, Token, divide, tokenize
from engine.dice.result import RollKind, RollResult
from engine.dice.source import DiceError, DiceSource

MAX_DICE = 10_000
DEFAULT_SIDES = 6  # ``2D`` means ``2D6`` in Sword World


class Node(Protocol):
    def eval(self, dice: DiceSource, rands: list[tuple[int, int]], out: list[str]) -> int: ...

    def expr(self) -> str: ...

    def dice_count(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Number:
    value: int

    def eval(self, dice: DiceSource, rands: list[tuple[int, int]], out: list[str]) -> int:
        out.append(str(self.value))
        return self.value

    def expr(self) -> str:
        return str(self.value)

    def dice_count(self) -> int:
        return 0


_FILTERS = {"KH", "KL", "DH", "DL"}


@dataclass(frozen=True, slots=True)
class DiceRoll:
    times: int
    sides: int
    filter: str = ""
    n_filter: int = 0

    def eval(self, dice: DiceSource, rands: list[tuple[int, int]], out: list[str]) -> int:
        sides = self.sides
        values = [dice.roll(sides) for _ in range(self.times)]
        rands.extend((sides, v) for v in values)
        if self.filter:
            values.sort()
            n = self.n_filter
            if self.filter == "KH":
                kept = values[::-1][:n]
            elif self.filter == "KL":
                kept = values[:n]
            elif self.filter == "DH":
                kept = values[::-1][n:]
            else:
                kept = values[n:]
            total = sum(kept)
        else:
            total = sum(values)
        out.append(f"{total}[{','.join(map(str, values))}]")
        return total

    def expr(self) -> str:
        base = f"{self.times}D{self.sides}"
        return f"{base}{self.filter}{self.n_filter}" if self.filter else base

    def dice_count(self) -> int:
        return self.times


@dataclass(frozen=True, slots=True)
class BinaryOp:
    lhs: Node
    op: str  # + - * /
    rhs: Node
    rounding: str = ""  # "" (floor), "U" (up), "R" (nearest) for "/"

    def eval(self, dice: DiceSource, rands: list[tuple[int, int]], out: list[str]) -> int:
        a = self.lhs.eval(dice, rands, out)
        out.append(self.op)
        b = self.rhs.eval(dice, rands, out)
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        if self.op == "*":
            return a * b
        out.append(self.rounding)
        if b == 0:
            return 1  # BCDice answers 1 for a division by zero in a sum
        if self.rounding == "U":
            return divide(a, b, Round.CEIL)
        if self.rounding == "R":
            q, r = divmod(a, b)
            # Ruby's Float#round: half away from zero.
            return q + 1 if 2 * r >= b > 0 or (b < 0 and 2 * r <= b) else q
        return divide(a, b, Round.FLOOR)

    def expr(self) -> str:
        return f"{self.lhs.expr()}{self.op}{self.rhs.expr()}{self.rounding}"

    def dice_count(self) -> int:
        return self.lhs.dice_count() + self.rhs.dice_count()


@dataclass(frozen=True, slots=True)
class Negate:
    body: Node

    def eval(self, dice: DiceSource, rands: list[tuple[int, int]], out: list[str]) -> int:
        out.append("-")
        return -self.body.eval(dice, rands, out)

    def expr(self) -> str:
        return f"-{self.body.expr()}"

    def dice_count(self) -> int:
        return self.body.dice_count()


@dataclass(frozen=True, slots=True)
class Parenthesis:
    body: Node

    def eval(self, dice: DiceSource, rands: list[tuple[int, int]], out: list[str]) -> int:
        out.append("(")
        value = self.body.eval(dice, rands, out)
        out.append(")")
        return value

    def expr(self) -> str:
        return f"({self.body.expr()})"

    def dice_count(self) -> int:
        return self.body.dice_count()


_CMP_TEXT = {">=": ">=", ">": ">", "<=": "<=", "<": "<", "=": "=", "<>": "<>"}


def _compare(total: int, op: str, target: int) -> bool:
    if op == ">=":
        return total >= target
    if op == ">":
        return total > target
    if op == "<=":
        return total <= target
    if op == "<":
        return total < target
    if op == "=":
        return total == target
    return total != target


@dataclass(frozen=True, slots=True)
class SumCommand:
    lhs: Node
    cmp_op: str | None
    target: int | None  # None with a cmp_op means "?" (no target yet)
    text: str  # "2D6+10>=17", BCDice's echo of the command

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        rands: list[tuple[int, int]] = []
        out: list[str] = []
        total = self.lhs.eval(dice, rands, out)
        parts = [f"({self.text})"]
        if not (len(rands) <= 1 and isinstance(self.lhs, DiceRoll)):
            parts.append("".join(out))
        parts.append(str(total))
        critical = fumble = success = failure = False
        if self.cmp_op is not None:
            verdict = self._check(total, rands)
            if verdict is not None:
                parts.append(verdict)
                critical = verdict == "自動的成功"
                fumble = verdict == "自動的失敗"
                success = verdict in ("自動的成功", "成功")
                failure = verdict in ("自動的失敗", "失敗")
        return RollResult(
            kind=RollKind.SUM,
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

    def _check(self, total: int, rands: list[tuple[int, int]]) -> str | None:
        """BCDice's check_result with SwordWorld's result_2d6 (exactly two d6 rolled)."""
        assert self.cmp_op is not None
        if len(rands) == 2 and rands[0][0] == 6 and rands[1][0] == 6:
            dice_total = rands[0][1] + rands[1][1]
            if dice_total >= 12:
                return "自動的成功"
            if dice_total <= 2:
                return "自動的失敗"
        if self.target is None:
            return None
        return "成功" if _compare(total, self.cmp_op, self.target) else "失敗"


class _SumParser:
    def __init__(self, tokens: list[Token]) -> None:
        self.cur = Cursor(tokens)

    def command(self) -> SumCommand:
        cur = self.cur
        lhs = self.add()
        cmp_op = self.cmp()
        target: int | None = None
        if cmp_op is not None:
            if cur.accept("?"):
                target = None
            else:
                rhs = self.add()
                if rhs.dice_count():
                    raise ParseFailure
                target = rhs.eval(_NO_DICE, [], [])
        if not cur.at_end():
            raise ParseFailure
        if lhs.dice_count() == 0:
            raise ParseFailure
        if lhs.dice_count() > MAX_DICE:
            raise DiceError("dice.too_many_dice", limit=MAX_DICE)
        text = lhs.expr()
        if cmp_op is not None:
            text += _CMP_TEXT[cmp_op] + ("?" if target is None else str(target))
        return SumCommand(lhs, cmp_op, target, text)

    def cmp(self) -> str | None:
        cur = self.cur
        a, b = cur.peek(), cur.peek(1)
        pairs = {
            (">", "="): ">=",
            ("=", ">"): ">=",
            ("<", "="): "<=",
            ("=", "<"): "<=",
            ("<", ">"): "<>",
            ("!", "="): "<>",
            ("=", "="): "=",
        }
        if isinstance(a, str) and isinstance(b, str) and (a, b) in pairs:
            cur.pos += 2
            return pairs[(a, b)]
        if a in (">", "<", "="):
            cur.pos += 1
            return str(a)
        return None

    def add(self) -> Node:
        cur = self.cur
        node = self.mul()
        while True:
            if cur.accept("+"):
                node = BinaryOp(node, "+", self.mul())
            elif cur.accept("-"):
                node = BinaryOp(node, "-", self.mul())
            else:
                return node

    def mul(self) -> Node:
        cur = self.cur
        node = self.unary()
        while True:
            if cur.accept("*"):
                node = BinaryOp(node, "*", self.unary())
            elif cur.accept("/"):
                rhs = self.unary()
                rounding = ""
                if cur.accept("U"):
                    rounding = "U"
                elif cur.accept("R"):
                    rounding = "R"
                node = BinaryOp(node, "/", rhs, rounding)
            else:
                return node

    def unary(self) -> Node:
        cur = self.cur
        if cur.accept("-"):
            return Negate(self.unary())
        if cur.accept("("):
            body = self.add()
            cur.expect(")")
            return Parenthesis(body)
        if cur.peek() == "D" and isinstance(cur.peek(1), int) and cur.peek(1) != 66:
            times = 1  # BCDice: ``D6`` is 1D6 (but ``D66`` is its D66 command)
        else:
            times = cur.number()
        if not cur.accept("D"):
            return Number(times)
        sides = cur.number() if isinstance(cur.peek(), int) else DEFAULT_SIDES
        if times > MAX_DICE:
            raise DiceError("dice.too_many_dice", limit=MAX_DICE)
        if sides < 1:
            raise DiceError("dice.bad_sides", sides=sides)
        a, b = cur.peek(), cur.peek(1)
        if isinstance(a, str) and isinstance(b, str) and a + b in _FILTERS:
            cur.pos += 2
            return DiceRoll(times, sides, a + b, cur.number())
        return DiceRoll(times, sides)


class _NoDice:
    def roll(self, sides: int) -> int:  # pragma: no cover - a target never holds dice
        raise ParseFailure


_NO_DICE = _NoDice()


def parse_sum(source: str) -> SumCommand:
    """Parse an upper-cased sum (``2D6+10>=17``); ParseFailure when it is not one."""
    return _SumParser(tokenize(source)).command()
