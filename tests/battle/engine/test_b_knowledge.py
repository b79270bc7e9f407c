"""B-KNOW-1, B-KNOW-2: 魔物知識判定, what the table sees of a monster, and when its weakness applies."""

from __future__ import annotations

from typing import Any

import pytest
from battle_helpers import GM, battle, monster, pc

from engine.battle import BATTLE
from engine.battle.commands import MP, AddMonster, AddPC, Damage, GMSet, Knowledge, PartSpec, Reveal
from engine.battle.state import DamageKind, Element, Rough
from engine.battle.visibility import monster_view, rough_state, secret_text, visible
from engine.battle.words import Weakness, parse_weakness


def bogard(**values: Any) -> AddMonster:
    """ボガード: 知名度 10, 弱点値 14, 弱点 物理ダメージ+2, 防護点 3."""
    return AddMonster(
        "ボガード",
        parts=(PartSpec(hp=40, defense=3, hit=5, strike="2d+4", evasion=4),),
        reputation=10,
        weakness_value=14,
        weakness="物理ダメージ+2",
        initiative=12,
        **values,
    )


def party() -> tuple[AddPC, ...]:
    return pc("アル", owner="u1"), pc("ベル", owner="u2"), pc("カイ", owner="u3")


# --- B-KNOW-1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hp", "state"),
    [(20, Rough.UNHURT), (16, Rough.UNHURT), (15, Rough.LIGHT), (6, Rough.LIGHT), (5, Rough.HEAVY),
     (1, Rough.HEAVY), (0, Rough.DYING), (-4, Rough.DYING)],
)  # fmt: skip
def test_b_know_1_rough_state_above_three_quarters_a_quarter_0(hp: int, state: Rough) -> None:
    """B-KNOW-1: 無傷 above ¾ of the part's maximum, 軽傷 above ¼, 重傷 above 0, 瀕死 at 0 or less."""
    assert rough_state(hp, 20) is state


def test_b_know_1_below_reputation_the_table_sees_the_name_and_a_rough_state_only() -> None:
    run = battle(*party(), bogard())
    run(Knowledge("アル", "ボガード", 9, invoker="u1"))
    assert run.event("bt.knowledge") == {
        "name": "アル",
        "monster": "ボガード",
        "total": 9,
        "roll": None,
        "best": 9,
        "numbers": False,
        "weakness": False,
        "reputation": None,
        "weakness_value": None,
        "weakness_text": None,
        "learned": [],
    }
    seen = monster_view(run.s, run.monster("ボガード"))
    assert seen == {
        "name": "ボガード",
        "kind": "ボガード",
        "acted": False,
        "down": False,
        "parts": [{"name": "", "state": "unhurt", "destroyed": False}],
        "known": {"numbers": False, "weakness": False},
    }
    gm = monster_view(run.s, run.monster("ボガード"), gm=True)
    assert gm["reputation"] == 10 and gm["parts"][0]["hp"] == 40 and gm["weakness"] == "物理ダメージ+2"


def test_b_know_1_at_reputation_its_numbers_at_weakness_value_its_weakness_too() -> None:
    run = battle(*party(), bogard())
    run(Knowledge("アル", "ボガード", "2d+5", invoker="u1"), 3, 2)  # 10: 知名度
    assert run.event("bt.knowledge")["learned"] == ["numbers"]
    seen = monster_view(run.s, run.monster("ボガード"))
    assert seen["known"] == {"numbers": True, "weakness": False}
    assert (seen["reputation"], seen["weakness"], seen["parts"][0]["hp"]) == (10, None, 40)
    assert seen["parts"][0]["numbers"]["defense"] == 3
    run(Knowledge("ベル", "ボガード", 13, invoker="u2"))  # below the best so far: nothing new
    assert (run.event("bt.knowledge")["best"], run.event("bt.knowledge")["learned"]) == (13, [])
    run(Knowledge("カイ", "ボガード", 14, invoker="u3"))
    knowledge = run.event("bt.knowledge")
    assert (knowledge["learned"], knowledge["weakness_text"]) == (["weakness"], "物理ダメージ+2")
    assert monster_view(run.s, run.monster("ボガード"))["weakness"] == "物理ダメージ+2"


