"""Soldier units: their positions at F0 (F-MAP-4), equipment from the top (F-UNIT-13), caught by every area
effect and pierce like any unit (F-UNIT-4, F-UNIT-5), and blocking a move wherever it ends (F-UNIT-2)."""

from __future__ import annotations

from fort_helpers import battle

from engine.fort import (
    AddUnit,
    AttackArea,
    AttackPierce,
    FireCannon,
    GMSet,
    LoadCannon,
    MoveUnit,
    NextTurn,
    Repair,
    Siege,
    UnitAttack,
)
from engine.fort.map import Area, Position


def test_f_map_4_soldiers_take_a_position_at_f0_top_unless_given() -> None:
    """F-MAP-4: a soldier unit at F0 is at the top unless ``position:`` says otherwise; enemy units have
    none (they are always outside at F0)."""
    run = battle()
    run(AddUnit(name="上", type="soldier", area="F0", hp=20, fort_damage=0))
    run(AddUnit(name="内", type="soldier", area="F0", hp=20, fort_damage=0, position="ＩＮＳＩＤＥ"))
    assert (run.unit("上").position, run.unit("内").position) == (Position.TOP, Position.INSIDE)
    assert run.event("unit.added")["position"] == "inside"
    run.refused(
        AddUnit(name="鬼", type="normal", area="A1", hp=20, fort_damage=5, position="top"),
        "fort.position_only_soldier",
    )
    run.refused(
        AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, position="roof"),
        "fort.position_invalid",
    )


def test_f_map_4_a_soldier_changes_position_for_10_m_and_leaves_f0_from_outside() -> None:
    """F-MAP-4: ``/unit move unit: to:F0 position:`` changes a soldier's position (10 m of its movement);
    it leaves F0 from outside, so from the top the move costs 10 m more; entering F0 puts it outside."""
    run = battle()
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, move=20))
    run(AddUnit(name="遅", type="soldier", area="F0", hp=20, fort_damage=0, move=10))
    err = run.refused(MoveUnit(unit="遅", to="A1"), "fort.unit_move_too_far")
    assert err.values == {"unit": "遅", "distance": 20, "left": 10}  # 10 to go outside + 10 to A1
    run(MoveUnit(unit="兵", to="F0", position="outside"))
    assert run.event("unit.repositioned") == {
        "unit": "兵",
        "from_position": "top",
        "to_position": "outside",
        "force": False,
    }
    run(MoveUnit(unit="兵", to="A1"))
    moved = run.event("unit.moved")
    assert (moved["distance"], moved["extra_m"], run.unit("兵").moved_m) == (10, 0, 20)
    assert (run.unit("兵").area, run.unit("兵").position) == (Area.A1, None)
    run.refused(MoveUnit(unit="兵", to="F0"), "fort.unit_move_too_far")
    run(NextTurn())
    run(NextTurn())
    run(MoveUnit(unit="兵", to="F0"))
    assert run.unit("兵").position is Position.OUTSIDE
    run.refused(MoveUnit(unit="兵", to="F0", position="outside"), "fort.unit_position_same")
    run.refused(MoveUnit(unit="兵", to="A1", position="top"), "fort.unit_enter_f0_outside")
    run(GMSet(target="unit.兵.position", value="inside"))
    assert run.unit("兵").position is Position.INSIDE
    run(AddUnit(name="鬼", type="normal", area="A1", hp=20, fort_damage=5))
    run.refused(MoveUnit(unit="鬼", to="A1", position="top"), "fort.unit_position_only_soldier_f0")
    run.refused(GMSet(target="unit.鬼.position", value="top"), "fort.gm_set_invalid")


