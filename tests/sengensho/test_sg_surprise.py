"""S-SUR-1..6 and S-HIDE-1: surprise cases, the evasion they leave, hidden characters."""

from __future__ import annotations

from sg_helpers import Run, battle, enemy, pc

from engine.sengensho import SENGENSHO
from engine.sengensho.commands import (
    Damage,
    Declare,
    GMSet,
    Hide,
    NextStep,
    NextTurn,
    Roll,
    Search,
    SpellCard,
    Surprise,
)
from engine.sengensho.state import Evasion
from engine.sengensho.state import Surprise as SurpriseMark


def fight() -> Run:
    run = battle(pc("A", dp=20), enemy("B", dp=20), pc("C", dp=20), pc("D", dp=15))
    run(NextTurn())
    return run


# --- S-SUR-1 ----------------------------------------------------------------------------------


def test_s_sur_1_complete_surprise_from_outside_30m_no_evasion() -> None:
    run = fight()
    run(Surprise("A", "B", distance=50))
    event = run.event("sg.surprise")
    assert (event["case"], event["evasion"], event["attacker_cap"], event["wary"]) == (
        "S-SUR-1",
        "refused",
        None,
        False,
    )
    run(Roll("A", 10, 4, kind="attack"), 3, 3, 3, 3)  # no limit under 100 m
    error = run.refused(Roll("B", 8, 2, kind="evasion", against="A"), "sg.evasion_refused")
    assert error.values == {"name": "B", "case": "S-SUR-1"}


def test_s_sur_1_at_100m_a_hit_check_of_at_most_3d() -> None:
    run = fight()
    run(Surprise("A", "B", distance=100))
    assert run.event("sg.surprise")["attacker_cap"] == 3
    error = run.refused(Roll("A", 10, 4, kind="attack", target=18), "sg.dice_over_cap")
    assert error.values == {"name": "A", "dice": 4, "cap": 3, "rule": "S-SUR-1"}
    run(Roll("A", 10, 3, kind="attack", target=18), 2, 3, 4)
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["success"]) == (19, True)
    run(Roll("A", 10, 4, kind="attack"), 1, 1, 1, 1)  # the limit was for that one attack
    assert run.c("A").dp == 13


# --- S-SUR-2 ----------------------------------------------------------------------------------


def test_s_sur_2_wary_target_evades_at_most_3d_after_winning_perception() -> None:
    run = fight()
    run(Surprise("A", "B", distance=40, wary=True))
    assert (run.event("sg.surprise")["case"], run.event("sg.surprise")["evasion"]) == (
        "S-SUR-2",
        "perceive_max3",
    )
    assert run.refused(Roll("A", 10, 4, kind="attack"), "sg.dice_over_cap").values["rule"] == "S-SUR-2"
    run(Roll("A", 10, 3, kind="attack"), 4, 4, 4)  # 22
    run.refused(Roll("B", 9, 3, kind="evasion", against="A"), "sg.evasion_needs_perception")
    run(Roll("B", 12, 2, kind="perception", against="A", label="知覚 -2"), 5, 5)  # 22: a tie, B defends
    assert run.event("sg.rolled")["won"] is True
    assert run.refused(Roll("B", 9, 4, kind="evasion", against="A"), "sg.dice_over_cap").values == {
        "name": "B",
        "dice": 4,
        "cap": 3,
        "rule": "S-SUR-2",
    }
    run(Roll("B", 9, 3, kind="evasion", against="A"), 6, 6, 2)  # 23 > 22
    rolled = run.event("sg.rolled")
    assert (rolled["total"], rolled["won"], rolled["surprise"]) == (23, True, "S-SUR-2")


def test_s_sur_2_a_tie_in_the_perception_check_goes_to_the_target() -> None:
    """Defect: with ``kind:perception`` the tie went to the attacker (the exemption of perception
    against 隠密 was applied to perception against an attack). The target defends."""
    run = fight()
    run(Surprise("A", "B", distance=40, wary=True))
    run(Roll("A", 10, 3, kind="attack"), 4, 4, 4)  # 22
    run(Roll("B", 12, 2, kind="perception", against="A"), 5, 5)  # 22
    assert (run.event("sg.rolled")["won"], run.c("B").last_roll.won) == (True, True)  # type: ignore[union-attr]
    run(Roll("B", 9, 3, kind="evasion", against="A"), 1, 1, 1)  # so it may evade, with at most 3D
    assert run.event("sg.rolled")["surprise"] == "S-SUR-2"


