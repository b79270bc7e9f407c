"""B-EFF-1, B-EFF-2: effects with a duration, and the numbers they change."""

from __future__ import annotations

import pytest
from battle_helpers import GM, Run, battle, monster, pc

from engine.battle.commands import AddMonster, Damage, EffectAdd, EffectEnd, EffectExtend, Next, PartSpec
from engine.battle.effects import numbers_of
from engine.battle.state import Side
from engine.battle.visibility import status
from engine.battle.words import parse_duration, parse_mods


def running(first: str = "pc") -> Run:
    run = battle(
        pc("アル", owner="u1", defense=4, evasion=12),
        monster("ゴブリン", hp=30, defense=3, reputation=5),
        first=first,
    )
    run(Next(invoker=GM, gm=True))
    return run


def to(run: Run, round_: int, side: Side) -> None:
    """``/battle next`` until that turn has begun."""
    while (run.s.round, run.s.turn) != (round_, side):
        run(Next(invoker=GM, gm=True))


def names(run: Run) -> list[str]:
    return [e.name for e in run.s.effects]


# --- B-EFF-1 --------------------------------------------------------------------------------------


def test_b_eff_1_a_1_round_effect_of_the_pc_turn_of_round_1_ends_as_the_pc_turn_of_round_2_begins() -> None:
    run = running(first="pc")
    run(EffectAdd("アル", "【ブレス】", 1, text="器用度+1", by="アル", invoker="u1"))
    added = run.event("bt.effect_added")
    assert (added["side"], added["made_round"], added["rounds"], added["left"]) == ("pc", 1, 1, 1)
    run(Next(invoker=GM, gm=True))  # the enemy's turn of round 1: it does not count
    assert names(run) == ["【ブレス】"] and run.event("bt.turn_started")["ended"] == []
    run(Next(invoker=GM, gm=True))  # the PC side's turn of round 2 begins: it ends, said first
    started = run.event("bt.turn_started")
    assert (started["round"], started["side"]) == (2, "pc")
    assert [e["name"] for e in started["ended"]] == ["【ブレス】"]
    assert started["ended"][0]["target"] == "アル" and names(run) == []


def test_b_eff_1_made_in_the_second_sides_turn_it_ends_when_that_sides_next_turn_begins() -> None:
    run = running(first="enemy")
    run(Next(invoker=GM, gm=True))  # round 1, the PC side's turn (second)
    run(EffectAdd("アル", "【ブレス】", "10秒", by="アル", invoker="u1"))
    run(Next(invoker=GM, gm=True))  # round 2: the enemy's turn
    assert names(run) == ["【ブレス】"]
    run(Next(invoker=GM, gm=True))  # round 2: the PC side's turn
    assert names(run) == [] and run.s.round == 2


def test_b_eff_1_an_18_round_effect_lasts_until_the_turn_of_round_19() -> None:
    """3分 = 18 rounds, made in round 1's PC turn: there through round 18, gone as round 19's PC turn
    begins."""
    run = running(first="pc")
    run(EffectAdd("アル", "【ガン・バレット】", "3分", by="アル", invoker="u1"))
    assert run.s.effects[0].rounds == 18
    to(run, 18, Side.ENEMY)
    assert run.s.effects[0].left == 1
    to(run, 19, Side.PC)
    assert names(run) == []
    assert [e["name"] for e in run.event("bt.turn_started")["ended"]] == ["【ガン・バレット】"]


def test_b_eff_1_until_the_end_never_ends_by_itself_and_cannot_be_extended() -> None:
    run = running()
    run(EffectAdd("ゴブリン", "鼓咆", "end", text="命中力+1", mod="命中力+1", invoker=GM, gm=True))
    to(run, 30, Side.PC)
    assert names(run) == ["鼓咆"] and run.s.effects[0].until_end
    run.refused(EffectExtend("ゴブリン", "鼓咆", 3), "bt.effect_until_end")


def test_b_eff_1_an_effect_made_before_the_first_turn_counts_from_its_sides_first_turn() -> None:
    run = battle(pc("アル"), monster("ゴブリン"), first="pc")
    run(EffectAdd("アル", "【プロテクション】", 1, invoker="u1"))
    assert run.s.effects[0].made_side is Side.PC and run.s.effects[0].made_round == 0
    run(Next(invoker=GM, gm=True))  # round 1's PC turn begins: it does not count
    assert names(run) == ["【プロテクション】"]
    to(run, 2, Side.PC)
    assert names(run) == []


def test_b_eff_1_an_effect_the_enemy_made_in_the_pcs_turn_counts_the_enemys_turns() -> None:
    run = running(first="pc")
    run(EffectAdd("アル", "【毒】", 1, by="ゴブリン", invoker=GM, gm=True))
    assert run.event("bt.effect_added")["by"] == "ゴブリン"
    assert run.s.effects[0].made_side is Side.ENEMY
    run(Next(invoker=GM, gm=True))  # the enemy's turn of round 1: the first after it was made
    assert names(run) == []


