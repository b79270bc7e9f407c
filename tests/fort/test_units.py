"""F-UNIT-1..13 and F-DICE-1: enemy units, soldiers, commanders, damage."""

from __future__ import annotations

import pytest
from fort_helpers import battle

from engine.fort import (
    AddCommander,
    AddPC,
    AddUnit,
    AdvanceUnits,
    AttackArea,
    AttackPierce,
    AttackSingle,
    FireCannon,
    GMSet,
    LoadCannon,
    MovePC,
    MoveUnit,
    NextTurn,
    Repair,
    SetCommanderHP,
    SetTrap,
    SetUnitHP,
    UnitAttack,
    UnitBarrage,
)
from engine.fort.map import Area
from engine.fort.state import UnitType


def test_f_unit_1_a_unit_has_its_own_stats() -> None:
    """F-UNIT-1: HP, fort damage, strike (a dice expression), defence, movement (default 10), type."""
    run = battle()
    run(
        AddUnit(
            name="ゴブリン隊", type="normal", area="Ａ２", hp=40, fort_damage=10, strike="２ｄ＋６", defense=2
        )
    )
    u = run.unit("ゴブリン隊")
    assert (u.type, u.area, u.hp, u.max_hp, u.fort_damage, u.strike, u.defense, u.move) == (
        UnitType.NORMAL,
        Area.A2,
        40,
        40,
        10,
        "2D+6",
        2,
        10,
    )
    run.refused(
        AddUnit(name="x", type="normal", area="A2", hp=5, fort_damage=1, strike="2d+"), "fort.dice_invalid"
    )
    run.refused(AddUnit(name="x", type="giant", area="A2", hp=5, fort_damage=1), "fort.unit_type_invalid")
    run.refused(AddUnit(name="ゴブリン隊", type="normal", area="A2", hp=5, fort_damage=1), "fort.name_taken")
    run.refused(AddUnit(name="ＡＬＩＣＥ", type="normal", area="A2", hp=5, fort_damage=1), "fort.name_taken")


def test_f_map_2_a_move_not_a_multiple_of_10_is_the_multiple_below() -> None:
    """F-MAP-2 and COMMANDS.md's Conventions: ``move:`` 15 is 10 m, 5 is 10 m (at least 10), 25 is 20 m,
    and the reply says so (``unit.move_rounded``); a multiple of 10 is kept and nothing is said."""
    run = battle()
    for name, given, move in (("a", 15, 10), ("b", 5, 10), ("c", 25, 20), ("d", 12, 10)):
        events = run(AddUnit(name=name, type="normal", area="A2", hp=5, fort_damage=1, move=given))
        assert [e.kind for e in events] == ["unit.added", "unit.move_rounded"]
        assert events[0].data["move"] == move
        assert events[1].data == {"unit": name, "given": given, "move": move}
        assert run.unit(name).move == move
    events = run(AddUnit(name="e", type="normal", area="A2", hp=5, fort_damage=1, move=30))
    assert [e.kind for e in events] == ["unit.added"] and run.unit("e").move == 30


def test_f_unit_2_characters_never_block_units_do() -> None:
    """F-UNIT-2: a PC in the way does not stop a unit; a soldier unit does; flying units pass it."""
    run = battle()
    run(AddPC(name="Cid", position="outside", invoker="u3"))
    run(MovePC(name="Cid", area="A1"))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, move=20))
    run(MoveUnit(unit="兵", to="B1"))
    run(AddUnit(name="狼", type="normal", area="A2", hp=20, fort_damage=5, move=20))
    run(AddUnit(name="熊", type="normal", area="B2", hp=20, fort_damage=5, move=20))
    run(AddUnit(name="鷲", type="flying", area="B2", hp=20, fort_damage=5, move=20))
    run(NextTurn())
    run(AdvanceUnits())
    moved = {m["unit"]: (m["to"], m["stopped"]) for m in run.all_of("unit.moved")}
    assert moved == {"狼": ("F0", None), "熊": ("B1", "blocked"), "鷲": ("F0", None)}
    assert run.s.fort_hp == 290


