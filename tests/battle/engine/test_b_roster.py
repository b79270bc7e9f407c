"""B-CHAR-1, B-CHAR-2 and BATTLE.md's limits: PCs, monsters of one part or several, count:3."""

from __future__ import annotations

import json

from battle_helpers import GM, battle, monster, pc

from engine.battle.commands import AddMonster, AddPC, PartSpec

# --- B-CHAR-1 -------------------------------------------------------------------------------------


def test_b_char_1_a_pc_given_by_hand_is_its_players() -> None:
    run = battle()
    run(
        AddPC(
            "アル", hp=24, mp=18, defense=5, evasion=11, fortitude=8, willpower=9, initiative=6, invoker="u1"
        )
    )
    alu = run.pc("アル")
    assert (alu.owner, alu.hp, alu.max_hp, alu.mp, alu.max_mp) == ("u1", 24, 24, 18, 18)
    assert (alu.defense, alu.evasion, alu.fortitude, alu.willpower, alu.initiative) == (5, 11, 8, 9, 6)
    assert run.event("bt.pc_added") == {
        "name": "アル",
        "owner": "u1",
        "hp": 24,
        "mp": 18,
        "defense": 5,
        "evasion": 11,
        "fortitude": 8,
        "willpower": 9,
        "initiative": 6,
        "sheet": False,
        "palette": False,
    }


def test_b_char_1_from_a_sheet_its_values_palette_and_sheet_kept() -> None:
    sheet = json.dumps({"name": "ベル", "hp": 30})
    run = battle(AddPC("ベル", hp=30, palette="2d+{命中1} 命中力\n//命中1=7", sheet=sheet, invoker="u2"))
    bel = run.pc("ベル")
    assert (bel.sheet, bel.palette) == (sheet, "2d+{命中1} 命中力\n//命中1=7")
    assert run.event("bt.pc_added")["sheet"] is True
    run.refused(AddPC("カイ", hp=10, sheet="[1, 2]", invoker="u3"), "bt.sheet_invalid")
    run.refused(AddPC("カイ", hp=10, sheet="{", invoker="u3"), "bt.sheet_invalid")


def test_b_char_1_an_npc_ally_is_a_pc_the_gm_owns_a_player_adds_only_their_own() -> None:
    run = battle()
    run(AddPC("ガイド", hp=20, owner=GM, invoker=GM, gm=True))
    assert run.pc("ガイド").owner == GM
    run.refused(AddPC("カイ", hp=20, owner="u9", invoker="u3"), "bt.owner_gm_only")
    run(AddPC("カイ", hp=20, owner="u3", invoker=GM, gm=True))
    assert run.pc("カイ").owner == "u3"


def test_b_char_1_names_are_compared_as_folded_and_kept_within_the_limits() -> None:
    run = battle(pc("Alu"))
    run.refused(pc("ＡＬＵ"), "bt.name_taken")
    run.refused(pc("  "), "limits.name")
    run.refused(pc("あ" * 33), "limits.name")
    run(pc("あ" * 32))
    run.refused(pc("x", hp=0), "limits.number")
    run.refused(pc("x", defense=1000), "limits.number")


# --- B-CHAR-2 -------------------------------------------------------------------------------------


def test_b_char_2_count_3_adds_a_b_and_c_and_more_take_the_next_letters() -> None:
    run = battle(monster("ゴブリン", count=3))
    assert [m.name for m in run.s.monsters] == ["ゴブリンA", "ゴブリンB", "ゴブリンC"]
    assert {m.kind for m in run.s.monsters} == {"ゴブリン"}
    assert run.event("bt.monster_added") == {
        "names": ["ゴブリンA", "ゴブリンB", "ゴブリンC"],
        "kind": "ゴブリン",
        "parts": [""],
        "known": False,
    }
    run(monster("ゴブリン", count=2))
    assert [m.name for m in run.s.monsters][3:] == ["ゴブリンD", "ゴブリンE"]
    run(monster("ゴブリン"))
    assert run.s.monsters[-1].name == "ゴブリン"
    run.refused(monster("ゴブリン"), "bt.name_taken")
    run.refused(monster("オーガ", count=27), "bt.count_invalid")
    run.refused(monster("オーガ", count=0), "bt.count_invalid")


def test_b_char_2_a_monster_with_its_numbers_and_parts_and_core() -> None:
    run = battle(
        AddMonster(
            "グリフォン",
            parts=(
                PartSpec(hp=28, name="頭部", mp=10, defense=4, hit=11, strike="2d+6", evasion=11),
                PartSpec(hp=36, name="胴体", mp=12, defense=6, hit=10, strike="2d+8", evasion=10),
            ),
            core=1,
            reputation=13,
            weakness_value=18,
            weakness="命中力+1",
            initiative=14,
            move="20/40(飛行)",
            fortitude=12,
            willpower=11,
            level=8,
        )
    )
    griffin = run.monster("グリフォン")
    assert (griffin.core, griffin.parts[1].name, griffin.parts[1].strike) == (1, "胴体", "2d+8")
    stats = run.only("bt.monster_stats")
    assert stats.audience == ()  # the numbers are the GM's until the party knows the kind
    assert (stats.data["reputation"], stats.data["weakness"], stats.data["level"]) == (13, "命中力+1", 8)
    assert stats.data["parts"][0] == {
        "name": "頭部",
        "hp": 28,
        "max_hp": 28,
        "mp": 10,
        "max_mp": 10,
        "defense": 4,
        "hit": 11,
        "strike": "2d+6",
        "evasion": 11,
    }


def test_b_char_2_refusals_of_parts() -> None:
    run = battle()
    run.refused(AddMonster("スライム"), "bt.parts_required")
    two = (PartSpec(hp=10, name="頭部"), PartSpec(hp=10, name="頭部"))
    run.refused(AddMonster("ヒドラ", parts=two), "bt.part_twice")
    unnamed = (PartSpec(hp=10, name="頭部"), PartSpec(hp=10))
    run.refused(AddMonster("ヒドラ", parts=unnamed), "limits.name")
    named = (PartSpec(hp=10, name="頭部"), PartSpec(hp=10, name="胴体"))
    run.refused(AddMonster("ヒドラ", parts=named, core=2), "bt.core_invalid")
    run.refused(AddMonster("ヒドラ", parts=(PartSpec(hp=0),)), "limits.number")
    run.refused(AddMonster("ヒドラ", parts=(PartSpec(hp=5),), reputation=-1), "limits.number")


def test_b_char_2_at_most_10_parts_a_monster_and_50_characters_a_battle() -> None:
    run = battle()
    eleven = tuple(PartSpec(hp=5, name=f"首{n}") for n in range(11))
    error = run.refused(AddMonster("ヒュドラ", parts=eleven), "limits.too_many")
    assert error.values == {"what": "parts", "max": 10, "count": 11}
    run(AddMonster("ヒュドラ", parts=eleven[:10]))
    run(monster("ゴブリン", count=26))
    run(monster("コボルド", count=20))
    run(pc("アル"))
    run(pc("ベル"))
    run(pc("カイ"))
    assert len(run.s.characters) == 50
    error = run.refused(pc("ダン"), "limits.too_many")
    assert error.values == {"what": "characters", "max": 50, "count": 51}
    run.refused(monster("オーク"), "limits.too_many")
