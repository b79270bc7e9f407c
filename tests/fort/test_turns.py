"""F-TURN-1..2, F-END-1..2: rounds, the enemy side's turn, the end of the battle."""

from __future__ import annotations

from fort_helpers import battle

from engine.fort import AddUnit, AdvanceUnits, EndBattle, NextTurn, SetUnitHP
from engine.fort.state import BattleOutcome, Side, Turn


def test_f_turn_1_sides_alternate_in_the_order_fixed_at_start() -> None:
    """F-TURN-1: one side's turn, then the other's; the order is fixed at start; after the last round,
    the end."""
    run = battle(rounds=2)
    seen = [(run.s.round, run.s.turn)]
    for _ in range(3):
        run(NextTurn())
        seen.append((run.s.round, run.s.turn))
    assert seen == [(1, Turn.PC), (1, Turn.ENEMY), (2, Turn.PC), (2, Turn.ENEMY)]
    run(NextTurn())
    assert run.s.turn is Turn.ENDED and run.s.outcome is BattleOutcome.SUCCESS
    enemy_first = battle(rounds=2, first="enemy")
    assert (enemy_first.s.first, enemy_first.s.turn) == (Side.ENEMY, Turn.ENEMY)
    enemy_first(NextTurn())
    assert (enemy_first.s.round, enemy_first.s.turn) == (1, Turn.PC)
    enemy_first(NextTurn())
    assert (enemy_first.s.round, enemy_first.s.turn) == (2, Turn.ENEMY)
    enemy_first.refused(AdvanceUnits(unit="nobody"), "fort.unit_unknown")


def test_f_turn_2_enemy_turn_start_damage_movement_then_reinforcements() -> None:
    """F-TURN-2: start-of-turn fort damage, then the GM's or auto-advance movement (unit by unit), then at
    its end this round's reinforcements (an advance out of the enemy turn is the GM's, marked: F-TURN-3)."""
    run = battle(rounds=3)
    run(AddUnit(name="門前", type="normal", area="A1", hp=30, fort_damage=6))
    run(AddUnit(name="遠", type="normal", area="B2", hp=30, fort_damage=6, move=20))
    run(AddUnit(name="援", type="normal", area="A2", hp=30, fort_damage=6, arrive_round=1))
    run(NextTurn())
    run(AdvanceUnits())
    assert [(m["unit"], m["to"]) for m in run.all_of("unit.moved")] == [("門前", "F0"), ("遠", "F0")]
    assert run.event("unit.advanced") == {"unit": None, "moved": 2, "units": ["門前", "遠"], "stayed": []}
    run(AdvanceUnits())  # movement used up this turn: nobody moves again
    assert run.event("unit.advanced")["moved"] == 0
    run(NextTurn())
    assert run.kinds() == [
        "battle.turn_ended",
        "unit.arrived",
        "battle.round_summary",
        "battle.turn_started",
    ]
    assert run.event("battle.round_summary")["fort_hp"] == 288
    run(NextTurn())  # round 2 enemy: two units at F0
    assert [(d["unit"], d["source"]) for d in run.all_of("fort.damaged")] == [
        ("門前", "turn_start"),
        ("遠", "turn_start"),
    ]
    assert run.s.fort_hp == 276


def test_f_end_1_every_unit_left_deals_its_fort_damage_once_more() -> None:
    """F-END-1: after the last round every enemy unit with HP 1+ deals its fort damage (a ram rolls);
    destroyed units and reinforcements not yet arrived do not."""
    run = battle(rounds=1)
    run(AddUnit(name="遠", type="normal", area="B2", hp=30, fort_damage=6))
    run(AddUnit(name="槌", type="ram", area="A2", hp=30, fort_damage=0, strike="2d+10"))
    run(AddUnit(name="死", type="normal", area="A2", hp=30, fort_damage=50))
    run(SetUnitHP(unit="死", set=0))
    run(AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=40))
    run(NextTurn())
    run(NextTurn(), 2, 3)
    assert [(d["unit"], d["source"], d["amount"]) for d in run.all_of("fort.damaged")] == [
        ("遠", "end", 6),
        ("槌", "end", 15),
    ]
    assert run.event("battle.ended") == {
        "outcome": "success",
        "reason": "rounds",
        "round": 1,
        "fort_hp": 279,
        "fort_max_hp": 300,
        "warhorn": [],
    }


def test_f_end_2_success_at_1_hp_collapse_at_0_and_the_gm_end() -> None:
    """F-END-2: HP 1 or more after the end damage: the defence holds; 0 or less: collapse; the GM may
    end now (auto as if the rounds were over) and record a retreat after a collapse."""
    run = battle(rounds=1, fort_hp=11)
    run(AddUnit(name="遠", type="normal", area="B2", hp=30, fort_damage=10))
    run(EndBattle(outcome="auto"))
    assert run.event("fort.damaged")["after"] == 1
    assert run.s.outcome is BattleOutcome.SUCCESS
    # ended by the GM in round 1 of 1, before its turns were played: the reason is the GM's
    assert (run.event("battle.ended")["outcome"], run.event("battle.ended")["reason"]) == ("success", "gm")
    run = battle(rounds=1, fort_hp=10)
    run(AddUnit(name="遠", type="normal", area="B2", hp=30, fort_damage=10))
    run(NextTurn())
    run(NextTurn())
    assert run.s.outcome is BattleOutcome.COLLAPSE and run.s.fort_hp == 0
    run(EndBattle(outcome="retreat"))
    assert run.event("battle.outcome_set") == {"before": "collapse", "after": "retreat"}
    run = battle(rounds=5)
    run(EndBattle(outcome="success"))
    assert run.event("battle.ended")["reason"] == "gm"
    run.refused(EndBattle(outcome="maybe"), "fort.outcome_invalid")
