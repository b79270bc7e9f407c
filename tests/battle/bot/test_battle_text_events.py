"""The lines the table reads of an ordinary battle's events, in Japanese and English, exactly: a hit shows
each step of B-DMG-2 (the amount and its dice, the effects' ダメージ, the weakness once known, − 防護点
for 物理, halving or nullifying, HP before → after); the table reads only the rough state of a monster it
does not know (B-KNOW-1); a turn's first line says which effects ended (B-EFF-1)."""

from __future__ import annotations

from battle_text_helpers import battle, goblins, griffon, lines, pc, table_lines

from engine.battle.commands import Damage, EffectAdd, Initiative, Knowledge, Next


def test_b_dmg_2_a_physical_hit_shows_the_weakness_the_defence_and_the_halving() -> None:
    run = battle(pc("ガルド"), goblins(weakness="物理ダメージ+2"), first="pc")
    run(Knowledge("ガルド", "ゴブリン", 11, invoker="u1"))  # 弱点値 11: the weakness counts (B-KNOW-2)
    run(Next(gm=True))
    events = run(Damage("ゴブリンA", "2d6+5", resisted="half", invoker="u1"), 3, 4)
    assert [e.audience for e in events] == [None, None]  # the table knows ゴブリン: no rough line
    assert lines(events, "ja")[0] == (
        "ゴブリンAへの物理ダメージ(ガルドから): 12(2D6+5) +2(弱点) −3(防護点) = 11 → 半減 6、HP 18→12/18"
        " 《(2D6+5) ＞ 7[3,4]+5 ＞ 12》"
    )
    assert lines(events, "en")[0] == (
        "ゴブリンA takes physical damage from ガルド: 12 (2D6+5) +2 (weakness) −3 (defence) = 11 → halved 6;"
        " HP 18→12/18 《(2D6+5) ＞ 7[3,4]+5 ＞ 12》"
    )


def test_b_know_2_below_the_weakness_value_the_weakness_is_no_step() -> None:
    run = battle(pc("ガルド"), goblins(weakness="物理ダメージ+2"), first="pc")
    run(Knowledge("ガルド", "ゴブリン", 8, invoker="u1"))  # 知名度 5 reached, 弱点値 11 not
    run(Next(gm=True))
    events = run(Damage("ゴブリンA", 12, invoker="u1"))
    assert lines(events, "ja")[0] == "ゴブリンAへの物理ダメージ(ガルドから): 12 −3(防護点) = 9、HP 18→9/18"
    assert (
        lines(events, "en")[0]
        == "ゴブリンA takes physical damage from ガルド: 12 −3 (defence) = 9; HP 18→9/18"
    )


def test_b_dmg_1_magic_damage_ignores_the_defence_and_shows_the_effects_and_the_element_weakness() -> None:
    run = battle(pc("ガルド"), goblins(weakness="炎属性ダメージ+3"), first="pc")
    run(Knowledge("ガルド", "ゴブリン", 12, invoker="u1"))
    run(EffectAdd("ガルド", "ファナティシズム", 3, mod="ダメージ+2", invoker="u1"))  # B-EFF-2
    run(Next(gm=True))
    events = run(Damage("ゴブリンA", 10, kind="magic", element="fire", by="ガルド", invoker="u1"))
    assert lines(events, "ja") == [
        "ゴブリンAへの炎属性の魔法ダメージ(ガルドから): 10 +2(効果) +3(弱点) = 15、HP 18→3/18",
        "PC側の全員が行動しました。/戦闘 次へ で手番を終えます。",
    ]
    assert lines(events, "en") == [
        "ゴブリンA takes fire magic damage from ガルド: 10 +2 (effects) +3 (weakness) = 15; HP 18→3/18",
        "Everyone on the PC side has acted. End the turn with /battle next.",
    ]


def test_b_dmg_1_fixed_damage_is_never_reduced() -> None:
    run = battle(pc("ガルド", defense=8), goblins(), first="pc")
    run(Next(gm=True))
    events = run(Damage("ガルド", 5, kind="fixed", gm=True))
    assert lines(events, "ja") == ["ガルドへの確定ダメージ: 5、HP 30→25/30"]
    assert lines(events, "en") == ["ガルド takes fixed damage: 5; HP 30→25/30"]


def test_an_automatic_failure_and_a_nullified_hit_read_so() -> None:
    run = battle(pc("ガルド"), goblins(), first="pc")
    run(Knowledge("ガルド", "ゴブリン", 8, invoker="u1"))
    run(Next(gm=True))
    events = run(Damage("ゴブリンB", "k20+5", resisted="none", gm=True), 1, 1)
    assert lines(events, "ja") == [
        "ゴブリンBへの物理ダメージ: 0(K20+5、自動的失敗) −3(防護点) = 0 → 消滅 0、HP 18→18/18"
        " 《KeyNo.20c[10]+5 ＞ 2D:[1,1]=2 ＞ ** ＞ 自動的失敗》"
    ]
    assert lines(events, "en") == [
        "ゴブリンB takes physical damage: 0 (K20+5, automatic failure) −3 (defence) = 0 → nullified 0;"
        " HP 18→18/18 《KeyNo.20c[10]+5 ＞ 2D:[1,1]=2 ＞ ** ＞ 自動的失敗》"
    ]


