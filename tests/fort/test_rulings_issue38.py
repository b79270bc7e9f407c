"""Issue 38, item 8: the fort rulings of the week, one test per ruling sentence (F-UNIT-2, F-UNIT-12,
F-TRAP-2, F-UNIT-15, F-TURN-3), scripted dice and exact numbers."""

from __future__ import annotations

import pytest
from fort_helpers import Run, battle

from bot.render.text import render
from bot.views import ErrorView
from engine.fort import (
    FORT,
    AddCommander,
    AddUnit,
    AdvanceUnits,
    AttackArea,
    AttackSingle,
    HealFort,
    MovePC,
    MoveUnit,
    NextTurn,
    SetCommanderHP,
    SetTrap,
    Siege,
    rules_turn,
)
from engine.fort.map import Area
from engine.fort.rules_turn import action_side, check_turn
from engine.fort.state import Side
from engine.ruleset import RuleError

# --- F-UNIT-2 ---------------------------------------------------------------------------------


def test_f_unit_2_a_soldier_stops_at_an_enemy_ground_unit_and_passes_a_flying_one() -> None:
    """F-UNIT-2 (ruling: the same holds both ways; a flying unit holds no ground unit): a soldier moving
    F0→A1→A2 stops at A1, where an enemy ground unit is; one moving F0→B1→B2 passes the enemy flyer at
    B1 (changed: the flyer stopped it) and reaches B2."""
    run = battle()
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, move=20, position="outside"))
    run(AddUnit(name="衛", type="soldier", area="F0", hp=20, fort_damage=0, move=20, position="outside"))
    run(AddUnit(name="鬼", type="normal", area="A1", hp=20, fort_damage=5))
    run(AddUnit(name="鷲", type="flying", area="B1", hp=20, fort_damage=5))
    run(MoveUnit(unit="兵", to="A2"))
    moved = run.event("unit.moved")
    assert (moved["to"], moved["path"], moved["stopped"], moved["blocker"]) == (
        "A1",
        ["F0", "A1"],
        "blocked",
        "鬼",
    )
    assert (run.unit("兵").area, run.unit("兵").halted) == (Area.A1, "blocked")
    run(MoveUnit(unit="衛", to="B2"))
    moved = run.event("unit.moved")
    assert (moved["to"], moved["path"], moved["stopped"], moved["blocker"]) == (
        "B2",
        ["F0", "B1", "B2"],
        None,
        None,
    )
    assert (run.unit("衛").area, run.unit("衛").moved_m, run.unit("衛").halted) == (Area.B2, 20, None)


def test_f_unit_2_a_soldier_ending_its_move_among_enemy_flyers_is_not_held() -> None:
    """F-UNIT-2: a flying enemy in the area where a soldier's move ends holds it no more than one on its
    way: the soldier may go on with what is left of its movement (changed: it was halted)."""
    run = battle()
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, move=30, position="outside"))
    run(AddUnit(name="鷲", type="flying", area="B1", hp=20, fort_damage=5))
    run(MoveUnit(unit="兵", to="B1"))
    assert run.event("unit.moved")["stopped"] is None and run.unit("兵").halted is None
    run(MoveUnit(unit="兵", to="B2"))
    assert (run.unit("兵").area, run.unit("兵").moved_m) == (Area.B2, 20)


# --- F-UNIT-12 --------------------------------------------------------------------------------


def _commanded(first: str = "pc") -> Run:
    run = battle(rounds=4, first=first)
    run(AddCommander(name="隊長", hp=10))
    run(AddUnit(name="狼", type="normal", area="A2", hp=30, fort_damage=5))
    run(AddUnit(name="熊", type="normal", area="B2", hp=30, fort_damage=5))
    return run