def test_f_unit_13_a_soldier_uses_equipment_from_the_top_only() -> None:
    """F-UNIT-13, F-MAP-4: defence equipment is used from the fort top: a soldier outside or inside at F0
    is refused until it goes up."""
    run = battle()
    run(Siege(effect="fixed", amount=20))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, position="outside"))
    err = run.refused(Repair(by="兵"), "fort.equipment_soldier_not_at_top")
    assert err.values == {"name": "兵", "position": "outside"}
    run.refused(LoadCannon(cannon=1, by="兵"), "fort.equipment_soldier_not_at_top")
    run(MoveUnit(unit="兵", to="F0", position="top"))
    run(Repair(by="兵"))
    assert run.s.fort_hp == 290


def test_f_map_4_enemy_unit_attacks_at_f0_reach_only_soldiers_outside() -> None:
    """F-MAP-4, F-MAP-5: an enemy unit at F0 melees a soldier outside, never one at the top or inside; a
    soldier melees an enemy at F0 from outside."""
    run = battle()
    run(AddUnit(name="上", type="soldier", area="F0", hp=30, fort_damage=0, strike="2d"))
    run(AddUnit(name="外", type="soldier", area="F0", hp=30, fort_damage=0, position="outside", strike="2d"))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5, strike="2d+2"))
    run(GMSet(target="unit.鬼.area", value="F0"))
    run.refused(UnitAttack(attacker="鬼", target="上"), "fort.melee_target_position")
    run.refused(UnitAttack(attacker="上", target="鬼"), "fort.melee_position")
    run(UnitAttack(attacker="外", target="鬼"), 3, 3)
    assert run.unit("鬼").hp == 24
    run(UnitAttack(attacker="鬼", target="外"), 4, 5)  # 9 + 2
    assert run.unit("外").hp == 19


def test_f_unit_5_a_soldier_set_to_b1_is_caught_by_a_pierce_from_f0_to_b2() -> None:
    """F-UNIT-5 (the issue's reproduction): ``/gm set target:unit.s.area value:B1`` on a soldier, then
    ``/attack pierce from:F0 to:B2 damage:10 kind:fixed`` hits the enemy in B1 and the soldier too."""
    run = battle()
    run(AddUnit(name="e", type="normal", area="B1", hp=30, fort_damage=5))
    run(AddUnit(name="s", type="soldier", area="F0", hp=30, fort_damage=0))
    run(GMSet(target="unit.s.area", value="B1"))
    assert run.unit("s").position is None
    run(AttackPierce(from_="F0", to="B2", damage=10, kind="fixed", by="Alice"))
    assert run.event("attack.pierce")["hit"] == ["e", "s"]
    assert [(d["unit"], d["applied"], d["taken"]) for d in run.all_of("unit.damaged")] == [
        ("e", 10, 5),
        ("s", 10, 5),
    ]
    assert (run.unit("e").hp, run.unit("s").hp) == (25, 25)


def test_f_unit_5_a_pierce_from_f0_catches_soldiers_there_but_not_inside() -> None:
    """F-UNIT-5, F-MAP-4: the origin F0 is covered: soldiers at the top and outside are caught, a soldier
    inside the fort is out of reach."""
    run = battle()
    run(AddUnit(name="上", type="soldier", area="F0", hp=30, fort_damage=0))
    run(AddUnit(name="内", type="soldier", area="F0", hp=30, fort_damage=0, position="inside"))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5))
    run(AttackPierce(from_="F0", to="A1", damage=7, kind="magic", by="Alice"))
    assert run.event("attack.pierce")["hit"] == ["上", "鬼"]
    assert [run.unit(n).hp for n in ("上", "内", "鬼")] == [26, 30, 26]  # ⌈7/2⌉ = 4


def test_f_unit_4_soldiers_in_the_area_roll_the_catch_d6_like_any_unit() -> None:
    """F-UNIT-4: an area effect does not tell friend from foe: a soldier in the target's area rolls the
    catch d6 (r5: 1-2) and takes its own damage roll."""
    run = battle()
    run(AddUnit(name="的", type="normal", area="A1", hp=50, fort_damage=5))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0))
    run(GMSet(target="unit.兵.area", value="A1"))
    # d6 兵 = 1 (caught); damage 的 2d+3 = 3+4+3, 兵 = 1+2+3
    run(AttackArea(unit="的", damage="2d+3", radius=5, kind="magic", by="Alice"), 1, 3, 4, 1, 2)
    assert run.event("attack.area")["checks"] == [{"unit": "兵", "die": 1, "caught": True}]
    assert (run.unit("的").hp, run.unit("兵").hp) == (40, 24)


