"""F-TRAP-1..5, F-BAL-1, F-CAN-1..3: traps, the ballista, cannons."""

from __future__ import annotations

import pytest
from fort_helpers import battle

from engine.fort import (
    FORT,
    AddPC,
    AddUnit,
    AdvanceUnits,
    FireBallista,
    FireCannon,
    LoadBallista,
    LoadCannon,
    MoveUnit,
    NextTurn,
    RemoveTrap,
    SetTrap,
)
from engine.fort.map import Area


def test_f_trap_1_trap_on_an_edge_triggers_either_way_and_loses_uses() -> None:
    """F-TRAP-1: sure hit on an enemy ground unit crossing the edge in either direction, one use each;
    at 0 it is spent."""
    run = battle()
    run(SetTrap(kind="mine", edge="F0-A1", uses=2))
    assert run.event("trap.set") == {"kind": "mine", "edge": "A1-F0", "uses": 2}
    run(AddUnit(name="鬼", type="normal", area="A1", hp=100, fort_damage=1))
    run(NextTurn())
    run(MoveUnit(unit="鬼", to="F0"), 1, 1)
    assert run.event("trap.mine")["uses_after"] == 1
    run(NextTurn())
    run(NextTurn())
    run(MoveUnit(unit="鬼", to="A1"), 2, 2)  # leaving F0 crosses it too
    assert run.event("trap.mine")["uses_after"] == 0
    run(NextTurn())
    run(NextTurn())
    run(MoveUnit(unit="鬼", to="F0"))  # spent: nothing, no dice
    assert "trap.mine" not in run.kinds()
    assert run.unit("鬼").hp == 100 - 12 - 14
    run(RemoveTrap(kind="mine", edge="A1-F0"))
    assert run.s.traps == ()
    run.refused(RemoveTrap(kind="mine", edge="A1-F0"), "fort.trap_unknown")
    run.refused(SetTrap(kind="pit", edge="A1-F0", uses=1), "fort.trap_kind_invalid")
    run.refused(SetTrap(kind="mine", edge="A1-F0", uses=0), "fort.trap_uses_invalid")


def test_f_trap_2_one_trap_of_a_kind_per_crossing() -> None:
    """F-TRAP-2: of two mines on one edge only the first triggers per crossing."""
    run = battle()
    run(SetTrap(kind="mine", edge="A2-A1", uses=1))
    run(SetTrap(kind="mine", edge="A1-A2", uses=1))
    run(AddUnit(name="鬼", type="normal", area="A2", hp=100, fort_damage=1))
    run(NextTurn())
    run(AdvanceUnits(), 3, 3)
    assert [t.uses for t in run.s.traps] == [0, 1]
    assert run.unit("鬼").hp == 84


def test_f_trap_3_barricade_holds_the_unit_where_it_reached_the_edge_and_is_passed_next_time() -> None:
    """F-TRAP-3: the rest of the move is cancelled, the unit stays where it reached the barricade (A1, not
    A2 where it started: changed by F-TRAP-3's ruling); its next move is an ordinary one and passes
    this barricade; flying units ignore it."""
    run = battle()
    run(SetTrap(kind="barricade", edge="A1-F0", uses=3))
    run(AddUnit(name="狼", type="normal", area="A2", hp=30, fort_damage=4, move=20))
    run(AddUnit(name="鳥", type="flying", area="A1", hp=30, fort_damage=3))
    run(NextTurn())
    run(AdvanceUnits())
    assert run.event("trap.barricade") == {
        "unit": "狼",
        "edge": "A1-F0",
        "uses_before": 3,
        "uses_after": 2,
        "stays": "A1",
        "to": "F0",
    }
    assert run.unit("狼").area is Area.A1  # held on its side of the barricade
    assert run.unit("鳥").area is Area.F0
    run(NextTurn())
    run(NextTurn())
    run(AdvanceUnits())
    assert run.event("trap.passed") == {"unit": "狼", "edge": "A1-F0"}
    assert run.unit("狼").area is Area.F0
    assert run.s.traps[0].uses == 2
    run(MoveUnit(unit="狼", to="A1", force=True))
    run(NextTurn())
    run(NextTurn())
    run(AdvanceUnits())  # the held edge was passed once; now it stops the wolf again
    assert run.event("trap.barricade")["uses_after"] == 1


