"""One entry point for every dice command: normalise, recognise, roll."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from engine.dice.arith import ParseFailure
from engine.dice.common import common_bcdice_text, parse_calc, parse_choice, parse_d66, parse_repeat
from engine.dice.pools import parse_pool
from engine.dice.rating import parse_rating
from engine.dice.result import RollKind, RollResult
from engine.dice.source import DiceError, DiceSource
from engine.dice.sums import parse_sum
from engine.dice.sw_commands import parse_druid, parse_growth, parse_transcendent

MAX_LENGTH = 200

#: BCDice's SwordWorld2.5 prefixes: a command that starts so is the game system's own.
_SYSTEM_PREFIX = re.compile(r"(S)?(H?K|OHK|GR|2D6?@\d+|FT|TT|DRU|ABT)")
#: Tables of the rulebooks' prose, which Toride does not copy.
_PROSE_TABLES = ("FT", "TT", "ABT")
#: The fort rules write ``R40+12/©10`` for ``K40+12@10``.
_FORT_NOTATION = re.compile(r"\A(S?(?:H|OH)?)R(?=\d)")
_WHITESPACE = re.compile(r"[ \t\u3000]")


class _Rollable(Protocol):
    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult: ...


@dataclass(frozen=True, slots=True)
class ParsedCommand:
    """A recognised command, ready to roll as often as wanted."""

    command: str
    comment: str
    secret: bool
    kind: RollKind
    body: _Rollable

    def roll(self, dice: DiceSource) -> RollResult:
        try:
            return self.body.roll(dice, self.command, self.secret, self.comment)
        except DiceError as error:
            error.secret = self.secret
            raise


def split_comment(text: str) -> tuple[str, str]:
    """``K20+5 首切り`` → (``K20+5``, ``首切り``): text after the first space is a comment."""
    text = text.strip(" \t\u3000\r\n")
    m = _WHITESPACE.search(text)
    if not m:
        return text, ""
    return text[: m.start()], text[m.end() :].strip(" \t\u3000")


def normalise(command: str) -> str:
    """Full-width to half-width (``Ｋ２０＋５`` → ``K20+5``), the fort notation, upper case."""
    command = unicodedata.normalize("NFKC", command).upper()
    command = command.replace("/©", "@").replace("©", "@")
    return _FORT_NOTATION.sub(lambda m: m.group(1) + "K", command, count=1)


def _compile_uncached(command: str) -> tuple[RollKind, bool, _Rollable]:
    m = _SYSTEM_PREFIX.match(command)
    if m:
        secret = m.group(1) is not None
        body = command[1:] if secret else command
        if body in _PROSE_TABLES:
            raise DiceError("dice.table_not_included", table=body)
        try:
            if body.startswith("DRU["):
                return RollKind.DRUID, secret, parse_druid(body)
            if body.startswith("GR"):
                return RollKind.GROWTH, secret, parse_growth(body)
            if body.startswith("2D"):
                return RollKind.TRANSCENDENT, secret, parse_transcendent(body)
            if "K" in body[:3]:
                rating = parse_rating(body)
                rating.check()
                return RollKind.RATING, secret, rating
        except ParseFailure:
            pass
    secret = is_secret(command)
    try:
        return RollKind.SUM, secret, parse_sum(command[1:] if secret else command)
    except ParseFailure:
        pass
    try:  # BCDice's common nBx, nRx, nUx (S first: secret)
        pool_kind, pool = parse_pool(command)
        return pool_kind, is_secret(command), pool
    except ParseFailure:
        pass
    try:  # BCDice's common D66 and C() (S first: secret)
        d66_secret, d66 = parse_d66(command)
        return RollKind.D66, d66_secret, d66
    except ParseFailure:
        pass
    try:
        calc_secret, calc = parse_calc(command)
        return RollKind.CALC, calc_secret, calc
    except ParseFailure:
        pass
    raise DiceError("dice.unknown_command", command=command)


_compile = lru_cache(maxsize=4096)(_compile_uncached)


@lru_cache(maxsize=4096)
def parse_command(text: str) -> ParsedCommand:
    """Recognise one command line (a comment may follow a space). Raises DiceError.

    Cached: the same text (a unit's strike, the cannon's ``K40+12@10``) is parsed once.
    """
    return _parse(text, _compile)


def parse_command_uncached(text: str) -> ParsedCommand:
    """``parse_command`` without its caches: what a text never seen before costs (``toride bench``)."""
    return _parse(text, _compile_uncached)


def _parse(text: str, compile_: Callable[[str], tuple[RollKind, bool, _Rollable]]) -> ParsedCommand:
    common = _parse_whole_line(text, compile_)
    if common is not None:
        return common
    raw, comment = split_comment(text)
    if not raw:
        raise DiceError("dice.empty_command")
    if len(raw) > MAX_LENGTH:
        error = DiceError("dice.too_long", limit=MAX_LENGTH, length=len(raw))
        error.secret = is_secret(normalise(raw[:1]))
        raise error
    command = normalise(raw)
    try:
        kind, secret, body = compile_(command)
    except DiceError as error:
        # any refusal of an S-prefixed command is the secret roll's (BCDice: its error text is secret)
        error.secret = is_secret(command)
        raise
    return ParsedCommand(command, comment, secret, kind, body)


def _parse_whole_line(
    text: str, compile_: Callable[[str], tuple[RollKind, bool, _Rollable]]
) -> ParsedCommand | None:
    """BCDice's repeat (``x3 2d6 comment``) and choice (``choice 東 西 南``) read the line as typed."""
    line = text.strip(" \t\u3000\r\n")
    inner = parse_command if compile_ is _compile else parse_command_uncached
    try:
        if repeat := parse_repeat(line, inner, bcdice_text):
            secret, body = repeat
            return ParsedCommand(line, body.comment(), secret or body.inner_secret, RollKind.REPEAT, body)
        if choice := parse_choice(line):
            return ParsedCommand(line, "", choice[0], RollKind.CHOICE, choice[1])
    except DiceError as error:
        # BCDice's 項目数は100以下としてください is never secret
        error.secret = line[:1] in ("s", "S") and error.key != "dice.choice_too_many"
        raise
    return None


def is_secret(command: str) -> bool:
    """Is the normalised ``command`` a secret one (``S`` first: ``SK20``, ``S2D6``)?"""
    return command.startswith("S")


def roll(text: str, dice: DiceSource) -> RollResult:
    """Roll one BCDice SwordWorld2.5 command with dice from ``dice``."""
    return parse_command(text).roll(dice)


def bcdice_text(error: DiceError) -> str | None:
    """BCDice's own output for the refusals it prints as a result (its Japanese text, verbatim).

    These strings are part of BCDice's result format, like ``自動的失敗``; every other refusal
    is rendered by the front-ends' message catalogues.
    """
    v = error.values
    if error.key == "dice.infinite_critical":
        return f"C値を{v['min_critical']}以上にしてください"
    if error.key == "dice.keynumber_exceeds":
        return f"キーナンバーは{v['key_max']}までです"
    if error.key == "dice.transcendent_critical_too_small":
        return f"({v['expression']}) ＞ クリティカル値が小さすぎます。{v['minimum']}以上を指定してください。"
    if error.key == "dice.reroll_condition":
        return (
            f"{v['command']} ＞ 条件が間違っています。"
            "2R6>=5 あるいは 2R6[5] のように振り足し目標値を指定してください。"
        )
    if error.key == "dice.upper_threshold":
        return f"({v['expression']}) ＞ 無限ロールの条件がまちがっています"
    return common_bcdice_text(error)