def test_b_know_1_the_table_reads_a_monster_it_does_not_know_as_its_rough_state_only() -> None:
    run = battle(pc("ガルド"), griffon(), first="pc")
    run(Next(gm=True))
    events = run(Damage("グリフォン:頭部", 20, by="ガルド", invoker="u1"))
    assert [(e.kind, e.audience) for e in events] == [
        ("bt.damaged_rough", None),
        ("bt.damaged", ()),
        ("bt.side_done", None),
    ]
    assert table_lines(events, "ja")[0] == "グリフォンの頭部への物理ダメージ(ガルドから): 無傷 → 軽傷"
    assert (
        table_lines(events, "en")[0]
        == "グリフォン's 頭部 takes physical damage from ガルド: unhurt → lightly wounded"
    )
    assert not any(c.isdigit() for c in table_lines(events, "ja")[0])
    # the GM's own line has every step
    assert (
        lines(events, "ja")[1]
        == "グリフォンの頭部への物理ダメージ(ガルドから): 20 −4(防護点) = 16、HP 30→14/30"
    )
    assert (
        lines(events, "en")[1]
        == "グリフォン's 頭部 takes physical damage from ガルド: 20 −4 (defence) = 16; HP 30→14/30"
    )


def test_b_eff_1_the_turns_first_line_says_which_effects_ended() -> None:
    run = battle(pc("ガルド"), goblins(), first="pc")
    run(Next(gm=True))
    run(EffectAdd("ガルド", "プロテクション", 1, mod="防護点+1", by="ガルド", invoker="u1"))
    assert (
        lines(run.events, "ja")[0]
        == "ガルドに効果「プロテクション」がかかりました(1ラウンド、防護点+1、ガルドから)。"
    )
    assert (
        lines(run.events, "en")[0]
        == 'ガルド is under the effect "プロテクション" (1 round, defence +1, from ガルド).'
    )
    run(Next(gm=True))
    assert lines(run.events, "ja")[-1] == "━━ 第1ラウンド 敵側の手番 ━━ 行動できるのは: ゴブリンA、ゴブリンB"
    events = run(Next(gm=True))
    assert lines(events, "ja") == [
        "第1ラウンド、敵側の手番を終えました。行動しなかった: ゴブリンA、ゴブリンB。",
        "第1ラウンドが終わりました。",
        "━━ 第2ラウンド PC側の手番 ━━ 効果が切れました: ガルドの「プロテクション」。行動できるのは: ガルド",
    ]
    assert lines(events, "en") == [
        "Round 1: the enemy side's turn is over. Did not act: ゴブリンA, ゴブリンB.",
        "Round 1 is over.",
        '━━ Round 2, the PC side\'s turn ━━ Effects ended: "プロテクション" on ガルド. To act: ガルド',
    ]


def test_b_know_1_a_knowledge_check_says_what_it_taught_and_b_init_1_who_acts_first() -> None:
    run = battle(pc("ガルド", initiative=6), goblins(), griffon())
    run(Knowledge("ガルド", "ゴブリン", 12, invoker="u1"))
    assert lines(run.events, "ja") == [
        "ガルドの魔物知識判定(ゴブリン): 12。知名度5に届き、データが分かりました。"
        "弱点値11に届き、弱点も分かりました: 物理ダメージ+2。"
    ]
    assert lines(run.events, "en") == [
        "ガルド's monster knowledge check (ゴブリン): 12. It reaches the reputation 5: the numbers are known."
        " It reaches the weakness value 11: the weakness is known too: 物理ダメージ+2."
    ]
    run(Initiative("ガルド", invoker="u1"), 3, 3)
    assert lines(run.events, "ja") == [
        "ガルドの先制判定: 12(PC側の最高はガルドの12) 《(2D6+6) ＞ 6[3,3]+6 ＞ 12》"
    ]
    events = run(Next(gm=True))
    # グリフォン's 先制値 (14) is a number the table does not know: it is not said
    assert lines(events, "ja")[0] == (
        "先制判定: PC側の最高はガルドの12で、グリフォンの先制値に届きませんでした。▶ 敵側が先攻です。"
    )
    assert lines(events, "en")[0] == (
        "Initiative: the PC side's best, ガルド's 12, falls short of グリフォン's initiative."
        " ▶ The enemy side acts first."
    )