def test_b_know_1_each_pc_checks_a_kind_once_and_the_kind_is_shared_by_its_monsters() -> None:
    run = battle(*party(), monster("ゴブリン", count=3, reputation=8))
    run(Knowledge("アル", "ゴブリンB", 8, invoker="u1"))
    assert run.event("bt.knowledge")["monster"] == "ゴブリン"
    assert all(monster_view(run.s, m)["known"]["numbers"] for m in run.s.monsters)
    error = run.refused(Knowledge("アル", "ゴブリン", 12, invoker="u1"), "bt.knowledge_rolled")
    assert error.values == {"name": "アル", "monster": "ゴブリン"}
    run(Knowledge("アル", "ゴブリン", 12, invoker=GM, gm=True))  # the GM may let it roll again
    run.refused(Knowledge("ベル", "ゴブリン", 12, invoker="u1"), "bt.not_your_pc")
    run.refused(Knowledge("ベル", "オーガ", 12, invoker="u2"), "bt.unknown_monster")
    run.refused(Knowledge("ゴブリンA", "ゴブリン", 12, gm=True), "bt.not_a_pc")


def test_b_know_1_a_monster_of_a_kind_known_is_known_when_it_comes() -> None:
    run = battle(pc("アル"), monster("ゴブリン", reputation=8))
    run(Knowledge("アル", "ゴブリン", 8, invoker="u1"))
    run(monster("ゴブリン", count=2, reputation=8))
    assert run.event("bt.monster_added")["known"] is True
    assert run.only("bt.monster_stats").audience is None
    run(monster("オーガ", reputation=14))
    assert run.event("bt.monster_added")["known"] is False
    assert run.only("bt.monster_stats").audience == ()


def test_b_know_1_the_document_as_the_table_reads_it() -> None:
    run = battle(pc("アル"), bogard(), monster("ゴブリン", reputation=5))
    run(Knowledge("アル", "ゴブリン", 6, invoker="u1"))
    document = BATTLE.export(run.s)
    table = visible(document, "u1")
    unknown, known = table["monsters"]
    assert "reputation" not in unknown and "hp" not in unknown["parts"][0]
    assert unknown["parts"][0]["state"] == "unhurt"
    assert known["reputation"] == 5 and known["parts"][0]["hp"] == 20 and "hidden_stats" not in known
    assert table["pcs"] == document["pcs"]


def test_b_know_1_hidden_stats_only_the_gm_reveals_them() -> None:
    run = battle(pc("アル"), bogard(hidden_stats=True))
    run(Knowledge("アル", "ボガード", 30, invoker="u1"))
    assert run.event("bt.knowledge")["numbers"] is False
    run(Reveal("ボガード"))
    assert run.event("bt.revealed") == {
        "monster": "ボガード",
        "numbers": True,
        "weakness": False,
        "reputation": 10,
        "weakness_value": 14,
        "weakness_text": None,
    }
    run(Reveal("ボガード", numbers=False))
    assert run.event("bt.revealed")["numbers"] is False


# --- B-KNOW-2 -------------------------------------------------------------------------------------