def test_f_unit_12_a_fall_in_the_enemy_turn_confuses_the_next_one_and_leaves_this_one() -> None:
    """F-UNIT-12 (ruling: "next" is the first enemy turn that starts after the fall): the last commander
    falls in the middle of round 1's enemy turn; the rest of that turn is as it was (熊 still advances),
    round 2's enemy turn is the confused one."""
    run = _commanded()
    run(NextTurn())  # round 1, enemy
    run(MoveUnit(unit="狼", to="A1"))
    run(SetCommanderHP(name="隊長", set=0))
    assert run.event("battle.confused") == {"round": 2}
    run(AdvanceUnits())
    assert [(m["unit"], m["to"]) for m in run.all_of("unit.moved")] == [("熊", "B1")]
    run(NextTurn())  # round 2, PCs: round 1's end does not end a confusion that has not come yet
    assert "battle.confusion_ended" not in [e.kind for e in run.all_events]
    assert run.s.confused_round == 2
    run(NextTurn())  # round 2, enemy: confused
    run.refused(AdvanceUnits(), "fort.enemy_confused_all")
    run.refused(MoveUnit(unit="狼", to="F0"), "fort.enemy_confused")
    run(NextTurn())
    assert run.event("battle.confusion_ended") == {"round": 2}


def test_f_unit_12_a_fall_in_the_pc_turn_with_the_enemy_first_confuses_the_next_round() -> None:
    """F-UNIT-12: with ``first:enemy`` the enemy turn after round 1's PC turn is round 2's."""
    run = _commanded(first="enemy")
    run(NextTurn())  # round 1, PCs
    run(SetCommanderHP(name="隊長", delta=-10))
    assert run.event("battle.confused") == {"round": 2}


def test_f_unit_12_healing_the_commander_does_not_lift_the_confusion() -> None:
    """F-UNIT-12 (ruling: healing a commander afterwards does not lift it): 隊長 falls and is healed back
    to 10 in the PC turn; the enemy turn that follows is still confused."""
    run = _commanded()
    run(SetCommanderHP(name="隊長", delta=-12))
    assert run.event("battle.confused") == {"round": 1}
    run(SetCommanderHP(name="隊長", set=10))
    assert run.kinds() == ["commander.hp_changed"] and run.s.confused_round == 1
    assert run.commander("隊長").hp == 10
    run(NextTurn())
    run.refused(AdvanceUnits(), "fort.enemy_confused_all")
    run.refused(AdvanceUnits(unit="熊"), "fort.enemy_confused")


def test_f_unit_12_reinforcements_arrive_at_the_end_of_a_confused_turn() -> None:
    """F-UNIT-12 (ruling: arriving is not moving): round 1's reinforcement arrives at B2 at the end of
    round 1's confused enemy turn, and the confusion ends after it."""
    run = _commanded()
    run(AddUnit(name="増援", type="normal", area="B2", hp=30, fort_damage=8, arrive_round=1))
    run(SetCommanderHP(name="隊長", set=0))
    run(NextTurn())
    run.refused(AdvanceUnits(), "fort.enemy_confused_all")
    run(NextTurn())
    assert run.kinds()[:4] == [
        "battle.turn_ended",
        "unit.arrived",
        "battle.confusion_ended",
        "battle.round_summary",
    ]
    assert run.event("unit.arrived") == {"unit": "増援", "area": "B2", "round": 1}
    assert (run.unit("増援").arrived, run.unit("増援").area) == (True, Area.B2)


# --- F-TRAP-2 ---------------------------------------------------------------------------------


def test_f_trap_2_a_unit_held_on_an_edge_of_two_barricades_passes_the_edge_after_a_confused_turn() -> None:
    """F-TRAP-2 (rulings: the first set with uses triggers; a held unit passes the edge, not one
    barricade; it keeps its pass through a confused turn): of two barricades on A1-F0 (1 and 2 uses) the
    first holds 狼 in round 1 and is spent; round 2's enemy turn is confused; in round 3 狼 passes the
    edge, the second barricade untouched (2 uses), and enters F0 (fort 300 − 5)."""
    run = battle(rounds=4)
    run(SetTrap(kind="barricade", edge="A1-F0", uses=1))
    run(SetTrap(kind="barricade", edge="F0-A1", uses=2))
    run(AddCommander(name="隊長", hp=10))
    run(AddUnit(name="狼", type="normal", area="A1", hp=30, fort_damage=5))
    run(NextTurn())
    run(AdvanceUnits())
    assert run.all_of("trap.barricade") == [
        {"unit": "狼", "edge": "A1-F0", "uses_before": 1, "uses_after": 0, "stays": "A1", "to": "F0"}
    ]
    run(NextTurn())
    run(SetCommanderHP(name="隊長", set=0))  # round 2's enemy turn is confused
    run(NextTurn())
    run.refused(AdvanceUnits(), "fort.enemy_confused_all")
    run(NextTurn())
    run(NextTurn())  # round 3, enemy
    held = run.unit("狼")
    assert (held.area, held.halted, FORT.export(run.s)["units"][0]["held_edge"]) == (Area.A1, None, "A1-F0")
    run(AdvanceUnits())
    assert run.kinds() == ["trap.passed", "unit.moved", "fort.damaged", "unit.advanced"]
    assert run.event("trap.passed") == {"unit": "狼", "edge": "A1-F0"}
    assert ([t.uses for t in run.s.traps], run.unit("狼").area, run.s.fort_hp) == ([0, 2], Area.F0, 295)


