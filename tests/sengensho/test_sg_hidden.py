"""S-HIDE-1, what is hidden stays hidden: the events about a hidden character are for the GM and its
owner (``Event.audience``), and the table's document leaves it out."""

from __future__ import annotations

from sg_helpers import battle, enemy, pc

from engine.sengensho import SENGENSHO
from engine.sengensho.commands import (
    Damage,
    End,
    Hide,
    Join,
    NextTurn,
    Roll,
    Search,
    SpellCard,
    Surprise,
)
from engine.sengensho.visibility import visible

AMBUSHER = Join("ルーミア", dp_max=16, recovery=4, hp=12, side="enemy", hidden=True, invoker="gm")


def names(document: dict[str, object]) -> list[str]:
    return [c["name"] for c in document["characters"]]  # type: ignore[attr-defined, index]


def test_s_hide_1_a_character_joined_hidden_is_the_gms_and_its_owners_only() -> None:
    run = battle(pc("霊夢", invoker="u1"), AMBUSHER)
    assert run.secret() == [("sg.joined", ("gm",))]
    assert run.event("sg.joined")["hidden"] is True
    doc = SENGENSHO.export(run.s)
    assert names(visible(doc, None)) == ["霊夢"]  # the table
    assert names(visible(doc, "u1")) == ["霊夢"]  # another player
    assert names(visible(doc, "gm")) == ["霊夢", "ルーミア"]  # its owner
    run.refused(Search("霊夢", 5, 1, "ルーミア"), "sg.stealth_not_rolled")
    run(Hide("ルーミア", 6, 2), 4, 4)
    assert (run.secret(), run.c("ルーミア").hidden_total) == ([("sg.hidden", ("gm",))], 14)
    assert (run.event("sg.hidden")["moved"], run.c("ルーミア").hidden_turn) == (False, 0)  # not a move


def test_s_hide_1_each_turn_the_contests_due_are_listed_for_the_gm() -> None:
    run = battle(pc("霊夢", dp=18), pc("魔理沙", dp=16), enemy("妖精", dp=12), AMBUSHER)
    run(Hide("ルーミア", 6, 2), 4, 4)  # 14
    run(NextTurn())
    public = run.event("sg.turn_started")
    assert [r["name"] for r in public["recovered"]] == ["霊夢", "魔理沙", "妖精"]
    assert public["order"] == [
        {"dp": 18, "names": ["霊夢"]},
        {"dp": 16, "names": ["魔理沙"]},
        {"dp": 12, "names": ["妖精"]},
    ]
    assert run.secret() == [("sg.hidden_turn", ("gm",))]
    assert run.event("sg.hidden_turn") == {
        "name": "ルーミア",
        "before": 14,
        "after": 16,
        "reason": "start",
        "total": 14,
        "searchers": ["霊夢", "魔理沙"],
    }


def test_s_hide_1_a_search_shows_the_roll_and_keeps_against_whom_and_the_outcome_secret() -> None:
    run = battle(pc("霊夢", dp=18), enemy("妖精", dp=12), AMBUSHER)
    run(Hide("ルーミア", 6, 2), 4, 4)  # 14
    run(NextTurn())
    run(Search("霊夢", 7, 2), 3, 3)  # 13 < 14: not found; no target named, so every hidden foe
    assert run.kinds() == ["sg.search_rolled", "sg.searched"]
    assert run.secret() == [("sg.searched", ("gm",))]
    assert run.event("sg.search_rolled")["total"] == 13
    run(Search("妖精", 5, 1), 6)  # an ally of the hidden: no contest, the same public roll
    assert run.kinds() == ["sg.search_rolled"]
    run.refused(Search("霊夢", 7, 2, "ルーミア"), "sg.already_searched")
    run(NextTurn())
    run(Search("霊夢", 7, 2), 4, 4)  # 15: found, and from now on the table knows it
    assert run.kinds() == ["sg.search_rolled", "sg.searched", "sg.revealed"]
    assert run.secret() == [("sg.searched", ("gm",))]
    assert names(visible(SENGENSHO.export(run.s), None)) == ["霊夢", "妖精", "ルーミア"]


def test_s_hide_1_what_reaches_a_hidden_character_stays_secret() -> None:
    run = battle(pc("霊夢", dp=18, invoker="u1"), AMBUSHER)
    run(Hide("ルーミア", 6, 2), 4, 4)
    run(NextTurn())
    run.refused(Damage("ルーミア", 3), "sg.target_hidden")
    run(Damage("ルーミア", 3, via="area"))  # an area spell reaches it, and the GM applies it quietly
    assert run.secret() == [("sg.damaged", ("gm",))]
    run.refused(Roll("霊夢", 5, 1, kind="attack", at="ルーミア"), "sg.target_hidden")
    run(Roll("ルーミア", 5, 1, kind="ability", gm=True), 2)  # its own ability, unseen
    assert run.secret() == [("sg.rolled", ("gm",))]
    run.refused(Roll("霊夢", 5, 1, kind="resist", against="ルーミア"), "sg.against_hidden")
    run(Surprise("ルーミア", "霊夢", distance=10, ability=True))
    # who used it: secret; so is the GM's word that the target is wary from the next value (S-SUR-5)
    assert run.secret() == [("sg.surprise_ability", ("gm",)), ("sg.ability_wary", ("gm",))]
    assert run.event("sg.ability_noticed") == {"target": "霊夢", "case": "S-SUR-6"}  # that it was: not
    run.refused(SpellCard("ルーミア", declare="闇符「ディマーケイション」"), "sg.cards_hidden")
    run(End())
    assert [c["name"] for c in run.event("sg.ended")["characters"]] == ["霊夢"]


def test_s_hide_1_it_declares_spell_cards_when_it_appears() -> None:
    run = battle(pc("霊夢", dp=18), AMBUSHER)
    run(Hide("ルーミア", 6, 2), 4, 4)
    run(NextTurn())
    run(Roll("ルーミア", 6, 2, kind="attack", at="霊夢", gm=True), 5, 5)
    assert run.event("sg.revealed") == {
        "name": "ルーミア",
        "reason": "attack",
        "by": None,
        "cards_entry": True,
    }
    run(SpellCard("ルーミア", declare="闇符「ディマーケイション」"))
    assert (run.event("sg.cards_declared")["answer"], run.s.card_allowance) == (1, (1, 0))


def test_s_hide_1_a_players_hidden_character_is_its_players_to_read() -> None:
    run = battle(pc("霊夢", dp=18, invoker="u1"), pc("文", dp=20, invoker="u2"), enemy("妖精", dp=12))
    run(Hide("文", 8, 1), 4)
    assert run.secret() == [("sg.hidden", ("u2",))]
    doc = SENGENSHO.export(run.s)
    assert (names(visible(doc, "u1")), names(visible(doc, "u2"))) == (
        ["霊夢", "妖精"],
        ["霊夢", "文", "妖精"],
    )
    run(NextTurn())
    run(Search("妖精", 6, 1), 6)  # 12 = 12: a tie, the hider stays hidden
    assert run.secret() == [("sg.searched", ("u2",))]
