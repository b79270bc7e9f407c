"""BCDice's common commands as its SwordWorld2.5 rolls them: repeats, choice, D66 and C().

``x3 2d6`` / ``rep3`` / ``repeat3`` (BCDice's Repeat), ``choice[東,西,南]`` / ``choice(…)`` /
``choice 東 西 南`` (Choice), ``D66`` (D66Dice: SwordWorld2.5 does not sort the two dice), ``C(10+3*2)``
(Calc). Texts are BCDice 3.16.1's (the npm package ``bcdice`` 4.9.0) byte for byte, quirks included:
its JavaScript StringScanner drops, from the last item of a space-separated choice, one character for
each extra white-space character between the items before it (``choice aa bb  cc`` chooses from
``aa``, ``bb``, ``c``). A repeat and a choice read the text as typed (the comment is part of it), so
``engine.dice.command`` offers them the whole line first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Protocol

from engine.dice.arith import ParseFailure
from engine.dice.result import RollKind, RollResult
from engine.dice.source import DiceError, DiceSource, RecordingDice


class ParsedCommand(Protocol):
    """What a repeat needs of the command it repeats (``engine.dice.command.ParsedCommand``; not
    imported, so that module and this one do not import each other)."""

    @property
    def comment(self) -> str: ...

    @property
    def secret(self) -> bool: ...

    @property
    def body(self) -> object: ...

    def roll(self, dice: DiceSource) -> RollResult: ...


#: BCDice's Repeat::REPEAT_LIMIT
REPEAT_LIMIT = 100
#: Toride's limit on a repeat of a repeat (``x10 X10 2d6``): this many rolls in all
NESTED_LIMIT = 1000
#: BCDice's Choice: more items than this is refused (項目数は100以下としてください)
CHOICE_LIMIT = 100
#: a repeat or choice line is read whole: at most this many characters (a Discord message's length)
MAX_LINE = 2000
#: Opal's (JavaScript's) ``\s``, which BCDice's scanners and String#strip use
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_JS_SPACES = re.compile(f"[{_JS_SPACE}]+")
_STRIP = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
_STRIP += "\u2028\u2029\u202f\u205f\u3000\ufeff\x00"
_REPEAT = re.compile(f"(s)?(repeat|rep|x)([0-9]+)[{_JS_SPACE}]+", re.IGNORECASE)
_NESTED = re.compile(r"(repeat|rep|x)[0-9]+")
_CHOICE = re.compile(r"(s)?choice([0-9]*)", re.IGNORECASE)
_NUM_RANGE = re.compile(r"([0-9]+)-([0-9]+)\Z")
_CHAR_RANGE = re.compile(r"([a-z])-([a-z])\Z|([A-Z])-([A-Z])\Z")
_D66 = re.compile(r"(S)?D66([ANSD])?")

#: the texts BCDice prints for these refusals (its result, not an error)
_TEXTS: dict[str, Callable[[dict[str, object]], str]] = {
    "dice.repeat_count": lambda v: f"繰り返し回数は1以上、{v['limit']}以下としてください",
    "dice.repeat_nested": lambda v: "Repeatコマンドの重複はできません",
    "dice.repeat_unknown": lambda v: f"繰り返し対象のコマンドが実行できませんでした ({v['command']})",
    "dice.choice_too_many": lambda v: f"項目数は{v['limit']}以下としてください",
}


def common_bcdice_text(error: DiceError) -> str | None:
    """BCDice's own text for a refusal of a common command (``None``: not one of these)."""
    text = _TEXTS.get(error.key)
    return text(error.values) if text else None


def _check_line(text: str) -> None:
    if len(text) > MAX_LINE:
        raise DiceError("dice.too_long", limit=MAX_LINE, length=len(text))
    if any(unicodedata.category(ch) == "Cc" and ch != "\t" for ch in text):
        raise DiceError("dice.control_character")


# --- repeat -----------------------------------------------------------------------------------