def test_f_unit_4_a_cannon_on_an_enemy_at_f0_catches_the_soldier_on_top_not_the_one_inside() -> None:
    """F-UNIT-4, F-CAN-3, F-MAP-4: the cannon's r4 rolls a d6 for the soldier at the top (caught on 1) and
    none for the soldier inside; each takes every shell rolled for it."""
    run = battle()
    run(AddUnit(name="鬼", type="normal", area="A1", hp=60, fort_damage=5))
    run(AddUnit(name="上", type="soldier", area="F0", hp=40, fort_damage=0))
    run(AddUnit(name="内", type="soldier", area="F0", hp=40, fort_damage=0, position="inside"))
    run(GMSet(target="unit.鬼.area", value="F0"))
    run(LoadCannon(cannon=1, check=15, by="Alice"))
    run(FireCannon(cannon=1, unit="鬼", by="Alice"), 1, 3, 4, 2, 2)  # d6 上 = 1; 鬼 21, 上 17
    fired = run.event("cannon.fired")
    assert (fired["checks"], fired["hit"]) == ([{"unit": "上", "die": 1, "caught": True}], ["鬼", "上"])
    assert [run.unit(n).hp for n in ("鬼", "上", "内")] == [39, 23, 40]


def test_f_unit_2_a_unit_that_ends_its_move_in_a_soldiers_area_moves_no_further() -> None:
    """F-UNIT-2 (the issue's reproduction): ``/unit move unit:k to:B1`` with a soldier at B1, then
    ``/unit move unit:k to:F0`` is refused for that turn and the fort takes nothing; next turn it goes on."""
    run = battle()
    run(AddUnit(name="s", type="soldier", area="F0", hp=30, fort_damage=0))
    run(GMSet(target="unit.s.area", value="B1"))
    run(AddUnit(name="k", type="normal", area="A1", hp=30, fort_damage=10, move=20))
    run(NextTurn())
    run(MoveUnit(unit="k", to="B1"))
    moved = run.event("unit.moved")
    assert (moved["to"], moved["stopped"], moved["blocker"]) == ("B1", "blocked", "s")
    err = run.refused(MoveUnit(unit="k", to="F0"), "fort.unit_halted")
    assert err.values == {"unit": "k", "reason": "blocked", "area": "B1"}
    assert run.s.fort_hp == 300
    run(NextTurn())
    run(NextTurn())
    run(MoveUnit(unit="k", to="F0"))
    assert run.s.fort_hp == 290


def test_f_unit_2_a_move_cut_short_by_a_blocker_names_it() -> None:
    """F-UNIT-2: a unit stopped on its way says where and by whom; it moves no further that turn, and the
    GM may let it go on with ``/gm set unit.<name>.halted value:false``."""
    run = battle()
    run(AddUnit(name="s", type="soldier", area="F0", hp=30, fort_damage=0))
    run(GMSet(target="unit.s.area", value="B1"))
    run(AddUnit(name="k", type="normal", area="B2", hp=30, fort_damage=10, move=30))
    run(NextTurn())
    run(MoveUnit(unit="k", to="F0"))
    moved = run.event("unit.moved")
    assert (moved["path"], moved["stopped"], moved["blocker"]) == (["B2", "B1"], "blocked", "s")
    assert (run.unit("k").area, run.unit("k").halted, run.unit("k").moved_m) == (Area.B1, "blocked", 10)
    run(GMSet(target="unit.k.halted", value="false"))
    run(MoveUnit(unit="k", to="F0"))
    assert run.s.fort_hp == 290
