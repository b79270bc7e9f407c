"""The result of one dice command, as data."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class RollKind(StrEnum):
    RATING = "rating"  # K40+12@10 (威力表)
    SUM = "sum"  # 2D6+10, 2D6>=12 (加算ロール)
    TRANSCENDENT = "transcendent"  # 2D6@10+15>=30 (超越判定)
    GROWTH = "growth"  # Gr (成長)
    DRUID = "druid"  # Dru[4,7,13]+10
    REPEAT = "repeat"  # x3 2d6 (繰り返し)
    CHOICE = "choice"  # choice[東,西,南]
    D66 = "d66"  # D66
    CALC = "calc"  # C(10+3*2) (計算)
    BARABARA = "barabara"  # 3B6>=4 (バラバラロール)
    REROLL = "reroll"  # 3R6[5]>=5 (個数振り足し)
    UPPER = "upper"  # 2U6[6]+2 (上方無限)


class RollResult(NamedTuple):
    """One rolled command.

    ``text`` is BCDice's result text, byte for byte. ``total`` is None where BCDice
    prints no total (a rating roll that is an automatic failure, growth rolls).
    ``rands`` lists every die as (sides, value) in the order rolled.

    A named tuple rather than a dataclass: it is immutable and about eight times faster to
    build, which matters to a planner that rolls millions of them.
    """

    kind: RollKind
    command: str
    text: str
    total: int | None
    critical: bool = False
    fumble: bool = False
    success: bool = False
    failure: bool = False
    secret: bool = False
    rands: tuple[tuple[int, int], ...] = ()
    comment: str = ""

    @property
    def dice(self) -> tuple[int, ...]:
        """The face values rolled, in order."""
        return tuple(value for _, value in self.rands)

    @property
    def damage(self) -> int:
        """The number a damage roll deals: the total, or 0 for an automatic failure (F-DICE-1)."""
        if self.fumble and self.kind is RollKind.RATING:
            return 0
        return self.total if self.total is not None else 0
