"""F-MAP-1..7: the five areas, distances, pierce lines, positions at F0, set-up."""

from __future__ import annotations

import pytest
from fort_helpers import battle

from engine.fort import (
    AddPC,
    AddUnit,
    AttackArea,
    AttackPierce,
    AttackSingle,
    LoadBallista,
    MovePC,
    MoveUnit,
    NextTurn,
    SetTrap,
    SetUnitHP,
)
from engine.fort.map import (
    EDGES,
    Area,
    attack_range,
    distance,
    edge_text,
    parse_area,
    parse_edge,
    pierce_areas,
    shortest_path,
)
from engine.ruleset import RuleError


def test_f_map_1_five_areas_and_six_edges_full_width_accepted() -> None:
    """F-MAP-1: A2 A1 F0 B1 B2 and the edges A2-A1 A1-F0 F0-B1 B1-B2 A1-B1 A2-B2, either order."""
    assert parse_area("Ａ１") is Area.A1
    assert parse_area("b2") is Area.B2
    assert [edge_text(e) for e in EDGES] == ["A2-A1", "A1-F0", "F0-B1", "B1-B2", "A1-B1", "A2-B2"]
    assert edge_text(parse_edge("F0-A1")) == "A1-F0"
    assert edge_text(parse_edge("Ｂ２－Ａ２")) == "A2-B2"
    with pytest.raises(RuleError) as e:
        parse_edge("A1-B2")
    assert e.value.key == "fort.edge_not_adjacent"
    with pytest.raises(RuleError) as e:
        parse_area("C3")
    assert e.value.key == "fort.area_invalid"


def test_f_map_2_distance_is_the_shortest_path_times_ten() -> None:
    """F-MAP-2: A1→B2 = 20 m, F0→A2 = 20 m; ties go through the front row."""
    assert distance(Area.A1, Area.B2) == 20
    assert distance(Area.F0, Area.A2) == 20
    assert distance(Area.A2, Area.B2) == 10
    assert shortest_path(Area.A2, Area.B1) == (Area.A2, Area.A1, Area.B1)
    assert shortest_path(Area.B2, Area.F0) == (Area.B2, Area.B1, Area.F0)


def test_f_map_2_a_unit_moves_by_the_shortest_path_within_its_movement() -> None:
    """F-MAP-2: /unit move walks the shortest path; more than the movement is refused."""
    run = battle()
    run(AddUnit(name="狼", type="normal", area="B2", hp=20, fort_damage=5, move=20))
    run(MoveUnit(unit="狼", to="A1"))
    assert run.event("unit.moved")["path"] == ["B2", "B1", "A1"]
    assert run.event("unit.moved")["distance"] == 20
    assert run.unit("狼").area is Area.A1
    run.refused(MoveUnit(unit="狼", to="A2"), "fort.unit_move_too_far")  # 20 m already used this round
    run(MoveUnit(unit="狼", to="A2", force=True))
    assert run.unit("狼").area is Area.A2
    run(NextTurn())  # enemy turn, same round: still used up
    run(NextTurn())  # round 2
    run(MoveUnit(unit="狼", to="B1", via="B2"))
    assert run.event("unit.moved")["path"] == ["A2", "B2", "B1"]
    run.refused(MoveUnit(unit="狼", to="B1"), "fort.unit_move_same")


def test_f_map_3_pierce_lines_cover_origin_to_target() -> None:
    """F-MAP-3: F0→B2 covers F0, B1, B2; A1→B2 covers A1 and B2 only; the origin is covered."""
    assert pierce_areas(Area.F0, Area.B2) == (Area.F0, Area.B1, Area.B2)
    assert pierce_areas(Area.A1, Area.B2) == (Area.A1, Area.B2)
    assert pierce_areas(Area.A2, Area.F0) == (Area.A2, Area.A1, Area.F0)
    assert pierce_areas(Area.B1, Area.A1) == (Area.B1, Area.A1)
    with pytest.raises(RuleError):
        pierce_areas(Area.A1, Area.A1)


