"""S-CORE-3, the turn's steps: the value now acting, own rolls and reactions, moving on."""

from __future__ import annotations

from sg_helpers import Run, battle, enemy, pc

from bot.rulesets.sengensho.text import status
from bot.views import StatusView
from engine.sengensho import SENGENSHO
from engine.sengensho.commands import Damage, Declare, Hide, Join, NextStep, NextTurn, Roll


def fight() -> Run:
    """A and C act together at 20, B at 15, D at 10."""
    run = battle(pc("A", dp=20), pc("B", dp=15), enemy("C", dp=20), enemy("D", dp=10))
    run(NextTurn())
    return run


def screen(run: Run, lang: str = "en") -> list[str]:
    return status(StatusView(ruleset="sengensho", document=SENGENSHO.export(run.s)), lang).splitlines()


def test_s_core_3_the_turn_starts_at_the_highest_value() -> None:
    run = fight()
    assert (run.event("sg.turn_started")["step"], run.s.step) == (20, 20)
    assert screen(run)[1] == "▶ Now acting: initiative 20 — A & C"
    assert screen(run, "ja")[1] == "▶ いまの手番: イニシアティブ 20 — A・C"


def test_s_core_3_own_rolls_mark_acted_reactions_do_not() -> None:
    run = fight()
    run(Roll("A", 5, 2, kind="attack"), 3, 3)  # 11
    run(Roll("C", 5, 1, kind="evasion", against="A"), 2)  # a reaction, at any step
    assert (run.c("A").acted, run.c("C").acted) == (True, False)
    run(Roll("A", 4, 1, kind="ability"), 1)  # one action may take several rolls
    assert run.event("sg.rolled")["out_of_step"] is None
    run(Roll("B", 6, 1, kind="resist"), 4)  # B's step is later, but a resistance belongs to any
    run(Roll("D", 6, 1, kind="perception"), 4)
    run(Roll("A", 1, 1, kind="damage"), 1)  # damage dice neither
    assert [c.acted for c in run.s.characters] == [True, False, False, False]


def test_s_core_3_a_players_roll_out_of_step_is_refused_saying_whose_step_it_is() -> None:
    run = fight()
    error = run.refused(Roll("B", 5, 2, kind="attack"), "sg.out_of_step")
    assert error.values == {"name": "B", "step": 20, "names": ["A", "C"], "declared": 15}
    run.refused(Hide("B", 5, 2), "sg.out_of_step")  # hiding is an action too
    run(Roll("A", 5, 1), 3)
    error = run.refused(Roll("B", 5, 2, kind="attack"), "sg.out_of_step")  # C has not acted yet
    assert error.values == {"name": "B", "step": 20, "names": ["A", "C"], "declared": 15}
    assert screen(run)[1] == "▶ Now acting: initiative 20 — A & C"


def test_s_core_3_the_gms_roll_out_of_step_is_carried_out_and_marked() -> None:
    run = fight()
    run(Roll("D", 5, 2, kind="attack", gm=True), 3, 3)
    assert run.event("sg.rolled")["out_of_step"] == {"dp": 20, "names": ["A", "C"]}
    assert (run.c("D").acted, run.s.step) == (True, 20)


def test_s_core_3_the_step_moves_on_when_everyone_at_it_has_acted() -> None:
    run = fight()
    run(Roll("A", 5, 1), 3)
    run(Roll("C", 5, 1), 3)
    # everyone at 20 has acted; the step stays until the next value's first own roll, so that the
    # answers to C's action still belong to it — the status already says who is next
    assert (run.s.step, screen(run)[1]) == (20, "▶ Everyone at the step has acted. Next: initiative 15 — B")
    run(Roll("A", 5, 1, kind="evasion", against="C"), 4)
    run(Roll("B", 7, 1, kind="attack"), 2)
    assert run.kinds() == ["sg.step", "sg.rolled"]
    assert run.event("sg.step") == {"turn": 1, "dp": 15, "names": ["B"], "by": "auto", "skipped": []}
    error = run.refused(Roll("A", 5, 1), "sg.acted_this_turn")  # A's step is over: A acted there
    assert error.values == {"name": "A", "step": 10, "names": ["D"], "turn": 1}  # B acted: D next
    run(Roll("D", 7, 1, kind="attack"), 2)
    assert run.s.step == 10
    assert screen(run)[1] == "▶ Everyone has acted this turn (next: /sg turn for turn 2)"
    error = run.refused(Roll("B", 5, 1), "sg.turn_done")
    assert error.values == {"name": "B", "turn": 1}


