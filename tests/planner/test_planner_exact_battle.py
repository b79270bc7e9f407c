"""The planner against chances worked out by hand for commanders (F-UNIT-12), the ballista (F-BAL-1,
F-UNIT-4) and units' attacks (F-UNIT-7): each estimated from 20,000 runs, within 3σ.

Each battle has one round with the PC side first, so the PC turn's dice decide whether the enemy turn
that follows is confused (F-UNIT-12: no enemy unit moves) and what is left for the end (F-END-1:
every enemy unit standing deals its fort damage once more).
"""

from __future__ import annotations

from fractions import Fraction

from planner_helpers import battle, estimate, within_three_sigma

from engine.dice.table import RATING
from engine.fort import AddCommander, AddPC, AddUnit, GMSet, StartBattle
from engine.fort.planner import Focus


def two_dice_at_least(n: int) -> Fraction:
    return Fraction(sum(6 - abs(total - 7) for total in range(max(n, 2), 13)), 36)


def test_one_pcs_2d_on_the_commander_decides_the_battle() -> None:
    """F-UNIT-12, F-FORT-4, F-END-1: a fort of 40 and a unit at A1 dealing 30: it enters F0 (30) and
    deals 30 again at the end, a collapse; confused, it does not move and deals only the end's 30
    (10 left). Alice's 2d on the 7-HP commander (no defence in the battle) kills it on 2D6 ≥ 7: 21/36
    with ``focus:commanders``; aimed at the 100-HP unit (``focus:threats``) it never holds."""
    state = battle(
        StartBattle(rounds=1, fort_hp=40, first="pc"),
        AddUnit(name="オーガ", type="normal", area="A1", hp=100, fort_damage=30),
        AddCommander(name="隊長", hp=7, area="A2", horn="全員の命中+1"),
    )
    chance = two_dice_at_least(7)
    assert chance == Fraction(21, 36)
    result = estimate(state, pc_damage="Alice=2d", focus=Focus.COMMANDERS)
    assert within_three_sigma(result, float(chance)), result.hold
    # the commander stands at the end of every run that fell, and of none that held
    assert result.commanders[0].commander == "隊長"
    assert result.commanders[0].standing == result.falls and result.held_standing == 0
    assert result.final_hp == ((0, result.falls), (10, result.held))
    threats = estimate(state, pc_damage="Alice=2d", runs=500)
    assert threats.hold == 0 and threats.commanders[0].standing == 500 and threats.held_standing == 0
    assert [o.what for o in threats.not_played] == ["horn", "commander_actions", "commanders_not_attacked",
                                                    "equipment"]  # fmt: skip
    assert threats.not_played[0].names == ("隊長",) and threats.not_played[0].text == "全員の命中+1"


def test_two_commanders_two_pcs_the_least_hp_left_first() -> None:
    """F-UNIT-12 with ``focus:commanders``: 隊長 (8 HP, added first) and 副長 (5 HP). Alice's 1d+3 goes to
    the one with the least HP left, 副長, and kills it on a d6 ≥ 2 (5/6); then Bob's 2d goes to 隊長 and
    kills it on 2D6 ≥ 8 (15/36): both down, confusion, the fort holds (as above). On a 1, 副長 is left
    with 1 HP, still the least: Bob finishes it and 隊長 stands. 5/6 × 15/36 = 75/216 (the one added
    first would have given 2/6 × 30/36 = 60/216)."""
    state = battle(
        StartBattle(rounds=1, fort_hp=40, first="pc"),
        AddUnit(name="オーガ", type="normal", area="A1", hp=100, fort_damage=30),
        AddCommander(name="隊長", hp=8, area="A2"),
        AddCommander(name="副長", hp=5, area="A2"),
    )
    chance = Fraction(5, 6) * two_dice_at_least(8)
    assert chance == Fraction(75, 216)
    result = estimate(state, pc_damage="Alice=1d+3,Bob=2d", focus=Focus.COMMANDERS)
    assert within_three_sigma(result, float(chance)), result.hold
    by_name = {c.commander: c.standing for c in result.commanders}
    # 副長 falls in every run (Alice or Bob fells it); 隊長 stands unless both fell
    assert by_name == {"副長": 0, "隊長": result.falls}


def test_a_ballista_shot_catches_a_unit_in_its_area() -> None:
    """F-BAL-1, F-UNIT-4 with ``repair:true``: the ballista is loaded and Alice works it from the top.
    It fires at the most urgent threat, 破城兵 (20 fort damage, 1000 HP: it always deals 20 on entry
    and 20 at the end); the other unit in A1, 斥候 (1 HP, 10 fort damage), is caught on a d6 of 1-3
    (r6) and then dies to any bolt that deals damage, i.e. unless the bolt's first 2D6 is 1ゾロ
    (F-DICE-1). A fort of 51 holds exactly when 斥候 dies: 1/2 × 35/36 = 35/72."""
    assert RATING[90][3] + 20 >= 1
    state = battle(
        StartBattle(rounds=1, fort_hp=51, first="pc", cannons=0),
        AddPC(name="Alice", position="top", invoker="u1"),
        AddUnit(name="破城兵", type="normal", area="A1", hp=1000, fort_damage=20),
        AddUnit(name="斥候", type="normal", area="A1", hp=1, fort_damage=10),
        GMSet(target="ballista.loaded", value="true"),
    )
    chance = Fraction(1, 2) * Fraction(35, 36)
    result = estimate(state, repair=True)
    assert within_three_sigma(result, float(chance)), result.hold
    assert result.final_hp == ((0, result.falls), (11, result.held))
    # without repair:true nobody works the ballista: 斥候 always lives and the fort always falls
    assert estimate(state, runs=200).hold == 0


def test_a_soldier_outside_strikes_the_unit_at_the_fort() -> None:
    """F-UNIT-7, F-MAP-5: 兵士 outside at F0 (strike 2d) attacks the unit at F0 in the PC turn (first):
    6 HP, defence 1, 2d-1 kills it on 2D6 ≥ 7 (21/36); a unit that lives deals its 40 when the enemy
    turn starts (F-FORT-4), and the fort of 40 falls. The unit, had it lived, would have struck back."""
    state = battle(
        StartBattle(rounds=1, fort_hp=40, first="pc"),
        AddUnit(
            name="兵士", type="soldier", area="F0", hp=20, fort_damage=0, strike="2d", position="outside"
        ),
        AddUnit(name="オーク", type="normal", area="A1", hp=6, fort_damage=40, defense=1, strike="2d+2"),
        GMSet(target="unit.オーク.area", value="F0"),
    )
    result = estimate(state)
    assert within_three_sigma(result, 21 / 36), result.hold
    # the soldier at the top instead never attacks (melee is from outside): the fort always falls
    top = battle(
        StartBattle(rounds=1, fort_hp=40, first="pc"),
        AddUnit(name="兵士", type="soldier", area="F0", hp=20, fort_damage=0, strike="2d", position="top"),
        AddUnit(name="オーク", type="normal", area="A1", hp=6, fort_damage=40, defense=1, strike="2d+2"),
        GMSet(target="unit.オーク.area", value="F0"),
    )
    assert estimate(top, runs=200).hold == 0
