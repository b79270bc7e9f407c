"""Issue 37, item 2: the rulings SENGENSHO.md added to S-SUR-5, S-SUR-6, S-HIDE-1, S-CARD-1 and
S-ITEM-2, one test each, every one failing on the code before them.

S-SUR-5: several surprises per target, "found" between two characters and the lapse when found, who
is unaware (the GM's ``wary`` honoured, a seen enemy evaded as usual). S-SUR-6: the unconscious
target, abilities and surprises, the resistance of an unnoticed ability rolled by the GM. S-CARD-1:
``give_to`` and who is told. S-ITEM-2: ``holder_knows``. S-HIDE-1: ``/sg end reveal:true``.
"""

from __future__ import annotations

from typing import Any

import pytest
from sg_helpers import Run, battle, enemy, pc

from bot.commands import BuildContext, UserError, convert
from bot.registry import lookup, rulesets
from engine.sengensho import SENGENSHO
from engine.sengensho.commands import (
    Damage,
    End,
    GMSet,
    Hide,
    Item,
    Join,
    NextTurn,
    Roll,
    Search,
    SpellCard,
    Surprise,
)
from engine.sengensho.visibility import visible


def fight() -> Run:
    """A and C (PCs) act together at 20, B (an enemy) too, D at 15."""
    run = battle(pc("A", dp=20), enemy("B", dp=20), pc("C", dp=20), pc("D", dp=15))
    run(NextTurn())
    return run


def ambush() -> Run:
    """霊夢 (u1) and the enemy 妖精 at 20, the hidden ルーミア (19 to find) whose surprise on 霊夢 waits."""
    run = battle(
        pc("霊夢", dp=20, invoker="u1"),
        enemy("妖精", dp=20),
        enemy("ルーミア", dp=20, invoker="gm"),
        pc("魔理沙", dp=15, invoker="u2"),
    )
    run(Hide("ルーミア", 9, 2), 5, 5)  # 19
    run(NextTurn())
    run(Surprise("ルーミア", "霊夢", distance=10))  # S-SUR-3: unfound, 霊夢 cannot evade it
    return run


def _events(run: Run) -> list[tuple[str, dict[str, Any], Any]]:
    return [(e.kind, dict(e.data), e.audience) for e in run.events]


# --- S-SUR-5: several surprises per target ----------------------------------------------------


def test_s_sur_5_a_second_attackers_surprise_adds_to_the_first_and_the_gm_is_told() -> None:
    """Before: C's surprise silently replaced A's, and B's defence against A took C's case."""
    run = fight()
    run(Surprise("A", "B", distance=20, wary=True))  # S-SUR-4: −5 against A
    run(Surprise("C", "B", distance=60))  # S-SUR-1: no evasion against C
    assert run.event("sg.surprise_added") == {"attacker": "C", "target": "B", "case": "S-SUR-1", "count": 2}
    assert [(s.attacker, s.case) for s in run.c("B").surprises] == [("a", "S-SUR-4"), ("c", "S-SUR-1")]
    run(Roll("A", 10, 1, kind="attack", at="B"), 1)  # 11
    run(Roll("B", 9, 1, kind="evasion", against="A"), 1)  # each attacker its own: −5, not refused
    assert (run.event("sg.rolled")["modifier"], run.event("sg.rolled")["surprise"]) == (-5, "S-SUR-4")
    run(Roll("C", 10, 1, kind="attack", at="B"), 1)
    refused = run.refused(Roll("B", 9, 1, kind="evasion", against="C"), "sg.evasion_refused")
    assert refused.values == {"name": "B", "case": "S-SUR-1"}
    exported = SENGENSHO.export(run.s)["characters"][1]
    assert [s["attacker"] for s in exported["surprises"]] == ["A", "C"]
    assert SENGENSHO.import_(SENGENSHO.export(run.s)) == run.state


