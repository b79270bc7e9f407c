"""Toride's own dice tests: sums, aliases, full-width input, comments, errors and limits."""

from __future__ import annotations

import pytest

from engine.dice import DiceError, RollKind, ScriptedDice, SeededDice, parse_command, roll


def rolled(command: str, *dice: int) -> tuple[str, int | None]:
    source = ScriptedDice(dice)
    result = roll(command, source)
    assert source.remaining == 0
    return result.text, result.total


class TestSums:
    def test_implicit_d6_is_echoed_as_2d6(self) -> None:
        assert rolled("2d+10", 3, 4) == ("(2D6+10) ＞ 7[3,4]+10 ＞ 17", 17)

    def test_plain_sum(self) -> None:
        assert rolled("2D6+10", 6, 5) == ("(2D6+10) ＞ 11[6,5]+10 ＞ 21", 21)
        assert rolled("2D6", 3, 4) == ("(2D6) ＞ 7[3,4] ＞ 7", 7)

    def test_one_die_alone_has_no_interim(self) -> None:
        assert rolled("1D6", 5) == ("(1D6) ＞ 5", 5)
        assert rolled("1D6+1", 5) == ("(1D6+1) ＞ 5[5]+1 ＞ 6", 6)

    def test_several_dice_terms_and_arithmetic(self) -> None:
        assert rolled("2D6+1D6-2", 1, 2, 6) == ("(2D6+1D6-2) ＞ 3[1,2]+6[6]-2 ＞ 7", 7)
        assert rolled("(2D6+1)*2", 2, 2) == ("((2D6+1)*2) ＞ (4[2,2]+1)*2 ＞ 10", 10)

    def test_division_rounds_down_unless_told(self) -> None:
        assert rolled("3D6/2", 1, 2, 4) == ("(3D6/2) ＞ 7[1,2,4]/2 ＞ 3", 3)
        assert rolled("3D6/2U", 1, 2, 4) == ("(3D6/2U) ＞ 7[1,2,4]/2U ＞ 4", 4)
        assert rolled("3D6/2R", 1, 2, 4) == ("(3D6/2R) ＞ 7[1,2,4]/2R ＞ 4", 4)

    def test_keep_highest(self) -> None:
        assert rolled("4D6KH3", 4, 1, 3, 2) == ("(4D6KH3) ＞ 9[1,2,3,4] ＞ 9", 9)

    def test_other_sides(self) -> None:
        assert rolled("1D100", 42) == ("(1D100) ＞ 42", 42)


class TestComparisons:
    def test_success_and_failure(self) -> None:
        r = roll("2D6+10>=17", ScriptedDice([3, 4]))
        assert (r.text, r.success, r.failure) == ("(2D6+10>=17) ＞ 7[3,4]+10 ＞ 17 ＞ 成功", True, False)
        r = roll("2D6+10>=18", ScriptedDice([3, 4]))
        assert (r.text, r.success, r.failure) == ("(2D6+10>=18) ＞ 7[3,4]+10 ＞ 17 ＞ 失敗", False, True)

    def test_six_six_is_automatic_success_whatever_the_total(self) -> None:
        r = roll("2D6>=30", ScriptedDice([6, 6]))
        assert r.text == "(2D6>=30) ＞ 12[6,6] ＞ 12 ＞ 自動的成功"
        assert (r.critical, r.success, r.fumble, r.failure) == (True, True, False, False)

    def test_one_one_is_automatic_failure_whatever_the_total(self) -> None:
        r = roll("2D6+20>=10", ScriptedDice([1, 1]))
        assert r.text == "(2D6+20>=10) ＞ 2[1,1]+20 ＞ 22 ＞ 自動的失敗"
        assert (r.critical, r.success, r.fumble, r.failure) == (False, False, True, True)

    def test_automatic_results_need_exactly_two_d6(self) -> None:
        r = roll("2D6+1D6>=10", ScriptedDice([1, 1, 6]))
        assert r.text == "(2D6+1D6>=10) ＞ 2[1,1]+6[6] ＞ 8 ＞ 失敗"
        assert (r.fumble, r.failure) == (False, True)

    @pytest.mark.parametrize(
        ("command", "verdict"),
        [
            ("2D6>7", "失敗"),
            ("2D6>6", "成功"),
            ("2D6<=7", "成功"),
            ("2D6<7", "失敗"),
            ("2D6=7", "成功"),
            ("2D6<>7", "失敗"),
            ("2D6=>7", "成功"),
            ("2D6!=7", "失敗"),
        ],
    )
    def test_every_operator(self, command: str, verdict: str) -> None:
        r = roll(command, ScriptedDice([3, 4]))
        echoed = command.replace("=>", ">=").replace("!=", "<>")
        assert r.text == f"({echoed}) ＞ 7[3,4] ＞ 7 ＞ {verdict}"

    def test_target_may_be_arithmetic(self) -> None:
        assert rolled("2D6>=5+3", 3, 4)[0] == "(2D6>=8) ＞ 7[3,4] ＞ 7 ＞ 失敗"


