"""Whole battles with scripted dice: one the defence holds, one where the fort collapses.

Together they touch every unit type, both traps, cannons (with a failed load), the ballista, repair,
heal, a siege effect, commander confusion, reinforcements and the end-of-battle damage; each is then
replayed from its recorded dice and exported/imported.
"""

from __future__ import annotations

from fort_helpers import Run

from engine.fort import (
    FORT,
    AddCommander,
    AddPC,
    AddUnit,
    AdvanceUnits,
    AttackArea,
    AttackPierce,
    AttackSingle,
    EndBattle,
    FireBallista,
    FireCannon,
    HealFort,
    LoadBallista,
    LoadCannon,
    MovePC,
    NextTurn,
    Repair,
    SetCommanderHP,
    SetTrap,
    Siege,
    StartBattle,
    UnitBarrage,
    replay,
)
from engine.fort.state import BattleOutcome, Turn


def test_the_defence_holds() -> None:
    """F-END-1, F-END-2, F-UNIT-12, F-CAN-2, F-CAN-3, F-BAL-1, F-TRAP-3, F-TRAP-4, F-FORT-2, F-FORT-3."""
    run = Run()
    run(StartBattle(rounds=3, title="北の砦"))
    run(AddPC(name="Alice", position="top", hp=40, move=20, invoker="u1"))
    run(AddPC(name="Bob", position="outside", hp=35, move=10, invoker="u2"))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0, strike="2d+3", defense=2))
    run(AddUnit(name="ゴブリン隊", type="normal", area="A1", hp=40, fort_damage=10, strike="2d+6", defense=2))
    run(AddUnit(name="破城槌", type="ram", area="A2", hp=50, fort_damage=0, strike="2d+10", defense=4))
    run(AddUnit(name="大鴉", type="flying", area="B2", hp=20, fort_damage=5, move=20))
    run(AddUnit(name="増援", type="normal", area="B2", hp=30, fort_damage=8, arrive_round=2))
    run(AddCommander(name="隊長", hp=25, area="A2"))
    run(SetTrap(kind="mine", edge="A1-F0", uses=1))
    run(SetTrap(kind="barricade", edge="A2-A1", uses=1))

    # Round 1, PCs: two shells (2D6+10 = 19), both into the goblins: 21 + 17 = 38.
    run(LoadCannon(cannon=1, bonus=10, invoker="u1"), 5, 4)
    assert run.s.cannons == (2, 0)
    run(FireCannon(cannon=1, unit="ゴブリン隊", by="Alice"), 3, 4, 2, 2)
    assert run.unit("ゴブリン隊").hp == 2 and run.s.cannons == (0, 0)
    run(AttackSingle(unit="ゴブリン隊", bodies=1, invoker="u2"))
    assert run.kinds() == ["unit.damaged", "unit.destroyed"]
    run(SetCommanderHP(name="隊長", delta=-25))
    assert run.event("battle.confused") == {"round": 1}
    # Round 1, enemy: confused, nobody moves.
    run(NextTurn())
    run.refused(AdvanceUnits(), "fort.enemy_confused_all")
    run(NextTurn())
    assert "battle.confusion_ended" in run.kinds()
    assert (run.s.round, run.s.turn) == (2, Turn.PC)

    # Round 2, PCs: the soldier loads the ballista, Alice fires it at the ram: K90 [4,3] 18 + 20 − 4.
    run(LoadBallista(by="兵"))
    run(FireBallista(unit="破城槌", invoker="u1"), 4, 3)
    assert run.unit("破城槌").hp == 16
    # Round 2, enemy: the ram breaks the barricade; the raven flies into F0 (5).
    run(NextTurn())
    run(AdvanceUnits())
    assert run.event("trap.rammed")["uses_after"] == 0
    assert [(m["unit"], m["to"]) for m in run.all_of("unit.moved")] == [("破城槌", "A1"), ("大鴉", "F0")]
    assert run.s.fort_hp == 295
    run(NextTurn())
    assert run.event("unit.arrived") == {"unit": "増援", "area": "B2", "round": 2}

    # Round 3, PCs: repair by the soldier; a failed load burns Alice (K40 [4,4] 10 + 12); a spell.
    run(Repair(by="兵"))
    assert run.event("fort.repaired") == {"by": "兵", "amount": 10, "before": 295, "after": 300}
    run(LoadCannon(cannon=2, invoker="u1"), 2, 3, 4, 4)
    assert run.kinds() == ["cannon.load_failed", "pc.damaged"]
    assert run.pc("Alice").hp == 18
    run(AttackArea(unit="破城槌", damage="2d+5", radius=3, kind="magic", invoker="u1"), 3, 3)
    assert run.unit("破城槌").hp == 5
    # Round 3, enemy: the raven at F0 (5); the ram dies on the mine (2D6+10 = 13); reinforcements march.
    run(NextTurn())
    assert run.event("fort.damaged") == {
        "source": "turn_start",
        "unit": "大鴉",
        "roll": None,
        "amount": 5,
        "before": 300,
        "after": 295,
    }
    run(AdvanceUnits(), 1, 2)
    # it falls on the A1-F0 edge: destroyed in A1, no move reported, no fort damage
    assert run.unit("破城槌").destroyed and run.unit("破城槌").area.value == "A1"
    assert [m["unit"] for m in run.all_of("unit.moved")] == ["増援"]
    assert [f["unit"] for f in run.all_of("fort.damaged")] == []
    assert run.unit("増援").area.value == "B1"
    run(HealFort(amount=15))
    assert run.s.fort_hp == 300
    # The end: every unit left deals its fort damage once more: raven 5, reinforcements 8.
    run(NextTurn())
    assert [(d["unit"], d["source"], d["after"]) for d in run.all_of("fort.damaged")] == [
        ("大鴉", "end", 295),
        ("増援", "end", 287),
    ]
    assert run.event("battle.ended") == {
        "outcome": "success",
        "reason": "rounds",
        "round": 3,
        "fort_hp": 287,
        "fort_max_hp": 300,
        "warhorn": [],
    }
    assert run.s.outcome is BattleOutcome.SUCCESS

    assert replay(None, run.log) == run.s
    assert FORT.import_(FORT.export(run.s)) == run.s


