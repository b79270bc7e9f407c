"""The rulings SENGENSHO.md added for issue 25, and the defects D1–D3 they close, one test each.

S-SUR-5 (a surprise named early holds until the turn passes the attacker's value), S-SUR-3 (the
stealth contest in either order, a tie to the hider), S-SUR-2 (``alert:<range m>``), S-SUR-6 (a
resistance to a hidden caster's ability), S-CORE-4 (DP 0), S-HIDE-1 (a join under a hidden
character's name, cards taken by a hidden character), a card named by digits only.
"""

from __future__ import annotations

from sg_helpers import battle, enemy, pc

from bot.rulesets.sengensho.text import status
from bot.views import StatusView
from engine.sengensho import SENGENSHO
from engine.sengensho.commands import (
    Declare,
    GMSet,
    Hide,
    Join,
    NextStep,
    NextTurn,
    Roll,
    Search,
    SpellCard,
    Surprise,
)
from engine.sengensho.state import Side
from engine.sengensho.visibility import visible

# --- S-SUR-5 (D1) -------------------------------------------------------------------------------


def test_s_sur_5_a_surprise_named_two_steps_before_its_attack_holds_until_it_is_made() -> None:
    """D1: named at 18 for an attacker acting at 8, it was dropped when the turn reached 12, and
    霊夢 then evaded a complete surprise from 50 m."""
    run = battle(pc("霊夢", dp=18), pc("魔理沙", dp=12), enemy("妖精", dp=8), gm_fixed="checks")
    run(NextTurn())  # 霊夢 18, 魔理沙 12, 妖精 8
    run(Surprise("妖精", "霊夢", distance=50))  # the GM prepares it while 霊夢 acts
    assert run.c("霊夢").surprise is not None and run.c("霊夢").surprise.spent is False  # type: ignore[union-attr]
    run(Roll("霊夢", 5, 1, kind="check"), 3)
    run(Roll("魔理沙", 5, 1, kind="check"), 3)  # the turn moves on to 12: the surprise holds
    assert (run.s.step, run.c("霊夢").surprise is not None) == (12, True)
    run(Roll("妖精", 6, 2, kind="attack", at="霊夢"))  # the turn moves on to 8; fixed 7: 13
    assert run.s.step == 8 and run.c("霊夢").surprise.spent  # type: ignore[union-attr]
    refused = run.refused(Roll("霊夢", 8, 2, kind="evasion", against="妖精"), "sg.evasion_refused")
    assert refused.values == {"name": "霊夢", "case": "S-SUR-1"}


def test_s_sur_5_a_surprise_never_made_ends_when_the_turn_passes_the_attacker_and_says_so() -> None:
    run = battle(pc("霊夢", dp=18), enemy("妖精", dp=12), pc("魔理沙", dp=8), gm_fixed="checks")
    run(NextTurn())
    run(Surprise("妖精", "霊夢", distance=50))
    run(Roll("霊夢", 5, 1, kind="check"), 3)
    run(NextStep())  # to 12: 妖精's value, still to come
    assert run.c("霊夢").surprise is not None
    run(NextStep())  # past 12 without the attack
    assert run.kinds() == ["sg.surprise_lapsed", "sg.step"]
    assert run.event("sg.surprise_lapsed") == {"name": "霊夢", "attacker": "妖精", "case": "S-SUR-1"}
    assert run.c("霊夢").surprise is None


def test_s_sur_5_s_hide_1_the_lapse_of_a_surprise_on_a_hidden_target_is_not_told_to_the_table() -> None:
    """The target hid after the surprise was named: the lapse names it, so only the GM and the hidden
    one's owner read of it (found by test_sg_property's random battles)."""
    run = battle(
        pc("霊夢", dp=18, owner="reimu"), enemy("妖精", dp=12), pc("魔理沙", dp=8), gm_fixed="checks"
    )
    run(NextTurn())
    run(Surprise("妖精", "霊夢", distance=50))
    run(Hide("霊夢", 9, 0))
    assert run.c("霊夢").hidden
    run(NextTurn())  # the turn passes 妖精's value without the attack
    assert run.event("sg.surprise_lapsed") == {"name": "霊夢", "attacker": "妖精", "case": "S-SUR-1"}
    assert ("sg.surprise_lapsed", ("reimu",)) in run.secret()