def test_f_unit_3_single_target_deals_5_per_body_at_most_50() -> None:
    """F-UNIT-3: 群れで受ける: 5 fixed damage per body it could target, ten bodies at most."""
    run = battle()
    run(AddUnit(name="群れ", type="normal", area="A1", hp=80, fort_damage=5, defense=10))
    run(AttackSingle(unit="群れ", bodies=3, by="Alice"))
    assert run.event("unit.damaged")["taken"] == 15
    run(AttackSingle(unit="群れ", bodies=10, by="Alice"))
    assert run.unit("群れ").hp == 80 - 15 - 50
    run.refused(AttackSingle(unit="群れ", bodies=11, by="Alice"), "fort.bodies_invalid")


def test_f_unit_4_area_catch_d6_per_other_unit_and_own_damage_rolls() -> None:
    """F-UNIT-4: r5 catches on 1-2; a d6 per other ground unit, then damage unit by unit, target first."""
    run = battle()
    for name in ("的", "甲", "乙"):
        run(AddUnit(name=name, type="normal", area="A1", hp=50, fort_damage=5))
    run(AddUnit(name="鳥", type="flying", area="A1", hp=50, fort_damage=5))
    run(AddUnit(name="遠", type="normal", area="A2", hp=50, fort_damage=5))
    # d6 甲 = 2 (caught), d6 乙 = 3 (not); 鳥 rolls nothing; damage 的 2d+3 = 3+4, 甲 = 1+2
    run(AttackArea(unit="的", damage="2d+3", radius=5, kind="magic", by="Alice"), 2, 3, 3, 4, 1, 2)
    area = run.event("attack.area")
    assert area["checks"] == [
        {"unit": "甲", "die": 2, "caught": True},
        {"unit": "乙", "die": 3, "caught": False},
    ]
    assert area["hit"] == ["的", "甲"]
    assert [(d["unit"], d["taken"]) for d in run.all_of("unit.damaged")] == [("的", 10), ("甲", 6)]
    assert [run.unit(n).hp for n in ("的", "甲", "乙", "鳥", "遠")] == [40, 44, 50, 50, 50]
    run(AttackArea(unit="的", damage=8, radius=3, kind="fixed", by="Alice"))  # r3: no dice, target only
    assert run.event("attack.area")["hit"] == ["的"]
    run(AttackArea(unit="的", damage=8, radius=7, kind="fixed", targets=3, by="Alice"))  # r7: all, /3
    assert run.event("attack.area")["hit"] == ["的", "甲", "乙"]
    assert run.event("attack.area")["over_cap"] == ["鳥"]


def test_f_unit_5_pierce_halves_applied_damage_rounding_up() -> None:
    """F-UNIT-5: half the applied damage (after defence), a quarter if resisted, rounded up."""
    run = battle()
    run(AddUnit(name="硬", type="normal", area="A1", hp=50, fort_damage=5, defense=4))
    run(AddUnit(name="柔", type="normal", area="A2", hp=50, fort_damage=5))
    run(AttackPierce(from_="F0", to="A2", damage="2d+10", kind="physical", by="Alice"), 3, 4, 6, 6)
    a, b = run.all_of("unit.damaged")
    assert (a["raw"], a["applied"], a["taken"]) == ([17], 13, 7)  # 17 − 4 = 13 → 7
    assert (b["raw"], b["applied"], b["taken"]) == ([22], 22, 11)
    run(AttackPierce(from_="F0", to="A2", damage=13, kind="magic", resisted=True, by="Alice"))
    assert [d["taken"] for d in run.all_of("unit.damaged")] == [4, 4]  # ⌈13/4⌉
    assert (run.unit("硬").hp, run.unit("柔").hp) == (39, 35)


