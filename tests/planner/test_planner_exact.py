"""The planner against chances worked out by hand: each estimated from 20,000 runs, within 3σ.

Each battle is set up so that nothing rolls but the dice named: one round, no commander (no
confusion, F-UNIT-12), no unit at F0 when the enemy turn starts (no turn-start damage, F-FORT-4),
and the side that goes first chosen so that the die falls where the hand-worked number puts it.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from planner_helpers import battle, estimate, within_three_sigma

from engine.dice.table import RATING
from engine.fort import AddPC, AddUnit, GMSet, SetTrap, StartBattle


def test_a_mine_saves_the_fort_exactly_when_it_kills_the_unit() -> None:
    """F-TRAP-4, F-UNIT-6, F-FORT-4, F-FORT-6: a fort of 20 HP, one 15-HP unit dealing 20 behind a
    single mine (2D6+10). The enemy goes first (its turn has started, nobody at F0): the unit crosses
    A1-F0, the mine deals 15 or more (2D6 ≥ 5) and it falls on the edge; else it enters F0, the fort
    takes 20 and collapses. The PC turn and the end (F-END-1) roll nothing: 30/36."""
    state = battle(
        StartBattle(rounds=1, fort_hp=20, first="enemy"),
        AddUnit(name="ゴブリン隊", type="normal", area="A1", hp=15, fort_damage=20),
        SetTrap(kind="mine", edge="A1-F0", uses=1),
    )
    result = estimate(state)
    assert within_three_sigma(result, 30 / 36), result.hold
    assert result.hp_percentile(90) == 20 and result.hp_percentile(10) == 0
    assert result.fall_rounds == ((1, result.falls),)


def test_a_ram_entering_in_the_last_round_strikes_twice() -> None:
    """F-UNIT-10, F-FORT-4, F-END-1: a ram (strike 2d+10) at A1 and a 30-HP fort, one round, the PC
    side first, so the enemy turn is the battle's last: the ram enters F0 and strikes (2d+10), the
    round ends and it strikes again (2d+10). The fort holds when 4d6 + 20 ≤ 29: P(4d6 ≤ 9) =
    126/1296."""
    state = battle(
        StartBattle(rounds=1, fort_hp=30, first="pc"),
        AddUnit(name="破城槌", type="ram", area="A1", hp=15, fort_damage=0, strike="2d+10"),
    )
    ways = sum(1 for dice in product(range(1, 7), repeat=4) if sum(dice) <= 9)
    assert ways == 126
    result = estimate(state)
    assert within_three_sigma(result, 126 / 1296), result.hold
    assert result.threats[0].unit == "破城槌"
    # every run: 2d+10 twice (the first, 22 at most, never fells the fort), 34 on average: within 3σ
    sigma = (4 * 35 / 12 / result.runs) ** 0.5
    assert abs(result.mean_damage(result.threats[0]) - 34) <= 3 * sigma


def test_a_pc_attack_meets_defence_and_weakness() -> None:
    """F-UNIT-6, F-UNIT-15, the PC policy: one attack of 2d+3 physical on a 10-HP unit with defence 2
    and 物理ダメージ+2, the PC side first: applied 2d+3+2-2 = 2d+3, which kills when 2D6 ≥ 7 (21/36);
    a unit that lives enters F0 in the enemy turn and deals the fort's 40 HP."""
    state = battle(
        StartBattle(rounds=1, fort_hp=40, first="pc"),
        AddUnit(
            name="オーク",
            type="normal",
            area="A1",
            hp=10,
            fort_damage=40,
            defense=2,
            weakness="物理ダメージ+2",
        ),
    )
    result = estimate(state, pc_damage="Alice=2d+3")
    assert within_three_sigma(result, 21 / 36), result.hold
    # the kind of damage counts: as magic, defence and the physical weakness do not (2d+3 ≥ 10: 2D6 ≥ 7)
    assert within_three_sigma(estimate(state, pc_damage="2d+3:magic"), 21 / 36)
    # as fixed damage of 9 it never kills; of 10 it always does
    assert estimate(state, pc_damage="9:fixed", runs=100).hold == 0
    assert estimate(state, pc_damage="10:fixed", runs=100).hold == 1


def test_a_cannon_shell_from_the_rating_table() -> None:
    """F-CAN-3, F-UNIT-4, F-DICE-1 with repair:true: one shell in the cannon and a PC at the top; the
    PC turn comes first and the cannon fires at the unit (alone in A1: no catch d6), K40+12@10. A
    22-HP unit dies when the first 2D6 gives 10 or more on the K40 row (8 → 10; 10 and up are
    criticals, worth more), i.e. 2D6 ≥ 8: 15/36. The fort is at its maximum: no repair."""
    row = RATING[40]
    assert row[7] + 12 < 22 <= row[8] + 12
    chance = Fraction(sum(6 - abs(total - 7) for total in range(8, 13)), 36)
    assert chance == Fraction(15, 36)
    state = battle(
        StartBattle(rounds=1, fort_hp=40, first="pc", cannons=1),
        AddPC(name="Alice", position="top", invoker="u1"),
        AddUnit(name="トロール", type="normal", area="A1", hp=22, fort_damage=40),
        GMSet(target="cannon.1.shells", value="1"),
    )
    result = estimate(state, repair=True)
    assert within_three_sigma(result, float(chance)), result.hold
    # without repair:true the cannon stays silent and the fort always falls
    assert estimate(state, runs=100).hold == 0


def test_repair_keeps_a_fort_that_would_fall_by_ten() -> None:
    """F-FORT-3, F-FORT-4, F-END-1: a unit at F0 deals 15 when the enemy turn starts and 15 at the end;
    a fort at 30 of 40 falls to 0, unless the PC turn (first) repairs it to 40 (then 10 are left).
    No die rolls at all: every run agrees."""
    state = battle(
        StartBattle(rounds=1, fort_hp=40, first="pc"),
        AddPC(name="Alice", position="top", invoker="u1"),
        AddUnit(name="ゴブリン隊", type="normal", area="A1", hp=15, fort_damage=15),
        GMSet(target="unit.ゴブリン隊.area", value="F0"),
        GMSet(target="fort.hp", value="30"),
    )
    held = estimate(state, repair=True, runs=100)
    assert held.hold == 1 and held.final_hp == ((10, 100),)
    fallen = estimate(state, runs=100)
    assert fallen.hold == 0 and fallen.final_hp == ((0, 100),) and fallen.fall_rounds == ((1, 100),)
