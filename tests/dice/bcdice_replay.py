"""What the BCDice differential tests share (test_bcdice_random, test_bcdice_common, test_bcdice_pools):
a fixture BCDice rolled (tests/data/<name>.json, made by the tools/ scripts) and the dice it took,
replayed die for die."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: the result flags compared with BCDice's, byte for byte
FLAGS = ("critical", "fumble", "success", "failure", "secret")


def load(name: str) -> dict[str, Any]:
    """The fixture ``tests/data/<name>.json``: BCDice's version, game system and ``cases``."""
    data: dict[str, Any] = json.loads(
        (Path(__file__).parent.parent / "data" / f"{name}.json").read_text("utf-8")
    )
    return data


class BCDiceDice:
    """The dice BCDice took, in order; a die of other sides than BCDice's, or one too many, fails."""

    def __init__(self, rands: list[list[int]]) -> None:
        self.rands = rands
        self.position = 0

    def roll(self, sides: int) -> int:
        assert self.position < len(self.rands), "Toride took more dice than BCDice"
        value, bcdice_sides = self.rands[self.position]
        assert sides == bcdice_sides, f"die {self.position + 1}: d{sides}, BCDice rolled a d{bcdice_sides}"
        self.position += 1
        return value