def test_s_sur_5_the_same_attackers_second_surprise_replaces_its_own_and_says_so() -> None:
    run = fight()
    run(Surprise("A", "B", distance=60))
    run(Surprise("A", "B", distance=20, wary=True))
    assert run.event("sg.surprise_replaced") == {
        "attacker": "A",
        "target": "B",
        "case": "S-SUR-4",
        "before": "S-SUR-1",
    }
    assert "sg.surprise_added" not in run.kinds()
    assert [s.case for s in run.c("B").surprises] == ["S-SUR-4"]


# --- S-SUR-5: "found" between two characters, the lapse when found -----------------------------


def test_s_sur_5_a_surprise_named_early_lapses_when_the_target_finds_the_attacker() -> None:
    """Before: found by 霊夢's search, ルーミア still struck as a complete surprise."""
    run = ambush()
    run(Search("霊夢", 8, 2, "ルーミア"), 6, 6)  # 20 > 19: found, she appears
    assert run.event("sg.surprise_found") == {"name": "霊夢", "attacker": "ルーミア", "case": "S-SUR-3"}
    assert run.kinds() == ["sg.search_rolled", "sg.searched", "sg.revealed", "sg.surprise_found"]
    assert ("sg.surprise_found", ("gm",)) in run.secret()  # the GM is told (it had been secret)
    assert run.c("霊夢").surprises == ()
    run(Roll("ルーミア", 9, 1, kind="attack", at="霊夢", gm=True), 4)
    run(Roll("霊夢", 8, 1, kind="evasion", against="ルーミア"), 6)  # an ordinary attack now
    assert (run.event("sg.rolled")["surprise"], run.event("sg.rolled")["won"]) == (None, True)


def test_s_sur_5_found_lasts_past_other_rolls_until_the_attacker_hides_again() -> None:
    """Before: "found" was read from the target's last roll, forgotten with its next one."""
    run = ambush()
    run(Search("霊夢", 8, 2, "ルーミア"), 6, 6)
    run(Roll("霊夢", 5, 1, kind="check"), 3)  # another roll: she is still found
    run(Surprise("ルーミア", "霊夢", distance=10))
    event = run.event("sg.surprise")
    assert (event["case"], event["found"], event["evasion"]) == ("S-SUR-3", True, None)
    run(Hide("ルーミア", 9, 1, gm=True), 6)  # hides again: no longer found
    run(Surprise("ルーミア", "霊夢", distance=10))
    event = run.event("sg.surprise")
    assert (event["found"], event["evasion"]) == (False, "refused")


def test_s_sur_5_a_won_perception_contest_against_the_attackers_stealth_ends_its_surprise() -> None:
    """Before: after B won 感知 against A's 隠密, A's surprise still gave B −5."""
    run = fight()
    run(Surprise("A", "B", distance=20, wary=True))  # S-SUR-4
    run(Roll("A", 5, 0, kind="stealth"))
    run(Roll("B", 10, 0, kind="perception", against="A"))  # 10 > 5: B has found A
    assert run.event("sg.surprise_found") == {"name": "B", "attacker": "A", "case": "S-SUR-4"}
    run(Roll("A", 10, 1, kind="attack", at="B"), 1)
    run(Roll("B", 9, 1, kind="evasion", against="A"), 3)
    assert (run.event("sg.rolled")["modifier"], run.event("sg.rolled")["won"]) == (0, True)


# --- S-SUR-5: who is unaware ------------------------------------------------------------------


def test_s_sur_5_wary_true_at_the_same_initiative_as_a_waiting_hidden_surprise_is_honoured() -> None:
    """Before: the GM's ``wary:true`` was silently read as unaware (S-SUR-1)."""
    run = ambush()  # 妖精 at 20, ルーミア's surprise waits at 20
    run(Surprise("妖精", "霊夢", distance=60, wary=True))
    event = run.event("sg.surprise")
    assert (event["case"], event["wary"], event["same_initiative"], event["evasion"]) == (
        "S-SUR-2",
        True,
        False,
        "perceive_max3",
    )