def test_f_trap_2_a_held_unit_passes_the_edge_though_its_barricade_still_has_uses() -> None:
    """F-TRAP-2: held by the first of two barricades (3 and 2 uses), the unit's next move passes that
    edge: neither loses a use (3 → 2 for the hold, then [2, 2])."""
    run = battle()
    run(SetTrap(kind="barricade", edge="A1-F0", uses=3))
    run(SetTrap(kind="barricade", edge="A1-F0", uses=2))
    run(AddUnit(name="狼", type="normal", area="A1", hp=30, fort_damage=5))
    run(NextTurn())
    run(MoveUnit(unit="狼", to="F0"))
    assert [t.uses for t in run.s.traps] == [2, 2]
    run(NextTurn())
    run(NextTurn())
    run(MoveUnit(unit="狼", to="F0"))
    assert run.kinds()[:2] == ["trap.passed", "unit.moved"]
    assert ([t.uses for t in run.s.traps], run.unit("狼").area) == ([2, 2], Area.F0)


# --- F-UNIT-15 --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weakness", "element", "taken", "added"),
    [
        ("水・氷属性ダメージ+3", "water", 13, 3),  # the ruling's example
        ("水・氷属性ダメージ+3", "水・氷", 13, 3),
        ("水・氷属性ダメージ+3", None, 10, 0),  # a 確定 hit with no element
        ("水・氷属性ダメージ+3", "fire", 10, 0),
        ("魔法ダメージ+2", "water", 10, 0),  # 魔法ダメージ+N: never on 確定
        ("物理ダメージ+2", "water", 10, 0),  # 物理ダメージ+N: never on 確定
    ],
)
def test_f_unit_15_an_elements_weakness_applies_to_fixed_damage_of_that_element(
    weakness: str, element: str | None, taken: int, added: int
) -> None:
    """F-UNIT-15 (ruling): a water 確定 hit of 10 on a 水・氷属性ダメージ+3 unit deals 13 (defence 4 does
    not count for 確定); 物理ダメージ+N and 魔法ダメージ+N never add to 確定."""
    run = battle()
    run(AddUnit(name="骨", type="normal", area="A1", hp=40, fort_damage=5, defense=4, weakness=weakness))
    run(AttackArea(unit="骨", damage=10, radius=1, kind="fixed", element=element, by="Alice"))
    d = run.event("unit.damaged")
    assert (d["kind"], d["taken"], d.get("weakness", 0)) == ("fixed", taken, added)
    assert run.unit("骨").hp == 40 - taken


# --- F-TURN-3 ---------------------------------------------------------------------------------


def test_f_turn_3_a_unit_with_no_turn_of_its_side_yet_has_its_whole_allowance() -> None:
    """F-TURN-3 (ruling): round 1 with the enemy first, the GM moves a soldier (move 20) 20 m in the enemy
    side's turn: it has had no turn of its own side yet, so it has all of it (marked out of turn); the
    PC side's turn then renews it."""
    run = battle(first="enemy")
    run(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, move=20, position="outside"))
    run(MoveUnit(unit="兵", to="A2"))
    assert (run.event("unit.moved")["distance"], run.event("unit.moved")["out_of_turn"]) == (20, "enemy")
    run.refused(MoveUnit(unit="兵", to="A1"), "fort.unit_move_too_far")
    run(NextTurn())
    assert run.unit("兵").moved_m == 0
    run(MoveUnit(unit="兵", to="F0"))
    assert run.unit("兵").moved_m == 20