def test_s_sur_5_a_surprise_named_before_the_turns_holds_into_turn_1() -> None:
    run = battle(pc("霊夢", dp=18), enemy("妖精", dp=12), gm_fixed="checks")
    run(Surprise("妖精", "霊夢", distance=60))  # the GM prepares the ambush
    run(NextTurn())
    assert run.c("霊夢").surprise is not None and run.c("妖精").attack_limit is None
    run(Roll("霊夢", 5, 1, kind="check"), 3)
    run(Roll("妖精", 6, 2, kind="attack", at="霊夢"))
    run.refused(Roll("霊夢", 8, 1, kind="evasion", against="妖精"), "sg.evasion_refused")
    run(NextTurn())  # spent at 12: gone with the turn
    assert run.c("霊夢").surprise is None and "sg.surprise_lapsed" not in run.kinds()


# --- S-SUR-3 (D2) -------------------------------------------------------------------------------


def test_s_sur_3_the_attackers_stealth_rolled_against_the_targets_perception_counts_too() -> None:
    """D2: only the target's roll against the attacker was recognised; the other order got "contest first"."""
    run = battle(pc("霊夢", dp=20), enemy("妖精", dp=20))
    run(Roll("霊夢", 7, 2, kind="perception"), 3, 3)  # 13
    run(Roll("妖精", 8, 2, kind="stealth", against="霊夢"), 4, 2)  # 14: 妖精 is not found
    run(Surprise("妖精", "霊夢", distance=10))
    event = run.event("sg.surprise")
    assert (event["case"], event["found"], event["evasion"]) == ("S-SUR-3", False, "refused")


def test_s_sur_3_tie_goes_to_the_hider_whichever_rolls_first() -> None:
    # the attacker's stealth answering the target's perception: 13 against 13, the hider wins
    run = battle(pc("霊夢", dp=20), enemy("妖精", dp=20))
    run(Roll("霊夢", 7, 2, kind="perception"), 3, 3)  # 13
    run(Roll("妖精", 7, 2, kind="stealth", against="霊夢"), 3, 3)  # 13
    assert run.event("sg.rolled")["won"] is True
    run(Surprise("妖精", "霊夢", distance=10))
    assert run.event("sg.surprise")["found"] is False
    # the target's perception answering the attacker's stealth: 13 against 13, the hider wins too
    run = battle(pc("霊夢", dp=20), enemy("妖精", dp=20))
    run(Roll("妖精", 7, 2, kind="stealth"), 3, 3)
    run(Roll("霊夢", 7, 2, kind="perception", against="妖精"), 3, 3)
    assert run.event("sg.rolled")["won"] is False
    run(Surprise("妖精", "霊夢", distance=10))
    assert run.event("sg.surprise")["found"] is False


# --- S-SUR-2: alert:<range m> -------------------------------------------------------------------


def test_s_sur_2_an_alert_reaching_past_30m_evades_an_attack_from_outside_the_range() -> None:
    run = battle(pc("霊夢", dp=20), enemy("妖精", dp=20))
    run(Surprise("妖精", "霊夢", distance=40, alert=50))
    event = run.event("sg.surprise")
    assert (event["case"], event["evasion"], event["alert"]) == ("S-SUR-2", "auto", 50)
    run(Roll("妖精", 10, 3, kind="attack", at="霊夢"), 6, 6, 6)  # 28
    run(Roll("霊夢", 0, 0, kind="evasion", against="妖精"))  # evaded automatically, no dice needed
    rolled = run.event("sg.rolled")
    assert (rolled["total"], rolled["against_total"], rolled["won"], rolled["surprise"]) == (
        0,
        28,
        True,
        "S-SUR-2",
    )


