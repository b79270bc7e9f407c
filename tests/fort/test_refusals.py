"""Refusals: typed keys with values, and the state untouched (checked by the harness for every case)."""

from __future__ import annotations

import pytest
from fort_helpers import Run, battle

from engine.dice import DiceError, ScriptedDice
from engine.fort import (
    FORT,
    AddCommander,
    AddPC,
    AddUnit,
    AdvanceUnits,
    AttackArea,
    AttackPierce,
    AttackSingle,
    FireCannon,
    GMSet,
    LoadBallista,
    LoadCannon,
    MovePC,
    MoveUnit,
    NextTurn,
    RemovePC,
    Repair,
    SetCommanderHP,
    SetPCHP,
    SetTrap,
    SetUnitHP,
    Siege,
    StartBattle,
    UnitBarrage,
    replay,
)
from engine.fort.map import Area, Position
from engine.fort.state import TrapKind, UnitType
from engine.ruleset import RuleError


def test_battle_lifecycle_refusals() -> None:
    run = Run()
    run.refused(NextTurn(), "fort.no_battle")
    run.refused(StartBattle(rounds=0), "fort.rounds_invalid")
    run.refused(StartBattle(rounds=100), "fort.rounds_invalid")
    run.refused(StartBattle(rounds=3, fort_hp=0), "fort.fort_hp_invalid")
    run.refused(StartBattle(rounds=3, cannons=21), "fort.cannons_invalid")
    run.refused(StartBattle(rounds=3, first="gm"), "fort.side_invalid")
    run(StartBattle(rounds=3, first="ＥＮＥＭＹ"))
    run.refused(StartBattle(rounds=3), "fort.battle_running")


def test_who_acts() -> None:
    """``by:`` names a PC or a soldier; left out, the invoker's one PC."""
    run = battle()
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0))
    run.refused(Repair(), "fort.actor_required")
    run.refused(Repair(by="誰か"), "fort.actor_unknown")
    run.refused(Repair(by="鬼"), "fort.actor_not_allowed")
    run.refused(AttackSingle(unit="鬼", bodies=1, by="兵"), "fort.actor_not_pc")
    run(AddPC(name="Alt", invoker="u1"))
    err = run.refused(Repair(invoker="u1"), "fort.actor_ambiguous")
    assert err.values == {"pcs": ["Alice", "Alt"]}
    run(GMSet(target="fort.hp", value="280"))  # F-FORT-3: a repair at full HP is refused
    run(Repair(by="ａｌｉｃｅ"))  # names compare after NFKC and case folding
    assert run.event("fort.repaired")["by"] == "Alice"


def test_names_and_options() -> None:
    run = battle()
    # names are 1-32 characters without control characters (COMMANDS.md, Conventions; engine.limits)
    run.refused(AddPC(name="  "), "limits.name")
    run.refused(AddPC(name="x" * 33), "limits.name")
    run.refused(AddPC(name="a\nb"), "limits.name")
    run.refused(AddPC(name="alice"), "fort.name_taken")
    run.refused(AddCommander(name="ALICE", hp=3), "fort.name_taken")
    run.refused(AddPC(name="Bob", position="roof"), "fort.position_invalid")
    run.refused(AddPC(name="Bob", hp=-1), "fort.value_invalid")
    run.refused(AddUnit(name="x", type="normal", area="A1", hp=0, fort_damage=1), "fort.value_invalid")
    run.refused(
        AddUnit(name="x", type="soldier", area="F0", hp=5, fort_damage=0, arrive_round=2),
        "fort.soldier_reinforcement",
    )
    run.refused(
        AddUnit(name="x", type="normal", area="A1", hp=5, fort_damage=1, arrive_round=4),
        "fort.arrive_round_invalid",
    )
    run.refused(AddCommander(name="将", hp=5, area="F0"), "fort.enemy_at_f0")
    run.refused(SetTrap(kind="mine", edge="A1", uses=1), "fort.edge_invalid")
    run.refused(SetPCHP(name="Alice"), "fort.hp_option_required")
    run.refused(SetPCHP(name="Alice", delta=1, set=3), "fort.hp_options_both")  # its own message (issue 23)
    run.refused(SetPCHP(name="Nobody", delta=1), "fort.pc_unknown")
    run.refused(RemovePC(name="Nobody"), "fort.pc_unknown")
    run.refused(SetCommanderHP(name="Nobody", delta=1), "fort.commander_unknown")
    run.refused(SetUnitHP(unit="Nobody", delta=1), "fort.unit_unknown")


