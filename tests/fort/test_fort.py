"""F-FORT-1..6: the fort's HP, heals, repair, unit fort damage, siege effects, collapse."""

from __future__ import annotations

from fort_helpers import battle

from engine.fort import (
    AddUnit,
    AdvanceUnits,
    AttackArea,
    EndBattle,
    GMSet,
    HealFort,
    MoveUnit,
    NextTurn,
    Repair,
    Siege,
    StartBattle,
    UnitAttack,
)
from engine.fort.state import BattleOutcome, Turn


def test_f_fort_1_fort_hp_300_by_default_never_above_maximum() -> None:
    """F-FORT-1: 300 HP by default, another maximum at start; HP never rises above its maximum."""
    run = battle()
    assert (run.s.fort_hp, run.s.fort_max_hp) == (300, 300)
    run(Siege(effect="fixed", amount=4))
    run(Repair(by="Alice"))
    assert run.s.fort_hp == 300
    assert run.event("fort.repaired") == {"by": "Alice", "amount": 10, "before": 296, "after": 300}
    other = battle(fort_hp=120)
    assert (other.s.fort_hp, other.s.fort_max_hp) == (120, 120)
    # Attacks on units never touch the fort.
    run(AddUnit(name="鬼", type="normal", area="A1", hp=50, fort_damage=5))
    run(AttackArea(unit="鬼", damage="2d+3", radius=3, kind="magic", by="Alice"), 2, 2)
    assert run.s.fort_hp == 300


def test_f_fort_2_heal_of_10_or_more_heals_exactly_5() -> None:
    """F-FORT-2: a heal of 10+ heals the fort by 5; under 10 nothing."""
    run = battle()
    run(Siege(effect="fixed", amount=20))
    run(HealFort(amount=9))
    assert run.event("fort.healed") == {"amount": 9, "healed": 0, "before": 280, "after": 280}
    run(HealFort(amount=30))
    assert run.event("fort.healed") == {"amount": 30, "healed": 5, "before": 280, "after": 285}
    run(GMSet(target="fort.hp", value="298"))
    run(HealFort(amount=10))
    assert run.s.fort_hp == 300
    run.refused(HealFort(amount=0), "fort.amount_invalid")


def test_f_fort_3_repair_once_per_round_by_a_pc_at_top_or_a_soldier() -> None:
    """F-FORT-3: +10 HP, a main action, once per round for the whole PC side; defence equipment."""
    run = battle()
    run(Siege(effect="fixed", amount=50))
    run(Repair(invoker="u1"))  # by: left out = the invoker's PC
    assert run.event("fort.repaired") == {"by": "Alice", "amount": 10, "before": 250, "after": 260}
    assert run.s.repaired_round == 1
    run.refused(Repair(by="Alice"), "fort.repair_used")
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0))
    run.refused(Repair(by="兵"), "fort.repair_used")
    run.refused(Repair(invoker="nobody"), "fort.actor_required")
    run(NextTurn())
    run(NextTurn())
    run(Repair(by="兵"))
    assert run.s.fort_hp == 270
    assert run.unit("兵").acted == "repair"


def test_f_fort_4_fort_damage_on_entering_f0_and_at_the_enemy_turn_start() -> None:
    """F-FORT-4: fixed fort damage when a unit moves into F0 and again when the enemy turn starts with
    it at F0, unit by unit in unit order, before any movement."""
    run = battle()
    run(AddUnit(name="一", type="normal", area="A1", hp=20, fort_damage=10))
    run(AddUnit(name="二", type="normal", area="B1", hp=20, fort_damage=7))
    run(AddUnit(name="三", type="normal", area="B2", hp=20, fort_damage=100))
    run(NextTurn())  # enemy turn: nobody at F0 yet
    assert run.kinds() == ["battle.turn_ended", "battle.turn_started"]
    run(AdvanceUnits())
    damaged = run.all_of("fort.damaged")
    assert [(d["unit"], d["source"], d["amount"], d["before"], d["after"]) for d in damaged] == [
        ("一", "enter", 10, 300, 290),
        ("二", "enter", 7, 290, 283),
    ]
    assert run.unit("三").area.value == "B1"
    run(NextTurn())
    run(NextTurn())  # round 2, enemy turn starts: 一 then 二, in unit order
    damaged = run.all_of("fort.damaged")
    assert [(d["unit"], d["source"], d["after"]) for d in damaged] == [
        ("一", "turn_start", 273),
        ("二", "turn_start", 266),
    ]