def test_s_sur_5_a_seen_enemys_attack_at_the_value_of_a_waiting_hidden_surprise_is_evaded() -> None:
    """Before: 霊夢 could not evade 妖精, whom it sees, because ルーミア's surprise waited at 20."""
    run = ambush()
    run(Roll("妖精", 6, 1, kind="attack", at="霊夢", gm=True), 1)  # 7
    run(Roll("霊夢", 8, 1, kind="evasion", against="妖精"), 1)
    assert (run.event("sg.rolled")["surprise"], run.event("sg.rolled")["won"]) == (None, True)
    run(Roll("ルーミア", 9, 1, kind="attack", at="霊夢", gm=True), 4)  # hers still holds
    run.refused(Roll("霊夢", 8, 1, kind="evasion", against="ルーミア"), "sg.evasion_refused")


# --- S-SUR-6 ----------------------------------------------------------------------------------


def test_s_sur_6_an_unconscious_target_notices_nothing() -> None:
    """Before: 霊夢, knocked out, was told (publicly) that it noticed an ability."""
    run = ambush()
    run(Damage("霊夢", 40, mercy="unconscious"))
    run(Surprise("ルーミア", "霊夢", distance=5, ability=True))
    assert run.event("sg.surprise_ability")["noticed"] is False
    assert run.kinds() == ["sg.surprise_ability"]


def test_s_sur_6_a_hidden_casters_ability_does_not_use_up_its_own_attack_surprise() -> None:
    """Before: ルーミア's ability at 20 spent her surprise, dropped when the turn reached 15."""
    run = ambush()
    run(Roll("ルーミア", 5, 0, kind="ability", at="霊夢", gm=True))
    surprise = run.c("霊夢").surprise
    assert surprise is not None and surprise.spent is False
    run(Roll("霊夢", 5, 0, kind="check"))
    run(Roll("妖精", 5, 0, kind="check", gm=True))
    run(Roll("魔理沙", 5, 0, kind="check"))  # the turn moves on to 15
    assert run.s.step == 15 and "sg.surprise_lapsed" not in run.kinds()
    run(Roll("ルーミア", 9, 1, kind="attack", at="霊夢", gm=True), 4)  # still hidden: it strikes now
    run.refused(Roll("霊夢", 8, 1, kind="evasion", against="ルーミア"), "sg.evasion_refused")


def test_s_sur_6_a_target_that_noticed_an_ability_is_wary_from_the_next_value_and_the_gm_is_told() -> None:
    run = fight()
    run(Surprise("C", "B", distance=5, ability=True))
    assert run.event("sg.ability_wary") == {"target": "B", "case": "S-SUR-5"}
    run(Surprise("C", "B", distance=5, ability=True, disguised=True))  # not noticed: nothing to tell
    assert "sg.ability_wary" not in run.kinds()


def _resist_after(disguised: bool | None) -> Run:
    """霊夢 resists by herself after ルーミア's ability (None: no ability at all)."""
    run = ambush()
    if disguised is not None:
        run(Surprise("ルーミア", "霊夢", distance=5, ability=True, disguised=disguised))
        run(Roll("ルーミア", 9, 0, kind="ability", at="霊夢", gm=True))
    run(Roll("霊夢", 2, 0, kind="resist"))
    return run


def test_s_sur_6_a_disguised_ability_is_resisted_for_the_target_by_the_gm_and_told_to_the_gm_alone() -> None:
    """Before: 霊夢's own roll answered "resists the ability used on her" and spent the GM's."""
    plain, disguised = _resist_after(None), _resist_after(True)
    assert _events(disguised) == _events(plain)  # the same answer as with nothing pending
    noticed = _resist_after(False)  # noticed, she resists it without naming the caster
    assert "sg.resisted_unseen" in noticed.kinds()
    run = disguised
    run(Roll("霊夢", 2, 0, kind="resist", gm=True))  # the GM rolls it for her
    assert run.kinds() == ["sg.rolled", "sg.resisted_unseen", "sg.resisted_caster"]
    assert all(e.audience == () for e in run.events)  # the GM's alone
    assert run.event("sg.resisted_caster")["caster"] == "ルーミア"
    assert run.event("sg.resisted_unseen")["won"] is False  # 2 against 9