class _Parser(Protocol):
    def __call__(self, text: str) -> ParsedCommand: ...


@dataclass(frozen=True, slots=True)
class Repeat:
    times: int
    trailer: str
    #: the repeated command, or BCDice's text for it when it refuses it (printed each time)
    inner: ParsedCommand | None
    refusal: str
    inner_secret: bool

    def comment(self) -> str:
        return self.inner.comment if self.inner is not None else ""

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        recorder = RecordingDice(dice)
        texts = []
        for _ in range(self.times):
            if self.inner is None:
                texts.append(self.refusal)
            else:
                texts.append(self.inner.roll(recorder).text)
        text = "\n\n".join(f"#{i}\n{t}" for i, t in enumerate(texts, 1))
        return RollResult(
            RollKind.REPEAT,
            command,
            text,
            None,
            secret=secret or self.inner_secret,
            rands=tuple(recorder.rolls),
            comment=comment,
        )


def parse_repeat(
    text: str, parse: _Parser, bcdice_text: Callable[[DiceError], str | None]
) -> tuple[bool, Repeat] | None:
    """``x3 2d6 comment`` → (secret, Repeat); None: not a repeat. Refusals are BCDice's."""
    m = _REPEAT.match(text)
    if not m or m.end() == len(text):
        return None
    _check_line(text)
    secret = m.group(1) is not None
    trailer = text[m.end() :]
    if _NESTED.match(trailer):
        raise DiceError("dice.repeat_nested")
    digits = m.group(3).lstrip("0")
    times = int(digits) if digits and len(digits) <= 4 else (0 if not digits else REPEAT_LIMIT + 1)
    if not 1 <= times <= REPEAT_LIMIT:
        raise DiceError("dice.repeat_count", limit=REPEAT_LIMIT)
    try:
        inner = parse(trailer)
    except DiceError as error:
        if error.key == "dice.unknown_command":
            raise DiceError("dice.repeat_unknown", command=trailer) from None
        refusal = bcdice_text(error)
        if refusal is None:
            raise
        return secret, Repeat(times, trailer, None, refusal, error.secret)
    if isinstance(inner.body, Repeat) and times * inner.body.times > NESTED_LIMIT:
        # BCDice lets ``x100 X100 2d6`` (its check of nesting is for lower case only) roll 10,000 times
        raise DiceError("dice.repeat_total", limit=NESTED_LIMIT)
    return secret, Repeat(times, trailer, inner, "", inner.secret)


# --- choice -----------------------------------------------------------------------------------

_Delimiter = Literal["[", "(", " "]


@dataclass(frozen=True, slots=True)
class Choice:
    takes: int
    delimiter: _Delimiter
    items: tuple[str, ...]

    def expression(self) -> str:
        takes = "" if self.takes == 1 else str(self.takes)
        if self.delimiter == " ":
            return f"choice{takes} " + " ".join(self.items)
        close = "]" if self.delimiter == "[" else ")"
        return f"choice{takes}{self.delimiter}" + ",".join(self.items) + close

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        items = list(self.items)
        rands = []
        chosen = []
        for _ in range(self.takes):
            value = dice.roll(len(items))
            rands.append((len(items), value))
            chosen.append(items.pop(value - 1))
        joint = " " if self.delimiter == " " else ", "
        text = f"({self.expression()}) ＞ {joint.join(chosen)}"
        return RollResult(
            RollKind.CHOICE, command, text, None, secret=secret, rands=tuple(rands), comment=comment
        )


def _shorthand(item: str) -> list[str]:
    if m := _NUM_RANGE.match(item):
        first, last = int(m.group(1)), int(m.group(2))
        if first > last:
            return []
        if last - first >= CHOICE_LIMIT:
            raise DiceError("dice.choice_too_many", limit=CHOICE_LIMIT)
        return [str(n) for n in range(first, last + 1)]
    if m := _CHAR_RANGE.match(item):
        first_c, last_c = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if first_c > last_c:
            return []
        return [chr(c) for c in range(ord(first_c), ord(last_c) + 1)]
    return []