def test_f_trap_4_mine_2d6_plus_10_fire_magic() -> None:
    """F-TRAP-4: 2D6+10 magic damage (defence does not count); flying and soldiers ignore it."""
    run = battle()
    run(SetTrap(kind="mine", edge="B1-F0", uses=5))
    run(AddUnit(name="亀", type="normal", area="B1", hp=40, fort_damage=2, defense=8))
    run(AddUnit(name="鳥", type="flying", area="B1", hp=40, fort_damage=2))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=40, fort_damage=0, position="outside"))
    run(MoveUnit(unit="兵", to="B1"))  # F-MAP-4: from outside, 10 m (from the top it would be 20)
    assert run.s.traps[0].uses == 5
    run(NextTurn())
    run(AdvanceUnits(), 3, 4)
    d = run.event("unit.damaged")
    assert (d["unit"], d["kind"], d["taken"], d["rolls"][0]["text"]) == (
        "亀",
        "magic",
        17,
        "(2D6+10) ＞ 7[3,4]+10 ＞ 17",
    )
    assert run.unit("亀").hp == 23
    assert run.s.traps[0].uses == 4


def test_f_trap_5_barricade_first_a_stopped_unit_triggers_nothing_else() -> None:
    """F-TRAP-5: on an edge with both, the barricade first; a unit it stops sets off no mine; a ram
    passes the barricade and then the mine goes off."""
    run = battle()
    run(SetTrap(kind="mine", edge="A1-F0", uses=1))
    run(SetTrap(kind="barricade", edge="A1-F0", uses=1))
    run(AddUnit(name="狼", type="normal", area="A1", hp=30, fort_damage=4))
    run(AddUnit(name="槌", type="ram", area="A1", hp=30, fort_damage=0, strike="2d"))
    run(NextTurn())
    run(MoveUnit(unit="狼", to="F0"))
    assert run.kinds() == ["trap.barricade"]
    assert [t.uses for t in run.s.traps] == [1, 0]
    run(SetTrap(kind="barricade", edge="A1-F0", uses=1))
    run(MoveUnit(unit="槌", to="F0"), 6, 6, 2, 3)  # mine 22, then the ram's fort damage 5
    assert run.kinds() == ["trap.rammed", "trap.mine", "unit.damaged", "unit.moved", "fort.damaged"]
    assert run.unit("槌").hp == 8
    assert run.s.fort_hp == 295


def test_f_bal_1_ballista_load_then_fire_k90_plus_20() -> None:
    """F-BAL-1: loading is a main action; firing K90+20+bonus@crit physical, 1 area r6/20; any bolt but
    〈竜牙の太矢〉; 〈魔力の太矢〉 once."""
    run = battle()
    run(AddUnit(name="巨人", type="normal", area="B2", hp=120, fort_damage=10, defense=5))
    run(AddUnit(name="小鬼", type="normal", area="B2", hp=20, fort_damage=2))
    run(AddUnit(name="鳥", type="flying", area="B2", hp=20, fort_damage=2))
    run.refused(FireBallista(unit="巨人", by="Alice"), "fort.ballista_not_loaded")
    run.refused(LoadBallista(bolt="〈竜牙の太矢〉", by="Alice"), "fort.ballista_bolt_forbidden")
    run(LoadBallista(bolt="〈魔力の太矢〉", by="Alice"))
    assert run.s.ballista.loaded and run.s.ballista.magic_bolt_used
    run.refused(LoadBallista(by="Alice"), "fort.ballista_loaded")
    # d6 for 小鬼: 3 → caught (r6: 1-3); 巨人: K90 [4,4]=8 → 19 + 22 = 41 − 5; 小鬼: [2,3]=5 → 12 + 22
    run(FireBallista(unit="巨人", bonus=2, by="Alice"), 3, 4, 4, 2, 3)
    fired = run.event("ballista.fired")
    assert (fired["command"], fired["bolt"], fired["hit_units"]) == (
        "K90+22@10",
        "魔力の太矢",
        ["巨人", "小鬼"],
    )
    assert fired["checks"] == [{"unit": "小鬼", "die": 3, "caught": True}]
    assert [(d["unit"], d["raw"], d["taken"]) for d in run.all_of("unit.damaged")] == [
        ("巨人", [41], 36),
        ("小鬼", [34], 34),
    ]
    assert run.unit("小鬼").destroyed
    assert not run.s.ballista.loaded
    run(NextTurn())
    run(NextTurn())
    run.refused(LoadBallista(bolt="魔力の太矢", by="Alice"), "fort.ballista_magic_bolt_used")
    run(LoadBallista(bolt="銀の太矢", by="Alice"))
    run(FireBallista(unit="巨人", crit=9, by="Alice"), 5, 4, 1, 2)  # 9 ≥ crit 9: 21, then [1,2]=3 → 7
    assert run.event("unit.damaged")["raw"] == [21 + 7 + 20]
    run(LoadBallista(by="Alice"))
    run(FireBallista(unit="巨人", hit=False, by="Alice"))
    assert run.kinds() == ["ballista.fired"] and not run.s.ballista.loaded


