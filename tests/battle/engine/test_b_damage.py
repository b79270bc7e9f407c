"""B-DMG-1..4, B-CHAR-3: damage, its steps, several targets, healing and MP, and who falls."""

from __future__ import annotations

from battle_helpers import GM, battle, monster, pc

from engine.battle.commands import MP, AddMonster, Damage, EffectAdd, Heal, Knowledge, PartSpec
from engine.battle.damage import damage_steps
from engine.battle.state import DamageKind, Resisted


def griffon() -> AddMonster:
    """A monster of two parts: 頭部 (HP 10) and its core 胴体 (HP 30, 防護点 4)."""
    return AddMonster(
        "グリフォン",
        parts=(PartSpec(hp=10, name="頭部", defense=2), PartSpec(hp=30, name="胴体", defense=4)),
        core=1,
        reputation=15,
        weakness_value=20,
    )


# --- B-DMG-2 --------------------------------------------------------------------------------------


def test_b_dmg_2_defence_then_halving_rounded_up_each_target_rolled_and_resisted_on_its_own() -> None:
    """2d+5 with dice 3, 4 is 12; against 防護点 3 that is 9; resisted (half) 5 (4.5 rounded up)."""
    run = battle(monster("ゴブリン", hp=30, defense=3, count=2))
    run(Damage("ゴブリンA, ゴブリンB", "2d+5", resisted="full, half", gm=True), 3, 4, 3, 4)
    a, b = run.event("bt.damaged", 0), run.event("bt.damaged", 1)
    assert (a["amount"], a["defense"], a["after_defense"], a["halved"], a["final"]) == (12, 3, 9, 9, 9)
    assert (b["amount"], b["defense"], b["after_defense"], b["halved"], b["final"]) == (12, 3, 9, 5, 5)
    assert (a["hp_before"], a["hp_after"], b["hp_before"], b["hp_after"]) == (30, 21, 30, 25)
    assert (a["resisted"], b["resisted"], a["kind"], a["weakness"], a["mod"]) == (
        "full",
        "half",
        "physical",
        0,
        0,
    )
    assert a["roll"]["text"] == "(2D6+5) ＞ 7[3,4]+5 ＞ 12"
    assert (run.part("ゴブリンA").hp, run.part("ゴブリンB").hp) == (21, 25)


def test_b_dmg_2_the_steps_as_a_table() -> None:
    """B-DMG-2: amount + bonus − 防護点 (物理 only), halving rounded up, 0 for none, never below 0."""
    assert damage_steps(12, DamageKind.PHYSICAL, 3, Resisted.HALF).final == 5
    assert damage_steps(12, DamageKind.PHYSICAL, 3, Resisted.NONE).final == 0
    assert damage_steps(12, DamageKind.MAGIC, 3, Resisted.FULL).final == 12  # 魔法: no 防護点
    assert damage_steps(12, DamageKind.FIXED, 99, Resisted.FULL, mod=5).final == 12  # 確定: nothing added
    assert damage_steps(2, DamageKind.PHYSICAL, 5, Resisted.FULL).final == 0  # never below 0
    assert damage_steps(11, DamageKind.MAGIC, 0, Resisted.HALF, bonus=2).final == 7  # (11+2)/2 up
    assert damage_steps(0, DamageKind.PHYSICAL, 0, Resisted.FULL, bonus=2, mod=2).final == 0  # no hit


def test_b_dmg_2_resisted_none_and_a_rating_rolls_automatic_failure_deal_nothing() -> None:
    run = battle(monster("ゴブリン", hp=30, defense=3))
    run(Damage("ゴブリン", 20, kind="magic", resisted="消滅", gm=True))
    assert run.event("bt.damaged")["final"] == 0
    run(Damage("ゴブリン", "K20+10", kind="magic", gm=True), 1, 1)  # 1ゾロ: 自動的失敗
    damaged = run.event("bt.damaged")
    assert (damaged["amount"], damaged["final"], damaged["roll"]["fumble"]) == (0, 0, True)
    assert run.part("ゴブリン").hp == 30


