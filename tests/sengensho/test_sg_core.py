"""S-CORE-1..4, S-START-1, S-GM-1: the dice pool, turns, the order, checks."""

from __future__ import annotations

from sg_helpers import Run, battle, enemy, pc

from engine.sengensho.commands import Declare, End, GMSet, Join, NextTurn, Roll, SetState, Start
from engine.sengensho.core import dp_max_from, recovery_from, reinforcement_dp

# --- S-CORE-1 ----------------------------------------------------------------------------------


def test_s_core_1_dp_max_and_recovery_from_attributes() -> None:
    run = battle(Join("霊夢", body=3, endurance=2, intellect=4, sense=5, will=3, hp=20, invoker="u1"))
    reimu = run.c("霊夢")
    assert (reimu.dp_max, reimu.recovery, reimu.dp) == (18, 3, 18)  # 10+3+2+3, ⌈(4+5)/3⌉
    assert reimu.attributes == (3, 2, 4, 5, 3)
    assert reimu.owner == "u1"
    assert run.event("sg.joined")["attributes"] == {
        "body": 3,
        "endurance": 2,
        "intellect": 4,
        "sense": 5,
        "will": 3,
    }


def test_s_core_1_recovery_rounds_up_and_is_at_least_2() -> None:
    assert recovery_from((0, 0, 4, 6, 0)) == 4  # ⌈10/3⌉
    assert recovery_from((0, 0, 1, 2, 0)) == 2  # ⌈3/3⌉ = 1, raised to 2
    assert recovery_from((0, 0, 0, 0, 0)) == 2
    assert dp_max_from((4, 3, 9, 9, 5)) == 22


def test_s_core_1_values_given_directly_win_over_attributes() -> None:
    run = battle(
        Join("鬼", body=3, endurance=2, intellect=4, sense=5, will=3, dp_max=25, recovery=5, side="enemy")
    )
    oni = run.c("鬼")
    assert (oni.dp_max, oni.recovery, oni.dp, oni.side.value, oni.hp) == (25, 5, 25, "enemy", None)


def test_s_core_1_refusals() -> None:
    run = battle(pc("reimu"))
    assert run.refused(Join("x", body=1, endurance=1), "sg.attributes_incomplete").values["missing"] == (
        ("intellect", "sense", "will")
    )
    run.refused(Join("x"), "sg.dp_max_required")
    run.refused(Join("x", dp_max=10), "sg.recovery_required")
    run.refused(Join("ＲＥＩＭＵ", dp_max=10, recovery=2), "sg.name_taken")
    run.refused(Join("  ", dp_max=10, recovery=2), "limits.name")
    run.refused(Join("x", dp_max=-1, recovery=2), "sg.value_invalid")
    run.refused(Join("x", dp_max=10, recovery=2, side="boss"), "sg.side_invalid")
    run.refused(Join("x", dp_max=10, recovery=2, hp=0), "sg.value_invalid")


# --- S-CORE-2 ----------------------------------------------------------------------------------


