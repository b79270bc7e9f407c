"""Area effects aimed at a unit, a commander or a point in an area, with the characters they reach
(F-UNIT-4); commanders that move and sound their war-horn (F-UNIT-12)."""

from __future__ import annotations

from fort_helpers import battle

from engine.fort import (
    AddCommander,
    AddPC,
    AddUnit,
    AttackArea,
    FireBallista,
    FireCannon,
    GMSet,
    LoadBallista,
    LoadCannon,
    MoveCommander,
    MovePC,
    NextTurn,
)
from engine.fort.map import Area


def test_f_unit_4_an_area_attack_aimed_at_a_commander_names_it_with_its_roll_hp_unchanged() -> None:
    """F-UNIT-4: aimed at a commander, the units in its area roll the catch d6 (r5: 1-2); the commander,
    the target, rolls first and is named with its damage and the half; its HP stays for /commander hp."""
    run = battle()
    run(AddCommander(name="隊長", hp=60, area="A1"))
    run(AddUnit(name="甲", type="normal", area="A1", hp=50, fort_damage=5))
    run(AddUnit(name="乙", type="normal", area="A1", hp=50, fort_damage=5))
    # d6 甲 = 2 (caught), 乙 = 4; damage 2d+3: 隊長 3+4+3, then 甲 1+2+3
    run(AttackArea(commander="隊長", damage="2d+3", radius=5, kind="magic", by="Alice"), 2, 4, 3, 4, 1, 2)
    area = run.event("attack.area")
    assert (area["unit"], area["commander"], area["area"], area["hit"], area["characters"]) == (
        None,
        "隊長",
        "A1",
        ["甲"],
        ["隊長"],
    )
    assert run.kinds() == ["attack.area", "attack.character", "unit.damaged"]
    character = run.event("attack.character")
    assert {k: character[k] for k in ("character", "role", "targeted", "damages", "damage", "half")} == {
        "character": "隊長",
        "role": "commander",
        "targeted": True,
        "damages": [10],
        "damage": 10,
        "half": 5,
    }
    assert [d for _, d in run.events[1].dice] == [3, 4]
    assert (run.commander("隊長").hp, run.unit("甲").hp, run.unit("乙").hp) == (60, 44, 50)


def test_f_unit_4_an_area_attack_at_a_point_rolls_the_d6_for_every_unit_there() -> None:
    """F-UNIT-4: aimed at a point in an area, every unit there rolls the catch d6 (r4: 1); r ≤ 3 at a
    point catches nobody."""
    run = battle()
    run(AddUnit(name="丙", type="normal", area="B1", hp=30, fort_damage=5))
    run(AddUnit(name="丁", type="normal", area="B1", hp=30, fort_damage=5))
    run(AttackArea(area="Ｂ１", damage=8, radius=4, kind="fixed", by="Alice"), 1, 3)
    area = run.event("attack.area")
    assert (area["unit"], area["commander"], area["area"], area["hit"]) == (None, None, "B1", ["丙"])
    assert [c["die"] for c in area["checks"]] == [1, 3]
    assert (run.unit("丙").hp, run.unit("丁").hp) == (22, 30)
    run(AttackArea(area="B1", damage=8, radius=3, kind="fixed", by="Alice"))
    assert run.kinds() == ["attack.area"] and run.event("attack.area")["hit"] == []


def test_f_unit_4_characters_caught_at_radius_7_are_named_with_their_damage() -> None:
    """F-UNIT-4 (the issue's "never named"): r ≥ 7 catches every unit (flying too) and every character in
    the area: PCs in the order they joined, then commanders, each with its own roll after the units;
    HP unchanged. With targets:3 the fourth is named as left out by the cap."""
    run = battle()
    run(AddPC(name="Cid", position="outside", hp=30, invoker="u3"))
    run(MovePC(name="Cid", area="A1"))
    run(AddCommander(name="隊長", hp=40, area="A1"))
    run(AddUnit(name="的", type="normal", area="A1", hp=50, fort_damage=5))
    run(AddUnit(name="鳥", type="flying", area="A1", hp=50, fort_damage=5))
    run(AttackArea(unit="的", damage="2d", radius=7, kind="magic", by="Alice"), 3, 3, 1, 1, 2, 5, 6, 6)
    area = run.event("attack.area")
    assert (area["checks"], area["hit"], area["characters"], area["over_cap"]) == (
        [],
        ["的", "鳥"],
        ["Cid", "隊長"],
        [],
    )
    caught = [
        (c["character"], c["role"], c["targeted"], c["damage"], c["half"])
        for c in run.all_of("attack.character")
    ]
    assert caught == [("Cid", "pc", False, 7, 4), ("隊長", "commander", False, 12, 6)]
    assert (run.unit("的").hp, run.unit("鳥").hp, run.pc("Cid").hp, run.commander("隊長").hp) == (
        44,
        48,
        30,
        40,
    )
    run(AttackArea(unit="的", damage=4, radius=7, kind="fixed", targets=3, by="Alice"))
    area = run.event("attack.area")
    assert (area["hit"], area["characters"], area["over_cap"]) == (["的", "鳥"], ["Cid"], ["隊長"])