def test_b_dmg_2_the_public_event_of_an_unknown_monster_is_its_rough_state_the_numbers_are_the_gms() -> None:
    """B-KNOW-1: below 知名度 the table reads the rough state; every number is in the GM's event."""
    run = battle(monster("ゴブリン", hp=20, defense=3, reputation=10))
    run(Damage("ゴブリン", "2d+5", gm=True), 3, 4)
    rough, full = run.only("bt.damaged_rough"), run.only("bt.damaged")
    assert rough.audience is None and full.audience == ()
    assert dict(rough.data) == {
        "target": "ゴブリン",
        "part": None,
        "by": None,
        "amount": 12,
        "roll": full.data["roll"],
        "kind": "physical",
        "element": None,
        "resisted": "full",
        "before": "unhurt",
        "after": "light",  # 11 of 20: above ¼, not above ¾
        "down": False,
        "destroyed": False,
    }
    assert rough.dice == ((6, 3), (6, 4)) and full.dice == ()


def test_b_dmg_2_a_known_monsters_damage_is_one_public_event() -> None:
    run = battle(pc("アル"), monster("ゴブリン", hp=20, defense=3, reputation=10))
    run(Knowledge("アル", "ゴブリン", 10, invoker="u1"))
    run(Damage("ゴブリン", 9, gm=True))
    assert run.kinds() == ["bt.damaged"]
    assert run.only("bt.damaged").audience is None


# --- B-DMG-1 --------------------------------------------------------------------------------------


def test_b_dmg_1_kinds_and_elements_and_their_words() -> None:
    run = battle(monster("スライム", hp=40, defense=5))
    run(Damage("スライム", 10, kind="物理", gm=True))
    run(Damage("スライム", 10, kind="魔法", element="炎", gm=True))
    run(Damage("スライム", 10, kind="確定", element="水・氷", gm=True))
    finals = [e.data["final"] for e in run.all_events if e.kind == "bt.damaged"]
    elements = [e.data["element"] for e in run.all_events if e.kind == "bt.damaged"]
    assert finals == [5, 10, 10] and elements == [None, "fire", "water"]
    assert run.part("スライム").hp == 15
    run.refused(Damage("スライム", 10, kind="光"), "bt.kind_invalid")
    run.refused(Damage("スライム", 10, element="光"), "bt.element_invalid")
    run.refused(Damage("スライム", "2d+5>=10"), "bt.dice_invalid")
    run.refused(Damage("スライム", "choice[a,b]"), "bt.dice_invalid")
    run.refused(Damage("スライム", -3), "bt.value_invalid")


# --- B-DMG-3 --------------------------------------------------------------------------------------


def test_b_dmg_3_a_part_is_named_with_a_colon_and_a_monster_of_several_parts_needs_one() -> None:
    run = battle(griffon())
    run(Damage("グリフォン:頭部, グリフォン：胴体", 10, gm=True))
    assert (run.part("グリフォン", "頭部").hp, run.part("グリフォン", "胴体").hp) == (2, 24)
    assert [run.event("bt.damaged", i)["part"] for i in (0, 1)] == ["頭部", "胴体"]
    error = run.refused(Damage("グリフォン", 10, gm=True), "bt.part_required")
    assert error.values == {"name": "グリフォン", "parts": "頭部, 胴体"}
    run.refused(Damage("グリフォン:尻尾", 10, gm=True), "bt.unknown_part")
    run.refused(Damage("グリフォン:頭部,グリフォン:頭部", 10, gm=True), "bt.target_twice")
    run.refused(Damage("グリフォン:頭部,グリフォン:胴体", 10, resisted="half,half,half"), "bt.resisted_count")
    run.refused(Damage("ワイバーン", 10, gm=True), "bt.unknown_character")
    run.refused(Damage(" , ", 10, gm=True), "bt.targets_required")


# --- B-CHAR-3 -------------------------------------------------------------------------------------


def test_b_char_3_the_core_falls_first_the_monster_is_down_its_other_part_stands() -> None:
    run = battle(griffon())
    run(Damage("グリフォン:胴体", 34, gm=True))  # 34 − 4 = 30: the core at 0
    assert run.kinds() == ["bt.damaged_rough", "bt.damaged", "bt.monster_down"]
    griffin = run.monster("グリフォン")
    assert griffin.down and not griffin.parts[0].destroyed and griffin.parts[0].hp == 10
    assert run.event("bt.damaged_rough")["after"] == "dying"