def test_f_unit_6_defence_counts_for_physical_only_and_destruction() -> None:
    """F-UNIT-6: physical minus defence (not below 0); magic and fixed in full; at 0 HP destroyed, kept."""
    run = battle()
    run(AddUnit(name="盾", type="normal", area="A1", hp=12, fort_damage=5, defense=5))
    run(AttackArea(unit="盾", damage=4, radius=1, kind="physical", by="Alice"))
    assert run.event("unit.damaged")["taken"] == 0
    run(AttackArea(unit="盾", damage=9, radius=1, kind="physical", by="Alice"))
    assert run.unit("盾").hp == 8
    run(AttackArea(unit="盾", damage=8, radius=1, kind="magic", by="Alice"))
    assert run.kinds()[-1] == "unit.destroyed"
    assert run.unit("盾").destroyed and run.unit("盾").hp == 0
    run.refused(AttackSingle(unit="盾", bodies=1, by="Alice"), "fort.unit_destroyed")
    run(NextTurn())
    run(AdvanceUnits())  # a destroyed unit never moves
    assert run.event("unit.advanced")["moved"] == 0


def test_f_dice_1_rating_roll_1zoro_deals_nothing_plain_sums_do() -> None:
    """F-DICE-1: a K roll with 1ゾロ first deals nothing, bonus included; 2D6+10 has no automatic failure."""
    run = battle()
    run(AddUnit(name="的", type="normal", area="A1", hp=50, fort_damage=5))
    run(AttackArea(unit="的", damage="K20+10", radius=1, kind="magic", by="Alice"), 1, 1)
    d = run.event("unit.damaged")
    assert (d["taken"], d["rolls"][0]["total"], d["rolls"][0]["fumble"]) == (0, None, True)
    run(AttackArea(unit="的", damage="2D6+10", radius=1, kind="magic", by="Alice"), 1, 1)
    assert run.event("unit.damaged")["taken"] == 12
    assert run.unit("的").hp == 38


def test_f_unit_7_unit_attack_strike_minus_defence() -> None:
    """F-UNIT-7: one melee attack on a unit in the same area; hit declared by whoever runs it (the soldier
    is outside: F-MAP-4; one attack a turn, the GM allows another: F-UNIT-14)."""
    run = battle()
    run(
        AddUnit(
            name="兵",
            type="soldier",
            area="F0",
            hp=30,
            fort_damage=0,
            strike="2d+4",
            defense=1,
            position="outside",
        )
    )
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5, strike="2d+6", defense=3))
    run(AddUnit(name="鳥", type="flying", area="A1", hp=30, fort_damage=5, move=20))
    run.refused(UnitAttack(attacker="兵", target="鬼"), "fort.melee_other_area")
    run(NextTurn())
    run(MoveUnit(unit="鬼", to="F0"))
    run(UnitAttack(attacker="鬼", target="兵"), 5, 6)  # 11 + 6 = 17 − 1 = 16
    assert run.event("unit.damaged")["taken"] == 16
    assert run.unit("兵").hp == 14
    run(GMSet(target="unit.鬼.acted", value="false"))
    run(UnitAttack(attacker="鬼", target="兵", hit=False))
    assert run.kinds() == ["unit.attacked"]
    run(MoveUnit(unit="鳥", to="F0"))
    run.refused(UnitAttack(attacker="兵", target="鳥"), "fort.melee_flying")
    run.refused(UnitAttack(attacker="鳥", target="鬼"), "fort.unit_attack_same_side")
    run.refused(UnitAttack(attacker="鳥", target="兵"), "fort.unit_no_strike")


def test_f_unit_8_barrage_a_d6_per_character_then_that_many_strikes() -> None:
    """F-UNIT-8: for each character in the melee area (join order) a d6, then that many strike rolls."""
    run = battle()  # Alice is at the top: not in the melee
    run(AddPC(name="Bob", position="outside", hp=30, invoker="u2"))
    run(AddPC(name="Cid", position="outside", invoker="u3"))  # HP not tracked
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5, strike="2d+2"))
    run(NextTurn())
    run(MoveUnit(unit="鬼", to="F0"))
    run(UnitBarrage(unit="鬼", apply_hp=True), 2, 3, 3, 1, 1, 1, 6, 6)  # Bob: 2 × (6+2, 2+2); Cid: 1 × (12+2)
    bob, cid = run.all_of("unit.barrage")
    assert (bob["target"], bob["count"], bob["damages"], bob["total"]) == ("Bob", 2, [8, 4], 12)
    assert (cid["target"], cid["count"], cid["damages"]) == ("Cid", 1, [14])
    assert run.pc("Bob").hp == 18
    assert run.event("pc.damaged", 1) == {
        "pc": "Cid",
        "source": "barrage",
        "unit": "鬼",
        "amount": 14,
        "before": None,
        "after": None,
    }
    # By default the bot only lists the attacks: the players resolve evasion and apply HP (a second
    # barrage in one turn only with the GM's leave, F-UNIT-14).
    run(GMSet(target="unit.鬼.acted", value="false"))
    run(UnitBarrage(unit="鬼"), 1, 2, 2, 1, 3, 3)
    bob, cid = run.all_of("unit.barrage")
    assert (bob["count"], bob["damages"], cid["count"], cid["damages"]) == (1, [6], 1, [8])
    assert run.pc("Bob").hp == 18
    assert "pc.damaged" not in run.kinds()


