"""What the planner is asked (``pc_damage`` as the GM types it) and the policy it plays by."""

from __future__ import annotations

from fractions import Fraction

import pytest
from planner_helpers import battle

from engine.fort import AddPC, AddUnit, GMSet, StartBattle
from engine.fort.map import Area
from engine.fort.planner import Attack, PlanRequest, parse_pc_damage
from engine.fort.planner.policy import NEVER, equipment_actor, moves_to_fort, per_hit, threat_order
from engine.fort.state import DamageKind
from engine.ruleset import RuleError


def test_pc_damage_one_expression_or_one_per_pc() -> None:
    assert parse_pc_damage(None) == ()
    assert parse_pc_damage("2d+8") == (Attack("2d+8"),)
    assert parse_pc_damage("Alice=K20+10:magic, Bob = 2d+8") == (
        Attack("K20+10", DamageKind.MAGIC, "Alice"),
        Attack("2d+8", DamageKind.PHYSICAL, "Bob"),
    )
    # full width, Japanese separators and kinds, a fixed number
    assert parse_pc_damage("アリス＝２ｄ＋８：魔法、30:確定") == (
        Attack("2d+8", DamageKind.MAGIC, "アリス"),
        Attack("30", DamageKind.FIXED),
    )
    # the words the bot prints for a kind (issue 23: 確定ダメージ) are taken too
    assert parse_pc_damage("30:確定ダメージ, 2d:物理ダメージ, 2d:魔法ダメージ") == (
        Attack("30", DamageKind.FIXED),
        Attack("2d", DamageKind.PHYSICAL),
        Attack("2d", DamageKind.MAGIC),
    )


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "odds.pc_damage_empty"),
        ("2d+8,", "odds.pc_damage_empty"),
        ("Alice=", "odds.pc_damage_empty"),
        ("=2d", "odds.pc_damage_name"),
        ("2d:holy", "odds.pc_damage_kind"),
        ("2d>=5", "fort.dice_invalid"),
        ("Alice=fireball", "fort.dice_invalid"),
        (",".join(["2d"] * 21), "odds.pc_damage_too_many"),
    ],
)
def test_pc_damage_refusals_say_what_is_wrong(text: str, key: str) -> None:
    with pytest.raises(RuleError) as refused:
        parse_pc_damage(text)
    assert refused.value.key == key


def test_runs_and_seed_have_bounds() -> None:
    with pytest.raises(RuleError) as few:
        PlanRequest(runs=99)
    assert few.value.key == "odds.runs_invalid"
    assert few.value.values == {"runs": 99, "min": 100, "max": 100_000}
    with pytest.raises(RuleError) as seed:
        PlanRequest(seed=-1)
    assert seed.value.key == "odds.seed_invalid"


def test_moves_to_fort() -> None:
    """F-MAP-2, F-FORT-4: at F0 a unit strikes when the enemy turn starts (0); A2 is 20 m away."""
    assert moves_to_fort(Area.F0, 0) == 0
    assert moves_to_fort(Area.A1, 10) == 1
    assert moves_to_fort(Area.A2, 10) == 2
    assert moves_to_fort(Area.B2, 20) == 1
    assert moves_to_fort(Area.A2, 0) == NEVER


def test_the_most_urgent_threat_first() -> None:
    """Soonest first; of those equally soon the most fort damage per hit (a ram: its strike's
    average), then the one added first. Soldiers and units to come are no targets."""
    state = battle(
        StartBattle(rounds=3),
        AddUnit(name="far", type="normal", area="A2", hp=10, fort_damage=30),
        AddUnit(name="near", type="normal", area="A1", hp=10, fort_damage=5),
        AddUnit(name="ram", type="ram", area="B1", hp=10, fort_damage=0, strike="2d+10"),
        AddUnit(name="near2", type="normal", area="B1", hp=10, fort_damage=5),
        AddUnit(name="fast", type="flying", area="B2", hp=10, fort_damage=8, move=20),
        AddUnit(name="later", type="normal", area="A1", hp=10, fort_damage=99, arrive_round=2),
        AddUnit(name="兵", type="soldier", area="F0", hp=10, fort_damage=0),
    )
    assert per_hit(state.units[2]) == Fraction(17)
    order = [state.units[i].name for i in threat_order(state)]
    assert order == ["ram", "fast", "near", "near2", "far"]


def test_who_works_the_equipment() -> None:
    """F-FORT-3, F-UNIT-13/14: a soldier at F0 on the top that has not acted, else a PC at the top."""
    state = battle(
        StartBattle(rounds=3),
        AddPC(name="Alice", position="inside", invoker="a"),
        AddPC(name="Bob", position="top", invoker="b"),
        AddUnit(name="兵1", type="soldier", area="F0", hp=10, fort_damage=0, position="outside"),
        AddUnit(name="兵2", type="soldier", area="F0", hp=10, fort_damage=0),
    )
    assert equipment_actor(state) == "兵2"
    acted = battle(StartBattle(rounds=3), AddPC(name="Bob", position="top", invoker="b"),
                   AddUnit(name="兵2", type="soldier", area="F0", hp=10, fort_damage=0),
                   GMSet(target="unit.兵2.acted", value="true"))  # fmt: skip
    assert equipment_actor(acted) == "Bob"
    nobody = battle(StartBattle(rounds=3), AddPC(name="Alice", position="outside", invoker="a"))
    assert equipment_actor(nobody) is None