def test_s_core_3_the_gm_moves_the_turn_on() -> None:
    run = fight()
    run(Roll("A", 5, 1), 3)
    run(NextStep())
    assert run.event("sg.step") == {"turn": 1, "dp": 15, "names": ["B"], "by": "gm", "skipped": ["C"]}
    error = run.refused(Roll("C", 5, 1), "sg.step_passed")  # C missed its step: it may declare lower
    assert error.values == {"name": "C", "step": 15, "names": ["B"], "declared": 20}
    run(Declare("C", 15))
    run(Roll("C", 5, 1), 2)  # now with B
    run(NextStep())
    run.refused(NextStep(), "sg.no_later_step")
    run(NextTurn())
    assert (run.s.step, [c.acted for c in run.s.characters]) == (20, [False] * 4)
    Run().refused(NextStep(), "sg.no_battle")


def test_s_core_3_declaring_lower_waits_and_a_step_no_one_stands_at_moves_on() -> None:
    run = fight()
    run(Declare("A", 12))
    run(Declare("C", 15))  # no one is left at 20: the turn moves to 15 at once
    assert (run.kinds(), run.s.step) == (["sg.declared", "sg.step"], 15)
    assert run.event("sg.step")["names"] == ["B", "C"]
    error = run.refused(Declare("A", 16), "sg.declare_passed")
    assert error.values == {"name": "A", "dp": 16, "step": 15}
    run(Roll("B", 5, 1), 1)
    error = run.refused(Declare("B", 3), "sg.declare_after_acting")
    assert error.values == {"name": "B", "turn": 1}


def test_s_core_3_a_knocked_out_character_leaves_its_step() -> None:
    run = battle(pc("A", dp=15), enemy("C", dp=20, hp=5), enemy("D", dp=10))
    run(NextTurn())
    run(Damage("C", 9, mercy="unconscious"))  # a trap: no one is left at 20, on to 15
    assert (run.kinds()[-1], run.s.step, run.event("sg.step")["names"]) == ("sg.step", 15, ["A"])


def test_s_core_3_a_hidden_character_waits_and_acts_at_the_value_now_acting() -> None:
    run = battle(pc("A", dp=20), pc("B", dp=15), enemy("L", dp=24), enemy("M", dp=18))
    run(Hide("L", 5, 1), 2)
    run(Hide("M", 5, 1), 2)
    run(NextTurn())
    assert run.event("sg.turn_started")["order"] == [{"dp": 20, "names": ["A"]}, {"dp": 15, "names": ["B"]}]
    run(Roll("L", 6, 1, kind="ability"), 5)  # still hidden, it acts at the value now acting
    assert (run.c("L").declared, run.c("L").acted, run.secret()) == (20, True, [("sg.rolled", ())])
    run(Roll("A", 5, 1), 1)
    run(Roll("M", 6, 1, kind="attack"), 5)  # out of hiding with 18 DP: it waited until after 20
    assert (run.kinds(), run.c("M").declared, run.event("sg.rolled")["out_of_step"]) == (
        ["sg.revealed", "sg.step", "sg.rolled"],
        18,
        None,
    )


def test_s_core_3_no_steps_before_the_turns() -> None:
    run = battle(pc("A", dp=20), pc("B", dp=15))
    run(Roll("B", 5, 1, kind="attack"), 1)
    assert (run.s.step, run.c("B").acted) == (None, False)
    run(Join("C", dp_max=10, recovery=2))
    run(NextTurn())
    assert run.s.step == 20


def test_s_core_3_with_no_one_in_the_order_a_hidden_character_still_acts() -> None:
    run = battle(enemy("L", dp=18))
    run(Hide("L", 5, 1), 2)
    run(NextTurn())
    assert (run.s.step, run.event("sg.turn_started")["order"]) == (None, [])
    run(Roll("L", 5, 1, kind="ability"), 3)  # a player's hidden character, in no step: it may act
    assert (run.c("L").acted, run.event("sg.rolled")["out_of_step"]) == (True, None)
    run(Join("R", dp_max=20, recovery=5, side="enemy"))  # someone comes in: the order starts there
    assert (run.s.step, run.kinds()) == (15, ["sg.joined", "sg.step"])