def test_b_char_3_a_non_core_part_at_0_is_destroyed_and_stays_the_monster_stands() -> None:
    run = battle(griffon())
    run(Damage("グリフォン:頭部", 15, gm=True))  # 15 − 2 = 13 of 10
    assert run.kinds() == ["bt.damaged_rough", "bt.damaged", "bt.part_destroyed"]
    assert run.event("bt.part_destroyed") == {"name": "グリフォン", "part": "頭部", "monster_down": False}
    griffin = run.monster("グリフォン")
    assert griffin.parts[0].hp == -3 and griffin.parts[0].destroyed and not griffin.down
    assert [p.name for p in griffin.parts] == ["頭部", "胴体"]  # it stays shown
    run(Heal("グリフォン:頭部", 5, gm=True))
    assert run.kinds() == ["bt.healed_rough", "bt.healed", "bt.part_restored"]
    assert run.part("グリフォン", "頭部").hp == 2


def test_b_char_3_a_pc_at_0_or_less_is_down_and_up_again_when_healed() -> None:
    run = battle(pc("アル", hp=20, defense=2))
    run(Damage("アル", 22, gm=True))
    assert run.kinds() == ["bt.damaged", "bt.pc_down"]
    assert run.event("bt.pc_down") == {"name": "アル", "hp": 0}
    assert run.pc("アル").down
    run(Heal("アル", 3, gm=True))
    assert run.kinds() == ["bt.healed", "bt.pc_up"]
    assert not run.pc("アル").down


# --- B-DMG-4 --------------------------------------------------------------------------------------


def test_b_dmg_4_healing_up_to_the_maximum_says_what_was_gained() -> None:
    run = battle(pc("アル", hp=20))
    run(Damage("アル", 6, kind="fixed", gm=True))
    run(Heal("アル", "K10+3", invoker="u1"), 4, 5)  # 9 on 威力10: 5, + 3 = 8
    healed = run.event("bt.healed")
    assert (healed["amount"], healed["gained"], healed["hp_before"], healed["hp_after"]) == (8, 6, 14, 20)


def test_b_dmg_4_mp_is_never_spent_below_0_the_refusal_says_what_is_left() -> None:
    run = battle(pc("アル", mp=12))
    run(MP("アル", -9, invoker="u1"))
    assert run.event("bt.mp") == {
        "name": "アル",
        "part": None,
        "delta": -9,
        "mp_before": 12,
        "mp_after": 3,
        "max_mp": 12,
        "capped": False,
    }
    error = run.refused(MP("アル", -5, invoker="u1"), "bt.mp_short")
    assert error.values == {"name": "アル", "mp": 3, "cost": 5}
    run(MP("アル", 20, invoker="u1"))  # restored up to the maximum, and capped says so
    assert (run.pc("アル").mp, run.event("bt.mp")["capped"]) == (12, True)
    run.refused(MP("アル", 0, invoker="u1"), "bt.value_invalid")


def test_b_dmg_4_mp_is_the_owners_or_the_gms() -> None:
    run = battle(pc("アル", mp=12), monster("ゴブリン"))
    run.refused(MP("アル", -1, invoker="u2"), "bt.not_your_pc")
    run(MP("アル", -1, invoker=GM, gm=True))
    run.refused(MP("ゴブリン", -1, invoker="u1"), "bt.enemy_gm_only")


def test_b_dmg_4_a_monsters_mp_of_a_part_and_its_event_for_the_gm() -> None:
    run = battle(AddMonster("ラミア", parts=(PartSpec(hp=30, mp=20),), reputation=12))
    run(MP("ラミア", -5, invoker=GM, gm=True))
    assert run.part("ラミア").mp == 15
    assert run.only("bt.mp").audience == ()


def test_b_dmg_4_an_effect_is_not_healing() -> None:
    """B-EFF-2 and B-DMG-4 together: a heal never goes past the maximum, whatever the effects."""
    run = battle(pc("アル", hp=20))
    run(EffectAdd("アル", "【プロテクション】", 3, mod="防護点+1", gm=True))
    run(Heal("アル", 10, gm=True))
    assert run.event("bt.healed")["gained"] == 0