def test_b_know_2_the_weakness_adds_before_defence_once_the_party_knows_it() -> None:
    """物理ダメージ+2 against 防護点 3: 12 deals 9 while unknown, 12 + 2 − 3 = 11 at 弱点値."""
    run = battle(*party(), bogard())
    run(Damage("ボガード", 12, by="アル", invoker="u1"))
    assert (run.event("bt.damaged")["weakness"], run.event("bt.damaged")["final"]) == (0, 9)
    run(Knowledge("アル", "ボガード", 13, invoker="u1"))  # numbers, not the weakness
    run(Damage("ボガード", 12, by="アル", invoker="u1"))
    assert run.event("bt.damaged")["final"] == 9
    run(Knowledge("ベル", "ボガード", 14, invoker="u2"))
    run(Damage("ボガード", 12, by="ベル", invoker="u2"))
    damaged = run.event("bt.damaged")
    assert (damaged["amount"], damaged["weakness"], damaged["defense"], damaged["final"]) == (12, 2, 3, 11)
    run(Damage("ボガード", 12, kind="magic", by="ベル", invoker="u2"))  # 物理ダメージ+2: not magic
    assert run.event("bt.damaged")["final"] == 12
    assert run.part("ボガード").hp == 40 - 9 - 9 - 11 - 12


def test_b_know_2_not_when_a_monster_deals_the_damage() -> None:
    run = battle(pc("アル"), bogard(), monster("ゴブリン"))
    run(Reveal("ボガード", weakness=True))
    run(Damage("ボガード", 12, by="ゴブリン", gm=True))  # 魅了 of the enemy side: no weakness
    assert (run.event("bt.damaged")["weakness"], run.event("bt.damaged")["dealer_side"]) == (0, "enemy")
    run(Damage("ボガード", 12, gm=True))  # by no one: the PC side's
    assert (run.event("bt.damaged")["weakness"], run.event("bt.damaged")["final"]) == (2, 11)


def test_b_know_2_an_elements_weakness_adds_to_fixed_damage_a_kinds_does_not() -> None:
    run = battle(
        AddMonster("サラマンダー", parts=(PartSpec(hp=40, defense=5),), weakness="水・氷属性ダメージ+3"),
        bogard(),
    )
    run(Reveal("サラマンダー", weakness=True))
    run(Reveal("ボガード", weakness=True))
    run(Damage("サラマンダー", 10, kind="fixed", element="水", gm=True))
    assert run.event("bt.damaged")["final"] == 13
    run(Damage("ボガード", 10, kind="fixed", gm=True))
    assert run.event("bt.damaged")["final"] == 10


def test_b_know_1_a_commands_own_text_is_secret_when_it_gives_an_unknown_monsters_numbers() -> None:
    run = battle(pc("アル"), monster("ゴブリン", reputation=5))
    before = run.s
    run(bogard())
    assert secret_text(before, run.s, bogard())
    assert secret_text(run.s, run.s, GMSet("ボガード.hp", "3"))
    assert not secret_text(run.s, run.s, GMSet("ボガード.acted", "true"))
    assert secret_text(run.s, run.s, MP("ボガード", -2))
    assert not secret_text(run.s, run.s, Damage("ボガード", 12))
    run(Knowledge("アル", "ボガード", 10, invoker="u1"))
    assert not secret_text(run.s, run.s, GMSet("ボガード.hp", "3"))
    assert not secret_text(run.s, run.s, GMSet("アル.hp", "3"))


@pytest.mark.parametrize(
    ("text", "weakness"),
    [
        ("炎属性ダメージ+3", Weakness(3, element=Element.FIRE)),
        ("炎属性ダメージ＋３点", Weakness(3, element=Element.FIRE)),
        ("水・氷属性ダメージ+3点", Weakness(3, element=Element.WATER)),
        ("物理ダメージ+2", Weakness(2, kind=DamageKind.PHYSICAL)),
        ("魔法ダメージ+2点", Weakness(2, kind=DamageKind.MAGIC)),
        ("fire+3", Weakness(3, element=Element.FIRE)),
        ("命中力+1", Weakness()),  # kept as text: nothing the bot adds
        ("回復効果ダメージ+3点", Weakness()),
        ("なし", Weakness()),
    ],
)
def test_b_know_2_weaknesses_as_sword_world_writes_them(text: str, weakness: Weakness) -> None:
    assert parse_weakness(text) == weakness