def test_b_eff_1_the_gm_extends_anyone_ends_an_effect_of_their_own() -> None:
    run = running()
    run(EffectAdd("アル", "【ブレス】", 3, by="アル", invoker="u1"))
    run(EffectExtend("アル", "#1", 2))
    extended = run.event("bt.effect_extended")
    assert (extended["rounds"], extended["left"], extended["delta"]) == (5, 5, 2)
    run.refused(EffectExtend("アル", "【ブレス】", -5), "bt.extend_invalid")
    run.refused(EffectEnd("アル", "【ブレス】", invoker="u2"), "bt.not_your_effect")
    run.refused(EffectEnd("アル", "【ヘイスト】", invoker="u1"), "bt.unknown_effect")
    run(EffectEnd("アル", "【ブレス】", invoker="u1"))
    assert run.event("bt.effect_ended")["reason"] == "ended" and names(run) == []


def test_b_eff_1_the_same_effect_made_again_replaces_the_first() -> None:
    run = running()
    run(EffectAdd("アル", "【ブレス】", 3, by="アル", invoker="u1"))
    run(EffectAdd("アル", "【ブレス】", 6, invoker=GM, gm=True))
    assert run.event("bt.effect_added")["replaced"] == 1
    assert [(e.id, e.rounds) for e in run.s.effects] == [(2, 6)]


@pytest.mark.parametrize(
    ("given", "rounds"),
    [
        (1, 1),
        ("10秒", 1),
        ("1分", 6),
        ("3分", 18),
        ("5r", 5),
        ("3ラウンド", 3),
        ("end", None),
        ("戦闘終了まで", None),
    ],
)
def test_b_eff_1_durations(given: int | str, rounds: int | None) -> None:
    assert parse_duration(given) == rounds


def test_b_eff_1_refusals_and_the_limit_of_30_effects_a_character() -> None:
    run = running()
    run.refused(EffectAdd("アル", "x", "15秒", invoker="u1"), "bt.duration_invalid")
    run.refused(EffectAdd("アル", "x", 0, invoker="u1"), "bt.duration_invalid")
    run.refused(EffectAdd("アル", "", 1, invoker="u1"), "limits.name")
    run.refused(EffectAdd("アル", "x", 1, mod="筋力+2", invoker="u1"), "bt.mod_invalid")
    run.refused(EffectAdd("ドラゴン", "x", 1, invoker="u1"), "bt.unknown_character")
    for n in range(30):
        run(EffectAdd("アル", f"効果{n}", 1, invoker=GM, gm=True))
    error = run.refused(EffectAdd("アル", "効果30", 1, invoker=GM, gm=True), "limits.too_many")
    assert error.values == {"what": "effects", "max": 30, "count": 31}
    run(EffectAdd("アル", "効果0", 2, invoker=GM, gm=True))  # a replacement: still 30


# --- B-EFF-2 --------------------------------------------------------------------------------------


def test_b_eff_2_numbers_an_effect_carries() -> None:
    mods = parse_mods("防護点+2 回避力−1, 命中力+1 ダメージ+2")
    assert [(m.stat.value, m.delta) for m in mods] == [
        ("defense", 2),
        ("evasion", -1),
        ("hit", 1),
        ("damage", 2),
    ]
    assert [(m.stat.value, m.delta) for m in parse_mods("defense+1 defense+1")] == [("defense", 2)]


def test_b_eff_2_defence_with_the_effects_applied_in_the_damage() -> None:
    """12 against 防護点 3 + 2 (【ガード】) deals 7; the dealer's ダメージ+2 makes it 9; not to 確定."""
    run = running()
    run(EffectAdd("ゴブリン", "【ガード】", 3, mod="防護点+2", invoker=GM, gm=True))
    run(Damage("ゴブリン", 12, by="アル", invoker="u1"))
    damaged = run.event("bt.damaged")
    assert (damaged["defense"], damaged["final"]) == (5, 7)
    run(EffectAdd("アル", "【マッスルベアー】", 3, mod="ダメージ+2", invoker=GM, gm=True))
    run(Damage("ゴブリン", 12, by="アル", invoker="u1"))
    damaged = run.event("bt.damaged")
    assert (damaged["mod"], damaged["defense"], damaged["final"]) == (2, 5, 9)
    run(Damage("ゴブリン", 12, kind="fixed", by="アル", invoker="u1"))
    assert run.event("bt.damaged")["final"] == 12


def test_b_eff_2_an_effect_on_one_part_changes_that_part_only() -> None:
    run = battle(
        AddMonster(
            "グリフォン",
            parts=(PartSpec(hp=10, name="頭部", defense=2), PartSpec(hp=30, name="胴体", defense=4)),
            core=1,
        )
    )
    run(EffectAdd("グリフォン:頭部", "【ガード】", 3, mod="防護点+3", invoker=GM, gm=True))
    m = run.monster("グリフォン")
    assert (numbers_of(run.s, m, 0)["defense"], numbers_of(run.s, m, 1)["defense"]) == (5, 4)
    run(Damage("グリフォン:胴体", 10, gm=True))
    assert run.event("bt.damaged")["final"] == 6


def test_b_eff_2_the_status_shows_the_numbers_with_the_effects_applied() -> None:
    run = running()
    run(EffectAdd("アル", "【ブラー】", 3, mod="回避力+2 防護点-6", invoker=GM, gm=True))
    shown = status(run.s)
    alu = shown["pcs"][0]["numbers"]
    assert (alu["defense"], alu["evasion"], alu["hit"]) == (0, 14, None)  # 防護点 never below 0
    assert alu["mods"] == {"defense": -6, "evasion": 2, "hit": 0, "damage": 0}
    assert shown["effects"][0]["left"] == 3 and shown["not_acted"] == ["アル"]
    assert shown["monsters"][0]["known"]["numbers"] is False