def test_s_sur_6_a_disguised_ability_from_a_seen_caster_is_resisted_by_the_gm_too() -> None:
    run = fight()
    run(Surprise("C", "B", distance=5, ability=True, disguised=True))
    run(Roll("C", 5, 0, kind="ability", at="B"))
    run(Roll("B", 7, 0, kind="resist", gm=True))
    assert run.event("sg.resisted_unseen") == {"name": "B", "total": 7, "won": True}
    assert all(e.audience == () for e in run.events)
    assert SENGENSHO.export(run.s)["characters"][1]["unnoticed"] == ["C"]  # the GM's document
    assert all("unnoticed" not in c for c in visible(SENGENSHO.export(run.s), None)["characters"])


# --- S-CARD-1 ---------------------------------------------------------------------------------


def _cards() -> Run:
    run = battle(pc("霊夢", dp=18, invoker="u1"), enemy("妖精", dp=12))
    run(SpellCard("霊夢", declare="霊符「夢想封印」"))
    run(SpellCard("妖精", declare="氷符「アイシクルフォール」"))
    run(NextTurn())
    return run


def test_s_card_1_the_givers_owner_hands_a_card_over_with_give_to() -> None:
    run = _cards()
    run(Join("咲夜", dp_max=17, recovery=4, invoker="u3"))  # a reinforcement
    run(SpellCard("霊夢", give_to="咲夜", card="霊符「夢想封印」"))  # 霊夢's owner gives it
    assert run.event("sg.cards_taken") == {
        "name": "咲夜",
        "from": "霊夢",
        "card": "霊符「夢想封印」",
        "side": "pc",
        "side_total": 1,
    }
    assert ([k.name for k in run.c("咲夜").cards], run.c("霊夢").cards) == (["霊符「夢想封印」"], ())


def test_s_card_1_a_card_a_hidden_ally_takes_is_told_to_the_givers_owner() -> None:
    """Before: only the hidden taker's owner read it; 霊夢's owner was not told who took it."""
    run = _cards()
    run(Join("文", dp_max=17, recovery=4, invoker="u3", hidden=True))
    run(SpellCard("文", take_from="霊夢"))
    assert run.secret() == [("sg.cards_taken", ("u1", "u3"))]
    assert run.kinds() == ["sg.cards_taken"]  # nothing public


# --- S-ITEM-2 ---------------------------------------------------------------------------------


def test_s_item_2_only_a_holder_who_knows_is_told() -> None:
    run = battle(pc("霊夢", invoker="u1"), enemy("ルーミア", invoker="gm", hidden=True))
    run(Item("ルーミア", holder="霊夢"))  # hid in 霊夢's things: 霊夢 does not know
    assert run.secret() == [("sg.item_held", ("gm",))]
    assert run.c("ルーミア").holder_knows is False
    run(Item("ルーミア", release=True))
    run(Item("ルーミア", holder="霊夢", holder_knows=True))
    assert run.secret() == [("sg.item_held", ("gm", "u1"))]
    assert SENGENSHO.export(run.s)["characters"][1]["holder_knows"] is True
    assert SENGENSHO.import_(SENGENSHO.export(run.s)) == run.state


# --- S-HIDE-1: /sg end reveal:true -------------------------------------------------------------


def test_s_hide_1_end_reveals_the_hidden_only_with_reveal_true() -> None:
    run = ambush()
    run(End(reveal=True))
    assert run.kinds() == ["sg.revealed", "sg.ended"]
    assert run.event("sg.revealed") == {"name": "ルーミア", "reason": "end", "by": None, "cards_entry": False}
    assert [c["name"] for c in run.event("sg.ended")["characters"]] == ["霊夢", "妖精", "ルーミア", "魔理沙"]
    assert run.secret() == []


