"""A whole skirmish, start to end, with every step, DP and HP checked: the rules working together.

Three PCs and two enemies over three turns (the script ``SKIRMISH`` of ``sg_skirmish``, shared with
the service and Discord tests): a hidden ambusher (S-HIDE-1) that strikes from hiding with a complete
surprise (S-SUR-3) which ends when the turn moves on (S-SUR-5); a character held as an item that
jumps out (S-ITEM-1/2); a reinforcement (S-REIN-1) taking over a named spell card and declaring one
(S-CARD-1); the GM's checks fixed, then its damage too (S-GM-1); both mercy choices (S-MERCY-1); the
turn's steps moving on by themselves and by the GM (S-CORE-3).
"""

from __future__ import annotations

from sg_helpers import Run
from sg_skirmish import AMBUSHER, SKIRMISH, Step

from engine.sengensho import SENGENSHO
from engine.sengensho.state import Down


def dp(run: Run) -> dict[str, int]:
    return {c.name: c.dp for c in run.s.characters}


def hp(run: Run) -> dict[str, int | None]:
    return {c.name: c.hp for c in run.s.characters}


def test_skirmish() -> None:
    run = Run()
    steps = iter(SKIRMISH)

    def play(until: str) -> Step:
        """Run the script up to and including the step labelled ``until``."""
        for step in steps:
            if step.refused is not None:
                run.refused(step.command, step.refused)
            else:
                run(step.command, *step.dice)
            if step.label == until:
                return step
        raise AssertionError(until)

    # --- before the turns: the ambusher hides unseen, 小傘 becomes 霊夢's umbrella ---------------
    play("ルーミア hides")
    assert (run.c("ルーミア").hidden_total, run.c("ルーミア").dp) == (13, 16)  # 身体2+隠密4 + fixed 7
    assert run.secret() == [("sg.hidden", ("gm",))]
    play("cards")
    assert dp(run) == {"霊夢": 18, "小傘": 7, "妖精": 12, "ルーミア": 16}

    # --- turn 1 ----------------------------------------------------------------------------
    play("turn 1")
    assert dp(run) == {"霊夢": 18, "小傘": 7, "妖精": 12, "ルーミア": 18}
    assert run.event("sg.turn_started")["order"] == [
        {"dp": 18, "names": ["霊夢"]},
        {"dp": 12, "names": ["妖精"]},
        {"dp": 7, "names": ["小傘"]},
    ]
    assert run.event("sg.hidden_turn") == {
        "name": "ルーミア",
        "before": 16,
        "after": 18,
        "reason": "start",
        "total": 13,
        "searchers": ["霊夢", "小傘"],
    }
    assert run.s.step == 18
    play("霊夢 searches")  # 感覚5+感知2 + 3 + 2 = 12 < 13
    assert (run.event("sg.searched")["found"], run.c("霊夢").dp) == (False, 16)
    play("霊夢 shoots 妖精")
    assert (run.event("sg.rolled")["total"], run.c("霊夢").dp, run.c("霊夢").acted) == (17, 14, True)
    play("妖精 evades")  # 6 + fixed 7 = 13 < 17
    assert (run.event("sg.rolled")["won"], run.c("妖精").dp) == (False, 10)
    play("妖精 is hit")
    assert hp(run)["妖精"] == 4
    play("ルーミア strikes from hiding")  # S-SUR-5: named before its attack, it still hides
    assert run.kinds() == ["sg.surprise"] and run.secret() == [("sg.surprise", ("gm",))]
    assert (run.event("sg.surprise")["case"], run.event("sg.surprise")["evasion"]) == ("S-SUR-3", "refused")
    assert run.c("ルーミア").hidden and run.c("霊夢").surprise is not None
    play("ルーミア attacks")  # 8 + fixed 10, in step: it waited at 18; it appears with its attack
    assert run.kinds() == ["sg.revealed", "sg.surprise_struck", "sg.rolled"]  # the surprise told now
    assert (run.c("ルーミア").hidden, run.c("ルーミア").declared) == (False, 18)
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["out_of_step"], run.c("ルーミア").dp) == (
        18,
        None,
        15,
    )
    play("霊夢 cannot evade")
    play("霊夢 is hit")
    assert hp(run)["霊夢"] == 14
    play("ルーミア declares its card")  # as it appears: the PC side may answer with one more
    assert (run.s.card_allowance, run.event("sg.cards_unbalanced")["pc"]) == ((1, 0), 1)
    play("妖精 attacks the umbrella")  # everyone at 18 has acted: the turn moves on to 12
    assert (run.kinds(), run.s.step, run.event("sg.rolled")["total"], run.c("妖精").dp) == (
        ["sg.step", "sg.rolled"],
        12,
        12,
        8,
    )
    assert (run.c("霊夢").surprise, run.c("霊夢").unaware_at) == (None, None)  # S-SUR-5: wary now
    play("小傘 cannot evade as an item")
    play("霊夢 evades for it")  # 8 + 2 = 10 < 12, with nothing of the surprise left
    assert (run.event("sg.rolled")["modifier"], run.event("sg.rolled")["won"], run.c("霊夢").dp) == (
        0,
        False,
        13,
    )
    play("the umbrella is hit")
    assert hp(run)["小傘"] == 9
    play("the GM moves on")
    assert run.event("sg.step") == {"turn": 1, "dp": 7, "names": ["小傘"], "by": "gm", "skipped": []}
    assert dp(run) == {"霊夢": 13, "小傘": 7, "妖精": 8, "ルーミア": 15}

    # --- turn 2 ----------------------------------------------------------------------------
    play("turn 2")
    assert dp(run) == {"霊夢": 16, "小傘": 7, "妖精": 11, "ルーミア": 17}  # the item recovers nothing
    assert [s["dp"] for s in run.event("sg.turn_started")["order"]] == [17, 16, 11, 7]
    play("咲夜 comes in")
    joined = run.event("sg.joined")
    assert (joined["dp"], joined["dp_max"], joined["initiative"], joined["capped"]) == (12, 17, 12, False)
    play("霊夢 hands a card over to 咲夜 (S-CARD-1: handed over, not taken)")
    assert (run.event("sg.cards_taken")["card"], run.event("sg.cards_taken")["side_total"]) == (
        "霊符「夢想封印」",
        1,
    )
    play("咲夜 declares one")
    assert (run.s.card_allowance, "sg.cards_unbalanced" in run.kinds()) == ((1, 1), False)  # 2 and 2
    play("ルーミア attacks 霊夢")  # fixed 15
    play("霊夢 evades")  # 7 + 11 = 18: no restriction is left from turn 1
    assert (run.event("sg.rolled")["won"], run.event("sg.rolled")["surprise"], run.c("霊夢").dp) == (
        True,
        None,
        14,
    )
    play("霊夢 shoots back")  # 9 + 6 = 15, and the turn moves to 16
    assert (run.s.step, run.c("霊夢").dp) == (16, 11)
    play("ルーミア guards")  # 6 + fixed 7 = 13 < 15
    play("ルーミア is hit")
    assert (hp(run)["ルーミア"], run.c("ルーミア").dp) == (10, 13)
    play("咲夜 shoots 妖精")  # at once at 12, its initiative
    assert (run.s.step, run.event("sg.rolled")["total"], run.c("咲夜").dp) == (12, 18, 10)
    play("妖精 evades 咲夜")
    play("mercy is asked")
    play("妖精 spared at HP 1")
    assert (hp(run)["妖精"], run.c("妖精").down, run.c("妖精").declared) == (1, Down.INCAPACITATED, None)
    play("小傘 jumps out")
    assert (run.c("小傘").held_by, run.c("小傘").dp) == (None, 7)
    play("小傘 strikes")  # out of the umbrella it may melee; the turn moves to 7
    assert (run.s.step, run.event("sg.rolled")["total"], run.c("小傘").dp) == (7, 14, 5)
    play("ルーミア evades 小傘")
    play("ルーミア is hit again")
    assert hp(run) == {"霊夢": 14, "小傘": 9, "妖精": 1, "ルーミア": 6, "咲夜": 22}
    assert dp(run) == {"霊夢": 11, "小傘": 5, "妖精": 9, "ルーミア": 11, "咲夜": 10}

    # --- turn 3 ----------------------------------------------------------------------------
    play("turn 3")
    assert dp(run) == {"霊夢": 14, "小傘": 8, "妖精": 9, "ルーミア": 13, "咲夜": 14}
    assert run.event("sg.turn_started")["order"] == [
        {"dp": 14, "names": ["霊夢", "咲夜"]},
        {"dp": 13, "names": ["ルーミア"]},
        {"dp": 8, "names": ["小傘"]},
    ]
    play("the GM fixes its damage too")
    assert run.s.gm_fixed.value == "all"
    play("霊夢 waits")
    play("咲夜 shoots")
    play("ルーミア evades 咲夜")  # 6 + fixed 7 = 13 > 10
    assert (run.event("sg.rolled")["won"], run.c("ルーミア").dp) == (True, 11)
    play("ルーミア attacks 咲夜")  # 14 is done: on to 13
    assert (run.s.step, run.c("ルーミア").dp) == (13, 9)
    play("咲夜 fails to evade")
    play("ルーミア's damage, fixed")  # 4 + 7
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["fixed"]) == (11, True)
    play("咲夜 is hit")
    play("霊夢 shoots at last")  # at 12, as it declared
    assert (run.s.step, run.event("sg.rolled")["total"], run.c("霊夢").dp) == (12, 27, 11)
    play("ルーミア fails to evade")
    play("霊夢's damage")
    play("ルーミア knocked out")
    assert (hp(run)["ルーミア"], run.c("ルーミア").down) == (0, Down.UNCONSCIOUS)
    play("end")
    assert [(c["name"], c["hp"], c["dp"], c["down"]) for c in run.event("sg.ended")["characters"]] == [
        ("霊夢", 14, 11, None),
        ("小傘", 9, 8, None),
        ("妖精", 1, 9, "hp1"),
        ("ルーミア", 0, 8, "unconscious"),
        ("咲夜", 11, 11, None),
    ]
    assert next(steps, None) is None

    # the table never read of the ambusher before it struck
    reveal = next(i for i, e in enumerate(run.all_events) if e.kind == "sg.revealed")
    public = [e for e in run.all_events[:reveal] if e.audience is None]
    assert public and all(AMBUSHER not in str(dict(e.data)) for e in public)
    # the whole battle replays from its log, and survives an export and an import
    assert run.replayed() == run.state
    assert SENGENSHO.import_(SENGENSHO.export(run.s)) == run.state
