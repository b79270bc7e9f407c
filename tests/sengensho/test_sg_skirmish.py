"""A whole skirmish, start to end, with every number checked: the rules working together.

An ambush start (S-START-1) with GM fixed rolls (S-GM-1); a surprise of each of the four cases
(S-SUR-1..4); a hidden character missed by a search, then attacking, another found by search
(S-HIDE-1); a reinforcement joining with DP = recovery × 3 (S-REIN-1); a character turned into an
item and jumping out (S-ITEM-2); a knockout with each mercy choice (S-MERCY-1).
"""

from __future__ import annotations

from sg_helpers import Run

from engine.sengensho import SENGENSHO
from engine.sengensho.commands import (
    Damage,
    End,
    Hide,
    Item,
    Join,
    NextTurn,
    Roll,
    Search,
    SpellCard,
    Start,
    Surprise,
)
from engine.sengensho.state import Down


def dp(run: Run) -> dict[str, int]:
    return {c.name: c.dp for c in run.s.characters}


def test_skirmish() -> None:
    run = Run()
    run(Start("紅魔館の庭", ambush=True, gm_fixed=True))
    run(Join("霊夢", body=3, endurance=2, intellect=4, sense=5, will=3, hp=20, invoker="u1"))  # DP 18, rec 3
    run(Join("魔理沙", dp_max=16, recovery=4, hp=18, invoker="u2"))
    run(Join("小傘", dp_max=14, recovery=3, hp=12, invoker="u3"))
    run(Join("妖精A", dp_max=12, recovery=3, hp=8, side="enemy"))
    run(Join("妖精B", dp_max=12, recovery=3, hp=8, side="enemy"))
    run(Join("天狗", dp_max=15, recovery=3, hp=15, side="enemy"))

    # before the turns: the 天狗 hides (fixed: 2 × 3.5 = 7), 霊夢 is caught acting in secret
    run(Hide("天狗", 9, 2))
    assert (run.c("天狗").hidden_total, run.c("天狗").dp) == (16, 13)
    run(Roll("霊夢", 5, 2, kind="ability", label="密かに結界"), 3, 4)
    run(SpellCard("霊夢", declare=2))
    run(SpellCard("妖精A", declare=1))

    # turn 1 of an ambush: no recovery, DP spent stays spent
    run(NextTurn())
    assert dp(run) == {"霊夢": 16, "魔理沙": 16, "小傘": 14, "妖精A": 12, "妖精B": 12, "天狗": 13}
    assert run.event("sg.turn_started")["order"] == [
        {"dp": 16, "names": ["霊夢", "魔理沙"]},
        {"dp": 14, "names": ["小傘"]},
        {"dp": 13, "names": ["天狗"]},
        {"dp": 12, "names": ["妖精A", "妖精B"]},
    ]

    # S-SUR-1 from 120 m: a hit check of at most 3D, and 妖精A cannot evade
    run(Surprise("霊夢", "妖精A", distance=120))
    run(Roll("霊夢", 6, 3, kind="attack", target=15), 5, 5, 6)
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["success"]) == (22, True)
    run.refused(Roll("妖精A", 7, 2, kind="evasion", against="霊夢"), "sg.evasion_refused")
    run(Roll("霊夢", 3, 2, kind="damage"), 1, 1)  # damage dice are free
    run(Damage("妖精A", 5))
    assert (run.c("霊夢").dp, run.c("妖精A").hp) == (13, 3)

    # S-SUR-2 at 50 m on a wary 妖精B: it perceives (fixed 7 + 14 = 21 > 20), then evades with 3D
    run(Surprise("魔理沙", "妖精B", distance=50, wary=True))
    run(Roll("魔理沙", 8, 3, kind="attack"), 4, 4, 4)  # 20
    run(Roll("妖精B", 14, 2, against="魔理沙", label="知覚"))
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["won"]) == (21, True)
    run(Roll("妖精B", 11, 3, kind="evasion", against="魔理沙"))  # 11 + 10 = 21 > 20
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["won"], run.c("妖精B").dp) == (
        21,
        True,
        7,
    )

    # S-HIDE-1: 魔理沙's search ties with the 天狗's 16, the hider keeps hidden
    run(Search("魔理沙", 8, 2, "天狗"), 4, 4)
    assert run.event("sg.searched")["found"] is False

    # S-SUR-3: the undiscovered 天狗 strikes 霊夢 from 10 m: no evasion; it appears and declares a card
    run(Surprise("天狗", "霊夢", distance=10))
    assert (run.event("sg.surprise")["case"], run.kinds()) == ("S-SUR-3", ["sg.surprise", "sg.revealed"])
    run(Roll("天狗", 8, 3, kind="attack"))  # 8 + 10
    assert run.event("sg.rolled")["total"] == 18
    run.refused(Roll("霊夢", 8, 2, kind="evasion"), "sg.evasion_refused")
    run(Damage("霊夢", 6))
    run(SpellCard("天狗", declare=1))
    assert (run.s.card_allowance, run.s.side_cards(run.c("霊夢").side)) == ((1, 0), 2)

    # S-SUR-4: 妖精A, wary 魔理沙 at 20 m: evasion at −5
    run(Surprise("妖精A", "魔理沙", distance=20, wary=True))
    run(Roll("妖精A", 7, 2, kind="attack"))  # 7 + 7 = 14
    run(Roll("魔理沙", 9, 2, kind="evasion", against="妖精A"), 2, 3)  # 9 + 5 − 5 = 9
    assert (run.event("sg.rolled")["total"], run.event("sg.rolled")["won"]) == (9, False)
    run(Damage("魔理沙", 4))
    assert dp(run) == {"霊夢": 13, "魔理沙": 9, "小傘": 14, "妖精A": 10, "妖精B": 7, "天狗": 10}

    # turn 2: recovery; 咲夜 comes in as a reinforcement; 小傘 becomes 咲夜's umbrella
    run(NextTurn())
    assert dp(run) == {"霊夢": 16, "魔理沙": 13, "小傘": 14, "妖精A": 12, "妖精B": 10, "天狗": 13}
    run(Join("咲夜", body=2, endurance=2, intellect=5, sense=7, will=3, hp=22, invoker="u4"))  # max 17, rec 4
    assert (run.c("咲夜").dp, run.c("咲夜").dp_max, run.event("sg.joined")["reinforcement"]) == (12, 17, True)
    run(SpellCard("咲夜", take_from="霊夢"))
    assert (run.c("霊夢").cards, run.c("咲夜").cards, run.event("sg.cards_taken")["side_total"]) == (1, 1, 2)
    run(Item("小傘", holder="咲夜"))
    assert run.c("小傘").dp == 7

    # S-HIDE-1 again: 妖精B hides (6 + 7 = 13), 霊夢 finds it (7 + 7 = 14)
    run(Hide("妖精B", 6, 2))
    run(Search("霊夢", 7, 2, "妖精B"), 3, 4)
    assert run.event("sg.revealed") == {
        "name": "妖精B",
        "reason": "found",
        "by": "霊夢",
        "cards_entry": False,
    }

    # turn 3: the item recovers nothing; it jumps out to dodge with the DP it has
    run(NextTurn())
    assert (run.c("小傘").dp, run.c("咲夜").dp, run.c("霊夢").dp) == (7, 16, 17)
    run(Roll("妖精A", 7, 3, kind="attack"))  # 17
    run.refused(Roll("小傘", 6, 2, kind="evasion", against="妖精A"), "sg.item_cannot_defend")
    run(Item("小傘", release=True))
    run(Roll("小傘", 6, 3, kind="evasion", against="妖精A"), 6, 6, 1)  # 19 > 17
    assert (run.event("sg.rolled")["won"], run.c("小傘").dp, run.c("小傘").held_by) == (True, 4, None)

    # S-MERCY-1: each choice
    run(Damage("妖精A", 5, mercy="unconscious"))
    run(Damage("天狗", 20, mercy="hp1"))
    assert (run.c("妖精A").hp, run.c("妖精A").down) == (0, Down.UNCONSCIOUS)
    assert (run.c("天狗").hp, run.c("天狗").down) == (1, Down.INCAPACITATED)

    run(End())
    assert run.event("sg.ended")["turn"] == 3
    assert [(c["name"], c["hp"], c["dp"], c["down"]) for c in run.event("sg.ended")["characters"]] == [
        ("霊夢", 14, 17, None),
        ("魔理沙", 14, 16, None),
        ("小傘", 12, 4, None),
        ("妖精A", 0, 9, "unconscious"),
        ("妖精B", 8, 11, None),
        ("天狗", 1, 15, "hp1"),
        ("咲夜", 22, 16, None),
    ]

    # the whole battle replays from its log, and survives an export and an import
    assert run.replayed() == run.state
    assert SENGENSHO.import_(SENGENSHO.export(run.s)) == run.state
