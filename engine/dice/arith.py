"""Tokens and integer arithmetic shared by the dice command parsers."""

from __future__ import annotations

from enum import Enum

from engine.dice.source import DiceError


class Round(Enum):
    FLOOR = "floor"
    CEIL = "ceil"


Token = int | str


def tokenize(source: str) -> list[Token]:
    """Split upper-cased text into numbers and single characters, as BCDice's lexers do."""
    tokens: list[Token] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if "0" <= ch <= "9":
            j = i + 1
            while j < n and "0" <= source[j] <= "9":
                j += 1
            tokens.append(int(source[i:j]))
            i = j
        else:
            tokens.append(ch)
            i += 1
    return tokens


class ParseFailure(Exception):
    """The text is not this command; the caller tries the next kind of command."""


def divide(lhs: int, rhs: int, rounding: Round) -> int:
    if rhs == 0:
        raise DiceError("dice.division_by_zero")
    if rounding is Round.CEIL:
        return -(-lhs // rhs)
    # Ruby's Integer#/ rounds toward negative infinity, like Python's //.
    return lhs // rhs


class Cursor:
    """A position in a token list with the small helpers recursive descent needs."""

    __slots__ = ("pos", "tokens")

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self, offset: int = 0) -> Token | None:
        i = self.pos + offset
        return self.tokens[i] if i < len(self.tokens) else None

    def accept(self, token: Token) -> bool:
        current = self.peek()
        if current is not None and type(current) is type(token) and current == token:
            self.pos += 1
            return True
        return False

    def expect(self, token: Token) -> None:
        if not self.accept(token):
            raise ParseFailure

    def number(self) -> int:
        current = self.peek()
        if not isinstance(current, int):
            raise ParseFailure
        self.pos += 1
        return current

    def at_end(self) -> bool:
        return self.pos >= len(self.tokens)


def parse_add(cur: Cursor, rounding: Round) -> int:
    """add: mul (('+'|'-') mul)* — evaluated at once (constants only)."""
    value = parse_mul(cur, rounding)
    while True:
        if cur.accept("+"):
            value += parse_mul(cur, rounding)
        elif cur.accept("-"):
            value -= parse_mul(cur, rounding)
        else:
            return value


def parse_mul(cur: Cursor, rounding: Round) -> int:
    value = parse_unary(cur, rounding)
    while True:
        if cur.accept("*"):
            value *= parse_unary(cur, rounding)
        elif cur.accept("/"):
            value = divide(value, parse_unary(cur, rounding), rounding)
        else:
            return value


def parse_unary(cur: Cursor, rounding: Round) -> int:
    if cur.accept("+"):
        return parse_unary(cur, rounding)
    if cur.accept("-"):
        return -parse_unary(cur, rounding)
    if cur.accept("("):
        value = parse_add(cur, rounding)
        cur.expect(")")
        return value
    return cur.number()


def starts_unary(token: Token | None) -> bool:
    return isinstance(token, int) or token in ("+", "-", "(")


def parse_modifier(cur: Cursor, rounding: Round) -> int:
    """modifier: ('+'|'-') mul, repeated — a bonus such as ``+12`` or ``-5+3*2``."""
    value = 0
    seen = False
    while True:
        if cur.accept("+"):
            value += parse_mul(cur, rounding)
        elif cur.accept("-"):
            value -= parse_mul(cur, rounding)
        else:
            if not seen:
                raise ParseFailure
            return value
        seen = True


def format_modifier(value: int) -> str:
    """BCDice's Format.modifier: ``+3``, ``-2``, or nothing for 0."""
    if value == 0:
        return ""
    return f"+{value}" if value > 0 else str(value)