def test_f_unit_4_the_target_must_be_one_enemy_unit_commander_or_area() -> None:
    """F-UNIT-4: exactly one of unit:, commander:, area:; a commander already down cannot be aimed at."""
    run = battle()
    run(AddCommander(name="隊長", hp=40, area="A1"))
    run(AddUnit(name="的", type="normal", area="A1", hp=50, fort_damage=5))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=50, fort_damage=0))
    run.refused(AttackArea(damage=4, radius=3, by="Alice"), "fort.target_one_of")
    run.refused(AttackArea(unit="的", area="A1", damage=4, radius=3, by="Alice"), "fort.target_one_of")
    run.refused(AttackArea(unit="兵", damage=4, radius=3, by="Alice"), "fort.target_not_enemy")
    run.refused(AttackArea(commander="誰", damage=4, radius=3, by="Alice"), "fort.commander_unknown")
    run.refused(AttackArea(area="C3", damage=4, radius=3, by="Alice"), "fort.area_invalid")
    run(GMSet(target="commander.隊長.hp", value="0"))
    run.refused(AttackArea(commander="隊長", damage=4, radius=3, by="Alice"), "fort.commander_down")


def test_f_can_3_a_cannon_aimed_at_a_commander_names_it_with_every_shell() -> None:
    """F-CAN-3, F-UNIT-4: the commander takes every shell, each rolled (21, 17), and the half of each
    (11 + 9); a unit beside it rolls its d6 first (r4: 1)."""
    run = battle()
    run(AddCommander(name="隊長", hp=80, area="B2"))
    run(AddUnit(name="隣", type="normal", area="B2", hp=50, fort_damage=5))
    run(LoadCannon(cannon=1, check=18, by="Alice"))
    run(FireCannon(cannon=1, commander="隊長", by="Alice"), 2, 3, 4, 2, 2)
    fired = run.event("cannon.fired")
    assert (fired["commander"], fired["checks"][0]["caught"], fired["hit"], fired["characters"]) == (
        "隊長",
        False,
        [],
        ["隊長"],
    )
    character = run.event("attack.character")
    assert (character["damages"], character["damage"], character["half"], character["element"]) == (
        [21, 17],
        38,
        20,
        "fire",
    )
    assert run.commander("隊長").hp == 80 and run.s.cannons[0] == 0


def test_f_bal_1_the_ballista_aimed_at_a_point_in_an_area() -> None:
    """F-BAL-1, F-UNIT-4: the ballista at a point in A2: the unit there rolls its d6 (r6: 1-3, caught on
    3) and takes K90+20 (18 + 20) physical minus its defence."""
    run = battle()
    run(AddUnit(name="遠", type="normal", area="A2", hp=60, fort_damage=5, defense=4))
    run(LoadBallista(by="Alice"))
    run(FireBallista(area="A2", by="Alice"), 3, 3, 4)
    fired = run.event("ballista.fired")
    assert (fired["unit"], fired["area"], fired["hit_units"]) == (None, "A2", ["遠"])
    assert run.unit("遠").hp == 60 - 34


def test_f_unit_12_a_commander_moves_like_a_character_and_sounds_its_war_horn() -> None:
    """F-UNIT-12: ``/commander move`` (no trap or unit stops it; at F0 it is outside); its war-horn text,
    kept with it, is named at the end while it stands."""
    run = battle(rounds=1)
    run(AddCommander(name="隊長", hp=40, area="A2", horn="敵全体の命中力+1"))
    assert run.event("commander.added")["horn"] == "敵全体の命中力+1"
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0))
    run(GMSet(target="unit.兵.area", value="A1"))
    run(NextTurn())
    run(MoveCommander(name="隊長", to="F0"))
    assert run.event("commander.moved") == {"commander": "隊長", "from": "A2", "to": "F0", "distance": 20}
    assert run.commander("隊長").area is Area.F0
    run.refused(MoveCommander(name="隊長", to="F0"), "fort.commander_move_same")
    run(GMSet(target="commander.隊長.horn", value="敵全体の打撃点+2"))
    assert run.commander("隊長").horn == "敵全体の打撃点+2"
    run(NextTurn())
    assert run.event("battle.ended")["warhorn"] == ["隊長"]


def test_f_unit_12_a_commander_down_does_not_move() -> None:
    """F-UNIT-12: a commander at 0 HP is down: it neither moves nor is aimed at."""
    run = battle()
    run(AddCommander(name="隊長", hp=40, area="A2"))
    run(GMSet(target="commander.隊長.hp", value="0"))
    run.refused(MoveCommander(name="隊長", to="A1"), "fort.commander_down")


def test_f_unit_4_at_f0_radius_7_reaches_pcs_at_the_top_and_outside_not_inside() -> None:
    """F-UNIT-4, F-MAP-4: an r ≥ 7 effect on an enemy at F0 names the PCs at the top and outside (the top
    is safe from melee only) but none inside, where nothing from outside reaches."""
    run = battle()  # Alice: top
    run(AddPC(name="Bob", position="outside", invoker="u2"))
    run(AddPC(name="Cid", position="inside", invoker="u3"))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=50, fort_damage=5))
    run(GMSet(target="unit.鬼.area", value="F0"))
    run(AttackArea(unit="鬼", damage=6, radius=7, kind="magic", by="Bob"))
    assert run.event("attack.area")["characters"] == ["Alice", "Bob"]
    assert [(c["character"], c["damage"], c["half"]) for c in run.all_of("attack.character")] == [
        ("Alice", 6, 3),
        ("Bob", 6, 3),
    ]