class TestAliasesAndInput:
    @pytest.mark.parametrize("command", ["R40+12/©10", "R40+12©10", "R40+12@10", "K40+12@10", "k40+12[10]"])
    def test_fort_notation_means_a_rating_roll(self, command: str) -> None:
        r = roll(command, ScriptedDice([3, 4]))
        assert r.kind is RollKind.RATING
        assert r.text == "KeyNo.40c[10]+12 ＞ 2D:[3,4]=7 ＞ 9+12 ＞ 21"
        assert r.total == 21

    def test_full_width_input_is_normalised(self) -> None:
        assert roll("Ｋ２０＋５", ScriptedDice([5, 2])).text == "KeyNo.20c[10]+5 ＞ 2D:[5,2]=7 ＞ 5+5 ＞ 10"
        assert rolled("２Ｄ６＋１", 1, 2) == ("(2D6+1) ＞ 3[1,2]+1 ＞ 4", 4)
        assert roll("Ｒ４０＋１２／©１０", ScriptedDice([3, 4])).total == 21

    def test_comment_after_a_space_is_kept_apart(self) -> None:
        r = roll("K20+5 首切り 二回目", ScriptedDice([5, 2]))
        assert (r.text, r.comment) == ("KeyNo.20c[10]+5 ＞ 2D:[5,2]=7 ＞ 5+5 ＞ 10", "首切り 二回目")
        r = roll("2D6　全角スペースのコメント", ScriptedDice([1, 1]))
        assert r.comment == "全角スペースのコメント"

    def test_secret_prefix(self) -> None:
        assert roll("S2D6", ScriptedDice([3, 4])).secret is True
        assert roll("SK20", ScriptedDice([3, 4])).secret is True
        assert roll("S2D6@10", ScriptedDice([3, 4])).secret is True
        assert roll("2D6", ScriptedDice([3, 4])).secret is False


class TestRatingRolls:
    def test_f_dice_1_first_roll_one_one_deals_nothing_bonus_included(self) -> None:
        """F-DICE-1: a rating roll whose first roll is 1ゾロ deals no damage at all."""
        r = roll("K40+12@10", ScriptedDice([1, 1]))
        assert r.text == "KeyNo.40c[10]+12 ＞ 2D:[1,1]=2 ＞ ** ＞ 自動的失敗"
        assert (r.total, r.fumble, r.damage) == (None, True, 0)

    def test_f_dice_1_later_one_one_adds_nothing_and_stops(self) -> None:
        r = roll("K40+12@10", ScriptedDice([5, 5, 1, 1]))
        assert r.text == "KeyNo.40c[10]+12 ＞ 2D:[5,5 1,1]=10,2 ＞ 11,**+12 ＞ 1回転 ＞ 23"
        assert (r.total, r.critical, r.fumble, r.damage) == (23, True, False, 23)

    def test_f_dice_1_plain_sums_have_no_automatic_failure(self) -> None:
        r = roll("2D6+10", ScriptedDice([1, 1]))
        assert (r.total, r.fumble, r.damage) == (12, False, 12)

    def test_ballista_power_90(self) -> None:
        # Key 90 of the table: 7,10,12,15,18,19,21,23,25,26 for totals 3..12.
        assert rolled("K90+20@10", 6, 6, 3, 4) == (
            "KeyNo.90c[10]+20 ＞ 2D:[6,6 3,4]=12,7 ＞ 26,18+20 ＞ 1回転 ＞ 64",
            64,
        )

    def test_bonus_division_rounds_up(self) -> None:
        assert rolled("K20+7/2", 3, 4) == ("KeyNo.20c[10]+4 ＞ 2D:[3,4]=7 ＞ 5+4 ＞ 9", 9)

    def test_rateup_past_100_stays_on_key_100(self) -> None:
        # Key 100 (110, 120 clamp to 100): 8,12,15,18,19,20,22,24,27,30 for totals 3..12.
        assert rolled("K100r10@11", 6, 5, 6, 6, 2, 3) == (
            "KeyNo.100c[11]r[10] ＞ 2D:[6,5 6,6 2,3]=11,12,5 ＞ 27,30,15 ＞ 2回転 ＞ 72",
            72,
        )