def test_f_turn_3_fort_heal_is_a_pc_side_action() -> None:
    """F-TURN-3 (ruling: ``/fort heal`` is a PC-side action like the others): in the enemy side's turn a
    player's heal is refused, saying whose turn it is; the GM's is carried out and marked (changed: it
    belonged to no turn)."""
    run = battle()
    run(NextTurn())
    run(Siege(effect="fixed", amount=20))
    heal = HealFort(amount=12)
    assert action_side(run.s, heal) is Side.PC
    with pytest.raises(RuleError) as refused:
        check_turn(run.s, heal, gm=False)
    assert (refused.value.key, refused.value.values) == ("fort.not_your_turn", {"turn": "enemy", "round": 1})
    check_turn(run.s, heal, gm=True)
    run(heal)
    assert run.event("fort.healed") == {
        "amount": 12,
        "healed": 5,
        "before": 280,
        "after": 285,
        "out_of_turn": "enemy",
    }


def _trap_refused(run: Run) -> RuleError:
    with pytest.raises(RuleError) as refused:
        check_turn(run.s, SetTrap(kind="mine", edge="A1-F0", uses=1), gm=False)
    return refused.value


def test_f_turn_3_a_player_sets_traps_in_the_preparation_only() -> None:
    """F-TURN-3 (ruling: setting a trap once round 1 has begun is the GM's; traps are laid in the
    preparation): after ``/fort start`` and the set-up, a player's ``/trap set`` is carried out; once an
    action of round 1 is taken it is refused to players, the GM's still carried out (and not marked, it
    belongs to no turn) (changed: players could set traps at any time)."""
    run = battle()
    run(AddUnit(name="鬼", type="normal", area="A1", hp=30, fort_damage=5))
    trap = SetTrap(kind="mine", edge="A1-F0", uses=1)
    assert not rules_turn.round_begun(run.s)
    check_turn(run.s, trap, gm=False)
    run(trap)
    assert not rules_turn.round_begun(run.s)  # setting a trap is set-up, not an action of round 1
    run(AttackSingle(unit="鬼", bodies=1, by="Alice"))
    assert rules_turn.round_begun(run.s)
    err = _trap_refused(run)
    assert (err.key, err.values) == ("fort.trap_set_gm_only", {"round": 1})
    check_turn(run.s, trap, gm=True)
    run(trap)
    assert all("out_of_turn" not in e.data for e in run.events)
    assert [t.uses for t in run.s.traps] == [1, 1]


def test_f_turn_3_round_1_has_begun_with_its_first_turns_end_or_any_move() -> None:
    """F-TURN-3: round 1 has begun once its first side's turn has ended, or a PC or unit moved in it;
    an import keeps it (the export's ``begun``)."""
    run = battle()
    run(NextTurn())
    assert rules_turn.round_begun(run.s)
    assert _trap_refused(run).values == {"round": 1}
    moved = battle()
    moved(MovePC(name="Alice", area="F0", position="outside"))
    assert moved.s.begun and rules_turn.round_begun(moved.s)
    document = FORT.export(moved.s)
    assert document["begun"] is True
    assert FORT.import_(document).begun
    assert not FORT.import_({**document, "begun": False}).begun
    assert not FORT.import_({k: v for k, v in document.items() if k != "begun"}).begun


def test_f_turn_3_the_trap_refusal_in_the_readers_words() -> None:
    """F-TURN-3: the refusal says the battle has begun, who may set a trap now, and when players do."""
    refusal = ErrorView(key="fort.trap_set_gm_only", values={"round": 2})
    assert render(refusal, "ja") == (
        "⚠ 戦闘はもう始まっています(第2ラウンド)。今から罠を設置できるのはGMだけです"
        "(罠は戦闘前の準備として、最初の行動より前に /罠 設置 で置きます)。"
    )
    assert render(refusal, "en") == (
        "⚠ The battle has begun (round 2): only the GM may set a trap now (traps are laid in the"
        " preparation, with /trap set before the first action)."
    )