def test_s_sur_2_an_attacker_outside_the_alerts_range_is_not_in_it() -> None:
    run = battle(pc("霊夢", dp=20), enemy("妖精", dp=20))
    run(Surprise("妖精", "霊夢", distance=40, alert=20))  # 40 m away, an alert of 20 m: unaware
    assert (run.event("sg.surprise")["case"], run.event("sg.surprise")["evasion"]) == ("S-SUR-1", "refused")
    run(Surprise("妖精", "霊夢", distance=25, alert=30))  # inside 30 m and the alert: S-SUR-4
    assert (run.event("sg.surprise")["case"], run.event("sg.surprise")["evasion"]) == ("S-SUR-4", "minus5")
    run(Surprise("妖精", "霊夢", distance=40, alert=True))  # an earlier command's alert:true
    assert (run.event("sg.surprise")["case"], run.event("sg.surprise")["evasion"]) == ("S-SUR-2", "max3")


# --- S-SUR-6 --------------------------------------------------------------------------------------


def test_s_sur_6_a_player_resists_a_hidden_casters_ability_without_naming_it() -> None:
    run = battle(pc("霊夢", dp=20, owner="u1"), enemy("ルーミア", dp=20, owner="gm"), gm_fixed="checks")
    run(Hide("ルーミア", 6, 0))
    run(NextTurn())
    run(Roll("ルーミア", 6, 2, kind="ability", at="霊夢", gm=True))  # 6 + fixed 7 = 13, unseen
    assert run.secret() == [("sg.rolled", ("gm",))] and run.c("ルーミア").hidden
    run(Roll("霊夢", 9, 1, kind="resist"), 4)  # 13 against 13: the resisting one defends
    assert [(e.kind, e.audience) for e in run.events] == [
        ("sg.rolled", None),
        ("sg.resisted_unseen", None),
        ("sg.resisted_caster", ("gm",)),
    ]
    public = [e for e in run.events if e.audience is None]
    assert "ルーミア" not in repr([e.data for e in public])
    assert run.event("sg.resisted_unseen") == {"name": "霊夢", "total": 13, "won": True}
    assert run.event("sg.resisted_caster")["caster_total"] == 13
    run(Roll("霊夢", 9, 1, kind="resist"), 1)  # resisted already: a plain roll
    assert run.kinds() == ["sg.rolled"]


# --- S-CORE-4: DP 0 -------------------------------------------------------------------------------


def test_s_core_4_dp_0_acts_at_its_value_rolls_0d_and_recovers_next_turn() -> None:
    run = battle(pc("霊夢", dp=10, recovery=3), enemy("妖精", dp=6, recovery=2), gm_fixed="checks")
    run(NextTurn())
    run(GMSet("妖精.dp", "0"))
    run(Declare("妖精", 0))
    run(Roll("霊夢", 5, 2, kind="check"), 1, 1)
    error = run.refused(Roll("妖精", 3, 1, kind="attack"), "sg.dp_none")
    assert error.values == {"name": "妖精", "dice": 1, "dp": 0}
    run(Roll("妖精", 3, 0, kind="attack"))  # its base alone, at its declared 0
    assert (run.s.step, run.event("sg.rolled")["total"], run.event("sg.rolled")["out_of_step"]) == (
        0,
        3,
        None,
    )
    run(NextTurn())
    assert run.event("sg.turn_started")["recovered"][1] == {
        "name": "妖精",
        "before": 0,
        "after": 2,
        "reason": "recovery",
    }


# --- D3: a card named by digits only --------------------------------------------------------------


def test_s_card_1_a_card_named_by_digits_only_is_refused_with_a_hint() -> None:
    """D3: the old ``declare:2`` habit silently made a card named "2"."""
    run = battle(pc("霊夢"))
    error = run.refused(SpellCard("霊夢", declare="2"), "sg.card_name_digits")
    assert error.values == {"card": "2"}
    run.refused(SpellCard("霊夢", declare="恋符「マスタースパーク」, ３"), "sg.card_name_digits")
    run(SpellCard("霊夢", declare="恋符「マスタースパーク」"))