def test_f_can_1_two_cannons_by_default_another_number_at_start() -> None:
    """F-CAN-1: 2 cannons by default, the GM may set another number; each holds 0-5 shells."""
    assert battle().s.cannons == (0, 0)
    run = battle(cannons=3)
    assert run.s.cannons == (0, 0, 0)
    run.refused(LoadCannon(cannon=4, check=20, by="Alice"), "fort.cannon_unknown")
    run.refused(FireCannon(cannon=0, unit="x", by="Alice"), "fort.cannon_unknown")


def test_f_can_2_loading_thresholds_failure_damage_and_soldiers() -> None:
    """F-CAN-2: one shell per threshold 15/18/21/24/27 reached, never past 5; under 15 the loader takes
    K40+12@10 fire magic damage; a soldier loads 2, no check."""
    run = battle()
    run(LoadCannon(cannon=1, bonus=12, by="Alice"), 4, 3)  # 19: two shells
    loaded = run.event("cannon.loaded")
    assert (loaded["check"], loaded["reached"], loaded["before"], loaded["after"]) == (19, 2, 0, 2)
    assert loaded["roll"]["text"] == "(2D6+12) ＞ 7[4,3]+12 ＞ 19"
    run(LoadCannon(cannon=1, check=27, by="Alice"))  # five thresholds, but only 3 fit
    assert run.s.cannons == (5, 0)
    run.refused(LoadCannon(cannon=1, check=27, by="Alice"), "fort.cannon_full")
    run(LoadCannon(cannon=2, bonus=5, by="Alice"), 3, 3, 4, 4)  # 11: dropped; K40 [4,4]=8 → 10 + 12
    assert run.kinds() == ["cannon.load_failed", "pc.damaged"]
    assert run.event("pc.damaged")["amount"] == 22
    assert run.pc("Alice").hp == 18
    assert run.s.cannons == (5, 0)
    run(LoadCannon(cannon=2, bonus=20, by="Alice"), 1, 1, 1, 1)  # 1ゾロ fails; K40 1ゾロ deals 0
    assert run.event("pc.damaged")["amount"] == 0
    run(LoadCannon(cannon=2, bonus=0, by="Alice"), 6, 6)  # 6ゾロ: at least one shell
    assert run.s.cannons == (5, 1)
    run(AddPC(name="Bob", position="outside", invoker="u2"))
    run.refused(LoadCannon(cannon=2, check=20, invoker="u2"), "fort.equipment_not_at_top")
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0))
    run(LoadCannon(cannon=2, by="兵"))
    assert run.s.cannons == (5, 3)


