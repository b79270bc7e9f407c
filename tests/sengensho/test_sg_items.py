"""S-REIN-1, S-CARD-1, S-ITEM-1/2, S-MERCY-1: reinforcements and spell cards, items, mercy."""

from __future__ import annotations

from sg_helpers import battle, enemy, pc

from bot.render.common import event_line
from bot.rulesets import sengensho  # noqa: F401 - the sg.* sentence values
from engine.sengensho import SENGENSHO
from engine.sengensho.commands import (
    Damage,
    Declare,
    GMSet,
    Item,
    Join,
    NextStep,
    NextTurn,
    Roll,
    SpellCard,
    Surprise,
)
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


def test_s_rein_1_a_reinforcement_capped_at_its_maximum_says_so() -> None:
    """Defect: capped at its maximum, a reinforcement still said "DP = recovery 5 × 3" while at 10/10."""
    run = battle(pc("A", dp=20), enemy("B", dp=12))
    run(NextTurn())
    run(Join("R", dp_max=10, recovery=5))
    joined = run.event("sg.joined")
    assert (joined["dp"], joined["dp_max"], joined["capped"]) == (10, 10, True)
    assert event_line(run.events[0], "en") == (
        "R joins on the PC side: DP 10/10, recovery 5, HP not tracked. "
        "A reinforcement: DP = recovery 5 × 3, capped at its maximum 10. It joins at initiative 10."
    )
    run(Join("S", dp_max=20, recovery=5))
    assert (run.event("sg.joined")["capped"], event_line(run.events[0], "ja")) == (
        False,
        "SがPC側として参加しました: DP 15/20、回復 5、HP 記録なし。援軍なので DP = 回復5×3 で参加します。"
        "イニシアティブ 15で参加します。",
    )


def test_s_rein_1_joins_at_the_initiative_the_gm_gives_and_may_act_at_once() -> None:
    run = battle(pc("A", dp=20), enemy("B", dp=12))
    run(NextTurn())
    assert run.s.step == 20
    run(Join("R", dp_max=20, recovery=5))  # DP 15: by default at 15, below the step now acting
    assert run.c("R").declared == 15
    run(Join("S", dp_max=30, recovery=7, initiative=20))  # the GM puts it at the value now acting
    assert (run.c("S").dp, run.c("S").declared) == (21, 20)
    run(Roll("S", 5, 2, kind="attack"), 3, 3)  # it acts at once, in step
    assert run.event("sg.rolled")["out_of_step"] is None
    error = run.refused(Join("T", dp_max=20, recovery=5, initiative=16), "sg.initiative_too_high")
    assert error.values == {"name": "T", "initiative": 16, "dp": 15}
    run(Roll("A", 5, 1, kind="attack"), 1)
    run(Roll("R", 5, 1), 1)  # everyone at 20 has acted: R's roll moves the turn on to 15
    assert (run.kinds()[0], run.s.step) == ("sg.step", 15)
    error = run.refused(Join("T", dp_max=20, recovery=7, initiative=18), "sg.initiative_passed")
    assert error.values == {"name": "T", "initiative": 18, "step": 15}
    run(Join("T", dp_max=30, recovery=7))  # DP 21, but the turn is at 15: it acts now
    assert run.c("T").declared == 15


def test_s_rein_1_initiative_only_for_a_running_battle() -> None:
    run = battle(pc("A"))
    run.refused(Join("R", dp_max=20, recovery=5, initiative=3), "sg.initiative_before_turns")