def test_the_bot_builds_the_new_options() -> None:
    """``/sg end reveal``, ``/sg item holder_knows``, ``/sg spellcard give_to`` reach the engine."""
    binding = rulesets().get("sengensho")
    assert binding is not None

    def build(path: str, **options: Any) -> Any:
        spec = lookup(path)
        make = spec.build if spec.build is not None else binding.builders[spec.path]
        return make(convert(spec, options), BuildContext("gm", True))

    assert build("sg end", reveal=True) == End(reveal=True)
    assert build("sg item", name="X", holder="Y", holder_knows=True) == Item("X", "Y", holder_knows=True)
    assert build("sg spellcard", name="X", give_to="Y", card="Z") == SpellCard("X", give_to="Y", card="Z")
    spec = lookup("sg item")
    make = spec.build
    assert make is not None
    with pytest.raises(UserError) as refused:  # S-ITEM-2: whether the holder knows is the GM's to say
        make(convert(spec, {"name": "X", "holder": "Y", "holder_knows": True}), BuildContext("u1", False))
    assert refused.value.key == "sg.holder_knows_gm_only"
    assert make(convert(spec, {"name": "X", "holder": "Y"}), BuildContext("u1", False)) == Item("X", "Y")


def test_s_sur_5_the_gm_showing_a_hidden_attacker_makes_it_found_and_its_surprise_lapses() -> None:
    run = ambush()
    run(GMSet("ルーミア.hidden", "false"))  # it appears
    assert run.kinds() == ["sg.surprise_found", "sg.gm_set"]
    assert run.c("霊夢").surprises == () and run.c("霊夢").found == ("ルーミア",)
    run(GMSet("ルーミア.hidden", "true"))  # hidden again: no one has found it
    assert run.c("霊夢").found == ()


def test_s_card_1_a_player_cannot_take_another_players_card_only_be_given_it() -> None:
    """S-CARD-1: handed over, not taken: a player's take_from of another player's character is refused,
    saying how its owner gives it; from their own character, or by the GM, it is carried out."""
    binding = rulesets().get("sengensho")
    assert binding is not None and binding.authorize is not None
    state = battle(pc("霊夢", owner="u1"), pc("咲夜", owner="u3"), pc("小傘", owner="u3")).s
    take = SpellCard("咲夜", take_from="霊夢", card="霊符「夢想封印」")
    with pytest.raises(UserError) as refused:
        binding.authorize(state, take, BuildContext("u3", False))
    assert refused.value.key == "sg.card_take_needs_giver"
    assert dict(refused.value.values) == {"giver": "霊夢", "taker": "咲夜"}
    binding.authorize(state, take, BuildContext("gm", True))
    binding.authorize(state, SpellCard("咲夜", take_from="小傘"), BuildContext("u3", False))


def test_s_hide_1_the_limit_a_player_meets_counts_only_the_characters_that_player_can_see() -> None:
    """Defect: joining until refused counted the hidden ones (the 200 limit included them)."""
    run = battle()
    run(Join("潜む者", dp_max=10, recovery=2, side="enemy", hidden=True, gm=True))
    for n in range(199):
        run(Join(f"PC{n}", dp_max=10, recovery=2, invoker="p1"))
    run(Join("二百人目", dp_max=10, recovery=2, invoker="p2"))  # the 200th the table can see
    error = run.refused(Join("もう一人", dp_max=10, recovery=2, invoker="p2"), "limits.too_many")
    assert error.values["count"] == 201  # as if no one hid: the same refusal in a world without it
    run(Join("もう一人の潜む者", dp_max=10, recovery=2, side="enemy", hidden=True, gm=True))
    assert len(run.s.characters) == 202
    SENGENSHO.import_(SENGENSHO.export(run.s))  # an export of it still reads