def test_s_core_2_recovery_at_turn_start_up_to_the_maximum() -> None:
    run = battle(pc("A", dp=20, recovery=4), pc("B", dp=20, recovery=4))
    run(NextTurn())
    run(Roll("A", 0, 10), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    run(Roll("B", 0, 2), 1, 1)
    run(NextTurn())
    assert (run.c("A").dp, run.c("B").dp) == (14, 20)  # 10 + 4; 18 + 4 capped at 20
    assert run.event("sg.turn_started")["recovered"] == [
        {"name": "A", "before": 10, "after": 14, "reason": "recovery"},
        {"name": "B", "before": 18, "after": 20, "reason": "recovery"},
    ]


def test_s_core_2_unable_recovers_nothing() -> None:
    run = battle(pc("A", dp=20, recovery=4))
    run(NextTurn())
    run(Roll("A", 0, 3), 2, 2, 2)
    run(SetState("A", unable=True))
    run(NextTurn())
    assert run.c("A").dp == 17
    assert run.event("sg.turn_started")["recovered"][0]["reason"] == "unable"
    run(SetState("A", unable=False))
    run(NextTurn())
    assert run.c("A").dp == 20  # 17 + 4 capped
    run.refused(SetState("A"), "sg.nothing_to_change")


def test_s_core_2_a_battle_starts_with_every_dp_at_maximum() -> None:
    run = battle(pc("A", dp=20, recovery=4))
    run(Roll("A", 3, 5), 6, 6, 6, 6, 6)  # before the turns: allowed, paid
    assert run.c("A").dp == 15
    run(NextTurn())
    assert run.c("A").dp == 20
    assert run.event("sg.turn_started")["recovered"][0] == {
        "name": "A",
        "before": 15,
        "after": 20,
        "reason": "start",
    }


# --- S-CORE-3 ----------------------------------------------------------------------------------


def test_s_core_3_order_highest_first_ties_together_in_join_order() -> None:
    run = battle(pc("A", dp=20), pc("B", dp=15), enemy("C", dp=20))
    run(NextTurn())
    assert run.event("sg.turn_started")["order"] == [
        {"dp": 20, "names": ["A", "C"]},
        {"dp": 15, "names": ["B"]},
    ]
    run(Declare("C", 15))
    assert run.event("sg.declared")["order"] == [{"dp": 20, "names": ["A"]}, {"dp": 15, "names": ["B", "C"]}]
    run(Declare("A", 9))
    assert run.event("sg.declared")["order"] == [{"dp": 15, "names": ["B", "C"]}, {"dp": 9, "names": ["A"]}]


def test_s_core_3_declare_only_less_than_held_and_only_in_a_turn() -> None:
    run = battle(pc("A", dp=20))
    run.refused(Declare("A", 10), "sg.no_turn")
    run(NextTurn())
    error = run.refused(Declare("A", 21), "sg.declare_too_high")
    assert error.values == {"name": "A", "dp": 21, "have": 20}
    run.refused(Declare("A", -1), "sg.value_invalid")
    run.refused(Declare("Z", 1), "sg.unknown_character")


# --- S-CORE-4 ----------------------------------------------------------------------------------


def test_s_core_4_pays_n_dp_for_n_dice_and_checks_the_target() -> None:
    run = battle(pc("A", dp=20))
    run(NextTurn())
    run(Roll("A", 7, 3, target=22, label="射撃"), 4, 5, 6)
    rolled = run.event("sg.rolled")
    assert (rolled["total"], rolled["paid"], rolled["dp_before"], rolled["dp"], rolled["success"]) == (
        22,
        3,
        20,
        17,
        True,
    )
    assert rolled["values"] == [4, 5, 6]
    assert run.c("A").dp == 17
    run(Roll("A", 7, 3, target=23), 4, 5, 6)
    assert run.event("sg.rolled")["success"] is False
    assert run.c("A").dp == 14


def test_s_core_4_damage_dice_cost_no_dp() -> None:
    run = battle(pc("A", dp=20))
    run(Roll("A", 2, 4, kind="damage"), 3, 3, 3, 3)
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["paid"], run.c("A").dp) == (14, 0, 20)


def test_s_core_4_resistance_at_most_3d_and_the_cap_option() -> None:
    run = battle(pc("A", dp=20))
    error = run.refused(Roll("A", 5, 4, kind="resist"), "sg.dice_over_cap")
    assert error.values == {"name": "A", "dice": 4, "cap": 3, "rule": "S-CORE-4"}
    run(Roll("A", 5, 3, kind="resist"), 1, 2, 3)
    assert run.event("sg.rolled")["total"] == 11
    assert run.refused(Roll("A", 5, 3, cap=2), "sg.dice_over_cap").values["rule"] == "cap"


def test_s_core_4_not_enough_dp() -> None:
    run = battle(pc("A", dp=2))
    assert run.refused(Roll("A", 5, 3), "sg.dp_short").values == {"name": "A", "dice": 3, "dp": 2}
    run.refused(Roll("A", 5, 1, kind="punch"), "sg.kind_invalid")


def test_s_core_4_contest_higher_total_wins_a_tie_goes_to_the_defender() -> None:
    run = battle(pc("A", dp=20), enemy("B", dp=20))
    run.refused(Roll("B", 6, 2, kind="evasion", against="A"), "sg.no_roll_to_contest")
    run(Roll("A", 6, 2, kind="attack"), 3, 3)  # 12
    run(Roll("B", 8, 1, kind="evasion", against="A"), 4)  # 12: a tie, the evader defends
    rolled = run.event("sg.rolled")
    assert (rolled["total"], rolled["against_total"], rolled["won"]) == (12, 12, True)
    run(Roll("B", 7, 1, kind="evasion", against="A"), 4)  # 11
    assert run.event("sg.rolled")["won"] is False
    run(Roll("B", 10, 1, kind="stealth"), 2)  # 12
    run(Roll("A", 10, 1, kind="perception", against="B"), 2)  # 12: a tie, the stealth defends
    assert run.event("sg.rolled")["won"] is False
    run.refused(Roll("A", 1, 1, against="A"), "sg.against_self")


# --- S-START-1 ---------------------------------------------------------------------------------