def test_s_core_4_a_roll_against_an_attack_must_say_how_it_answers() -> None:
    """Defect: a roll ``against:`` an attack with no ``kind`` counted as a check, so a barred evasion
    passed as ``label:回避``."""
    run = fight()
    run(Surprise("A", "B", distance=50))
    run(Roll("A", 10, 2, kind="attack"), 4, 4)
    error = run.refused(Roll("B", 9, 2, against="A", label="回避"), "sg.against_needs_kind")
    assert error.values == {"name": "B", "against": "A", "allowed": "evasion, guard, resist, perception"}
    run.refused(Roll("B", 9, 2, kind="evasion", against="A", label="回避"), "sg.evasion_refused")
    run.refused(Roll("B", 9, 2, kind="guard", against="A"), "sg.evasion_refused")


def test_s_sur_2_inside_alert_perception_succeeds_by_itself() -> None:
    run = fight()
    run(Surprise("A", "B", distance=40, alert=True))
    assert (run.event("sg.surprise")["case"], run.event("sg.surprise")["evasion"]) == ("S-SUR-2", "max3")
    run(Roll("A", 10, 3, kind="attack"), 1, 1, 1)
    run(Roll("B", 9, 3, kind="evasion", against="A"), 1, 1, 2)  # 13 against 13: the evader defends
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["won"]) == (13, True)


# --- S-SUR-3 ----------------------------------------------------------------------------------


def test_s_sur_3_inside_30m_needs_the_stealth_contest_first() -> None:
    run = fight()
    error = run.refused(Surprise("A", "B", distance=10), "sg.surprise_contest_required")
    assert error.values == {"attacker": "A", "target": "B"}
    run(Roll("A", 8, 2, kind="stealth"), 3, 3)  # 身体+〈隠密〉 14
    run(Roll("B", 7, 2, kind="perception", against="A"), 3, 3)  # 感覚+〈感知〉 13: not found
    run(Surprise("A", "B", distance=10))
    event = run.event("sg.surprise")
    assert (event["case"], event["found"], event["evasion"]) == ("S-SUR-3", False, "refused")
    run.refused(Roll("B", 8, 2, kind="evasion"), "sg.evasion_refused")
    run(Roll("A", 8, 1, kind="attack", at="B"), 3)  # S-SUR-5: the attack spends it at A's value
    assert run.c("B").unaware_at == 20


def test_s_sur_3_a_target_that_found_the_attacker_evades_normally() -> None:
    run = fight()
    run(Roll("A", 8, 2, kind="stealth"), 3, 3)  # 14
    run(Roll("B", 7, 2, kind="perception", against="A"), 4, 4)  # 15: found
    run(Surprise("A", "B", distance=10))
    event = run.event("sg.surprise")
    assert (event["case"], event["found"], event["evasion"], run.c("B").surprise) == (
        "S-SUR-3",
        True,
        None,
        None,
    )


def test_s_sur_3_inside_alert_counts_as_s_sur_4() -> None:
    run = fight()
    run(Surprise("A", "B", distance=10, alert=True))
    assert (run.event("sg.surprise")["case"], run.event("sg.surprise")["evasion"]) == ("S-SUR-4", "minus5")


# --- S-SUR-4 ----------------------------------------------------------------------------------


def test_s_sur_4_wary_but_not_found_evades_at_minus_5_with_free_dice() -> None:
    run = fight()
    run(Surprise("A", "B", distance=20, wary=True))
    assert (run.event("sg.surprise")["case"], run.event("sg.surprise")["attacker_cap"]) == ("S-SUR-4", None)
    run(Roll("A", 10, 5, kind="attack"), 2, 2, 2, 2, 2)  # 20, dice free
    run(Roll("B", 10, 5, kind="evasion", against="A"), 3, 3, 3, 3, 3)  # 10 + 15 − 5 = 20: tie, B defends
    rolled = run.event("sg.rolled")
    assert (rolled["total"], rolled["modifier"], rolled["won"], rolled["surprise"]) == (
        20,
        -5,
        True,
        "S-SUR-4",
    )
    run(Roll("B", 10, 1, kind="evasion", against="A"), 1)  # against A, at that value: still −5
    assert run.event("sg.rolled")["modifier"] == -5


# --- S-SUR-5 ----------------------------------------------------------------------------------