def test_the_fort_collapses() -> None:
    """F-FORT-6, F-FORT-5, F-TRAP-3, F-UNIT-8, F-UNIT-10, F-MAP-3, F-UNIT-5, F-TURN-1, F-END-2."""
    run = Run()
    run(StartBattle(rounds=2, fort_hp=60, cannons=1, first="enemy", title="崩れる砦"))
    run(AddPC(name="Cid", position="outside", hp=40, move=20, invoker="u3"))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=60, fort_damage=15, strike="2d+8", defense=3))
    run(AddUnit(name="槌", type="ram", area="B1", hp=40, fort_damage=0, strike="2d+12"))
    run(AddUnit(name="蝙蝠", type="flying", area="A2", hp=15, fort_damage=6, move=20))
    run(AddUnit(name="援軍", type="normal", area="A2", hp=30, fort_damage=10, arrive_round=1))
    run(AddCommander(name="将", hp=30, area="B2"))
    run(SetTrap(kind="barricade", edge="A1-F0", uses=1))

    # Round 1, enemy first: the barricade holds the ogre; the ram hits the fort for 2d+12 = 23; the bat 6.
    run(AdvanceUnits(), 6, 5)
    assert run.event("trap.barricade")["stays"] == "A1"
    assert [(d["unit"], d["amount"], d["after"]) for d in run.all_of("fort.damaged")] == [
        ("槌", 23, 37),
        ("蝙蝠", 6, 31),
    ]
    # 同時攻撃 on Cid, every strike applied as a hit: d6 = 2, strikes [3,3] 18 and [1,2] 15.
    run(UnitBarrage(unit="槌", apply_hp=True), 2, 3, 3, 1, 2)
    assert run.event("unit.barrage")["damages"] == [18, 15]
    assert run.pc("Cid").hp == 7
    # A mattock on the wall: K20+20 [4,4] = 6 + 20 = 26 → 11.
    run(Siege(effect="mattock", roll="K20+20"), 4, 4)
    assert run.s.fort_hp == 20
    run(NextTurn())
    assert run.event("unit.arrived")["unit"] == "援軍"

    # Round 1, PCs: Cid melees the ram (3 bodies, 15), then a pierce from F0 to A2: 11 → 6, 8 → 4, 16 → 8.
    run(AttackSingle(unit="槌", bodies=3, melee=True, by="Cid"))
    run(AttackPierce(from_="F0", to="A2", damage="2d+4", kind="magic", by="Cid"), 3, 4, 2, 2, 6, 6)
    assert run.event("attack.pierce")["hit"] == ["鬼", "槌", "援軍"]
    assert [run.unit(n).hp for n in ("鬼", "槌", "蝙蝠", "援軍")] == [54, 21, 15, 22]
    run.refused(LoadCannon(cannon=1, check=24, by="Cid"), "fort.equipment_not_at_top")
    run(MovePC(name="Cid", position="top"))
    run(LoadCannon(cannon=1, check=24, by="Cid"))
    assert run.s.cannons == (4,)

    # Round 2, enemy: at the start the ram rolls 2d+12 = 20 and the fort falls at once; the bat never hits.
    run(NextTurn(), 4, 4)
    assert [d["unit"] for d in run.all_of("fort.damaged")] == ["槌"]
    assert run.event("battle.ended") == {
        "outcome": "collapse",
        "reason": "collapse",
        "round": 2,
        "fort_hp": 0,
        "fort_max_hp": 60,
        "warhorn": ["将"],
    }
    run.refused(FireCannon(cannon=1, unit="鬼", by="Cid"), "fort.battle_over")
    run(EndBattle(outcome="retreat"))
    assert run.s.outcome is BattleOutcome.RETREAT

    assert replay(None, run.log) == run.s
    assert FORT.import_(FORT.export(run.s)) == run.s