def test_s_start_1_ambush_dp_spent_stays_spent_and_turn_1_gives_no_recovery() -> None:
    run = battle(pc("A", dp=20, recovery=4), enemy("B", dp=12, recovery=3), opening="ambush")
    assert run.s.opening.value == "ambush" and run.s.turn == 0
    run(Roll("B", 4, 5, kind="ability"), 1, 2, 3, 4, 5)  # found out while acting hidden
    run(NextTurn())
    assert (run.c("A").dp, run.c("B").dp) == (20, 7)
    assert run.event("sg.turn_started")["recovered"][1] == {
        "name": "B",
        "before": 7,
        "after": 7,
        "reason": "ambush",
    }
    run(NextTurn())
    assert run.c("B").dp == 10


def test_s_start_1_keep_dp_spent_stays_spent_and_turn_1_recovers_as_usual() -> None:
    run = battle(pc("A", dp=20, recovery=4), enemy("B", dp=12, recovery=3), opening="keep")
    run(Roll("A", 0, 6), 1, 1, 1, 1, 1, 1)  # 14 left
    run(Roll("B", 4, 5, kind="ability"), 1, 2, 3, 4, 5)  # 7 left
    run(NextTurn())
    assert run.event("sg.turn_started")["recovered"] == [
        {"name": "A", "before": 14, "after": 18, "reason": "recovery"},
        {"name": "B", "before": 7, "after": 10, "reason": "recovery"},
    ]


def test_s_start_1_full_is_the_default_and_the_earlier_ambush_true_still_means_ambush() -> None:
    run = battle(pc("A", dp=20, recovery=4))
    run(Roll("A", 0, 6), 1, 1, 1, 1, 1, 1)
    run(NextTurn())
    assert (run.s.opening.value, run.c("A").dp) == ("full", 20)
    legacy = Run()
    legacy(Start("x", ambush=True))
    assert legacy.s.opening.value == "ambush"
    assert legacy.event("sg.started") == {"title": "x", "opening": "ambush", "gm_fixed": "off"}
    Run().refused(Start("x", ambush=True, opening="keep"), "sg.opening_conflict")
    Run().refused(Start("x", opening="later"), "sg.option_invalid")


def test_s_start_1_the_gm_changes_the_opening_before_the_turns() -> None:
    run = battle(pc("A", dp=20, recovery=4))
    run(Roll("A", 0, 6), 1, 1, 1, 1, 1, 1)
    run(GMSet("opening", "ambush"))
    assert run.event("sg.gm_set") == {"target": "opening", "before": "full", "value": "ambush"}
    run(NextTurn())
    assert run.c("A").dp == 14


def test_s_start_1_one_battle_until_it_ends() -> None:
    run = battle(pc("A"))
    run.refused(Start("again"), "sg.already_running")
    run(End())
    assert run.event("sg.ended")["characters"] == [
        {"name": "A", "side": "pc", "hp": 30, "dp": 20, "down": None}
    ]
    run.refused(NextTurn(), "sg.battle_over")
    run(Start("next"))
    assert run.s.title == "next" and run.s.characters == ()
    assert Run().refused(NextTurn(), "sg.no_battle").values == {}


# --- S-GM-1 --------------------------------------------------------------------------------------


def test_s_gm_1_gm_side_counts_n_times_3_5_rounded_down() -> None:
    run = battle(pc("A", dp=20), enemy("B", dp=20), gm_fixed="checks")
    run(Roll("B", 5, 3))  # no dice: 3 × 3.5 = 10.5 → 10
    rolled = run.event("sg.rolled")
    assert (rolled["total"], rolled["fixed"], rolled["values"], rolled["paid"], run.c("B").dp) == (
        15,
        True,
        [],
        3,
        17,
    )
    run(Roll("B", 0, 1))
    assert run.event("sg.rolled")["total"] == 3
    run(Roll("A", 5, 2), 6, 1)  # the players still roll
    assert run.event("sg.rolled")["total"] == 12


def test_s_gm_1_checks_only_leaves_damage_dice_rolled_all_fixes_them_too() -> None:
    run = battle(pc("A", dp=20), enemy("B", dp=20), gm_fixed="checks")
    run(Roll("B", 3, 2, kind="damage"), 6, 5)  # rolled: 3 + 11
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["fixed"]) == (14, False)
    run(GMSet("gm_fixed", "all"))  # the GM may switch it at any time
    run(Roll("B", 3, 2, kind="damage"))  # 3 + 7
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["fixed"], run.c("B").dp) == (10, True, 20)
    run(GMSet("gm_fixed", "off"))
    run(Roll("B", 3, 1), 2)
    assert run.event("sg.rolled")["total"] == 5
    run(GMSet("gm_fixed", "true"))  # the earlier spelling: checks
    assert run.s.gm_fixed.value == "checks"
    run.refused(GMSet("gm_fixed", "dice"), "sg.option_invalid")


def test_s_rein_1_dp_is_recovery_times_3_capped_at_maximum() -> None:
    assert reinforcement_dp(5, 30) == 15
    assert reinforcement_dp(8, 20) == 20