def test_s_sur_5_same_initiative_while_unaware_counts_unaware_later_ones_may_be_wary() -> None:
    """The GM's ``wary`` decides (S-SUR-5, who is unaware): named at the same initiative without it,
    the event notes that value; ``wary:true`` there is honoured (``test_s_rulings_issue37``)."""
    run = fight()  # A and C act together at 20, D at 15
    run(Surprise("A", "B", distance=60))
    run(Surprise("C", "B", distance=60))  # the same initiative: still unaware
    event = run.event("sg.surprise")
    assert (event["case"], event["same_initiative"], event["wary"], event["evasion"]) == (
        "S-SUR-1",
        True,
        False,
        "refused",
    )
    run(Surprise("D", "B", distance=60, wary=True))  # a later initiative: wary
    event = run.event("sg.surprise")
    assert (event["case"], event["same_initiative"], event["evasion"]) == ("S-SUR-2", False, "perceive_max3")


def test_s_sur_5_a_surprise_does_not_restrict_the_target_against_a_later_ordinary_attack() -> None:
    """Defect: after ``/sg surprise attacker:A target:X distance:50`` X could not evade B's ordinary
    attack at a later initiative (``X cannot evade (S-SUR-1: an unaware target)``)."""
    run = fight()  # A and C at 20, D at 15
    run(Surprise("A", "B", distance=50))
    run(Roll("A", 10, 2, kind="attack"), 4, 4)
    run.refused(Roll("B", 9, 2, kind="evasion", against="A"), "sg.evasion_refused")
    run(Roll("C", 5, 1, kind="attack"), 1)  # C at the same value, but B sees C (S-SUR-5): as usual
    run(Roll("B", 9, 1, kind="evasion", against="C"), 1)
    assert (run.event("sg.rolled")["surprise"], run.event("sg.rolled")["won"]) == (None, True)
    run(NextStep())  # the GM moves the turn past 20 (B did not act there): B is wary now
    assert (run.event("sg.step")["skipped"], run.s.step, run.c("B").surprise, run.c("B").unaware_at) == (
        ["B"],
        15,
        None,
        None,
    )
    run(Roll("D", 8, 2, kind="attack"), 3, 3)  # 14
    run(Roll("B", 9, 2, kind="evasion", against="D"), 3, 3)  # 15 > 14
    rolled = run.event("sg.rolled")
    assert (rolled["total"], rolled["modifier"], rolled["surprise"], rolled["won"]) == (15, 0, None, True)


def test_s_sur_5_a_wary_surprise_gives_minus_5_against_its_attacker_only() -> None:
    """Defect: with ``distance:20 wary:true`` X got −5 against B too."""
    run = fight()
    run(Surprise("A", "B", distance=20, wary=True))
    run(Roll("A", 10, 1, kind="attack"), 1)  # 11
    run(Roll("C", 5, 1, kind="attack"), 1)  # C at the same value: B was wary, so not restricted by A's
    run(Roll("B", 9, 1, kind="evasion", against="C"), 1)
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["modifier"]) == (10, 0)
    run(Roll("B", 9, 1, kind="evasion", against="A"), 1)
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["modifier"]) == (5, -5)


def test_s_sur_5_the_gm_lifts_a_restriction_and_the_status_shows_it_only_while_it_holds() -> None:
    """Defect: the mark stayed in the status, and ``/gm set`` could not clear it."""
    run = fight()
    run(Surprise("A", "B", distance=50))
    assert SENGENSHO.export(run.s)["characters"][1]["surprise"]["case"] == "S-SUR-1"
    run(GMSet("B.surprise", "none"))
    assert run.event("sg.gm_set") == {"target": "B.surprise", "before": "refused", "value": None}
    run(Roll("A", 10, 1, kind="attack"), 1)
    run(Roll("B", 9, 1, kind="evasion", against="A"), 1)  # lifted: it evades as usual
    assert run.event("sg.rolled")["modifier"] == 0
    run(GMSet("B.surprise", "minus5"))  # or the GM sets one: −5 to every defence at this value
    assert run.c("B").surprise == SurpriseMark("GM", None, Evasion.MINUS5, 20)
    run(Roll("B", 9, 1, kind="evasion", against="A"), 1)
    assert run.event("sg.rolled")["modifier"] == -5
    run(NextStep())
    assert SENGENSHO.export(run.s)["characters"][1]["surprise"] is None


def test_s_sur_5_unaware_is_forgotten_at_the_next_turn() -> None:
    run = fight()
    run(Surprise("A", "B", distance=60))
    run(NextTurn())
    assert (run.c("B").unaware_at, run.c("B").surprise) == (None, None)
    run(Declare("C", 20))
    run(Surprise("C", "B", distance=60, wary=True))
    assert run.event("sg.surprise")["case"] == "S-SUR-2"


# --- S-SUR-6 ----------------------------------------------------------------------------------


