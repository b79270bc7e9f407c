"""The ordinary battle's status screen (B-VIEW-1), in Japanese and English, exactly: the round and whose
turn, who has not acted, each side's characters with HP and MP and their numbers with the effects applied
(B-EFF-2), each part of a monster, the effects with the rounds left, what the party knows of each kind, the
GMs. A player reads a monster below its 知名度 as its name and rough state only, and none of its numbers
(B-KNOW-1); the GM reads them all, marked where the table does not."""

from __future__ import annotations

from battle_text_helpers import Run, battle, gm_status, goblins, griffon, pc, table_status

from engine.battle.commands import Damage, EffectAdd, Initiative, Knowledge, Next


def scene() -> Run:
    """ゴブリン known (numbers and weakness), グリフォン not (10 against 知名度15); round 1, the PC side's
    turn, both PCs having acted; プロテクション on ガルド, スネアバインド on グリフォンの頭部."""
    run = battle(
        pc("ガルド", hp=35, mp=12, defense=8, evasion=7, initiative=6),
        pc("リナ", owner="u2", hp=25, mp=30, defense=2, evasion=5),
        goblins(),
        griffon(),
    )
    run(Knowledge("ガルド", "ゴブリン", 12, invoker="u1"))
    run(Knowledge("リナ", "グリフォン", 10, invoker="u2"))
    run(Initiative("ガルド", "2d6+6", invoker="u1"), 5, 4)
    run(EffectAdd("ガルド", "プロテクション", 3, mod="防護点+1", by="リナ", invoker="u2"))
    run(EffectAdd("グリフォン:頭部", "スネアバインド", "end", mod="回避力-2", text="足止め", gm=True))
    run(Next(gm=True))
    run(Damage("グリフォン:胴体", 20, by="ガルド", invoker="u1"))
    run(Damage("ゴブリンA", 10, kind="magic", by="リナ", invoker="u2"))
    return run


_PCS_JA = [
    "PC側(2):",
    "ガルド HP 35/35 MP 12/12 防護点 9(効果+1) 回避力 7 [行動済]",
    "リナ HP 25/25 MP 30/30 防護点 2 回避力 5 [行動済]",
    "敵側(3):",
    "ゴブリンA HP 8/18 防護点 3 命中力 10 回避力 10 打撃点 2d+3",
    "ゴブリンB HP 18/18 防護点 3 命中力 10 回避力 10 打撃点 2d+3",
]
_EFFECTS_JA = [
    "効果:",
    "#1 ガルドの「プロテクション」 防護点+1: 残り3ラウンド、リナから",
    "#2 グリフォンの頭部の「スネアバインド」 回避力−2: 戦闘終了まで — 足止め",
    "魔物知識:",
    "ゴブリン: 達成値 12(ガルド) → データと弱点が判明(知名度/弱点値 5/11、弱点: 物理ダメージ+2、先制値 11)",
]
_HEAD_JA = [
    "【街道の戦い】 第1ラウンド PC側の手番",
    "▶ PC側の全員が行動しました。/戦闘 次へ で手番を終えます。",
]


def test_b_view_1_the_gm_reads_every_number_and_what_the_table_does_not_know() -> None:
    assert gm_status(scene(), "ja").splitlines() == [
        *_HEAD_JA,
        *_PCS_JA,
        "グリフォン [PLには名前と状態だけ]",
        "└ 頭部 HP 30/30 防護点 4 命中力 12 回避力 9(効果−2) 打撃点 2d+6",
        "└ 胴体(コア部位) HP 25/40 防護点 5 回避力 10",
        *_EFFECTS_JA,
        "グリフォン: 達成値 10(リナ) → 名前と大まかな状態だけ"
        "(知名度/弱点値 15/20、弱点: 物理ダメージ+2、先制値 14、移動速度 20/40)",
        "GM: GM太郎",
    ]


def test_b_know_1_a_player_reads_a_monster_below_its_reputation_as_name_and_rough_state_only() -> None:
    shown = table_status(scene(), "ja")
    assert shown.splitlines() == [
        *_HEAD_JA,
        *_PCS_JA,
        "グリフォン 頭部 無傷・胴体 軽傷",
        *_EFFECTS_JA,
        "グリフォン: 達成値 10(リナ) → 名前と大まかな状態だけ",
        "GM: GM太郎",
    ]
    # none of グリフォン's numbers: HP, 防護点, 命中力, 回避力, 打撃点, 知名度/弱点値, 先制値, 移動速度
    for number in (
        "HP 25/40",
        "HP 30/30",
        "防護点 4",
        "防護点 5",
        "命中力 12",
        "2d+6",
        "15/20",
        "先制値 14",
        "20/40",
    ):
        assert number not in shown, number