def test_f_can_3_fire_every_shell_at_every_affected_unit_then_empty() -> None:
    """F-CAN-3: sure hit anywhere, 1 area r4/10: K40+12@10 per shell per affected unit; then empty."""
    run = battle()
    run(AddUnit(name="的", type="normal", area="A2", hp=80, fort_damage=5, defense=9))
    run(AddUnit(name="甲", type="normal", area="A2", hp=80, fort_damage=5))
    run(AddUnit(name="乙", type="normal", area="A2", hp=80, fort_damage=5))
    run(AddUnit(name="鳥", type="flying", area="A2", hp=80, fort_damage=5))
    run.refused(FireCannon(cannon=1, unit="的", by="Alice"), "fort.cannon_empty")
    run(LoadCannon(cannon=1, check=18, by="Alice"))
    # d6: 甲 1 (caught), 乙 2 (not); 的: [3,4]=7 → 21, [2,2]=4 → 17; 甲: [6,3]=9 → 23, [1,3]=4 → 17
    run(FireCannon(cannon=1, unit="的", by="Alice"), 1, 2, 3, 4, 2, 2, 6, 3, 1, 3)
    fired = run.event("cannon.fired")
    assert (fired["shells"], fired["hit"]) == (2, ["的", "甲"])
    assert fired["checks"] == [
        {"unit": "甲", "die": 1, "caught": True},
        {"unit": "乙", "die": 2, "caught": False},
    ]
    assert [(d["unit"], d["raw"], d["taken"]) for d in run.all_of("unit.damaged")] == [
        ("的", [21, 17], 38),
        ("甲", [23, 17], 40),
    ]
    assert [run.unit(n).hp for n in ("的", "甲", "乙", "鳥")] == [42, 40, 80, 80]
    assert run.s.cannons == (0, 0)
    run.refused(FireCannon(cannon=1, unit="的", by="Alice"), "fort.cannon_empty")


@pytest.mark.parametrize(
    ("check", "shells"),
    [(14, 0), (15, 1), (17, 1), (18, 2), (20, 2), (21, 3), (23, 3), (24, 4), (26, 4), (27, 5), (40, 5)],
)
def test_f_can_2_one_shell_per_threshold_reached(check: int, shells: int) -> None:
    """F-CAN-2: 15/18/21/24/27: each threshold reached loads one shell; under 15 the loader is burnt."""
    run = battle()
    if shells == 0:
        run(LoadCannon(cannon=1, check=check, by="Alice"), 5, 4)  # K40 [5,4]=9 → 11 + 12
        assert run.event("pc.damaged")["amount"] == 23
        assert run.s.cannons == (0, 0)
    else:
        run(LoadCannon(cannon=1, check=check, by="Alice"))
        assert (run.event("cannon.loaded")["reached"], run.s.cannons) == (shells, (shells, 0))


def test_f_trap_2_one_barricade_per_crossing_a_ram_costs_one_use() -> None:
    """F-TRAP-2, F-UNIT-10: of two barricades on one edge one holds the unit and one loses a use to a ram."""
    run = battle()
    run(SetTrap(kind="barricade", edge="A1-F0", uses=1))
    run(SetTrap(kind="barricade", edge="A1-F0", uses=2))
    run(AddUnit(name="狼", type="normal", area="A1", hp=30, fort_damage=4))
    run(AddUnit(name="槌", type="ram", area="A1", hp=30, fort_damage=0, strike="2d"))
    run(NextTurn())
    run(AdvanceUnits(), 1, 2)  # 狼 held by the first; 槌 passes the second (the first is spent), fort 3
    assert run.all_of("trap.barricade") == [
        {"unit": "狼", "edge": "A1-F0", "uses_before": 1, "uses_after": 0, "stays": "A1", "to": "F0"}
    ]
    assert run.event("trap.rammed") == {"unit": "槌", "edge": "A1-F0", "uses_before": 2, "uses_after": 1}
    assert [t.uses for t in run.s.traps] == [0, 1]
    assert (run.unit("狼").area, run.unit("槌").area, run.s.fort_hp) == (Area.A1, Area.F0, 297)


