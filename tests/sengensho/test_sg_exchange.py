"""The exchange in one step (``/sg attack`` → ``/sg answer``): the same rules as the four-command path,
S-CORE-4 (a contest, a tie to the defender; no DP for damage), S-SUR-1..5 (what the answer may be),
S-GM-1 (the GM side answers by itself, N × 3.5), S-MERCY-1 (the attacker's choice at 0 HP)."""

from __future__ import annotations

from sg_helpers import Run, battle, enemy, pc

from engine.sengensho import SENGENSHO
from engine.sengensho.commands import Answer, Attack, Damage, NextTurn, Profile, Roll, Surprise
from engine.sengensho.exchange import parse_answer, parse_damage
from engine.sengensho.state import Down


def fight(gm_fixed: str = "off", fairy_hp: int = 12) -> Run:
    """霊夢 (感覚4 射撃3: attack base 7, damage 2d+2, PC of user 1) against 妖精 (身体3 回避2: evasion 5)."""
    run = battle(
        pc("霊夢", body=2, endurance=2, intellect=2, sense=4, will=2, skills="射撃3 回避1", owner="1", hp=10),
        enemy("妖精", body=3, endurance=1, intellect=1, sense=2, will=1, skills="回避2 射撃2", hp=fairy_hp),
        gm_fixed=gm_fixed,
    )
    run(Profile("霊夢", attack="感覚+射撃", evasion="身体+回避", damage="2d+2"))
    run(Profile("妖精", attack="感覚+射撃", evasion="身体+回避", damage="1d+1"))
    run(NextTurn())
    return run


def test_parse_damage_reads_a_table_s_spellings() -> None:
    assert parse_damage("2d+2") == (2, 2)
    assert parse_damage("２Ｄ６＋３−１") == (2, 2)
    assert parse_damage("1d") == (1, 0)
    assert parse_damage("5") == (0, 5)
    assert parse_answer("回避2") == ("evasion", 2)
    assert parse_answer("guard:1") == ("guard", 1)
    assert parse_answer("受ける") == ("take", 0)


def test_s_core_4_an_attack_waits_for_its_answer_and_a_failed_evasion_deals_the_damage() -> None:
    run = fight()
    run(Attack(target="妖精", dice=2, invoker="1"), 4, 3)  # 7 + 7 = 14, the attacker found by its owner
    awaited = run.event("sg.answer_awaited")
    assert (awaited["number"], awaited["attacker"], awaited["name"], awaited["total"]) == (
        1,
        "霊夢",
        "妖精",
        14,
    )
    # 妖精 has 18 DP after the turn began; the buttons: evasion 0-3D, take (no guard check stored)
    assert awaited["choices"] == [["evasion", 0], ["evasion", 1], ["evasion", 2], ["evasion", 3], ["take", 0]]
    assert awaited["missing"] == ["guard"]
    assert run.c("霊夢").dp == 18 and run.c("妖精").hp == 12
    run(Answer(exchange=1, defence="evasion", dice=2), 3, 5, 6, 1)  # 5 + 8 = 13 < 14: hit, 6 + 1 + 2
    assert run.kinds() == ["sg.rolled", "sg.rolled", "sg.damaged"]
    evasion, hit = run.event("sg.rolled", 0), run.event("sg.rolled", 1)
    assert (evasion["total"], evasion["won"], evasion["against_total"]) == (13, False, 14)
    assert (hit["kind"], hit["values"], hit["total"], hit["paid"]) == ("damage", [6, 1], 9, 0)  # S-CORE-4
    assert run.c("妖精").hp == 3 and run.c("妖精").dp == 18 and run.s.exchanges == ()


def test_s_core_4_a_tie_goes_to_the_defender() -> None:
    run = fight()
    run(Attack(target="妖精", dice=1, name="霊夢"), 3)  # 10
    run(Answer(name="妖精", defence="evasion", dice=1), 5)  # 5 + 5 = 10: evaded
    assert run.kinds() == ["sg.rolled", "sg.exchange_missed"]
    assert run.c("妖精").hp == 12 and run.s.exchanges == ()