def test_s_rein_1_spell_cards_take_over_keeps_the_count_new_ones_open_an_answer() -> None:
    run = battle(pc("A", dp=20), enemy("B", dp=20), enemy("E", dp=20))
    run(SpellCard("A", declare="霊符「夢想封印」, 夢符「封魔陣」, 神技「八方鬼縛陣」"))
    run(SpellCard("B", declare="氷符「アイシクルフォール」, 凍符「パーフェクトフリーズ」"))
    run(NextTurn())
    assert run.event("sg.cards_unbalanced") == {"pc": 3, "enemy": 2, "pc_allowance": 0, "enemy_allowance": 0}
    assert run.refused(SpellCard("A", declare="夢符「二重結界」"), "sg.cards_closed").values == {
        "name": "A",
        "count": 1,
        "allowance": 0,
    }
    run(NextTurn())
    run(Join("R", dp_max=20, recovery=5))
    run.refused(SpellCard("R", take_from="B"), "sg.cards_not_ally")
    run.refused(SpellCard("R", take_from="A"), "sg.card_which")  # three unused: say which
    run(SpellCard("R", take_from="A", card="神技「八方鬼縛陣」"))
    assert run.event("sg.cards_taken") == {
        "name": "R",
        "from": "A",
        "card": "神技「八方鬼縛陣」",
        "side": "pc",
        "side_total": 3,
    }
    assert ([k.name for k in run.c("A").cards], [k.name for k in run.c("R").cards]) == (
        ["霊符「夢想封印」", "夢符「封魔陣」"],
        ["神技「八方鬼縛陣」"],
    )
    run(SpellCard("R", declare="幻符「殺人ドール」, 時符「プライベートスクウェア」"))
    assert run.event("sg.cards_declared") == {
        "name": "R",
        "cards": ["幻符「殺人ドール」", "時符「プライベートスクウェア」"],
        "count": 2,
        "side": "pc",
        "side_total": 5,
        "answer": 2,
        "other_side": "enemy",
    }
    assert run.event("sg.cards_unbalanced") == {"pc": 5, "enemy": 2, "pc_allowance": 0, "enemy_allowance": 2}
    run(SpellCard("B", declare="雪符「ダイアモンドブリザード」"))
    assert (run.event("sg.cards_declared")["answer"], run.s.card_allowance) == (0, (0, 1))
    run.refused(SpellCard("E", declare="a, b"), "sg.cards_closed")
    run(SpellCard("E", declare="寒符「リンガリングコールド」"))
    assert (run.s.side_cards(run.c("E").side), run.s.card_allowance) == (4, (0, 0))
    run(SpellCard("A", use="霊符「夢想封印」"))
    assert run.event("sg.cards_used") == {"name": "A", "card": "霊符「夢想封印」", "unused": 1}
    assert (run.s.side_cards(run.c("A").side), run.s.side_unused(run.c("A").side)) == (5, 4)
    assert run.refused(SpellCard("A", use="霊符「夢想封印」"), "sg.card_used").values == {
        "name": "A",
        "card": "霊符「夢想封印」",
    }
    run.refused(SpellCard("A", use="恋符「マスタースパーク」"), "sg.card_unknown")
    run.refused(SpellCard("R", take_from="A", card="霊符「夢想封印」"), "sg.card_used")
    run(NextTurn())
    run.refused(SpellCard("R", take_from="A"), "sg.cards_not_late_entrant")
    run.refused(SpellCard("R"), "sg.nothing_to_change")
    run.refused(SpellCard("R", declare=" , "), "sg.card_name_invalid")
    run.refused(SpellCard("R", card="x"), "sg.card_needs_take_from")


def test_s_card_1_cards_are_named_and_belong_to_a_character() -> None:
    run = battle(pc("A", dp=20), enemy("B", dp=20))
    run(SpellCard("A", declare="恋符「マスタースパーク」"))
    run.refused(SpellCard("A", declare="恋符「マスタースパーク」"), "sg.card_duplicate")
    run.refused(SpellCard("B", use="恋符「マスタースパーク」"), "sg.card_none")  # A's, not B's
    run(SpellCard("A", use="恋符「マスタースパーク」"))
    assert [(k.name, k.used) for k in run.c("A").cards] == [("恋符「マスタースパーク」", True)]
    run(SpellCard("B", declare="月符「ムーンライトレイ」"))
    run(NextTurn())
    assert "sg.cards_unbalanced" not in run.kinds()  # one each: no warning


# --- S-ITEM-1 ----------------------------------------------------------------------------------


def test_s_item_1_the_holder_evades_for_its_item_and_barrages_miss_it() -> None:
    run = battle(pc("H", dp=20), pc("I", dp=20, hp=10), enemy("X", dp=20))
    run(NextTurn())
    run(Item("I", holder="H"))
    run.refused(Damage("I", 3, via="barrage"), "sg.item_not_hit_by_barrage")
    run(Surprise("X", "I", distance=20, wary=True))
    event = run.event("sg.surprise")
    assert (event["target"], event["defender"], event["case"]) == ("I", "H", "S-SUR-4")
    run(Roll("X", 8, 2, kind="attack", at="I"), 4, 4)  # 16, aimed at the item
    run.refused(Roll("I", 5, 2, kind="evasion", against="X"), "sg.item_cannot_defend")
    run(Roll("H", 9, 2, kind="evasion", against="X"), 4, 4)  # the holder evades: 9 + 8 − 5 = 12
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["won"]) == (12, False)
    run(Damage("I", 3))  # an aimed attack that hits the item hits the character in it
    assert run.c("I").hp == 7
    run(GMSet("I.note", "傘に穴が開いた"))  # what the hit did to the item: the GM's call, recorded
    assert (run.c("I").note, SENGENSHO.export(run.s)["characters"][1]["note"]) == (
        "傘に穴が開いた",
        "傘に穴が開いた",
    )


def test_s_item_1_an_ability_on_a_held_item_is_resisted_by_it_or_its_holder_no_one_else() -> None:
    run = battle(pc("H", dp=20), pc("I", dp=20), pc("J", dp=20), enemy("X", dp=20))
    run(NextTurn())
    run(Item("I", holder="H"))
    run(Roll("X", 6, 2, kind="ability", at="I"), 3, 3)  # 12, aimed at the held I
    assert run.event("sg.rolled")["aim"] == "I"
    error = run.refused(Roll("J", 6, 2, kind="resist", against="X"), "sg.not_the_defender")
    assert error.values == {"name": "J", "against": "X", "aim": "I", "allowed": "I, H"}
    run(Roll("H", 6, 2, kind="resist", against="X"), 3, 3)  # 12: a tie, the resister wins
    assert run.event("sg.rolled")["won"] is True
    run(Roll("I", 6, 2, kind="resist", against="X"), 1, 1)  # S-ITEM-2: the item itself may resist too
    assert run.event("sg.rolled")["won"] is False
    # an attack on it: only its holder defends; J, standing by, cannot evade for it
    run(Roll("X", 6, 1, kind="attack", at="I"), 2)
    assert (
        run.refused(Roll("J", 6, 1, kind="evasion", against="X"), "sg.not_the_defender").values["allowed"]
        == "H"
    )
    run.refused(Roll("X", 6, 1, kind="evasion", at="I"), "sg.aim_needs_action")


