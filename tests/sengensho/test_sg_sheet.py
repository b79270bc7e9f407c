"""S-CORE-4 from the sheet: ``/sg join skills:``, ``/sg roll check:感覚+感知`` takes its base from it."""

from __future__ import annotations

import pytest
from sg_helpers import battle, enemy, pc

from engine.ruleset import RuleError
from engine.sengensho.commands import Hide, Join, NextTurn, Roll, Search
from engine.sengensho.sheet import parse_skills

REIMU = Join(
    "霊夢", body=3, endurance=2, intellect=4, sense=5, will=3, skills="隠密3 感知2 射撃4", invoker="u1"
)


def test_s_core_4_the_sheets_skills_as_given() -> None:
    assert parse_skills("隠密3 感知2 射撃4") == (("隠密", 3), ("感知", 2), ("射撃", 4))
    assert parse_skills("〈隠密〉:3、感知=２, 射撃 -1") == (("隠密", 3), ("感知", 2), ("射撃", -1))
    with pytest.raises(RuleError) as caught:
        parse_skills("隠密 感知2")
    assert (caught.value.key, caught.value.values) == (
        "sg.skills_invalid",
        {"skills": "隠密 感知2", "at": "隠密 感知2"},
    )
    run = battle(REIMU)
    assert run.c("霊夢").skills == (("隠密", 3), ("感知", 2), ("射撃", 4))
    assert run.event("sg.joined")["skills"] == {"隠密": 3, "感知": 2, "射撃": 4}


def test_s_core_4_a_check_takes_its_base_from_attributes_and_skills() -> None:
    run = battle(REIMU, enemy("B"))
    run(Roll("霊夢", None, 2, check="感覚+感知"), 3, 4)  # 5 + 2 + 7
    rolled = run.event("sg.rolled")
    assert (rolled["base"], rolled["check"], rolled["total"]) == (7, "感覚+感知", 14)
    run(Roll("霊夢", None, 1, check="{身体}+〈隠密〉-2"), 1)  # 3 + 3 − 2 + 1
    assert run.event("sg.rolled")["total"] == 5
    run(Roll("霊夢", None, 0, check="sense+shooting+1"))  # the English names: 5 + 4 + 1
    assert run.event("sg.rolled")["total"] == 10
    run(Roll("霊夢", None, 0, check="知性"))  # an attribute alone
    assert run.event("sg.rolled")["total"] == 4
    run(Roll("霊夢", 9, 0))  # base stays
    assert run.event("sg.rolled")["total"] == 9


def test_s_core_4_check_refusals_say_what_is_allowed() -> None:
    run = battle(REIMU, pc("X", dp=10, recovery=2), pc("Y", dp=10, recovery=2, skills="剣術2"))
    run.refused(Roll("霊夢", 5, 1, check="感覚+感知"), "sg.base_and_check")
    run.refused(Roll("霊夢", None, 1), "sg.base_required")
    error = run.refused(Roll("霊夢", None, 1, check="感覚+剣術"), "sg.skill_unknown")
    assert error.values == {"name": "霊夢", "skill": "剣術", "skills": "隠密3 感知2 射撃4"}
    assert run.refused(Roll("X", None, 1, check="感覚"), "sg.no_attributes").values == {
        "name": "X",
        "attribute": "感覚",
    }
    assert run.refused(Roll("X", None, 1, check="剣術"), "sg.no_skills").values == {
        "name": "X",
        "skill": "剣術",
    }
    run(Roll("Y", None, 0, check="剣術+1"))  # skills without attributes are fine
    assert run.event("sg.rolled")["total"] == 3
    run.refused(Roll("霊夢", None, 1, check="感覚++"), "sg.check_invalid")


def test_s_hide_1_hiding_and_searching_take_their_checks_from_the_sheet() -> None:
    run = battle(
        REIMU,
        Join("ルーミア", body=2, endurance=2, intellect=2, sense=4, will=2, skills="隠密4", side="enemy"),
    )
    run(Hide("ルーミア", None, 2), 3, 3)  # 身体 2 + 隠密 4 + 6
    assert run.c("ルーミア").hidden_total == 12
    run(NextTurn())
    run(Search("霊夢", None, 2), 2, 3)  # 感覚 5 + 感知 2 + 5 = 12: a tie, the hider stays hidden
    assert (run.event("sg.search_rolled")["base"], run.event("sg.searched")["found"]) == (7, False)