# --- S-HIDE-1 -------------------------------------------------------------------------------------


def test_s_hide_1_a_players_join_under_a_hidden_name_renames_the_hidden_one_privately() -> None:
    run = battle(enemy("ルーミア", dp=16, owner="gm", hidden=True), pc("霊夢", owner="u1"))
    run(Hide("ルーミア", 9, 0))
    run(Search("霊夢", 5, 1), 3)  # 8 against 9: not found
    events = run(Join("ルーミア", dp_max=12, recovery=3, invoker="u2"))  # a player's own character
    assert [(e.kind, e.audience) for e in events] == [("sg.name_clash", ("gm",)), ("sg.joined", None)]
    assert run.event("sg.name_clash") == {"name": "ルーミア", "renamed": "ルーミア(2)", "owner": "gm"}
    public, hidden = run.c("ルーミア"), run.c("ルーミア(2)")
    assert (public.owner, public.hidden, public.side) == ("u2", False, Side.PC)
    assert (hidden.hidden, hidden.searched_by, hidden.clash) == (True, ("霊夢",), "ルーミア")
    gm_view = StatusView(ruleset="sengensho", document=SENGENSHO.export(run.s))
    assert "[名前が重複: プレイヤーがルーミアで参加したので呼び替えました。" in status(gm_view, "ja")
    assert SENGENSHO.import_(SENGENSHO.export(run.s)) == run.s
    # the table reads one ルーミア, the player's
    doc = visible(SENGENSHO.export(run.s), None)
    assert [c["name"] for c in doc["characters"]] == ["霊夢", "ルーミア"]
    # the GM, who sees both, is refused a name taken, and renames the hidden one everywhere
    run.refused(Join("ルーミア", dp_max=12, recovery=3, invoker="gm", gm=True), "sg.name_taken")
    run(GMSet("ルーミア(2).name", "宵闇の妖怪"))
    assert run.secret() == [("sg.gm_set", ("gm",))]
    assert run.c("宵闇の妖怪").hidden and run.s.find("ルーミア(2)") is None
    assert run.c("宵闇の妖怪").clash is None  # renamed: no longer marked
    # its owner joining the same name again knows of it: refused as usual
    run.refused(Join("宵闇の妖怪", dp_max=12, recovery=3, invoker="gm"), "sg.name_taken")


def test_s_hide_1_a_card_taken_by_a_hidden_reinforcement_is_announced_to_the_gm_only() -> None:
    run = battle(pc("霊夢"), enemy("妖精", dp=12, owner="gm"), gm_fixed="checks")
    run(SpellCard("霊夢", declare="霊符「夢想封印」"))
    run(SpellCard("妖精", declare="凍符「パーフェクトフリーズ」"))
    run(NextTurn())
    run(Join("大妖精", dp_max=12, recovery=3, side="enemy", owner="gm", hidden=True))
    events = run(SpellCard("大妖精", take_from="妖精"))
    assert [(e.kind, e.audience) for e in events] == [("sg.cards_taken", ("gm",))]
    doc = visible(SENGENSHO.export(run.s), None)
    fairy = next(c for c in doc["characters"] if c["name"] == "妖精")
    assert fairy["spell_cards"] == [
        {"name": "凍符「パーフェクトフリーズ」", "used": False}
    ]  # as the table saw it
    assert (doc["spell_cards"]["pc"], doc["spell_cards"]["enemy"]) == (1, 1)
    assert "大妖精" not in repr(doc)
    gm = SENGENSHO.export(run.s)
    assert next(c for c in gm["characters"] if c["name"] == "妖精")["spell_cards"] == []
    assert next(c for c in gm["characters"] if c["name"] == "大妖精")["spell_cards"] == [
        {"name": "凍符「パーフェクトフリーズ」", "used": False, "taken_from": "妖精"}
    ]
    assert run.replayed() == run.s
