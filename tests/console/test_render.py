"""Console text: the fort status (map, HP bar, equipment) and event lines, every word from the catalogue."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from bot.commands import UserError, convert
from bot.registry import lookup
from bot.render.common import event_line, hp_bar
from bot.render.text import render
from bot.views import ErrorView, StatusView
from engine.ruleset import Event

DOC = {
    "format": "toride.fort/1",
    "title": "北の砦",
    "rounds": 5,
    "round": 2,
    "turn": "enemy",
    "first": "pc",
    "outcome": None,
    "fort": {"hp": 270, "max_hp": 300, "repaired_round": 2},
    "pcs": [
        {"name": "Alice", "area": "F0", "position": "top", "hp": 40, "max_hp": 44, "owner": "1"},
        {"name": "Bob", "area": "F0", "position": "outside", "hp": None, "owner": "2"},
        {"name": "Cid", "area": "B1", "position": None, "hp": 20, "max_hp": 20, "owner": "3"},
    ],
    "units": [
        {
            "name": "ゴブリン隊",
            "type": "normal",
            "area": "A1",
            "hp": 22,
            "max_hp": 40,
            "destroyed": False,
            "arrived": True,
            "arrive_round": None,
        },
        {
            "name": "槌",
            "type": "ram",
            "area": "F0",
            "hp": 50,
            "max_hp": 60,
            "destroyed": False,
            "arrived": True,
        },
        {
            "name": "兵",
            "type": "soldier",
            "area": "F0",
            "hp": 30,
            "max_hp": 30,
            "destroyed": False,
            "arrived": True,
        },
        {
            "name": "鳥",
            "type": "flying",
            "area": "B2",
            "hp": 10,
            "max_hp": 10,
            "destroyed": False,
            "arrived": False,
            "arrive_round": 3,
        },
        {
            "name": "骸",
            "type": "normal",
            "area": "A2",
            "hp": -3,
            "max_hp": 10,
            "destroyed": True,
            "arrived": True,
        },
    ],
    "commanders": [{"name": "隊長", "area": "A2", "hp": 60, "max_hp": 60}],
    "traps": [
        {"kind": "mine", "edge": "A1-F0", "uses": 1},
        {"kind": "barricade", "edge": "A2-A1", "uses": 0},
    ],
    "cannons": [{"shells": 3}, {"shells": 0}],
    "ballista": {"loaded": True, "magic_bolt_used": False},
    "confused_round": None,
}


def test_fort_status_in_english() -> None:
    text = render(StatusView(ruleset="fort", document=DOC, gms=("gm", "co")), "en")
    assert text.splitlines() == [
        "[北の砦] Round 2/5, enemy side's turn",
        "Fort HP [██████████████████░░] 270/300 (emergency repair used this round)",
        "  A2 ── A1 ── F0 ── B1 ── B2",
        "  │      └──────────┘      │",
        "  └────────────────────────┘",
        "A2: 隊長 60/60 [commander]",
        "A1: ゴブリン隊 22/40",
        "F0: top: Alice 40/44 (1) / outside: Bob (2) / 槌 50/60 [ram] / 兵 30/30 [soldier]",
        "B1: Cid 20/20 (3)",
        "B2: —",
        "Reinforcements: 鳥 (round 3, B2)",
        "Destroyed: 骸",
        "Traps: mine A1-F0 ×1",
        "Cannons: #1 3 shells, #2 0 shells",
        "Ballista: loaded",
        "GM: gm, co",
    ]


def test_fort_status_in_japanese() -> None:
    text = render(StatusView(ruleset="fort", document=DOC), "ja")
    assert text.splitlines()[0] == "【北の砦】 第2/5ラウンド 敵側の手番"
    # each PC's player beside it (the GM sees whose each PC is)
    assert "F0: 砦上部: Alice 40/44(1) / 砦外部: Bob(2) / 槌 50/60 [破城槌] / 兵 30/30 [兵士]" in text
    assert "罠: 地雷 A1-F0 残り1回" in text


def test_hp_bar() -> None:
    assert hp_bar(300, 300) == "[" + "█" * 20 + "]"
    assert hp_bar(1, 300) == "[█" + "░" * 19 + "]"  # still standing shows
    assert hp_bar(0, 300) == hp_bar(-20, 300) == "[" + "░" * 20 + "]"
    assert hp_bar(150, 300, width=10) == "[█████░░░░░]"


def test_event_lines_with_rolls_variants_and_words() -> None:
    damaged = Event(
        "unit.damaged",
        {
            "unit": "G",
            "source": "cannon",
            "taken": 21,
            "before": 50,
            "after": 29,
            "rolls": [{"text": "KeyNo.40c[10]+12 ＞ 2D:[3,4]=7 ＞ 9+12 ＞ 21"}],
        },
        ((6, 3), (6, 4)),
    )
    assert event_line(damaged, "en") == (
        "Cannon: G takes 21 damage (HP 50 → 29). 《KeyNo.40c[10]+12 ＞ 2D:[3,4]=7 ＞ 9+12 ＞ 21》"
    )
    area = Event(
        "attack.area",
        {
            "by": "A",
            "unit": "G",
            "area": "A1",
            "radius": 5,
            "kind": "magic",
            "hit": ["G", "H"],
            "checks": [{"unit": "H", "die": 2, "caught": True}],
        },
        ((6, 2),),
    )
    assert event_line(area, "ja") == (
        "Aの範囲攻撃(A1、半径5、魔法ダメージ): 狙いはG。ユニット: G、H。 H: d6=2(はい) (出目 2)"
    )
    ended = Event(
        "battle.ended", {"outcome": "success", "reason": "rounds", "fort_hp": 60, "fort_max_hp": 100}
    )
    assert event_line(ended, "en") == (
        "The battle is over (all rounds played): the defense held. Fort HP 60/100."
    )


def test_refusal() -> None:
    view = ErrorView(key="fort.unit_unknown", values={"name": "ゴブ"})
    assert render(view, "en") == '⚠ There is no unit "ゴブ".'


def test_a_pc_whose_hp_nobody_tracks_is_told_to_subtract_the_damage() -> None:
    roll = {"command": "K40+12@10", "text": "KeyNo.40c[10]+12 ＞ 2D:[3,4]=7 ＞ 9+12 ＞ 21", "total": 21}
    untracked = Event(
        "pc.damaged", {"pc": "アリス", "amount": 21, "before": None, "after": None, "roll": roll}
    )
    assert event_line(untracked, "ja") == (
        "アリスに21ダメージ(HPは記録していないので、各自で減らしてください)。"
        " 《KeyNo.40c[10]+12 ＞ 2D:[3,4]=7 ＞ 9+12 ＞ 21》"
    )
    assert event_line(untracked, "en").startswith(
        "アリス takes 21 damage (HP is not tracked: subtract it yourself)."
    )
    tracked = Event("pc.damaged", {"pc": "アリス", "amount": 21, "before": 40, "after": 19})
    assert event_line(tracked, "ja") == "アリスに21ダメージ(HP 40→19)。"


def test_battles_without_a_title_and_pc_moves_in_words() -> None:
    started = {"title": "", "rounds": 3, "fort_hp": 300, "cannons": 2, "first": "pc"}
    assert event_line(Event("battle.started", started), "ja") == (
        "砦防衛戦開始: 全3ラウンド、砦HP 300、大砲2門、先攻はPC側。"
    )
    assert event_line(Event("sg.started", {"title": None, "ambush": False, "gm_fixed": False}), "en") == (
        "Started a 千幻抄 battle."
    )
    moved = {"pc": "Bob", "from": "F0", "from_position": "top", "to": "F0", "to_position": "inside"}
    # F-MAP-6: a change of position at F0 is the PC's move, 10 m and no distance between areas
    assert event_line(Event("pc.moved", {**moved, "distance": 0, "extra_m": 10}), "ja") == (
        "Bobが移動: F0(砦上部) → F0(砦内部)、10m(位置の変更)。"
    )
    assert event_line(Event("pc.moved", {**moved, "distance": 0, "extra_m": 10}), "en") == (
        "Bob moves: F0 (top) → F0 (inside), 10 m (a change of position)."
    )
    # away from F0 a PC has no position: the area alone, no "(-)"; leaving the top costs 10 m more
    out = {**moved, "to": "A1", "to_position": None, "distance": 10, "extra_m": 10}
    assert (
        event_line(Event("pc.moved", out), "ja") == "Bobが移動: F0(砦上部) → A1、20m(うち位置の変更で10m)。"
    )
    assert event_line(Event("pc.moved", out), "en") == (
        "Bob moves: F0 (top) → A1, 20 m (10 m of it to change position)."
    )
    plain = {**moved, "from": "A1", "from_position": None, "to": "A2", "to_position": None, "distance": 10}
    assert event_line(Event("pc.moved", {**plain, "extra_m": 0}), "en") == "Bob moves: A1 → A2, 10 m."


def test_a_bad_damage_expression_says_why_in_words() -> None:
    view = ErrorView(key="fort.dice_invalid", values={"expression": "2x+3", "reason": "dice.unknown_command"})
    assert render(view, "ja") == (
        "⚠ ダメージの式「2x+3」が使えません(ダイスコマンドとして読めません)。例: 2d+10、K40+12@10"
    )
    view = ErrorView(key="fort.dice_invalid", values={"expression": "2d>=5", "reason": "not_damage"})
    assert "(it is not damage: a rating roll (K40+12@10) or a sum (2d+10), without a comparison (>=))" in (
        render(view, "en")
    )


def test_a_missing_option_shows_how_the_command_is_written() -> None:
    view = ErrorView(
        key="command.missing_option",
        values={"command": "/fort start", "option": "rounds", "usage": "/fort start rounds:<1-99>"},
    )
    assert render(view, "ja") == "⚠ /fort start には「rounds:」が必要です。書き方: /fort start rounds:<1-99>"


def test_the_usage_in_a_missing_option_refusal_comes_from_the_table() -> None:
    with pytest.raises(UserError) as raised:
        convert(lookup("fort start"), {"title": "北"})
    assert raised.value.values["usage"] == (
        "/fort start rounds:<1-99> [fort_hp:<int>] [cannons:<0-10>] [first:<pc|enemy>] [title:<text>]"
    )


def test_trap_sentences_read_as_english() -> None:
    data = {"kind": "mine", "edge": "A1-F0", "uses": 1}
    assert event_line(Event("trap.set", data), "en") == "A mine is set on A1-F0 (1 use)."
    assert event_line(Event("trap.set", data), "ja") == "A1-F0に地雷を設置しました(残り1回)。"
    assert event_line(Event("trap.removed", data), "en") == "The mine on A1-F0 is removed."


def test_a_file_the_system_refuses_is_explained_in_the_users_words(tmp_path: Path) -> None:
    """The system's own English text (``No such file or directory``) never reaches a Japanese reply."""
    from bot.render.common import os_error_text

    try:
        (tmp_path / "no-folder" / "x.json").write_text("{}")
    except OSError as error:
        missing = error
    assert os_error_text(missing, "ja") == "フォルダーかファイルがありません"
    assert os_error_text(missing, "en") == "there is no such folder or file"
    assert (
        os_error_text(OSError(errno.ENOSPC, "No space left on device"), "ja") == "ディスクに空きがありません"
    )
    assert os_error_text(OSError(9999, "Strange"), "en") == "the system refused to read or write it"
