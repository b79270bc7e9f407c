"""One main action per unit a turn (F-UNIT-14); actions belong to their side's turn, allowances renewed
when it starts (F-TURN-3)."""

from __future__ import annotations

import pytest
from fort_helpers import battle

from engine.fort import (
    AddPC,
    AddUnit,
    AdvanceUnits,
    AttackSingle,
    FireCannon,
    GMSet,
    LoadCannon,
    MovePC,
    MoveUnit,
    NextTurn,
    SetCommanderHP,
    SetUnitHP,
    UnitAttack,
    UnitBarrage,
)
from engine.fort.rules_turn import action_side, check_turn
from engine.fort.state import Side
from engine.ruleset import RuleError


def test_f_unit_14_a_unit_attack_then_a_barrage_by_the_same_unit_is_refused() -> None:
    """F-UNIT-14 (the issue's reproduction): ``/unit attack`` then ``/unit barrage`` by the same unit in
    one turn: the second is refused, naming the first; the GM's ``acted`` override allows it; the next
    turn of its side renews it."""
    run = battle()
    run(AddPC(name="Bob", position="outside", hp=30, invoker="u2"))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0, position="outside"))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=40, fort_damage=5, strike="2d+2"))
    run(NextTurn())
    run(MoveUnit(unit="鬼", to="F0"))
    run(UnitAttack(attacker="鬼", target="兵"), 3, 3)
    assert (run.unit("兵").hp, run.unit("鬼").acted) == (22, "unit_attack")
    err = run.refused(UnitBarrage(unit="鬼"), "fort.unit_already_acted")
    assert err.values == {"name": "鬼", "action": "unit_attack"}
    run.refused(UnitAttack(attacker="鬼", target="兵"), "fort.unit_already_acted")
    run(GMSet(target="unit.鬼.acted", value="false"))
    assert run.event("battle.gm_set") == {"target": "unit.鬼.acted", "before": True, "after": False}
    run(UnitBarrage(unit="鬼"), 1, 2, 2)  # Bob: one strike, 2 + 2 + 2
    assert run.event("unit.barrage")["damages"] == [6]
    run.refused(UnitBarrage(unit="鬼"), "fort.unit_already_acted")
    run(NextTurn())  # the PC side's turn: the enemy unit's main action is not renewed yet
    assert run.unit("鬼").acted == "barrage"
    run(NextTurn())  # its side's turn starts: renewed
    assert run.unit("鬼").acted is None
    run(UnitAttack(attacker="鬼", target="兵", hit=False))


def test_f_unit_14_the_gm_may_mark_a_main_action_as_taken() -> None:
    """F-UNIT-14: ``/gm set unit.<name>.acted value:true`` marks the main action as taken."""
    run = battle()
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0))
    run(GMSet(target="unit.兵.acted", value="true"))
    err = run.refused(LoadCannon(cannon=1, by="兵"), "fort.unit_already_acted")
    assert err.values == {"name": "兵", "action": "gm"}


def test_f_turn_3_every_action_belongs_to_a_side() -> None:
    """F-TURN-3: PCs' and soldiers' actions are the PC side's, enemy units' the enemy side's; set-up, HP
    and the GM's overrides belong to no turn."""
    run = battle()
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5))
    s = run.s
    assert action_side(s, AttackSingle(unit="鬼", bodies=1)) is Side.PC
    assert action_side(s, FireCannon(cannon=1, unit="鬼")) is Side.PC
    assert action_side(s, MovePC(name="Alice", area="A1")) is Side.PC
    assert action_side(s, MoveUnit(unit="兵", to="A1")) is Side.PC
    assert action_side(s, UnitAttack(attacker="兵", target="鬼")) is Side.PC
    assert action_side(s, MoveUnit(unit="ｵﾆ", to="F0")) is None  # no such unit: the rules will say
    assert action_side(s, MoveUnit(unit="鬼", to="F0")) is Side.ENEMY
    assert action_side(s, UnitBarrage(unit="鬼")) is Side.ENEMY
    assert action_side(s, AdvanceUnits()) is Side.ENEMY
    assert action_side(s, SetUnitHP(unit="鬼", delta=-1)) is None
    assert action_side(s, SetCommanderHP(name="x", delta=-1)) is None
    assert action_side(s, GMSet(target="round", value="2")) is None


