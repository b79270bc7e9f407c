"""2,000 random SwordWorld2.5 commands as BCDice 3.16.1 rolled them (the npm package ``bcdice``
4.9.0, run by ``tools/bcdice_differential.py``), replayed die for die through Toride's roller.

The text must be BCDice's byte for byte (``-0.0`` for a halved total of -1 included), with the same
flags, taking the same dice, each of the same sides.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from bcdice_replay import FLAGS, BCDiceDice, load

from engine.dice import DiceError, bcdice_text, roll

DATA = load("bcdice_random")
CASES: list[dict[str, Any]] = DATA["cases"]


def test_the_fixture_is_bcdices_own() -> None:
    assert DATA["bcdice"] == "3.16.1" and DATA["game_system"] == "SwordWorld2.5"
    assert len(CASES) == 2000
    kinds = Counter(
        "-0.0" if c["text"].endswith("＞ -0.0") else c["command"].lstrip("SHO")[:1] for c in CASES
    )
    # the random commands reach the cases the vectors leave out
    assert kinds["-0.0"] >= 10
    assert kinds["K"] >= 1000


def test_negative_zero_is_printed_as_bcdice_prints_it() -> None:
    case = next(c for c in CASES if c["text"].endswith("＞ -0.0"))
    result = roll(case["command"], BCDiceDice(case["rands"]))
    assert result.text == case["text"]
    assert result.total == 0


@pytest.mark.parametrize("index", range(len(CASES)), ids=lambda i: f"{i}:{CASES[i]['command']}")
def test_bcdice_random(index: int) -> None:
    case = CASES[index]
    dice = BCDiceDice(case["rands"])
    try:
        result = roll(case["command"], dice)
    except DiceError as error:
        assert bcdice_text(error) == case["text"]
        return
    assert result.text == case["text"]
    assert {flag: getattr(result, flag) for flag in FLAGS} == {flag: case[flag] for flag in FLAGS}
    assert dice.position == len(case["rands"]), "every die BCDice took, no more"
