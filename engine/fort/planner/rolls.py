"""The planner's dice: a fast seeded d6 stream, and damage expressions compiled to plain functions.

The engine rolls an expression through ``ParsedCommand.roll``, which writes BCDice's result text
as it goes; the planner rolls the same expressions thousands of times and needs only the damage.
``compile_damage`` turns the two shapes every battle uses into a function of the stream's d6:
a plain sum of dice and numbers (``2D6+10``, ``2d+6-1d``) and a rating roll with nothing but a
bonus and a critical value (``K40+12@10``). Those functions roll the same dice in the same order
and deal the same damage as the engine's roll (F-DICE-1: a rating roll whose first roll is 1ゾロ
deals 0); ``tests/planner/test_rolls.py`` checks it die for die. Any other expression is rolled by
the engine itself, as slow as that is.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Protocol

from engine.dice.command import ParsedCommand
from engine.dice.rating import RatingCommand
from engine.dice.sums import BinaryOp, DiceRoll, Negate, Number, Parenthesis, SumCommand
from engine.dice.table import RATING

Roller = Callable[[], int]
#: a plain sum: the constant, then each run of dice as (sign, times, sides), in the order rolled
Linear = tuple[int, tuple[tuple[int, int, int], ...]]

#: random bytes → faces: 0..251 give 1..6 evenly (252 = 6 × 42), 252..255 are dropped
_FACES = bytes((b % 6) + 1 if b < 252 else 0 for b in range(256))
_DROPPED = bytes(range(252, 256))
_BATCH = 1 << 14


class PlannerDice:
    """Seeded dice for the planner (a ``DiceSource`` too): ``d6()`` takes the next face of random
    bytes turned into faces in batches (a C-speed step per batch), other dice come from the same
    generator. The same seed gives the same dice."""

    __slots__ = ("_random", "d6")

    def __init__(self, seed: int) -> None:
        generator = random.Random(seed)
        self._random = generator.random
        self.d6: Callable[[], int] = itertools.chain.from_iterable(_faces(generator)).__next__

    def roll(self, sides: int) -> int:
        if sides == 6:
            return self.d6()
        return int(self._random() * sides) + 1


def _faces(generator: random.Random) -> Iterator[bytes]:
    while True:
        yield generator.randbytes(_BATCH).translate(_FACES, _DROPPED)


class RecordingPlannerDice:
    """Planner dice that keep every value rolled, in order (the dice a run used, to replay it)."""

    __slots__ = ("_inner", "values")

    def __init__(self, inner: PlannerDice) -> None:
        self._inner = inner
        self.values: list[int] = []

    def d6(self) -> int:
        value = self._inner.d6()
        self.values.append(value)
        return value

    def roll(self, sides: int) -> int:
        value = self._inner.roll(sides)
        self.values.append(value)
        return value


class Dice(Protocol):
    """What the compiled rolls roll: d6s (the hot path), and dice of other sizes."""

    def d6(self) -> int: ...

    def roll(self, sides: int) -> int: ...


def linear(command: SumCommand) -> Linear | None:
    """A sum with no comparison, no filter, no ``*`` or ``/`` as (constant, runs of dice); else None."""
    if command.cmp_op is not None:
        return None
    runs: list[tuple[int, int, int]] = []
    constant = 0

    def walk(node: object, sign: int) -> bool:
        nonlocal constant
        if isinstance(node, Number):
            constant += sign * node.value
            return True
        if isinstance(node, DiceRoll):
            if node.filter:
                return False
            runs.append((sign, node.times, node.sides))
            return True
        if isinstance(node, Parenthesis):
            return walk(node.body, sign)
        if isinstance(node, Negate):
            return walk(node.body, -sign)
        if isinstance(node, BinaryOp) and node.op in "+-":
            return walk(node.lhs, sign) and walk(node.rhs, sign if node.op == "+" else -sign)
        return False

    return (constant, tuple(runs)) if walk(command.lhs, 1) else None


def plain_rating(command: RatingCommand) -> bool:
    """A rating roll with only its key number, bonus and critical value (the fort's and most PCs')."""
    return not (
        command.kept_modify
        or command.first_to
        or command.first_modify
        or command.first_modify_ssp
        or command.rateup
        or command.greatest_fortune
        or command.semi_fixed_val
        or command.tmp_fixed_val
        or command.half is not None
        or command.one_and_a_half is not None
    )


def compile_damage(parsed: ParsedCommand | int, dice: Dice) -> Roller:
    """The damage ``parsed`` deals, as a function rolling ``dice`` exactly as the engine would: a
    compiled one where there is one (``fast_roller``), else the engine's own roll."""
    if isinstance(parsed, int):
        return lambda: parsed
    fast = fast_roller(parsed, dice)
    if fast is not None:
        return fast
    return lambda: parsed.roll(dice).damage


def fast_roller(parsed: ParsedCommand, dice: Dice) -> Roller | None:
    """The compiled roll of a plain sum or a plain rating roll; None for any other expression."""
    body = parsed.body
    if isinstance(body, RatingCommand) and plain_rating(body):
        return _rating(RATING[body.rate], body.critical, body.modifier, dice.d6)
    if isinstance(body, SumCommand):
        shape = linear(body)
        if shape is not None:
            return _sum(shape, dice)
    return None


def _rating(row: tuple[int, ...], critical: int, bonus: int, d6: Callable[[], int]) -> Roller:
    def roll() -> int:
        total = d6() + d6()
        if total <= 2:  # 1ゾロ first: automatic failure, no damage at all (F-DICE-1)
            return 0
        damage = row[total]
        while total >= critical:  # a critical: roll again and add (a later 1ゾロ adds nothing)
            total = d6() + d6()
            if total <= 2:
                break
            damage += row[total]
        return damage + bonus

    return roll


def _sum(shape: Linear, dice: Dice) -> Roller:
    constant, runs = shape
    d6 = dice.d6
    if len(runs) == 1 and runs[0][0] == 1 and runs[0][2] == 6:
        times = runs[0][1]
        if times == 1:
            return lambda: d6() + constant
        if times == 2:
            return lambda: d6() + d6() + constant
        if times == 3:
            return lambda: d6() + d6() + d6() + constant
    roll = dice.roll

    def general() -> int:
        total = constant
        for sign, times, sides in runs:
            for _ in range(times):
                total += sign * roll(sides)
        return total

    return general


def mean_damage(parsed: ParsedCommand | int) -> Fraction | None:
    """The average damage of an expression the planner compiles (None for the others): a sum's
    dice average (sides + 1) / 2 each; a rating roll averages its table row over 2D6, a critical
    adding another roll's worth (a geometric chain), the bonus counting unless the first roll is
    1ゾロ (1/36)."""
    if isinstance(parsed, int):
        return Fraction(parsed)
    body = parsed.body
    if isinstance(body, SumCommand):
        shape = linear(body)
        if shape is None:
            return None
        constant, runs = shape
        dice = sum((Fraction(sign * times * (sides + 1), 2) for sign, times, sides in runs), Fraction())
        return constant + dice
    if isinstance(body, RatingCommand) and plain_rating(body):
        row = RATING[body.rate]
        chances = {total: Fraction(6 - abs(total - 7), 36) for total in range(2, 13)}
        one_roll = sum((p * row[total] for total, p in chances.items() if total > 2), Fraction())
        again = sum((p for total, p in chances.items() if total >= body.critical), Fraction())
        return one_roll / (1 - again) + Fraction(35, 36) * body.modifier
    return None
