"""F-UNIT-15: weaknesses (弱点) as Sword World writes them; attacks with an element; mines and cannons are
fire magic."""

from __future__ import annotations

import pytest
from fort_helpers import battle

from engine.fort import (
    AddUnit,
    AdvanceUnits,
    AttackArea,
    AttackPierce,
    FireCannon,
    GMSet,
    LoadCannon,
    NextTurn,
    SetTrap,
    UnitAttack,
)
from engine.fort.state import DamageKind, Element
from engine.fort.weakness import Weakness, parse_weakness


@pytest.mark.parametrize(
    ("text", "weakness"),
    [
        ("炎属性ダメージ+3", Weakness(3, element=Element.FIRE)),
        ("炎属性ダメージ＋３点", Weakness(3, element=Element.FIRE)),
        ("水・氷属性ダメージ+3", Weakness(3, element=Element.WATER)),
        ("物理ダメージ+2", Weakness(2, kind=DamageKind.PHYSICAL)),
        ("魔法ダメージ+2", Weakness(2, kind=DamageKind.MAGIC)),
        ("fire damage +3", Weakness(3, element=Element.FIRE)),
        ("命中力+1", Weakness(0)),  # not damage: kept and shown, nothing to add
    ],
)
def test_f_unit_15_weaknesses_as_sword_world_writes_them(text: str, weakness: Weakness) -> None:
    """F-UNIT-15: the forms of the monster data (``炎属性ダメージ+3``, ``物理ダメージ+2``, ...)."""
    assert parse_weakness(text) == weakness


def test_f_unit_15_a_weakness_is_kept_as_written_and_refused_when_unreadable() -> None:
    """F-UNIT-15: ``weakness:`` on /unit add and /gm set; what is not a weakness is refused with examples."""
    run = battle()
    run(AddUnit(name="骨", type="normal", area="A1", hp=40, fort_damage=5, weakness=" 炎属性ダメージ＋３ "))
    assert run.unit("骨").weakness == "炎属性ダメージ+3"
    assert run.event("unit.added")["weakness"] == "炎属性ダメージ+3"
    err = run.refused(
        AddUnit(name="x", type="normal", area="A1", hp=4, fort_damage=1, weakness="炎ダメージ"),
        "fort.weakness_invalid",
    )
    assert err.values["examples"] == ["炎属性ダメージ+3", "物理ダメージ+2", "魔法ダメージ+2"]
    run(GMSet(target="unit.骨.weakness", value="物理ダメージ+2"))
    assert run.unit("骨").weakness == "物理ダメージ+2"
    run(GMSet(target="unit.骨.weakness", value="none"))
    assert run.unit("骨").weakness is None
    run.refused(GMSet(target="unit.骨.weakness", value="+3"), "fort.gm_set_invalid")


def test_f_unit_15_a_fire_weakness_adds_to_each_mine() -> None:
    """F-UNIT-15, F-TRAP-4: the mine's 2D6+10 is fire magic: 7 + 10 + 3."""
    run = battle()
    run(SetTrap(kind="mine", edge="A1-F0", uses=1))
    run(AddUnit(name="骨", type="normal", area="A1", hp=40, fort_damage=5, weakness="炎属性ダメージ+3"))
    run(NextTurn())
    run(AdvanceUnits(), 3, 4)
    d = run.event("unit.damaged")
    assert (d["kind"], d["element"], d["raw"], d["weakness"], d["taken"]) == ("magic", "fire", [17], 3, 20)
    assert run.unit("骨").hp == 20


def test_f_unit_15_a_fire_weakness_adds_to_each_cannon_shell() -> None:
    """F-UNIT-15, F-CAN-3: two shells K40+12@10 (21, 17), each fire magic: +3 each, 44."""
    run = battle()
    run(AddUnit(name="骨", type="normal", area="A1", hp=60, fort_damage=5, weakness="炎属性ダメージ+3"))
    run(LoadCannon(cannon=1, check=18, by="Alice"))
    run(FireCannon(cannon=1, unit="骨", by="Alice"), 3, 4, 2, 2)
    d = run.event("unit.damaged")
    assert (d["raw"], d["weakness"], d["taken"]) == ([21, 17], 6, 44)
    assert run.unit("骨").hp == 16


def test_f_unit_15_an_attack_names_its_element_and_kind() -> None:
    """F-UNIT-15: ``element:fire`` gains a fire weakness, ``element:water`` does not; a physical weakness
    adds before defence; a magic weakness gains from magic of any element; 1ゾロ gains nothing."""
    run = battle()
    run(AddUnit(name="骨", type="normal", area="A1", hp=80, fort_damage=5, weakness="炎属性ダメージ+3"))
    run(
        AddUnit(
            name="鎧", type="normal", area="A2", hp=80, fort_damage=5, defense=3, weakness="物理ダメージ+2"
        )
    )
    run(AddUnit(name="霊", type="normal", area="B1", hp=80, fort_damage=5, weakness="魔法ダメージ+2"))
    run(AttackArea(unit="骨", damage=10, radius=1, kind="magic", element="fire", by="Alice"))
    assert (run.event("attack.area")["element"], run.event("unit.damaged")["taken"]) == ("fire", 13)
    run(AttackArea(unit="骨", damage=10, radius=1, kind="magic", element="水・氷", by="Alice"))
    assert run.event("unit.damaged")["taken"] == 10
    assert "weakness" not in run.event("unit.damaged")
    run(AttackArea(unit="鎧", damage=10, radius=1, kind="physical", by="Alice"))
    assert run.event("unit.damaged")["taken"] == 9  # 10 + 2 − 3
    run(AttackArea(unit="霊", damage=10, radius=1, kind="magic", element="wind", by="Alice"))
    assert run.event("unit.damaged")["taken"] == 12
    run(AttackArea(unit="霊", damage="K20+10", radius=1, kind="magic", by="Alice"), 1, 1)
    assert run.event("unit.damaged")["taken"] == 0  # F-DICE-1: an automatic failure deals nothing at all
    run.refused(
        AttackArea(unit="霊", damage=10, radius=1, kind="magic", element="holy", by="Alice"),
        "fort.element_invalid",
    )
    assert [run.unit(n).hp for n in ("骨", "鎧", "霊")] == [57, 71, 68]


def test_f_unit_15_a_pierce_halves_the_damage_with_the_weakness_in_it() -> None:
    """F-UNIT-15, F-UNIT-5: the bonus is part of the applied damage, then halved: ⌈(10 + 3) / 2⌉ = 7."""
    run = battle()
    run(AddUnit(name="骨", type="normal", area="A1", hp=40, fort_damage=5, weakness="炎属性ダメージ+3"))
    run(AttackPierce(from_="F0", to="A1", damage=10, kind="fixed", element="fire", by="Alice"))
    d = run.event("unit.damaged")
    assert (d["applied"], d["weakness"], d["taken"]) == (13, 3, 7)


def test_f_unit_15_a_units_strike_is_physical() -> None:
    """F-UNIT-15, F-UNIT-7: a unit attack's strike is physical damage: a physical weakness adds to it."""
    run = battle()
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0, strike="2d", position="outside"))
    run(
        AddUnit(
            name="鎧", type="normal", area="A1", hp=30, fort_damage=5, defense=1, weakness="物理ダメージ+2"
        )
    )
    run(GMSet(target="unit.鎧.area", value="F0"))
    run(UnitAttack(attacker="兵", target="鎧"), 3, 4)  # 7 + 2 − 1
    assert run.unit("鎧").hp == 22