def test_f_unit_9_normal_units_have_nothing_more() -> None:
    """F-UNIT-9: a normal unit's fort damage is fixed (no dice) and a barricade stops it."""
    run = battle()
    run(AddUnit(name="並", type="normal", area="A1", hp=30, fort_damage=9, strike="2d+50"))
    run(SetTrap(kind="barricade", edge="A1-F0", uses=1))
    run(NextTurn())
    run(AdvanceUnits())
    assert run.unit("並").area is Area.A1
    run(MoveUnit(unit="並", to="F0", force=True))
    assert run.event("fort.damaged")["amount"] == 9


def test_f_unit_10_ram_rolls_its_strike_as_fort_damage_and_passes_barricades() -> None:
    """F-UNIT-10: the ram's fort damage is its strike roll, each time; a barricade loses a use."""
    run = battle()
    run(AddUnit(name="槌", type="ram", area="A1", hp=60, fort_damage=0, strike="2d+20"))
    run.refused(AddUnit(name="槌2", type="ram", area="A1", hp=60, fort_damage=0), "fort.ram_needs_strike")
    run(SetTrap(kind="barricade", edge="A1-F0", uses=2))
    run(NextTurn())
    run(AdvanceUnits(), 3, 4)
    assert run.event("trap.rammed") == {"unit": "槌", "edge": "A1-F0", "uses_before": 2, "uses_after": 1}
    assert run.event("fort.damaged")["amount"] == 27
    run(NextTurn())
    run(NextTurn(), 6, 6)  # round 2 enemy turn start: 12 + 20
    assert run.event("fort.damaged")["amount"] == 32
    assert run.s.fort_hp == 300 - 27 - 32


def test_f_unit_11_flying_units_only_when_targeted_or_radius_7() -> None:
    """F-UNIT-11: no melee, not caught by r3-6 areas, pierce or traps; hit when targeted or by r7+."""
    run = battle()
    run(AddPC(name="Cid", position="outside", invoker="u3"))
    run(AddUnit(name="鳥", type="flying", area="A1", hp=40, fort_damage=5, move=20))
    run(AddUnit(name="的", type="normal", area="A1", hp=40, fort_damage=5))
    run(MovePC(name="Cid", area="A1"))
    run.refused(AttackSingle(unit="鳥", bodies=2, melee=True, by="Cid"), "fort.melee_flying")
    run(AttackSingle(unit="鳥", bodies=2, by="Cid"))  # ranged: fine
    run(AttackArea(unit="的", damage=5, radius=6, kind="magic", by="Alice"))  # no d6 for the bird
    assert run.event("attack.area")["checks"] == []
    run(AttackPierce(from_="F0", to="A2", damage=10, kind="magic", by="Alice"))
    assert run.event("attack.pierce")["hit"] == ["的"]
    run(AttackArea(unit="鳥", damage=4, radius=1, kind="magic", by="Alice"))
    run(AttackArea(unit="的", damage=4, radius=7, kind="magic", by="Alice"))
    assert run.event("attack.area")["hit"] == ["的", "鳥"]
    assert run.event("attack.area")["characters"] == ["Cid"]
    assert run.unit("鳥").hp == 40 - 10 - 4 - 4
    run(SetTrap(kind="mine", edge="A1-F0", uses=1))
    run(NextTurn())
    run(MoveUnit(unit="鳥", to="F0"))
    assert run.s.traps[0].uses == 1


