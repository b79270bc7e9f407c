"""Fort events and refusals as users read them, ja and en: why a move stopped, who an area effect
reached or left out, what a weakness added, actions out of turn, soldiers by position, war-horns."""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.common import event_line
from bot.render.text import render
from bot.rulesets.fort import text as fort_text
from bot.views import ErrorView, StatusView, Summary
from engine.dice import ScriptedDice
from engine.fort import (
    FORT,
    AddCommander,
    AddPC,
    AddUnit,
    AdvanceUnits,
    AttackArea,
    FireCannon,
    FortCommand,
    FortState,
    GMSet,
    LoadCannon,
    MovePC,
    MoveUnit,
    NextTurn,
    SetTrap,
    StartBattle,
)
from engine.ruleset import Event


class Battle:
    """A battle driven through the engine with scripted dice; ``lines`` renders the last command."""

    def __init__(self, *setup: FortCommand) -> None:
        self.state: FortState | None = None
        self.events: Sequence[Event] = ()
        self(StartBattle(rounds=2))
        self(AddPC(name="Alice", position="top", hp=40, invoker="u1"))
        for command in setup:
            self(command)

    def __call__(self, command: FortCommand, *dice: int) -> None:
        outcome = FORT.apply(self.state, command, ScriptedDice(dice))
        self.state, self.events = outcome.state, outcome.events

    def lines(self, lang: str) -> list[str]:
        return [event_line(e, lang) for e in self.events]


def test_a_move_cut_short_by_a_blocking_unit_says_who_stopped_it() -> None:
    """F-UNIT-2: the issue's "no reason": the line names the blocker and says the turn's moving is over."""
    b = Battle(
        AddUnit(name="兵", type="soldier", area="F0", hp=30, fort_damage=0),
        GMSet(target="unit.兵.area", value="B1"),
        AddUnit(name="k", type="normal", area="B2", hp=30, fort_damage=5, move=20),
        NextTurn(),
    )
    b(MoveUnit(unit="k", to="F0"))
    assert b.lines("ja") == ["kが移動: B2 → B1(10m)。兵に阻まれ、この手番はこれ以上移動できません。"]
    assert b.lines("en") == ["k moves: B2 → B1 (10 m): stopped by 兵, no more movement this turn."]


def test_auto_advance_counts_only_units_that_moved_and_names_those_that_stayed() -> None:
    """F-TURN-2: the issue's "N units moved" counted units a barricade stopped or a mine killed."""
    b = Battle(
        SetTrap(kind="barricade", edge="A1-F0", uses=1),
        SetTrap(kind="mine", edge="B1-F0", uses=1),
        AddUnit(name="止", type="normal", area="A1", hp=30, fort_damage=5),
        AddUnit(name="死", type="normal", area="B1", hp=5, fort_damage=5),
        AddUnit(name="進", type="normal", area="B2", hp=30, fort_damage=5),
        NextTurn(),
    )
    b(AdvanceUnits(), 1, 1)
    assert b.lines("ja")[-1] == "自動前進: 1体が移動(進)、止はその場に留まりました。"
    assert b.lines("en")[-1] == "Auto-advance: 1 unit moved (進); 止 stayed where they were."
    b(AdvanceUnits())
    assert b.lines("ja") == ["自動前進: 移動するユニットはありません。"]


def test_unit_advance_while_confused_says_so_without_a_dash() -> None:
    """F-UNIT-12: the issue's "- cannot move": advancing every unit while confused has its own sentence."""
    refusal = ErrorView(key="fort.enemy_confused_all", values={"round": 1})
    assert render(refusal, "ja") == "⚠ 敵は混乱中のため、第1ラウンドの敵の手番には敵ユニットは移動しません。"
    assert render(refusal, "en") == "⚠ The enemy is confused: no enemy unit moves in round 1's enemy turn."


def test_characters_caught_at_radius_7_and_units_over_the_cap_are_named() -> None:
    """F-UNIT-4: the issue's "never named": characters with their damage and its half; the ones a
    ``targets:`` cap left out."""
    b = Battle(
        AddPC(name="Cid", position="outside", hp=30, invoker="u3"),
        MovePC(name="Cid", area="A1"),
        AddCommander(name="隊長", hp=40, area="A1"),
        AddUnit(name="的", type="normal", area="A1", hp=50, fort_damage=5, weakness="炎属性ダメージ+3"),
    )
    b(
        AttackArea(unit="的", damage="2d", radius=7, kind="magic", element="fire", targets=2, by="Alice"),
        3,
        3,
        2,
        5,
    )
    assert b.lines("ja") == [
        "Aliceの範囲攻撃(A1、半径7、魔法ダメージ・炎属性): 狙いは的。ユニット: 的。キャラクター: Cid。"
        "対象数の上限で外れた: 隊長。",
        "的に9ダメージ(弱点+3込み)(HP 50→41)。 《(2D6) ＞ 6[3,3] ＞ 6》",
        "Cidも巻き込まれた: 7点の魔法ダメージ・炎属性(半減なら4)。"
        "HPは /pc hp で反映してください(回避・抵抗は各自で)。 《(2D6) ＞ 7[2,5] ＞ 7》",
    ]
    assert b.lines("en")[0] == (
        "Alice's area attack (A1, radius 7, magic, fire) on 的. Units: 的. Characters: Cid. "
        "Left out by the target cap: 隊長."
    )
    assert b.lines("en")[2].startswith(
        "Cid is caught too: 7 damage (magic, fire; 4 if halved). Apply it with /pc hp"
    )
    b(AttackArea(commander="隊長", damage=10, radius=3, kind="magic", by="Alice"))
    assert b.lines("ja") == [
        "Aliceの範囲攻撃(A1、半径3、魔法ダメージ): 狙いは指揮官 隊長。ユニット: なし。キャラクター: 隊長。",
        "隊長に命中: 10点の魔法ダメージ(半減なら5)。"
        "HPは /指揮官 hp で反映してください(回避・抵抗は各自で)。",
    ]