def test_pc_hp_tracking() -> None:
    """A PC's HP only if the group tracks it; ``delta`` never above the maximum."""
    run = battle()
    run(AddPC(name="Bob", invoker="u2"))
    run.refused(SetPCHP(name="Bob", delta=-3), "fort.pc_hp_untracked")
    run(SetPCHP(name="Bob", set=30))
    assert (run.pc("Bob").hp, run.pc("Bob").max_hp) == (30, 30)
    run(SetPCHP(name="Alice", delta=-15))
    run(SetPCHP(name="Alice", delta=100))
    assert run.event("pc.hp_changed") == {"pc": "Alice", "delta": 100, "set": None, "before": 25, "after": 40}


def test_pc_moves() -> None:
    run = battle()
    run.refused(MovePC(name="Alice"), "fort.option_required")
    run.refused(MovePC(name="Alice", position="top"), "fort.pc_move_same")
    # F-MAP-4: a position is one at F0; with a move away the refusal says where the PC really is
    moved_away = run.refused(MovePC(name="Alice", area="A1", position="outside"), "fort.position_with_area")
    assert moved_away.values == {"pc": "Alice", "at": "F0", "position": "top", "area": "A1"}
    run(MovePC(name="Alice", area="A1"))
    run.refused(MovePC(name="Alice", area="A1"), "fort.pc_move_same")
    run.refused(MovePC(name="Alice", position="top"), "fort.position_only_at_f0")
    run.refused(MovePC(name="Alice", area="Z9"), "fort.area_invalid")
    assert (run.pc("Alice").area, run.pc("Alice").position) == (Area.A1, None)
    err = run.refused(MovePC(name="Alice", area="F0"), "fort.pc_move_too_far")  # F-TURN-3: 20 m used
    assert err.values == {"pc": "Alice", "distance": 10, "extra": 0, "move": 20, "used": 20}
    run(NextTurn())
    run(NextTurn())  # F-TURN-3: renewed when the PC side's turn starts
    run(MovePC(name="Alice", area="F0", position="outside"))
    assert run.pc("Alice").position is Position.OUTSIDE


def test_attack_option_refusals() -> None:
    run = battle()
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0))
    run.refused(AttackArea(unit="鬼", damage=5, radius=31, by="Alice"), "fort.radius_invalid")
    run.refused(AttackArea(unit="鬼", damage=5, radius=3, targets=0, by="Alice"), "fort.targets_invalid")
    run.refused(
        AttackArea(unit="鬼", damage=5, radius=3, kind="holy", by="Alice"), "fort.damage_kind_invalid"
    )
    run.refused(AttackArea(unit="鬼", damage="2d+", radius=3, by="Alice"), "fort.dice_invalid")
    run.refused(AttackArea(unit="鬼", damage="2D6>=7", radius=3, by="Alice"), "fort.dice_invalid")
    run.refused(AttackArea(unit="兵", damage=5, radius=3, by="Alice"), "fort.target_not_enemy")
    run.refused(AttackPierce(from_="F0", to="F0", damage=5, by="Alice"), "fort.pierce_same_area")
    run.refused(UnitBarrage(unit="鬼"), "fort.unit_no_strike")
    run(AttackArea(unit="鬼", damage="１０", radius=3, by="Alice"))  # a full-width number is a number
    assert run.event("unit.damaged")["rolls"] == []


def test_unit_move_refusals() -> None:
    run = battle()
    run(AddUnit(name="鬼", type="normal", area="A2", hp=30, fort_damage=5, strike="2d"))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0))
    run.refused(MoveUnit(unit="鬼", to="B1", via="F0"), "fort.via_invalid")
    run.refused(MoveUnit(unit="鬼", to="F0"), "fort.unit_move_too_far")
    run.refused(UnitBarrage(unit="鬼"), "fort.barrage_no_target")
    run(NextTurn())
    run.refused(AdvanceUnits(unit="兵"), "fort.unit_not_enemy")


def test_siege_refusals() -> None:
    run = battle()
    run.refused(Siege(effect="meteor", roll="2d+30"), "fort.siege_meteor_rating")
    run.refused(Siege(effect="fixed", amount=-5), "fort.amount_invalid")