def test_f_unit_12_commanders_confusion_and_war_horn() -> None:
    """F-UNIT-12: when every commander is at 0 HP, no enemy unit moves in the enemy's next turn; a
    commander still up at the end lends the boss its war-horn."""
    run = battle(rounds=2)
    run(AddCommander(name="隊長", hp=30))
    run(AddCommander(name="副長", hp=20, area="B2"))
    run(AddUnit(name="狼", type="normal", area="A1", hp=20, fort_damage=5))
    run(SetCommanderHP(name="隊長", delta=-30))
    assert "battle.confused" not in run.kinds()
    run(SetCommanderHP(name="副長", set=0))
    assert run.event("battle.confused") == {"round": 1}
    run(NextTurn())
    run.refused(AdvanceUnits(), "fort.enemy_confused_all")
    run.refused(AdvanceUnits(unit="狼"), "fort.enemy_confused")
    run.refused(MoveUnit(unit="狼", to="F0"), "fort.enemy_confused")
    run(NextTurn())
    assert run.event("battle.confusion_ended") == {"round": 1}
    assert run.s.confused_round is None
    run(SetCommanderHP(name="副長", set=5))
    run(NextTurn())
    run(AdvanceUnits())
    run(NextTurn())  # end of round 2 = end of battle: 狼 deals 5 more at the end
    assert run.event("battle.ended")["warhorn"] == ["副長"]
    assert run.event("battle.ended")["outcome"] == "success"


def test_f_unit_13_soldiers_use_equipment_once_per_turn_and_ignore_traps() -> None:
    """F-UNIT-13: a soldier at F0 repairs, loads (2 shells, no check) and fires; one main action a
    turn (F-UNIT-14); traps never affect soldiers."""
    run = battle()
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, move=20))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=60, fort_damage=5))
    run(LoadCannon(cannon=1, by="兵"))
    assert run.event("cannon.loaded")["after"] == 2
    assert run.events[0].dice == ()
    err = run.refused(FireCannon(cannon=1, unit="鬼", by="兵"), "fort.unit_already_acted")
    assert err.values == {"name": "兵", "action": "cannon_load"}
    run.refused(UnitAttack(attacker="兵", target="鬼"), "fort.melee_other_area")
    run(NextTurn())
    run(NextTurn())
    run(FireCannon(cannon=1, unit="鬼", by="兵"), 3, 4, 2, 2)  # 21 + 17
    assert run.unit("鬼").hp == 60 - 21 - 17
    run(SetTrap(kind="mine", edge="A1-F0", uses=1))
    run(SetTrap(kind="barricade", edge="A1-F0", uses=1))
    run(MoveUnit(unit="兵", to="A1"))  # from the top: 10 m to go outside, 10 m to A1 (F-MAP-4)
    assert run.unit("兵").area is Area.A1 and [t.uses for t in run.s.traps] == [1, 1]
    run(NextTurn())
    run(NextTurn())
    run(GMSet(target="fort.hp", value="290"))
    run.refused(Repair(by="兵"), "fort.equipment_soldier_not_at_f0")
    run(SetUnitHP(unit="兵", set=0))
    run.refused(Repair(by="兵"), "fort.unit_destroyed")


def test_f_unit_8_a_strike_below_zero_deals_nothing() -> None:
    """F-UNIT-8, F-UNIT-6: a strike roll below 0 (``1d-3`` → −2) is 0 damage, never a heal."""
    run = battle()  # Alice: HP 40 of 40
    run(GMSet(target="pc.Alice.hp", value="30"))
    run(MovePC(name="Alice", position="outside"))
    run(AddUnit(name="鼠", type="normal", area="A1", hp=10, fort_damage=1, strike="1d-3"))
    run(NextTurn())
    run(MoveUnit(unit="鼠", to="F0"))
    run(UnitBarrage(unit="鼠", apply_hp=True), 2, 1, 6)  # two strikes: 1−3 = −2 → 0, 6−3 = 3
    b = run.event("unit.barrage")
    assert (b["damages"], b["total"]) == ([0, 3], 3)
    assert run.pc("Alice").hp == 27