def test_f_map_3_pierce_hits_every_unit_on_the_line_only() -> None:
    """F-MAP-3: a pierce from F0 to B2 hits B1 and B2, not A1; the actor must be at the origin."""
    run = battle()
    run(AddUnit(name="b1", type="normal", area="B1", hp=30, fort_damage=5))
    run(AddUnit(name="a1", type="normal", area="A1", hp=30, fort_damage=5))
    run(AddUnit(name="b2", type="normal", area="B2", hp=30, fort_damage=5))
    run(AttackPierce(from_="F0", to="B2", damage=12, kind="magic", by="Alice"))
    assert run.event("attack.pierce")["areas"] == ["F0", "B1", "B2"]
    assert run.event("attack.pierce")["hit"] == ["b1", "b2"]
    assert (run.unit("b1").hp, run.unit("a1").hp, run.unit("b2").hp) == (24, 30, 24)
    run.refused(AttackPierce(from_="A1", to="B1", damage=12, by="Alice"), "fort.pierce_origin")


def test_f_map_4_positions_top_inside_outside() -> None:
    """F-MAP-4: top cannot melee but uses equipment; inside targets nothing; outside melees at F0."""
    run = battle()
    run(AddPC(name="Bob", position="inside", invoker="u2"))
    run(AddPC(name="Cid", position="outside", invoker="u3"))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=50, fort_damage=5))
    run(MoveUnit(unit="鬼", to="F0"))
    run.refused(AttackSingle(unit="鬼", bodies=2, melee=True, by="Alice"), "fort.melee_position")
    run.refused(AttackSingle(unit="鬼", bodies=2, by="Bob"), "fort.actor_inside")
    run.refused(LoadBallista(by="Bob"), "fort.equipment_not_at_top")
    run(AttackSingle(unit="鬼", bodies=2, melee=True, by="Cid"))
    assert run.unit("鬼").hp == 40
    run(AttackSingle(unit="鬼", bodies=1, by="Alice"))  # ranged from the top
    assert run.unit("鬼").hp == 35
    run(LoadBallista(by="Alice"))
    assert run.s.ballista.loaded


def test_f_map_5_melee_needs_the_same_area_and_position() -> None:
    """F-MAP-5: melee needs the same area; enemy units at F0 are outside."""
    run = battle()
    run(AddPC(name="Cid", position="outside", invoker="u3"))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=50, fort_damage=5))
    run.refused(AttackSingle(unit="鬼", bodies=1, melee=True, by="Cid"), "fort.melee_other_area")
    run(MovePC(name="Cid", area="A1"))
    run(AttackSingle(unit="鬼", bodies=3, melee=True, by="Cid"))
    assert run.unit("鬼").hp == 35


def test_f_map_6_leaving_f0_after_a_position_change_costs_10_m() -> None:
    """F-MAP-6: from the top, leaving F0 counts 10 m already moved; enforced when movement is known."""
    run = battle()  # Alice: top, move 20
    run.refused(MovePC(name="Alice", area="A2"), "fort.pc_move_too_far")  # 20 + 10 > 20
    run(MovePC(name="Alice", area="A1"))
    moved = run.event("pc.moved")
    assert (moved["distance"], moved["extra_m"], moved["from_position"], moved["to_position"]) == (
        10,
        10,
        "top",
        None,
    )
    run(AddPC(name="Cid", position="outside", move=20, invoker="u3"))
    run(MovePC(name="Cid", area="A2"))  # outside since before: 20 m, no extra
    assert run.event("pc.moved")["extra_m"] == 0
    run(AddPC(name="Dan", position="top", move=20, invoker="u4"))
    run(MovePC(name="Dan", position="outside"))
    run.refused(MovePC(name="Dan", area="B2"), "fort.pc_move_too_far")  # changed this round
    run(AddPC(name="Eve", position="inside", invoker="u5"))  # movement unknown: a reminder only
    run(MovePC(name="Eve", area="B2"))
    assert run.event("pc.moved")["extra_m"] == 10
    assert run.event("pc.moved")["move"] is None
    run.refused(MovePC(name="Alice", area="F0"), "fort.pc_move_too_far")  # F-TURN-3: 20 m this turn
    run(NextTurn())
    run(NextTurn())
    run(MovePC(name="Alice", area="F0"))
    assert run.pc("Alice").position.value == "outside"
    run.refused(MovePC(name="Eve", area="F0", position="top"), "fort.pc_enter_f0_outside")


