"""S-REIN-1, S-ITEM-1/2, S-MERCY-1: reinforcements and spell cards, characters as items, mercy."""

from __future__ import annotations

from sg_helpers import battle, enemy, pc

from engine.sengensho.commands import Damage, Declare, Item, Join, NextTurn, Roll, SpellCard, Surprise
from engine.sengensho.state import Down

# --- S-REIN-1 ----------------------------------------------------------------------------------


def test_s_rein_1_joining_a_running_battle_starts_with_recovery_times_3() -> None:
    run = battle(pc("A", dp=20), enemy("B", dp=12))
    run(NextTurn())
    run(Join("魔理沙", body=2, endurance=2, intellect=6, sense=6, will=4, hp=25))  # max 18, recovery 4
    joined = run.event("sg.joined")
    assert (joined["dp"], joined["dp_max"], joined["recovery"], joined["reinforcement"], joined["turn"]) == (
        12,
        18,
        4,
        True,
        1,
    )
    marisa = run.c("魔理沙")
    assert (marisa.dp, marisa.declared, marisa.entry_turn) == (12, 12, 1)
    run(Declare("A", 12))
    assert run.event("sg.declared")["order"] == [{"dp": 12, "names": ["A", "B", "魔理沙"]}]
    run(NextTurn())
    assert run.c("魔理沙").dp == 16


def test_s_rein_1_spell_cards_take_over_keeps_the_count_new_ones_open_an_answer() -> None:
    run = battle(pc("A", dp=20), enemy("B", dp=20), enemy("E", dp=20))
    run(SpellCard("A", declare=3))
    run(SpellCard("B", declare=2))
    run(NextTurn())
    assert run.refused(SpellCard("A", declare=1), "sg.cards_closed").values == {
        "name": "A",
        "count": 1,
        "allowance": 0,
    }
    run(NextTurn())
    run(Join("R", dp_max=20, recovery=5))
    run.refused(SpellCard("R", declare=1, take_from="B"), "sg.cards_not_ally")
    run(SpellCard("R", take_from="A"))
    assert run.event("sg.cards_taken") == {
        "name": "R",
        "from": "A",
        "count": 1,
        "side": "pc",
        "side_total": 3,
    }
    assert (run.c("A").cards, run.c("R").cards) == (2, 1)
    run(SpellCard("R", declare=2))
    assert run.event("sg.cards_declared") == {
        "name": "R",
        "count": 2,
        "side": "pc",
        "side_total": 5,
        "answer": 2,
        "other_side": "enemy",
    }
    run(SpellCard("B", declare=1))
    assert (run.event("sg.cards_declared")["answer"], run.s.card_allowance) == (0, (0, 1))
    run.refused(SpellCard("E", declare=2), "sg.cards_closed")
    run(SpellCard("E", declare=1))
    assert (run.s.side_cards(run.c("E").side), run.s.card_allowance) == (4, (0, 0))
    run(SpellCard("A", use=1))
    assert run.event("sg.cards_used") == {"name": "A", "count": 1, "unused": 1}
    assert run.refused(SpellCard("R", declare=2, take_from="A"), "sg.cards_short").values == {
        "name": "A",
        "unused": 1,
        "count": 2,
    }
    run(NextTurn())
    run.refused(SpellCard("R", take_from="A"), "sg.cards_not_late_entrant")
    run.refused(SpellCard("R"), "sg.nothing_to_change")
    run.refused(SpellCard("R", declare=0), "sg.value_invalid")


# --- S-ITEM-1 ----------------------------------------------------------------------------------


def test_s_item_1_the_holder_evades_for_its_item_and_barrages_miss_it() -> None:
    run = battle(pc("H", dp=20), pc("I", dp=20, hp=10), enemy("X", dp=20))
    run(NextTurn())
    run(Item("I", holder="H"))
    run.refused(Damage("I", 3, via="barrage"), "sg.item_not_hit_by_barrage")
    run(Surprise("X", "I", distance=20, wary=True))
    event = run.event("sg.surprise")
    assert (event["target"], event["defender"], event["case"]) == ("I", "H", "S-SUR-4")
    assert run.c("H").surprise is not None and run.c("I").surprise is None
    run.refused(Roll("I", 5, 2, kind="evasion", against="X"), "sg.item_cannot_defend")
    run(Damage("I", 3))  # an aimed attack that hits the item hits the character in it
    assert run.c("I").hp == 7


# --- S-ITEM-2 ----------------------------------------------------------------------------------