def test_f_unit_13_a_soldiers_barrage_is_its_main_action() -> None:
    """F-UNIT-13, F-UNIT-14: one main action per soldier unit per turn, 同時攻撃 (F-UNIT-8) included."""
    run = battle()
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, strike="2d", move=20))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5))
    run(AddCommander(name="隊長", hp=30, area="A1"))
    run(GMSet(target="fort.hp", value="290"))
    run(Repair(by="兵"))
    run(MoveUnit(unit="兵", to="A1"))
    run.refused(UnitBarrage(unit="兵"), "fort.unit_already_acted")
    run(NextTurn())
    run(NextTurn())
    run(UnitBarrage(unit="兵", apply_hp=True), 1, 3, 4)  # round 2: one strike, 3 + 4
    assert run.commander("隊長").hp == 23
    assert run.unit("兵").acted == "barrage"
    run.refused(UnitBarrage(unit="兵"), "fort.unit_already_acted")
    run.refused(UnitAttack(attacker="兵", target="鬼"), "fort.unit_already_acted")


@pytest.mark.parametrize(
    ("radius", "dice", "caught"),
    [
        (3, (), False),
        (4, (1,), True),
        (4, (2,), False),
        (5, (2,), True),
        (5, (3,), False),
        (6, (3,), True),
        (6, (4,), False),
        (7, (), True),
    ],
)
def test_f_unit_4_catch_thresholds(radius: int, dice: tuple[int, ...], caught: bool) -> None:
    """F-UNIT-4: r ≤ 3 never (no d6); r4 on 1, r5 on 1-2, r6 on 1-3 (one d6); r ≥ 7 always (no d6)."""
    run = battle()
    run(AddUnit(name="的", type="normal", area="B1", hp=50, fort_damage=5))
    run(AddUnit(name="隣", type="normal", area="B1", hp=50, fort_damage=5))
    run(AttackArea(unit="的", damage=7, radius=radius, kind="fixed", by="Alice"), *dice)
    assert [c["die"] for c in run.event("attack.area")["checks"]] == list(dice)
    assert run.unit("隣").hp == (43 if caught else 50)


def test_f_unit_6_a_unit_a_mine_kills_stays_in_the_area_it_was_leaving() -> None:
    """F-UNIT-6: killed on its first edge, a unit stays (destroyed) where it started and reports no move;
    killed on a later edge, it stays in the last area it reached; no fort damage either way."""
    run = battle()
    run(SetTrap(kind="mine", edge="A2-A1", uses=1))
    run(SetTrap(kind="mine", edge="B1-F0", uses=1))
    run(AddUnit(name="弱", type="normal", area="A2", hp=12, fort_damage=10, move=20))
    run(AddUnit(name="脆", type="normal", area="B2", hp=12, fort_damage=10, move=20))
    run(NextTurn())
    run(AdvanceUnits(), 1, 1, 1, 2)  # 2D6+10: 12 and 13
    assert [(d["unit"], d["area"]) for d in run.all_of("unit.destroyed")] == [("弱", "A2"), ("脆", "B1")]
    assert [(m["unit"], m["to"], m["stopped"]) for m in run.all_of("unit.moved")] == [
        ("脆", "B1", "destroyed")
    ]
    assert (run.unit("弱").area, run.unit("脆").area, run.s.fort_hp) == (Area.A2, Area.B1, 300)


def test_f_turn_2_auto_advance_counts_only_units_that_reached_another_area() -> None:
    """F-TURN-2 (the issue's "N units moved"): a unit a barricade holds at its first edge and one a mine
    kills there are not counted; the one held is named as staying, the dead one has its own events."""
    run = battle()
    run(SetTrap(kind="barricade", edge="A1-F0", uses=1))
    run(SetTrap(kind="mine", edge="B1-F0", uses=1))
    run(AddUnit(name="止", type="normal", area="A1", hp=30, fort_damage=5))
    run(AddUnit(name="死", type="normal", area="B1", hp=5, fort_damage=5))
    run(AddUnit(name="進", type="normal", area="B2", hp=30, fort_damage=5))
    run(NextTurn())
    run(AdvanceUnits(), 1, 1)
    assert run.event("unit.advanced") == {"unit": None, "moved": 1, "units": ["進"], "stayed": ["止"]}