def test_f_map_7_set_up_and_reinforcements() -> None:
    """F-MAP-7: PCs and soldiers start at F0, enemies anywhere but F0; reinforcements arrive at the end
    of the enemy side's turn."""
    run = battle()
    assert run.pc("Alice").area is Area.F0
    run.refused(AddUnit(name="x", type="normal", area="F0", hp=5, fort_damage=1), "fort.enemy_at_f0")
    run.refused(AddUnit(name="x", type="soldier", area="A1", hp=5, fort_damage=0), "fort.soldier_not_at_f0")
    run(AddUnit(name="援軍", type="normal", area="B2", hp=20, fort_damage=5, arrive_round=1))
    run.refused(AttackSingle(unit="援軍", bodies=1, by="Alice"), "fort.unit_not_arrived")
    run(NextTurn())
    assert not run.unit("援軍").arrived
    run(NextTurn())
    assert run.event("unit.arrived") == {"unit": "援軍", "area": "B2", "round": 1}
    assert run.unit("援軍").on_map
    run.refused(
        AddUnit(name="遅", type="normal", area="A2", hp=5, fort_damage=1, arrive_round=1),
        "fort.arrive_round_invalid",
    )


def test_f_map_1_trap_between_areas_that_are_not_adjacent_is_refused() -> None:
    """F-MAP-1, F-TRAP-1: a trap lies on an edge; F0-B2 is not one."""
    run = battle()
    run.refused(SetTrap(kind="mine", edge="F0-B2", uses=1), "fort.edge_not_adjacent")


def test_f_map_7_a_reinforcement_destroyed_before_it_came_does_not_arrive() -> None:
    """F-MAP-7, F-UNIT-6: a reinforcement at 0 HP before its round is not announced, stays off the map."""
    run = battle()
    run(AddUnit(name="援軍", type="normal", area="B2", hp=20, fort_damage=5, arrive_round=1))
    run(AddUnit(name="次", type="normal", area="A2", hp=20, fort_damage=5, arrive_round=1))
    run(SetUnitHP(unit="援軍", set=0))
    run(NextTurn())
    run(NextTurn())
    assert run.all_of("unit.arrived") == [{"unit": "次", "area": "A2", "round": 1}]
    assert run.event("battle.round_summary")["units_on_map"] == ["次"]
    assert not run.unit("援軍").on_map


def test_f_map_8_range_counts_areas_as_the_pierce_lines_do() -> None:
    """F-MAP-8: for a ranged effect A1–B2 and A2–B1 are range 1 (a move between them is 20 m); F0–A2 is 2."""
    assert attack_range(Area.A1, Area.B2) == attack_range(Area.B1, Area.A2) == 1
    assert (distance(Area.A1, Area.B2), distance(Area.B1, Area.A2)) == (20, 20)
    assert (
        attack_range(Area.F0, Area.A2),
        attack_range(Area.F0, Area.B1),
        attack_range(Area.A1, Area.A1),
    ) == (
        2,
        1,
        0,
    )
    run = battle()
    run(AddUnit(name="遠", type="normal", area="A2", hp=30, fort_damage=5))
    run(AttackArea(unit="遠", damage=1, radius=1, kind="fixed", by="Alice"))
    assert run.event("attack.area")["range"] == 2


def test_f_map_8_of_two_equally_short_paths_a_move_takes_the_one_nearer_the_fort() -> None:
    """F-MAP-8: A2→B1 goes by A1, B1→A2 by A1, B2→A1 by B1, A1→B2 by B1; ``via`` takes the other."""
    assert shortest_path(Area.A2, Area.B1) == (Area.A2, Area.A1, Area.B1)
    assert shortest_path(Area.B1, Area.A2) == (Area.B1, Area.A1, Area.A2)
    assert shortest_path(Area.B2, Area.A1) == (Area.B2, Area.B1, Area.A1)
    assert shortest_path(Area.A1, Area.B2) == (Area.A1, Area.B1, Area.B2)
    run = battle()
    run(AddUnit(name="狼", type="normal", area="A2", hp=30, fort_damage=5, move=20))
    run(NextTurn())
    run(MoveUnit(unit="狼", to="B1", via="B2"))
    assert run.event("unit.moved")["path"] == ["A2", "B2", "B1"]