def test_the_gms_action_out_of_turn_is_marked_and_a_players_refusal_says_whose_turn() -> None:
    """F-TURN-3: the GM's cannon shot in the enemy turn carries the mark on each line; a player hears
    whose turn it is."""
    b = Battle(
        AddUnit(name="鬼", type="normal", area="A1", hp=60, fort_damage=5),
        LoadCannon(cannon=1, check=15, by="Alice"),
    )
    b(NextTurn())
    b(FireCannon(cannon=1, unit="鬼", by="Alice"), 3, 4)
    assert b.lines("ja") == [
        "Aliceが大砲1を発射(A1、砲弾1発): 狙いは鬼。ユニット: 鬼。 〔手番外: 敵側の手番〕",
        "大砲: 鬼に21ダメージ(HP 60→39)。 《KeyNo.40c[10]+12 ＞ 2D:[3,4]=7 ＞ 9+12 ＞ 21》"
        " 〔手番外: 敵側の手番〕",
    ]
    assert b.lines("en")[0].endswith("[out of turn: the enemy side's turn]")
    refusal = ErrorView(key="fort.not_your_turn", values={"turn": "enemy", "round": 1})
    assert (
        render(refusal, "ja")
        == "⚠ 今は敵側の手番です(第1ラウンド)。その行動は自分の側の手番に行ってください。"
    )
    assert (
        render(refusal, "en")
        == "⚠ It is the enemy side's turn (round 1): take this action in your side's turn."
    )


def test_a_unit_or_a_pc_without_a_value_shows_no_dash() -> None:
    """House rule: no ``-`` for a value nobody gave (a unit's strike, a reinforcement round, a PC's HP)."""
    b = Battle()
    b(AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, position="inside"))
    assert b.lines("ja") == [
        "ユニット 兵(兵士、PC側)をF0(砦内部)に配置: HP 20、砦ダメージ 0、防護点 0、移動 10m。"
    ]
    b(AddUnit(name="援", type="normal", area="B2", hp=30, fort_damage=5, strike="2d", arrive_round=2))
    # F-MAP-7: a reinforcement is not "placed": it arrives at the end of the enemy turn of its round
    assert b.lines("en") == [
        "Reinforcement 援 (normal, enemy side) arrives at B2 at the end of the enemy turn of round 2: HP 30, "
        "fort damage 5, defense 0, move 10 m, strike 2D."
    ]
    assert b.lines("ja") == [
        "増援 援(通常、敵側)は第2ラウンドの敵側の手番の終わりにB2に到着します: HP 30、砦ダメージ 5、"
        "防護点 0、移動 10m、打撃点 2D。"
    ]
    b(AddPC(name="Eve", invoker="u5"))
    assert b.lines("ja") == ["PC Eveが参加しました(持ち主 u5、位置 砦上部)。"]


def test_status_shows_soldiers_by_position_weaknesses_and_war_horns() -> None:
    """F-MAP-4, F-UNIT-15, F-UNIT-12: F0 lists PCs and soldiers under their positions; a unit's weakness
    and a standing commander's war-horn are shown with the battle."""
    b = Battle(
        AddUnit(name="兵", type="soldier", area="F0", hp=20, fort_damage=0, position="outside"),
        AddUnit(name="骨", type="normal", area="A1", hp=30, fort_damage=5, weakness="炎属性ダメージ+3"),
        AddCommander(name="隊長", hp=40, area="A2", horn="敵全体の命中力+1"),
    )
    assert b.state is not None
    text = fort_text.status(StatusView(ruleset="fort", document=FORT.export(b.state), gms=()), "ja")
    assert "A2: 隊長 40/40 [指揮官] 〔鼓咆: 敵全体の命中力+1〕" in text
    assert "A1: 骨 30/30 弱点: 炎属性ダメージ+3" in text
    assert "F0: 砦上部: Alice 40/40(u1) / 砦外部: 兵 20/20 [兵士]" in text


def test_the_final_summary_names_standing_commanders_with_their_war_horn() -> None:
    """F-UNIT-12: a commander still up when the battle ends: the boss fight starts with its war-horn."""
    b = Battle(AddCommander(name="隊長", hp=40, area="A2", horn="敵全体の命中力+1"), NextTurn(), NextTurn())
    b(NextTurn())
    b(NextTurn())
    assert b.state is not None and b.state.ended
    summary = Summary(kind="final", round=2, events=(), document=FORT.export(b.state))
    assert fort_text.summary_extra(summary, "ja")[-1] == (
        "  指揮官 隊長 〔鼓咆: 敵全体の命中力+1〕が健在: ボス戦は鼓咆の効果を受けた敵と始まります。"
    )