def test_taking_the_attack_rolls_the_damage_at_once() -> None:
    run = fight()
    run(Attack(target="妖精", dice=0, name="霊夢"))
    run(Answer(exchange=1, defence="受ける"), 1, 1)
    assert run.kinds() == ["sg.took", "sg.rolled", "sg.damaged"]
    assert run.c("妖精").hp == 8


def test_s_gm_1_the_gm_side_answers_by_itself_with_n_times_3_5() -> None:
    run = fight(gm_fixed="all")
    run(Attack(target="妖精", dice=2, name="霊夢"), 6, 6, 2, 3)  # 19; the damage 2 + 3 + 2
    assert run.kinds()[:2] == ["sg.rolled", "sg.answered_by_itself"]
    assert run.event("sg.answered_by_itself") == {
        "number": 1,
        "name": "妖精",
        "defence": "evasion",
        "dice": 2,
    }
    evasion = run.event("sg.rolled", 1)
    assert (evasion["fixed"], evasion["total"], evasion["won"]) == (True, 12, False)  # 5 + 2 × 3.5
    assert run.event("sg.rolled", 2)["total"] == 7 and run.c("妖精").hp == 5  # 2d+2 by a PC: rolled
    assert run.s.exchanges == ()


def test_s_gm_1_one_command_for_an_enemy_attack_on_a_pc_then_the_player_answers() -> None:
    run = fight(gm_fixed="all")
    run(Attack(target="霊夢", dice=2, name="妖精", gm=True))  # 4 + 7 = 11, no dice rolled
    assert run.event("sg.answer_awaited")["total"] == 11
    run(Answer(exchange=1, defence="evasion", dice=1), 2)  # 3 + 2 = 5: hit
    assert run.event("sg.rolled", 1)["total"] == 4 and run.c("霊夢").hp == 6  # 1d+1 fixed: 1 + 3


def test_s_gm_1_stored_answer_and_fewer_dice_where_dp_is_short() -> None:
    run = fight(gm_fixed="checks")
    run(Profile("妖精", answer="guard:2", guard="身体"))
    run(Attack(target="妖精", dice=0, name="霊夢"))
    assert run.event("sg.answered_by_itself")["defence"] == "guard"
    assert run.event("sg.rolled", 1)["total"] == 10  # 3 + 2 × 3.5 = 10 ≥ 7: guarded
    assert run.kinds()[-1] == "sg.exchange_missed"


def test_s_gm_1_without_a_stored_check_the_gm_is_asked_never_decided() -> None:
    run = battle(pc("霊夢", hp=10, owner="1"), enemy("毛玉", hp=5), gm_fixed="all")
    run(Profile("霊夢", damage="1d"))
    run(Attack(target="毛玉", dice=0, name="霊夢", base=6))
    assert run.event("sg.answer_awaited")["missing"] == ["evasion", "guard"]
    assert run.event("sg.answer_awaited")["choices"] == [["take", 0]]


def test_s_sur_1_a_surprised_target_may_only_take_it() -> None:
    run = fight()
    run(Surprise("霊夢", "妖精", distance=50))
    run(Attack(target="妖精", dice=1, name="霊夢"), 2)
    assert run.event("sg.answer_awaited")["choices"] == [["take", 0]]
    assert run.event("sg.answer_awaited")["surprise"] == "S-SUR-1"
    error = run.refused(Answer(exchange=1, defence="evasion", dice=1), "sg.evasion_refused", 6)
    assert error.values == {"name": "妖精", "case": "S-SUR-1"}