def test_s_item_2_dp_capped_at_half_no_recovery_jump_out_keeps_dp() -> None:
    run = battle(pc("H", dp=20), pc("I", dp=21, recovery=4))
    run(NextTurn())
    run(Item("I", holder="H"))
    assert run.event("sg.item_held") == {"name": "I", "holder": "H", "dp_before": 21, "dp": 10, "cap": 10}
    run(NextTurn())
    assert (run.c("I").dp, run.event("sg.turn_started")["recovered"][1]["reason"]) == (10, "item")
    run(Roll("I", 6, 2, kind="ability"), 3, 3)
    assert run.c("I").exposed is False  # an ability gives it away only if perceived
    run(Item("I", release=True))
    assert run.event("sg.item_released") == {"name": "I", "holder": "H", "dp": 8}
    run(Roll("I", 6, 2, kind="evasion"), 1, 1)  # out of the item state, it defends again
    run(NextTurn())
    assert run.c("I").dp == 10  # 6 + 4


def test_s_item_2_lower_dp_stays_and_turn_1_starts_at_half() -> None:
    run = battle(pc("H", dp=20), pc("I", dp=20))
    run(Item("I", holder="H"))
    run(NextTurn())
    assert run.c("I").dp == 10
    run(Item("I", release=True))
    run(Roll("I", 0, 4), 1, 1, 1, 1)
    run(Item("I", holder="H"))
    assert run.event("sg.item_held")["dp"] == 6


def test_s_item_2_attacks_but_no_melee_and_attacking_exposes_it() -> None:
    run = battle(pc("H", dp=20), pc("I", dp=20), enemy("X", dp=20))
    run(NextTurn())
    run(Item("I", holder="H"))
    run.refused(Roll("I", 6, 2, kind="melee"), "sg.item_no_melee")
    run(Roll("I", 6, 2, kind="attack"), 2, 5)
    assert run.kinds() == ["sg.rolled", "sg.item_exposed"]
    assert run.event("sg.item_exposed") == {"name": "I", "reason": "attack", "by": None}


def test_s_item_2_perception_beating_its_stealth_notices_it() -> None:
    run = battle(pc("H", dp=20), pc("I", dp=20), enemy("X", dp=20))
    run(NextTurn())
    run(Item("I", holder="H"))
    run(Roll("I", 8, 2, kind="stealth"), 3, 3)  # 14, 隠密 defends
    run(Roll("X", 8, 2, kind="perception", against="I"), 3, 3)  # 14: a tie, not noticed
    assert run.kinds() == ["sg.rolled"]
    run(Roll("X", 8, 2, kind="perception", against="I"), 3, 4)  # 15
    assert run.event("sg.item_exposed") == {"name": "I", "reason": "perception", "by": "X"}


def test_s_item_2_refusals() -> None:
    run = battle(pc("H"), pc("I"), pc("J"))
    run.refused(Item("I"), "sg.item_holder_or_release")
    run.refused(Item("I", holder="H", release=True), "sg.item_holder_or_release")
    run.refused(Item("I", release=True), "sg.not_item")
    run.refused(Item("I", holder="I"), "sg.item_self")
    run(Item("I", holder="H"))
    run.refused(Item("I", holder="J"), "sg.already_item")
    run.refused(Item("J", holder="I"), "sg.item_nested")


# --- S-MERCY-1 ---------------------------------------------------------------------------------


def test_s_mercy_1_the_attacker_chooses_unconscious() -> None:
    run = battle(pc("A", hp=30), enemy("B", hp=12))
    run(NextTurn())
    run(Damage("B", 5, mercy="hp1"))  # no choice to make yet: ignored
    assert (run.c("B").hp, run.c("B").down) == (7, None)
    assert run.refused(Damage("B", 7), "sg.mercy_required").values == {
        "name": "B",
        "choices": "unconscious, hp1",
    }
    run.refused(Damage("B", 7, mercy="kill"), "sg.mercy_invalid")
    run(Damage("B", 9, mercy="unconscious"))
    assert run.kinds() == ["sg.damaged", "sg.knocked_out"]
    assert run.event("sg.damaged")["hp"] == 0
    assert (run.c("B").hp, run.c("B").down, run.c("B").declared) == (0, Down.UNCONSCIOUS, None)
    run.refused(Damage("B", 1), "sg.character_down")
    run.refused(Roll("B", 5, 1), "sg.character_down")
    run(Roll("B", 5, 1, kind="resist"), 6)  # resistance is rolled without knowing (S-SUR-6)
    run(NextTurn())
    assert run.event("sg.turn_started")["order"] == [{"dp": 20, "names": ["A"]}]


def test_s_mercy_1_or_hp_1_and_incapacitated() -> None:
    run = battle(pc("A", hp=30), enemy("B", hp=12))
    run(Damage("A", 40, mercy="HP1"))
    assert run.event("sg.knocked_out") == {"name": "A", "mercy": "hp1", "hp": 1}
    assert (run.c("A").hp, run.c("A").down) == (1, Down.INCAPACITATED)


def test_damage_needs_tracked_hp_and_a_known_way() -> None:
    run = battle(pc("A", hp=None))
    run.refused(Damage("A", 3), "sg.hp_untracked")
    run.refused(Damage("A", 3, via="bomb"), "sg.via_invalid")
    run.refused(Damage("A", -3), "sg.value_invalid")