def test_f_turn_3_cannon_fired_and_pcs_attacking_in_the_enemy_turn() -> None:
    """F-TURN-3 (the issue's reproduction): in the enemy side's turn a player's cannon shot or attack is
    refused, saying whose turn it is; the GM's is carried out and every event of it marked."""
    run = battle()
    run(AddUnit(name="鬼", type="normal", area="A1", hp=60, fort_damage=5))
    run(LoadCannon(cannon=1, check=15, by="Alice"))
    run(NextTurn())
    fire = FireCannon(cannon=1, unit="鬼", by="Alice")
    with pytest.raises(RuleError) as refused:
        check_turn(run.s, fire, gm=False)
    assert (refused.value.key, refused.value.values) == ("fort.not_your_turn", {"turn": "enemy", "round": 1})
    with pytest.raises(RuleError):
        check_turn(run.s, AttackSingle(unit="鬼", bodies=1, by="Alice"), gm=False)
    check_turn(run.s, fire, gm=True)  # the GM's goes through
    check_turn(run.s, MoveUnit(unit="鬼", to="F0"), gm=False)  # in its own side's turn
    run(fire, 3, 4)
    assert [(e.kind, e.data["out_of_turn"]) for e in run.events] == [
        ("cannon.fired", "enemy"),
        ("unit.damaged", "enemy"),
    ]
    assert run.unit("鬼").hp == 39
    run(MoveUnit(unit="鬼", to="F0"))  # in its side's turn: not marked
    assert all("out_of_turn" not in e.data for e in run.events)


def test_f_turn_3_a_unit_moved_in_the_pc_turn_keeps_its_allowance_for_the_enemy_turn() -> None:
    """F-TURN-3 (the issue's reproduction): the GM moves a unit in the PC side's turn (marked); its
    movement is renewed when the enemy side's turn starts, so it still moves its full 10 m then."""
    run = battle()
    run(AddUnit(name="狼", type="normal", area="A2", hp=30, fort_damage=8))
    run(MoveUnit(unit="狼", to="A1"))
    assert run.event("unit.moved")["out_of_turn"] == "pc"
    run.refused(MoveUnit(unit="狼", to="F0"), "fort.unit_move_too_far")  # 10 m used in this turn
    run(NextTurn())
    assert run.unit("狼").moved_m == 0
    run(MoveUnit(unit="狼", to="F0"))
    assert run.s.fort_hp == 292


def test_f_turn_3_no_allowance_carries_over_between_turns() -> None:
    """F-TURN-3: what a unit or a PC moved, a unit's halt and its main action are renewed when its side's
    turn starts, and only then."""
    run = battle()  # Alice: move 20
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0, position="outside", strike="2d"))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5, move=20))
    run(MovePC(name="Alice", area="A1"))  # 10 + 10 from the top
    run(MoveUnit(unit="兵", to="A1"))
    run(UnitAttack(attacker="兵", target="鬼", hit=False))
    assert (run.pc("Alice").moved_m, run.unit("兵").moved_m, run.unit("兵").acted) == (20, 10, "unit_attack")
    run(NextTurn())  # enemy side: the PC side keeps what it used
    assert (run.pc("Alice").moved_m, run.unit("兵").acted) == (20, "unit_attack")
    run(AdvanceUnits())  # 鬼 leaves the soldier's area (a block stops a unit entering one) for F0
    assert run.unit("鬼").moved_m == 10
    run(NextTurn())  # PC side: renewed
    assert (run.pc("Alice").moved_m, run.unit("兵").moved_m, run.unit("兵").acted) == (0, 0, None)
    assert run.unit("鬼").moved_m == 10  # the enemy's only at its own turn
    run(NextTurn())
    assert run.unit("鬼").moved_m == 0