def _space_items(text: str, pos: int) -> list[str] | None:
    """The items of ``choice a b c`` as BCDice's patched (Opal) StringScanner#scan_until reads them.

    Its patch advances ``pos`` one character per match instead of the match's length, and takes each
    match from the string at that ``pos``: after a run of several spaces the next item starts early
    and the last one is cut short (``choice aa bb  cc`` reads ``aa``, ``bb``, ``c``)."""
    working = text[pos:]
    items: list[str] = []
    last = False
    while True:
        pattern = re.compile(r"\Z") if last else _JS_SPACES
        offset = 0
        while True:
            found = pattern.match(working, offset)
            if found is not None or offset >= len(working):
                break
            offset += 1
        if found is None:
            if last:
                return None
            last = True
            continue
        length = found.end() - found.start()
        size = offset + length
        matched = text[pos : pos + max(size, 0)]
        pos += offset + 1
        working = working[offset + 1 + max(length - 1, 0) :] if length else working[offset + 1 :]
        if last:
            items.append(matched)
            return items
        items.append(matched.removesuffix(","))


def parse_choice(text: str) -> tuple[bool, Choice] | None:
    """``choice[東,西,南]``, ``choice(東,西,南)``, ``choice 東 西 南``, ``choice2[…]``, ``S`` first."""
    m = _CHOICE.match(text)
    if not m:
        return None
    _check_line(text)
    secret = m.group(1) is not None
    takes = int(m.group(2)) if m.group(2) else 1
    if takes == 0:
        return None
    rest = text[m.end() :]
    items: list[str] = []
    delimiter: _Delimiter
    if rest[:1] in ("[", "("):
        delimiter = "[" if rest[0] == "[" else "("
        close = "]" if delimiter == "[" else ")"
        rest = rest[1:]
        while (i := rest.find(",")) >= 0:
            items.append(rest[:i])
            rest = rest[i + 1 :]
        end = rest.find(close)
        if end < 0:
            return None
        items.append(rest[:end])
    else:
        space = _JS_SPACES.match(rest)
        if not space:
            return None
        delimiter = " "
        spaced = _space_items(text, m.end() + space.end())
        if spaced is None:
            return None
        items = spaced
    items = [s for s in (item.strip(_STRIP) for item in items) if s]
    if len(items) == 1:
        items = _shorthand(items[0])
    if not items or len(items) < takes:
        return None
    if len(items) > CHOICE_LIMIT:
        raise DiceError("dice.choice_too_many", limit=CHOICE_LIMIT)
    return secret, Choice(takes, delimiter, tuple(items))


# --- D66 --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class D66:
    suffix: str

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        first, second = dice.roll(6), dice.roll(6)
        pair = [first, second]
        if self.suffix in ("A", "S"):
            pair.sort()
        elif self.suffix == "D":
            pair.sort(reverse=True)
        value = pair[0] * 10 + pair[1]
        return RollResult(
            RollKind.D66,
            command,
            f"(D66{self.suffix}) ＞ {value}",
            value,
            secret=secret,
            rands=((6, first), (6, second)),
            comment=comment,
        )


def parse_d66(command: str) -> tuple[bool, D66]:
    """``D66``, ``D66A`` / ``D66S`` (ascending), ``D66D``, ``D66N``; ``S`` first: secret."""
    m = _D66.fullmatch(command)
    if not m:
        raise ParseFailure
    return m.group(1) is not None, D66(m.group(2) or "")


# --- C() --------------------------------------------------------------------------------------

#: Opal's numbers are doubles: beyond this an integer is no longer exact, so C() refuses it
CALC_LIMIT = 2**53
_ROUNDING = {"U": "C", "C": "C", "R": "R", "F": "F"}