def test_f_fort_5_structure_destroying_effects() -> None:
    """F-FORT-5: mattock (total − 15), meteor (crit 8, total), titanfoot 150, fixed."""
    run = battle(fort_hp=1000)
    run(Siege(effect="mattock", roll="K30+10"), 4, 4)  # K30 [8] = 8, +10 = 18 → 3
    d = run.event("fort.damaged")
    assert (d["total"], d["amount"], d["after"]) == (18, 3, 997)
    assert d["roll"]["text"] == "KeyNo.30c[10]+10 ＞ 2D:[4,4]=8 ＞ 8+10 ＞ 18"
    run(Siege(effect="mattock", roll="K30+10"), 1, 1)  # automatic failure: 0, not −15
    assert run.event("fort.damaged")["amount"] == 0
    run(Siege(effect="meteor", roll="K30+12"), 4, 4, 2, 1)  # crit 8: 8 → reroll 3
    d = run.event("fort.damaged")
    assert d["roll"]["command"] == "K30+12@8"
    assert (d["total"], d["amount"]) == (8 + 2 + 12, 22)
    run.refused(Siege(effect="meteor", roll="K30+12@10"), "fort.siege_meteor_crit")
    run(Siege(effect="titanfoot"))
    assert run.event("fort.damaged")["amount"] == 150
    run(Siege(effect="fixed", amount=25))
    assert run.s.fort_hp == 1000 - 3 - 22 - 150 - 25
    run.refused(Siege(effect="fixed"), "fort.siege_amount_required")
    # the mattock and the meteor take their roll (or its total): never "points to the fort" (issue 38)
    run.refused(Siege(effect="mattock"), "fort.siege_roll_required")
    run.refused(Siege(effect="meteor"), "fort.siege_roll_required")
    run(Siege(effect="mattock", amount=20))  # a total of 20: 20 − 15 = 5 to the fort
    assert run.event("fort.damaged")["amount"] == 5
    run.refused(Siege(effect="catapult", amount=3), "fort.siege_effect_invalid")


def test_f_fort_6_hp_0_or_less_ends_the_battle_at_once() -> None:
    """F-FORT-6: the moment fort HP is 0 or less the battle ends (collapse); later units do not act."""
    run = battle(fort_hp=15)
    run(AddUnit(name="一", type="normal", area="A1", hp=20, fort_damage=10))
    run(AddUnit(name="二", type="normal", area="B1", hp=20, fort_damage=10))
    run(AddUnit(name="三", type="normal", area="B1", hp=20, fort_damage=10))
    run(NextTurn())
    run(AdvanceUnits())
    assert run.kinds() == [
        "unit.moved",
        "fort.damaged",
        "unit.moved",
        "fort.damaged",
        "battle.ended",
        "unit.advanced",
    ]
    assert run.event("battle.ended")["outcome"] == "collapse"
    assert run.unit("三").area.value == "B1"
    assert (run.s.turn, run.s.outcome, run.s.fort_hp) == (Turn.ENDED, BattleOutcome.COLLAPSE, -5)
    run.refused(MoveUnit(unit="三", to="F0"), "fort.battle_over")
    run.refused(EndBattle(), "fort.battle_over")
    run(EndBattle(outcome="retreat"))
    assert run.s.outcome is BattleOutcome.RETREAT
    run(StartBattle(rounds=2))  # a new battle may start after the end
    assert run.s.fort_hp == 300


def test_f_fort_1_a_roll_below_zero_never_heals_the_fort() -> None:
    """F-FORT-1, F-UNIT-10, F-FORT-5: fort damage is never negative: a ram whose strike rolls below 0
    (``1d-5`` → −4) or a siege roll below 0 deals 0; the fort never rises above its maximum."""
    run = battle()
    run(AddUnit(name="槌", type="ram", area="A1", hp=30, fort_damage=0, strike="1d-5"))
    run(NextTurn())
    run(MoveUnit(unit="槌", to="F0"), 1)
    d = run.event("fort.damaged")
    assert (d["roll"]["total"], d["amount"], d["before"], d["after"]) == (-4, 0, 300, 300)
    run(Siege(effect="fixed", roll="1d-5"), 2)
    d = run.event("fort.damaged")
    assert (d["total"], d["amount"], d["after"]) == (-3, 0, 300)
    assert run.s.fort_hp == run.s.fort_max_hp == 300


def test_f_fort_3_a_repair_at_full_hp_is_refused_and_the_round_keeps_its_repair() -> None:
    """F-FORT-3 (the issue's reproduction): a repair at the maximum is refused, so the round's one repair
    is still there once the fort is damaged."""
    run = battle()
    err = run.refused(Repair(by="Alice"), "fort.repair_full")
    assert err.values == {"hp": 300, "max_hp": 300}
    assert run.s.repaired_round is None
    run(Siege(effect="fixed", amount=15))
    run(Repair(by="Alice"))
    assert (run.s.fort_hp, run.s.repaired_round) == (295, 1)


def test_f_unit_7_a_unit_attack_naming_a_pc_says_how_a_pc_takes_it() -> None:
    """F-UNIT-7: /unit attack is unit against unit; naming a PC is refused, saying to record the damage
    on the PC (issue 38, item 9)."""
    run = battle()
    run(AddUnit(name="ゴブリン隊", type="normal", area="A2", hp=30, fort_damage=5))
    error = run.refused(UnitAttack(attacker="ゴブリン隊", target="Alice"), "fort.unit_attack_pc")
    assert dict(error.values) == {"unit": "ゴブリン隊", "pc": "Alice"}


def test_a_unit_name_close_to_one_is_suggested_never_taken_for_it() -> None:
    """Issue 38, item 9: ``ゴブリン`` or ``ごぶりん隊`` for ゴブリン隊 is refused naming it (names stay
    compared after NFKC and case folding only); a name close to none is refused as before."""
    run = battle()
    run(AddUnit(name="ゴブリン隊", type="normal", area="A2", hp=30, fort_damage=5))
    for typed in ("ごぶりん隊", "ゴブリン"):
        error = run.refused(UnitAttack(attacker=typed, target="x"), "fort.unit_unknown_near")
        assert dict(error.values) == {"name": typed, "near": ("ゴブリン隊",)}
    run.refused(UnitAttack(attacker="オーガ", target="x"), "fort.unit_unknown")