# --- S-ITEM-2 ----------------------------------------------------------------------------------


def test_s_item_2_dp_capped_at_half_no_recovery_jump_out_keeps_dp() -> None:
    run = battle(pc("H", dp=20), pc("I", dp=21, recovery=4))
    run(NextTurn())
    run(Item("I", holder="H"))
    assert run.event("sg.item_held") == {"name": "I", "holder": "H", "dp_before": 21, "dp": 10, "cap": 10}
    run(NextTurn())
    assert (run.c("I").dp, run.event("sg.turn_started")["recovered"][1]["reason"]) == (10, "item")
    run(NextStep())  # H at 20 passes; I acts at 10
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
    run(NextStep())
    run(Roll("I", 0, 4), 1, 1, 1, 1)
    run(Item("I", holder="H"))
    assert run.event("sg.item_held")["dp"] == 6


def test_s_item_2_attacks_but_no_melee_and_attacking_exposes_it() -> None:
    run = battle(pc("H", dp=20), pc("I", dp=20), enemy("X", dp=20))
    run(NextTurn())
    run(Item("I", holder="H"))
    run.refused(Roll("I", 6, 2, kind="melee"), "sg.item_no_melee")
    run(Roll("I", 6, 2, kind="attack"), 2, 5)  # declared 20 at turn start, cut to 10 DP: still at 20
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


def test_s_item_2_a_held_character_can_neither_evade_nor_guard() -> None:
    run = battle(pc("H", dp=20), pc("I", dp=20), enemy("X", dp=20))
    run(Item("I", holder="H"))
    run(Roll("X", 6, 2, kind="attack", at="I"), 3, 3)
    run.refused(Roll("I", 6, 2, kind="guard", against="X"), "sg.item_cannot_defend")
    run(Roll("H", 6, 2, kind="guard", against="X"), 3, 4)  # its holder guards: 13 > 12
    assert (run.event("sg.rolled")["kind"], run.event("sg.rolled")["won"]) == ("guard", True)


def test_s_item_2_a_held_character_that_jumps_out_keeps_its_complete_surprise() -> None:
    """Defect: the restriction went on the holder only, so the item escaped it by jumping out."""
    run = battle(pc("H", dp=20), pc("I", dp=20), enemy("X", dp=20))
    run(NextTurn())
    run(Item("I", holder="H"))
    run(Surprise("X", "I", distance=50))  # S-SUR-1 on the item: neither it nor its holder may evade
    assert (run.c("H").surprise is not None, run.c("I").surprise is not None) == (True, True)
    run(Roll("X", 6, 2, kind="attack", at="I"), 3, 3)
    run.refused(Roll("H", 6, 2, kind="evasion", against="X"), "sg.evasion_refused")
    run(Item("I", release=True))
    error = run.refused(Roll("I", 6, 2, kind="evasion", against="X"), "sg.evasion_refused")
    assert error.values == {"name": "I", "case": "S-SUR-1"}


# --- S-MERCY-1 ---------------------------------------------------------------------------------


def test_s_mercy_1_the_attacker_chooses_unconscious() -> None:
    run = battle(pc("A", hp=30), enemy("B", hp=12))
    run(NextTurn())
    run(Damage("B", 5, mercy="hp1"))  # no choice to make yet: ignored
    assert (run.c("B").hp, run.c("B").down) == (7, None)
    assert run.refused(Damage("B", 7), "sg.mercy_required").values == {
        "name": "B",
        "choices": "none, unconscious, hp1",
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


def test_s_mercy_1_choosing_neither_leaves_hp_at_0_for_the_core_rules() -> None:
    run = battle(pc("A", hp=30), enemy("B", hp=12))
    run(NextTurn())
    run(Damage("B", 15, mercy="none"))
    assert run.kinds() == ["sg.damaged", "sg.no_mercy"]
    assert (run.c("B").hp, run.c("B").down, run.c("B").declared) == (0, None, 20)
    assert event_line(run.events[1], "en") == "B is at 0 HP (no mercy chosen: the core rules apply)."
    run.refused(Damage("B", 1), "sg.mercy_required")  # at 0 already: the choice comes again


def test_damage_needs_tracked_hp_and_a_known_way() -> None:
    run = battle(pc("A", hp=None))
    run.refused(Damage("A", 3), "sg.hp_untracked")
    run.refused(Damage("A", 3, via="bomb"), "sg.via_invalid")
    run.refused(Damage("A", -3), "sg.value_invalid")