class _Calc:
    """BCDice's calc parser: expression with + - * /, unary signs, parentheses, /nU /nC /nR /nF."""

    __slots__ = ("pos", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def add(self, depth: int) -> tuple[Fraction | None, str, bool]:
        value, out, paren = self.mul(depth)
        while self.peek() in ("+", "-") and self.peek():
            op = self.peek()
            self.pos += 1
            rhs, rhs_out, _ = self.mul(depth)
            value = None if value is None or rhs is None else (value + rhs if op == "+" else value - rhs)
            out, paren = f"{out}{op}{rhs_out}", False
            _check(value)
        return value, out, paren

    def mul(self, depth: int) -> tuple[Fraction | None, str, bool]:
        value, out, paren = self.unary(depth)
        while self.peek() in ("*", "/") and self.peek():
            op = self.peek()
            self.pos += 1
            rhs, rhs_out, _ = self.unary(depth)
            if op == "*":
                value = None if value is None or rhs is None else value * rhs
                out = f"{out}*{rhs_out}"
            else:
                suffix = ""
                if self.peek() in _ROUNDING and self.peek():
                    suffix = _ROUNDING[self.peek()]
                    self.pos += 1
                value = _divide(value, rhs, suffix)
                out = f"{out}/{rhs_out}{suffix}"
            paren = False
            _check(value)
        return value, out, paren

    def unary(self, depth: int) -> tuple[Fraction | None, str, bool]:
        if depth > 100:
            raise DiceError("dice.too_deep", limit=100)
        ch = self.peek()
        if ch == "+":
            self.pos += 1
            return self.unary(depth + 1)
        if ch == "-":
            self.pos += 1
            value, out, _ = self.unary(depth + 1)
            return (None if value is None else -value), f"-{out}", False
        if ch == "(":
            self.pos += 1
            value, out, _ = self.add(depth + 1)
            if self.peek() != ")":
                raise ParseFailure
            self.pos += 1
            return value, f"({out})", True
        start = self.pos
        while self.peek().isdigit() and self.peek().isascii():
            self.pos += 1
        if start == self.pos:
            raise ParseFailure
        number = int(self.text[start : self.pos])
        _check(Fraction(number))
        return Fraction(number), str(number), False


def _check(value: Fraction | None) -> None:
    if value is not None and abs(value) > CALC_LIMIT:
        raise DiceError("dice.number_too_large", limit=CALC_LIMIT)


def _divide(lhs: Fraction | None, rhs: Fraction | None, suffix: str) -> Fraction | None:
    """BCDice: a zero divisor makes the whole C() 計算できません; otherwise round as the suffix says."""
    if lhs is None or rhs is None or rhs == 0:
        return None
    quotient = lhs / rhs
    if suffix == "C":
        return Fraction(-(-quotient.numerator // quotient.denominator))
    if suffix == "R":  # Ruby's Float#round: halves away from zero
        half = abs(quotient) + Fraction(1, 2)
        rounded = half.numerator // half.denominator
        return Fraction(rounded if quotient >= 0 else -rounded)
    # SwordWorld2.5's round type (and /nF): floor
    return Fraction(quotient.numerator // quotient.denominator)


@dataclass(frozen=True, slots=True)
class Calc:
    expression: str
    value: int | None

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        shown = "ゼロ除算が発生したため計算できませんでした" if self.value is None else str(self.value)
        return RollResult(
            RollKind.CALC,
            command,
            f"c{self.expression} ＞ {shown}",
            self.value,
            secret=secret,
            comment=comment,
        )


def parse_calc(command: str) -> tuple[bool, Calc]:
    """``C(10+3*2)`` → ``c(10+3*2) ＞ 16``; ``SC…``: secret. The command is normalised (upper case)."""
    secret = command.startswith("SC")
    body = command[2:] if secret else command[1:]
    if not command.startswith(("C", "SC")) or not body:
        raise ParseFailure
    calc = _Calc(body)
    value, out, paren = calc.add(0)
    if calc.pos != len(body):
        raise ParseFailure
    expression = out if paren else f"({out})"
    return secret, Calc(expression, None if value is None else int(value))