def test_b_view_1_the_status_in_english() -> None:
    pcs = [
        "PC side (2):",
        "ガルド HP 35/35 MP 12/12 defence 9 (effects +1) evasion 7 [acted]",
        "リナ HP 25/25 MP 30/30 defence 2 evasion 5 [acted]",
        "Enemy side (3):",
        "ゴブリンA HP 8/18 defence 3 accuracy 10 evasion 10 strike 2d+3",
        "ゴブリンB HP 18/18 defence 3 accuracy 10 evasion 10 strike 2d+3",
    ]
    effects = [
        "Effects:",
        '#1 "プロテクション" on ガルド defence +1: 3 rounds left, from リナ',
        '#2 "スネアバインド" on グリフォン\'s 頭部 evasion −2: until the battle ends — 足止め',
        "Monster knowledge:",
        "ゴブリン: best 12 (ガルド) → numbers and weakness known (reputation/weakness value 5/11, weakness: "
        "物理ダメージ+2, initiative 11)",
    ]
    head = [
        "[街道の戦い] round 1, the PC side's turn",
        "▶ Everyone on the PC side has acted. End the turn with /battle next.",
    ]
    assert gm_status(scene(), "en").splitlines() == [
        *head,
        *pcs,
        "グリフォン [players see name and state only]",
        "└ 頭部 HP 30/30 defence 4 accuracy 12 evasion 9 (effects −2) strike 2d+6",
        "└ 胴体 (core) HP 25/40 defence 5 evasion 10",
        *effects,
        "グリフォン: best 10 (リナ) → name and rough state only (reputation/weakness value 15/20, weakness: "
        "物理ダメージ+2, initiative 14, movement 20/40)",
        "GM: GM太郎",
    ]
    assert table_status(scene(), "en").splitlines() == [
        *head,
        *pcs,
        "グリフォン 頭部 unhurt / 胴体 lightly wounded",
        *effects,
        "グリフォン: best 10 (リナ) → name and rough state only",
        "GM: GM太郎",
    ]


def test_b_init_1_before_the_turns_the_status_says_how_the_first_side_is_decided() -> None:
    run = battle(pc("ガルド", initiative=6), goblins(count=1), title="")
    assert table_status(run, "ja").splitlines() == [
        "【通常の戦闘】 戦闘準備中",
        "先攻: 先制判定で決めます(まだ誰も振っていません)",
        "▶ 戦闘準備: 先制判定は /戦闘 先制、魔物知識判定は /戦闘 魔物知識。"
        "/戦闘 次へ で第1ラウンドを始めます。",
        "PC側(1):",
        "ガルド HP 30/30 防護点 0 回避力 0",
        "敵側(1):",
        "ゴブリン 無傷",
        "魔物知識:",
        "ゴブリン: 魔物知識判定はまだ → 名前と大まかな状態だけ",
        "GM: GM太郎",
    ]
    run(Initiative("ガルド", invoker="u1"), 4, 4)
    shown = table_status(run, "en").splitlines()
    assert shown[1] == "First: the initiative checks decide (the PC side's best so far: ガルド, 14)"
    assert shown[4] == "ガルド HP 30/30 defence 0 evasion 0 [initiative 14]"


def test_b_char_3_who_is_down_and_which_part_is_destroyed() -> None:
    run = battle(pc("ガルド"), griffon(), first="pc")
    run(Knowledge("ガルド", "グリフォン", 15, invoker="u1"))
    run(Next(gm=True))
    run(Damage("グリフォン:頭部", 40, gm=True))
    run(Damage("ガルド", 40, gm=True))
    shown = gm_status(run, "ja").splitlines()
    assert shown[1:4] == [
        "▶ PC側の全員が行動しました。/戦闘 次へ で手番を終えます。",
        "PC側(1):",
        "ガルド HP -10/30 防護点 0 回避力 0 [戦闘不能]",
    ]
    assert shown[5:8] == [
        "グリフォン",
        "└ 頭部 HP -6/30 防護点 4 命中力 12 回避力 11 打撃点 2d+6 [破壊]",
        "└ 胴体(コア部位) HP 40/40 防護点 5 回避力 10",
    ]
