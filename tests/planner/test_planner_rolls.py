"""The planner's compiled damage rolls against the engine's: the same dice give the same damage."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from engine.dice import ScriptedDice, parse_command
from engine.dice.table import RATING
from engine.fort.planner.rolls import (
    PlannerDice,
    RecordingPlannerDice,
    compile_damage,
    fast_roller,
    mean_damage,
)
from engine.fort.rules_equipment import SHELL_DAMAGE
from engine.fort.rules_move import MINE_DAMAGE


class Script(ScriptedDice):
    def d6(self) -> int:
        return self.roll(6)


COMPILED = (
    "2D6+10",
    "2d+6",
    "1d",
    "3d-2",
    "2d-1d+3",
    "-(1d)+10",
    "1d10+2",
    "K40+12@10",
    "K20+5",
    "K10-8",
    "K0@3",
    "k30+3@8",
)
ENGINE_ROLLED = ("2d6*2", "(2d+1)/2", "4d6kh3", "K10+3$+1", "HK20", "K20r5@10", "K20gf", "K20#1")


@pytest.mark.parametrize("text", COMPILED + ENGINE_ROLLED)
def test_a_compiled_roll_deals_what_the_engine_deals_with_the_same_dice(text: str) -> None:
    """F-DICE-1 included: K10-8 from a 1ゾロ deals 0, not -8; from a 3 it deals 1-8 = -7 (a hit of
    -7 deals nothing, F-UNIT-6, but the roll is the engine's)."""
    parsed = parse_command(text)
    assert (fast_roller(parsed, PlannerDice(0)) is not None) is (text in COMPILED)
    for seed in range(400):
        dice = RecordingPlannerDice(PlannerDice(seed))
        damage = compile_damage(parsed, dice)()
        script = ScriptedDice(dice.values)
        assert parsed.roll(script).damage == damage, (text, dice.values)
        assert script.remaining == 0


def test_the_fort_s_own_rolls_are_compiled() -> None:
    assert fast_roller(MINE_DAMAGE, PlannerDice(0)) is not None
    assert fast_roller(SHELL_DAMAGE, PlannerDice(0)) is not None


def test_criticals_and_late_fumbles_of_a_rating_roll() -> None:
    """A critical rolls again and adds; a 1ゾロ after a critical adds nothing and keeps the bonus."""
    parsed = parse_command("K20+5@10")
    roll = compile_damage(parsed, Script([6, 4, 5, 6, 1, 1]))
    assert roll() == RATING[20][10] + RATING[20][11] + 5
    assert compile_damage(parsed, Script([1, 1]))() == 0
    assert compile_damage(parsed, Script([1, 2]))() == RATING[20][3] + 5


def test_the_planner_dice_are_fair_and_seeded() -> None:
    dice = PlannerDice(5)
    faces = [dice.d6() for _ in range(60_000)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(abs(faces.count(f) - 10_000) < 400 for f in range(1, 7))  # 4σ of a binomial count
    again = PlannerDice(5)
    assert [again.d6() for _ in range(60_000)] == faces
    assert {PlannerDice(5).roll(10) for _ in range(500)} <= set(range(1, 11))


def _rating_mean(rate: int, critical: int, bonus: int, depth: int = 40) -> Fraction:
    """The 36 rolls of two dice at each of ``depth`` criticals, from the last one back (the rest of the
    chain is below 1e-6)."""
    row = RATING[rate]
    later = Fraction(0)
    for _ in range(depth):
        later = sum(
            (Fraction(1, 36) * (row[a + b] + (later if a + b >= critical else 0))
             for a, b in product(range(1, 7), repeat=2) if a + b > 2),
            Fraction(0),
        )  # fmt: skip
    return later + Fraction(35, 36) * bonus


def test_mean_damage() -> None:
    assert mean_damage(parse_command("2d+10")) == 17
    assert mean_damage(parse_command("1d10-1d+2")) == Fraction(11, 2) - Fraction(7, 2) + 2
    assert mean_damage(12) == 12
    assert mean_damage(parse_command("2d6*2")) is None
    for text, rate, critical, bonus in (
        ("K40+12@10", 40, 10, 12),
        ("K20", 20, 10, 0),
        ("K30-3@8", 30, 8, -3),
    ):
        found = mean_damage(parse_command(text))
        assert found is not None
        assert abs(found - _rating_mean(rate, critical, bonus)) < Fraction(1, 10**5), text