def test_s_sur_6_abilities_are_noticed_unless_disguised_and_always_resisted() -> None:
    run = fight()
    run(Surprise("A", "B", distance=60))  # B cannot evade ...
    run(Surprise("C", "B", distance=5, ability=True))
    assert run.event("sg.surprise_ability") == {
        "attacker": "C",
        "target": "B",
        "distance": 5,
        "case": "S-SUR-6",
        "noticed": True,
        "resist": True,
    }
    run(Surprise("C", "B", distance=5, ability=True, disguised=True))
    assert run.event("sg.surprise_ability")["noticed"] is False
    run(Roll("B", 6, 3, kind="resist"), 2, 3, 4)  # ... but it resists, at most 3D
    assert run.event("sg.rolled")["total"] == 15
    assert run.c("B").surprise is not None  # the evasion restriction still waits


# --- S-HIDE-1 ---------------------------------------------------------------------------------


def test_s_hide_1_hidden_is_hit_only_by_barrage_and_area() -> None:
    run = fight()
    run(Hide("B", 9, 2), 5, 5)
    assert (run.c("B").hidden_total, run.c("B").dp, run.event("sg.hidden")["moved"]) == (19, 18, False)
    run.refused(Damage("B", 5), "sg.target_hidden")
    run.refused(Surprise("A", "B", distance=10), "sg.target_hidden")
    run(Damage("B", 5, via="barrage"))
    run(Damage("B", 5, via="area"))
    assert run.c("B").hp == 20


def test_s_hide_1_each_searcher_once_a_turn_the_hider_wins_ties() -> None:
    run = fight()
    run(Hide("B", 9, 2), 5, 5)  # 19
    run(Search("A", 8, 2, "B"), 5, 6)  # 19: a tie, the hider defends
    searched = run.event("sg.searched")
    assert (searched["total"], searched["hidden_total"], searched["found"], run.c("A").dp) == (
        19,
        19,
        False,
        18,
    )
    assert run.secret() == [("sg.searched", ())]  # the contest is the GM's to read; the roll is public
    run.refused(Search("A", 8, 2, "B"), "sg.already_searched")
    run(Search("C", 8, 1, "B"), 1)
    run(NextTurn())
    run(Search("A", 8, 2, "B"), 6, 6)  # 20
    assert run.kinds() == ["sg.search_rolled", "sg.searched", "sg.revealed"]
    assert run.event("sg.revealed") == {"name": "B", "reason": "found", "by": "A", "cards_entry": False}
    assert run.c("B").hidden is False
    run.refused(Search("C", 8, 1, "B"), "sg.not_hidden")


def test_s_hide_1_moving_rolls_again_and_the_attack_is_a_surprise() -> None:
    run = battle(pc("A", dp=20), enemy("B", dp=20))
    run(Hide("B", 9, 2), 5, 5)  # hidden before the turns
    run(NextTurn())
    run(Hide("B", 9, 1), 1)  # it moves: 10
    assert (run.c("B").hidden_total, run.event("sg.hidden")["moved"]) == (10, True)
    run(Surprise("B", "A", distance=10))  # undiscovered: no contest needed, A cannot evade
    assert run.kinds() == ["sg.surprise"] and run.secret() == [("sg.surprise", ())]  # still hidden
    assert (run.event("sg.surprise")["case"], run.event("sg.surprise")["found"]) == ("S-SUR-3", False)
    run(Roll("B", 9, 1, kind="attack", at="A"), 4)  # S-HIDE-1: undiscovered until its attack
    assert run.kinds() == ["sg.revealed", "sg.surprise_struck", "sg.rolled"]  # told as it strikes
    assert run.event("sg.surprise_struck") == {
        "attacker": "B",
        "target": "A",
        "case": "S-SUR-3",
        "evasion": "refused",
    }
    assert run.event("sg.revealed") == {"name": "B", "reason": "attack", "by": None, "cards_entry": True}
    run(SpellCard("B", declare="闇符「ディマーケイション」, 月符「ムーンライトレイ」"))  # as it appears
    assert (run.event("sg.cards_declared")["answer"], run.s.card_allowance) == (2, (2, 0))  # PC side: 2 more


def test_s_hide_1_an_attack_roll_reveals_the_hidden() -> None:
    run = fight()
    run(Hide("B", 9, 1), 3)
    run(Roll("B", 10, 2, kind="attack"), 4, 4)
    assert run.kinds() == ["sg.revealed", "sg.rolled"]
    assert run.secret() == []  # its attack, and from then on everything about it, is public
    assert run.c("B").hidden is False