def test_gm_set_overrides_within_the_invariants() -> None:
    """/gm set overrides any value; a value that breaks an invariant is refused with a reason."""
    run = battle()
    run(AddUnit(name="a.b", type="normal", area="A1", hp=30, fort_damage=5))
    run(AddCommander(name="将", hp=10))
    run(SetTrap(kind="mine", edge="A1-F0", uses=1))
    run(GMSet(target="cannon.2.shells", value="5"))
    assert run.s.cannons == (0, 5)
    assert run.event("battle.gm_set") == {"target": "cannon.2.shells", "before": 0, "after": 5}
    assert run.refused(GMSet(target="cannon.2.shells", value="6"), "fort.gm_set_invalid").values == {
        "target": "cannon.2.shells",
        "value": "6",
        "reason": "out_of_range",
        "detail": {"min": 0, "max": 5},
    }
    run.refused(GMSet(target="cannon.3.shells", value="1"), "fort.cannon_unknown")
    run(GMSet(target="unit.a.b.area", value="Ｂ２"))  # a name with a dot
    assert run.unit("a.b").area is Area.B2
    assert run.refused(GMSet(target="unit.a.b.hp", value="31"), "fort.gm_set_invalid").values["detail"] == {
        "min": 0,  # F-UNIT-6: HP 0 destroys the unit; below it means nothing more
        "max": 30,
    }
    run(GMSet(target="unit.a.b.type", value="flying"))
    assert run.unit("a.b").type is UnitType.FLYING
    run.refused(GMSet(target="unit.a.b.type", value="ram"), "fort.gm_set_invalid")  # a ram needs a strike
    run(GMSet(target="trap.mine.F0-A1.uses", value="0"))
    assert run.s.traps[0].kind is TrapKind.MINE and run.s.traps[0].uses == 0
    run.refused(GMSet(target="trap.mine.F0-A1.uses", value="-1"), "fort.gm_set_invalid")
    run(GMSet(target="ballista.loaded", value="true"))
    assert run.s.ballista.loaded
    run(GMSet(target="pc.Alice.position", value="inside"))
    run.refused(LoadBallista(by="Alice"), "fort.equipment_not_at_top")
    run(GMSet(target="commander.将.hp", value="0"))
    assert run.kinds() == ["battle.gm_set", "battle.confused"]
    run(GMSet(target="round", value="3"))
    run.refused(GMSet(target="round", value="4"), "fort.gm_set_invalid")
    run.refused(GMSet(target="fort.hp", value="301"), "fort.gm_set_invalid")
    run.refused(GMSet(target="weather", value="rain"), "fort.gm_set_target_unknown")
    run.refused(GMSet(target="unit.nobody.hp", value="1"), "fort.unit_unknown")
    run(GMSet(target="fort.hp", value="0"))  # F-FORT-6 holds for the GM too
    assert run.event("battle.ended")["outcome"] == "collapse"


def test_cannon_refusals_for_the_invoker_without_a_pc() -> None:
    run = battle()
    run.refused(LoadCannon(cannon=1, check=20, invoker="stranger"), "fort.actor_required")
    run.refused(FireCannon(cannon=3, unit="x", by="Alice"), "fort.cannon_unknown")


def test_a_replay_with_dice_left_over_is_refused() -> None:
    run = battle()
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5))
    with pytest.raises(RuleError) as caught:
        replay(run.s, [(AttackArea(unit="鬼", damage="2d", radius=1, by="Alice"), [3, 4, 5])])
    assert caught.value.key == "fort.replay_dice_left"
    assert caught.value.values == {"step": 1, "left": 1}


def test_running_out_of_scripted_dice_changes_nothing() -> None:
    """A command whose dice run out is refused by the dice source and leaves the state as it was."""
    run = battle()
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5))
    before = run.s
    with pytest.raises(RuleError):
        FORT.apply(before, GMSet(target="nope", value="1"), ScriptedDice([]))
    with pytest.raises(DiceError) as caught:
        FORT.apply(before, AttackArea(unit="鬼", damage="2d", radius=1, by="Alice"), ScriptedDice([3]))
    assert (caught.value.key, caught.value.values) == ("dice.script_short", {"left": 1})
    assert run.s is before and run.unit("鬼").hp == 30