def test_s_sur_4_evasion_at_minus_5_offered_with_dice_freely() -> None:
    run = fight()
    run(Surprise("霊夢", "妖精", distance=10, wary=True))
    run(Attack(target="妖精", dice=0, name="霊夢"))  # 7
    assert run.event("sg.answer_awaited")["choices"][-2:] == [["evasion", 3], ["take", 0]]
    run(Answer(exchange=1, defence="evasion", dice=3), 6, 6, 1)  # 5 + 13 - 5 = 13: evaded
    assert run.event("sg.rolled")["total"] == 13 and run.kinds()[-1] == "sg.exchange_missed"


def test_s_mercy_1_at_0_hp_the_attacker_chooses() -> None:
    run = fight(fairy_hp=5)
    run(Attack(target="妖精", dice=0, name="霊夢"))
    run(Answer(exchange=1, defence="take"), 3, 3)  # 8 ≥ 5
    assert run.event("sg.mercy_awaited") == {
        "number": 1, "attacker": "霊夢", "name": "妖精", "amount": 8, "owner": "1",
    }  # fmt: skip
    assert run.c("妖精").hp == 5 and run.s.exchange(1) is not None
    run.refused(Answer(exchange=1), "sg.mercy_required")
    run(Answer(exchange=1, mercy="hp1"))
    assert run.c("妖精").hp == 1 and run.c("妖精").down is Down.INCAPACITATED and run.s.exchanges == ()


def test_an_attacker_whose_attack_awaits_may_not_attack_again() -> None:
    run = fight()
    run(Attack(target="妖精", dice=0, name="霊夢"))
    error = run.refused(Attack(target="妖精", dice=0, name="霊夢"), "sg.exchange_waiting")
    assert error.values == {"name": "霊夢", "number": 1, "awaits": "妖精"}


def test_the_answer_contests_the_attack_as_rolled_though_the_attacker_rolled_since() -> None:
    run = fight()
    run(Attack(target="妖精", dice=0, name="霊夢"))  # 7
    run(Roll("霊夢", 0, 1, kind="perception"), 1)  # its last roll is now 1
    run(Answer(exchange=1, defence="evasion", dice=0), 1, 1)  # 5 < 7
    assert run.event("sg.rolled", 0)["against_total"] == 7
    kept = run.c("霊夢").last_roll  # its own last roll is left as it was
    assert kept is not None and (kept.kind.value, kept.total) == ("perception", 1)


def test_the_four_command_path_keeps_working_beside_it() -> None:
    run = fight()
    run(Roll("霊夢", None, 2, kind="attack", check="感覚+射撃", at="妖精"), 4, 3)
    run(Roll("妖精", None, 2, kind="evasion", check="身体+回避", against="霊夢"), 3, 5)
    run(Roll("霊夢", 2, 2, kind="damage"), 6, 1)
    run(Damage("妖精", 9))
    assert run.c("妖精").hp == 3 and run.s.exchanges == ()


def test_stored_checks_refused_when_they_do_not_read() -> None:
    run = fight()
    error = run.refused(Profile("霊夢", attack="感覚+剣術"), "sg.skill_unknown")
    assert error.values["skill"] == "剣術"
    run.refused(Profile("霊夢", damage="2x+1"), "sg.damage_invalid")
    run.refused(Attack(target="妖精", dice=0), "sg.attack_whose")


def test_exchanges_are_exported_and_read_back() -> None:
    run = fight(fairy_hp=5)
    run(Attack(target="妖精", dice=0, name="霊夢"))
    document = SENGENSHO.export(run.s)
    assert document["exchanges"][0] == {
        "number": 1, "attacker": "霊夢", "aim": "妖精", "defender": "妖精", "kind": "attack", "total": 7,
        "turn": 1, "damage": "2d+2", "mercy": None,
        "choices": [["evasion", 0], ["evasion", 1], ["evasion", 2], ["evasion", 3], ["take", 0]],
    }  # fmt: skip
    assert SENGENSHO.import_(document) == run.s
    assert run.replayed() == run.s