class TestErrors:
    @pytest.mark.parametrize(
        ("command", "key", "values"),
        [
            ("K101", "dice.keynumber_exceeds", {"key_max": 100}),
            ("K20@2", "dice.infinite_critical", {"min_critical": 3}),
            ("hello", "dice.unknown_command", {"command": "HELLO"}),
            ("2D6+", "dice.unknown_command", {"command": "2D6+"}),
            ("10", "dice.unknown_command", {"command": "10"}),
            ("10001D6", "dice.too_many_dice", {"limit": 10000}),
            ("5000D6+5001D6", "dice.too_many_dice", {"limit": 10000}),
            ("2D0", "dice.bad_sides", {"sides": 0}),
            ("K20+5/0", "dice.division_by_zero", {}),
            ("", "dice.empty_command", {}),
            ("FT", "dice.table_not_included", {"table": "FT"}),
        ],
    )
    def test_refusals_are_typed(self, command: str, key: str, values: dict[str, object]) -> None:
        with pytest.raises(DiceError) as info:
            roll(command, ScriptedDice([]))
        assert info.value.key == key
        assert info.value.values == values

    def test_expression_over_200_characters(self) -> None:
        command = "2D6" + "+1" * 99  # 201 characters
        assert len(command) == 201
        with pytest.raises(DiceError) as info:
            parse_command(command)
        assert (info.value.key, info.value.values) == ("dice.too_long", {"limit": 200, "length": 201})
        assert parse_command(command[:-2]).kind is RollKind.SUM  # 199 characters is fine

    def test_ten_thousand_dice_are_allowed(self) -> None:
        r = roll("10000D6", ScriptedDice([1] * 10000))
        assert r.total == 10000
        assert len(r.rands) == 10000


class TestSources:
    def test_scripted_dice_say_when_they_run_out(self) -> None:
        with pytest.raises(DiceError) as info:
            roll("K20", ScriptedDice([3]))
        assert (info.value.key, info.value.values) == ("dice.script_short", {"left": 1})

    def test_scripted_dice_count_what_was_left_when_the_command_began(self) -> None:
        """Dice left when the command began (``begin``), not those it took before running out; none
        left, and an empty script, say so; ``rewind`` gives a refused command's dice back."""
        dice = ScriptedDice([3, 4, 5])
        roll("2D6", dice)
        mark = dice.begin()
        with pytest.raises(DiceError) as info:
            roll("2D6", dice)
        assert (info.value.key, info.value.values) == ("dice.script_short", {"left": 1})
        dice.rewind(mark)
        assert (dice.remaining, dice.total) == (1, 3)
        roll("1D6", dice)
        dice.begin()
        with pytest.raises(DiceError) as info:
            roll("1D6", dice)
        assert (info.value.key, info.value.values) == ("dice.script_exhausted", {"total": 3})
        with pytest.raises(DiceError) as info:
            roll("1D6", ScriptedDice([]))
        assert (info.value.key, info.value.values) == ("dice.script_none", {})

    def test_scripted_dice_refuse_a_face_the_die_does_not_have(self) -> None:
        with pytest.raises(DiceError) as info:
            roll("2D6", ScriptedDice([3, 7]))
        assert info.value.key == "dice.script_bad_value"
        assert info.value.values == {"value": 7, "sides": 6, "index": 2}

    def test_seeded_dice_repeat_for_one_seed(self) -> None:
        first = [SeededDice(42).roll(6) for _ in range(1)]
        a, b = SeededDice(42), SeededDice(42)
        assert [a.roll(6) for _ in range(50)] == [b.roll(6) for _ in range(50)]
        assert first[0] in range(1, 7)

    def test_result_records_every_die(self) -> None:
        r = roll("K10r10", ScriptedDice([5, 5, 5, 4]))
        assert r.rands == ((6, 5), (6, 5), (6, 5), (6, 4))
        assert r.dice == (5, 5, 5, 4)
