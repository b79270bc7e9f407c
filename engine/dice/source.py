"""Dice sources: where every die the engine rolls comes from.

No module of the engine touches global randomness; a source is always passed in.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from engine.errors import EngineError


class DiceError(EngineError):
    """A dice command or a dice source could not be used (bad input, script exhausted ...).

    ``secret``: the refused command was a secret one (``S`` before it, as ``SK20``), so its refusal
    is for the roller's eyes only, and BCDice's own error text for it (``C値を6以上にしてください``) is
    a secret result (``engine.dice.command`` sets it).
    """

    secret: bool = False


class DiceSource(Protocol):
    """Anything that rolls one die with ``sides`` faces and returns 1..sides."""

    def roll(self, sides: int) -> int: ...


class SeededDice:
    """Pseudo-random dice from a seed (reproducible for one seed)."""

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def roll(self, sides: int) -> int:
        # int(random() * n) + 1 is uniform enough for dice and far faster than randint.
        return int(self._random.random() * sides) + 1


class ScriptedDice:
    """Dice that take their values from a list, in order.

    A command that needs more than are left is refused, saying so: ``dice.script_short`` (some were
    left, this command needs more), ``dice.script_exhausted`` (none were left), ``dice.script_none``
    (the list was empty); ``begin`` marks where a command starts, so that its refusal counts from
    there, and ``rewind`` gives a refused command's dice back. A value that does not fit the die (a 7
    on a d6) is refused (``dice.script_bad_value``).
    """

    __slots__ = ("_values", "position", "start")

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self.position = 0
        #: where the command now rolling started (``begin``)
        self.start = 0

    @property
    def total(self) -> int:
        return len(self._values)

    @property
    def remaining(self) -> int:
        return len(self._values) - self.position

    def begin(self) -> int:
        """A command starts here: its refusal counts the dice left from here. Answers the mark that
        ``rewind`` takes."""
        self.start = self.position
        return self.position

    def rewind(self, mark: int) -> None:
        """Give back every die taken since ``mark`` (a refused or retried command)."""
        self.position = mark

    def roll(self, sides: int) -> int:
        if self.position >= len(self._values):
            raise self._short()
        value = self._values[self.position]
        if not 1 <= value <= sides:
            raise DiceError("dice.script_bad_value", value=value, sides=sides, index=self.position + 1)
        self.position += 1
        return value

    def _short(self) -> DiceError:
        total, left = len(self._values), len(self._values) - self.start
        if not total:
            return DiceError("dice.script_none")
        if not left:
            return DiceError("dice.script_exhausted", total=total)
        return DiceError("dice.script_short", left=left)


class RecordingDice:
    """Wraps a source and records every die rolled through it as (sides, value)."""

    __slots__ = ("rolls", "source")

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.rolls: list[tuple[int, int]] = []

    def roll(self, sides: int) -> int:
        value = self.source.roll(sides)
        self.rolls.append((sides, value))
        return value