def test_f_trap_3_a_barricade_leaves_a_unit_in_the_same_area_however_the_gm_splits_the_move() -> None:
    """F-TRAP-3 (the issue's reproduction): with a mine on A2-A1 and a barricade on A1-F0, a move-20 unit
    from A2 ends at A1 whether it is advanced in one go or moved A2→A1 then A1→F0; the mine goes off
    once (2D6+10 = 17), and the next turn's move passes the barricade into F0 without it."""
    ends = []
    for split in (False, True):
        run = battle()
        run(SetTrap(kind="mine", edge="A2-A1", uses=2))
        run(SetTrap(kind="barricade", edge="A1-F0", uses=2))
        run(AddUnit(name="狼", type="normal", area="A2", hp=40, fort_damage=6, move=20))
        run(NextTurn())
        if split:
            run(MoveUnit(unit="狼", to="A1"), 3, 4)
            run(MoveUnit(unit="狼", to="F0"))
        else:
            run(AdvanceUnits(), 3, 4)
            assert run.event("unit.moved")["stopped"] == "barricade"
        assert run.event("trap.barricade")["stays"] == "A1"
        ends.append(FORT.export(run.s)["units"])
        assert (run.unit("狼").area, run.unit("狼").hp, [t.uses for t in run.s.traps]) == (
            Area.A1,
            23,
            [1, 1],
        )
        run.refused(MoveUnit(unit="狼", to="F0"), "fort.unit_halted")
        run(NextTurn())
        run(NextTurn())
        run(AdvanceUnits())
        assert [e.kind for e in run.events] == ["trap.passed", "unit.moved", "fort.damaged", "unit.advanced"]
        assert (run.unit("狼").hp, run.s.fort_hp, [t.uses for t in run.s.traps]) == (23, 294, [1, 1])
    assert ends[0] == ends[1]


@pytest.mark.parametrize(
    ("dice", "bonus", "total", "shells"),
    [
        ((1, 1), 20, 22, 0),  # 1ゾロ: an automatic failure, whatever the total
        ((6, 6), 0, 12, 1),  # 6ゾロ: an automatic success, one shell though under 15
        ((6, 6), 15, 27, 5),  # 6ゾロ that reaches every threshold loads them all
        ((5, 6), 3, 14, 0),  # no zoro: under 15 fails
    ],
)
def test_f_can_2_1zoro_fails_and_6zoro_loads_at_least_one_shell(
    dice: tuple[int, int], bonus: int, total: int, shells: int
) -> None:
    """F-CAN-2: a rolled check of 1ゾロ fails whatever its total, 6ゾロ loads at least one shell; a failure
    drops the shell and burns the loader (K40+12@10, here [1,1]: 0)."""
    run = battle()
    failure_roll = (1, 1) if shells == 0 else ()
    run(LoadCannon(cannon=1, bonus=bonus, by="Alice"), *dice, *failure_roll)
    assert run.s.cannons[0] == shells
    if shells:
        assert (run.event("cannon.loaded")["check"], run.event("cannon.loaded")["reached"]) == (total, shells)
    else:
        assert run.event("cannon.load_failed")["check"] == total
        assert run.event("pc.damaged")["amount"] == 0


def test_f_trap_3_a_held_units_next_move_is_an_ordinary_one_however_the_gm_split_the_first() -> None:
    """F-TRAP-3 (issue 23): two like units held on one edge, one moved toward F0 in one command, the other
    toward B1 (the first part of the same way): their next auto-advance is an ordinary move with the
    whole movement, passing that barricade, so both end at F0 with the same fort damage."""
    run = battle()
    run(SetTrap(kind="barricade", edge="B1-B2", uses=5))
    run(AddUnit(name="甲", type="normal", area="B2", hp=30, fort_damage=4, move=20))
    run(AddUnit(name="乙", type="normal", area="B2", hp=30, fort_damage=4, move=20))
    run(NextTurn())
    run(MoveUnit(unit="甲", to="F0"))  # one command
    run(MoveUnit(unit="乙", to="B1"))  # the first of two
    assert (run.unit("甲").area, run.unit("乙").area) == (Area.B2, Area.B2)  # both held at B2
    assert run.s.traps[0].uses == 3
    run(NextTurn())
    run(NextTurn())
    hp = run.s.fort_hp
    run(AdvanceUnits())
    assert (run.unit("甲").area, run.unit("乙").area) == (Area.F0, Area.F0)
    assert [e.data for e in run.events if e.kind == "trap.passed"] == [
        {"unit": "甲", "edge": "B1-B2"},
        {"unit": "乙", "edge": "B1-B2"},
    ]
    assert run.s.traps[0].uses == 3  # passing the barricade that held it costs it no use
    assert run.s.fort_hp == hp - 8  # F-FORT-4: each entered F0
