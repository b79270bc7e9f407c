"""``/fort export format:ccfolia`` (engine/fort/ccfolia.py): a whole battle as ココフォリア clipboard
characters.

The shape checked is ココフォリア's documented Clipboard API (docs.ccfolia.com/developer-api/clipboard-api):
``{"kind": "character", "data": Partial<Character>}`` with ``name: string``, ``memo: string``,
``initiative: number``, ``externalUrl: string``, ``status: {label: string, value: number, max: number}[]``,
``params: {label: string, value: string}[]``, ``commands: string`` (and the other documented fields, which
this export leaves to ココフォリア's defaults). A PC from a sheet carries its palette and params as
ytsheet2's own ココフォリア output does for that sheet (``<name>.ccfolia.ytsheet.txt``, made by ytsheet2's
``generateCcfoliaJson``).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from sheet_fixtures import CHARACTERS, character, fixture_text

from engine.dice import ScriptedDice
from engine.fort import FORT, AddCommander, AddPC, AddUnit, GMSet, SetUnitHP, StartBattle
from engine.fort.ccfolia import ccfolia_text, commander_character, unit_character
from engine.fort.state import Commander, FortState, Unit
from engine.sheets.model import sheet_to_json

#: the documented Character fields and their JSON types (TypeScript's number is int here)
CHARACTER: dict[str, Any] = {
    "name": str, "memo": str, "initiative": int, "externalUrl": str, "status": list, "params": list,
    "iconUrl": (str, type(None)), "faces": list, "x": int, "y": int, "angle": int, "width": int,
    "height": int,
    "active": bool, "secret": bool, "invisible": bool, "hideStatus": bool, "color": str, "commands": str,
    "owner": (str, type(None)),
}  # fmt: skip


def check_clipboard_character(text: str) -> dict[str, Any]:
    """One pasted line as ココフォリア reads it; an assertion error names what does not fit."""
    pasted = json.loads(text)
    assert set(pasted) == {"kind", "data"} and pasted["kind"] == "character", pasted
    data = pasted["data"]
    assert isinstance(data, dict) and set(data) <= set(CHARACTER), set(data) - set(CHARACTER)
    for key, value in data.items():
        assert isinstance(value, CHARACTER[key]), key
        assert CHARACTER[key] is not int or not isinstance(value, bool), key
    for status in data.get("status", []):
        assert set(status) == {"label", "value", "max"}, status
        assert isinstance(status["label"], str)
        assert all(isinstance(status[k], int) and not isinstance(status[k], bool) for k in ("value", "max"))
    for param in data.get("params", []):
        assert set(param) == {"label", "value"} and all(isinstance(v, str) for v in param.values()), param
    assert len({p["label"] for p in data.get("params", [])}) == len(data.get("params", [])), "a label twice"
    return data


def sheet_pc(name: str, fixture_name: str, **more: Any) -> AddPC:
    read = character(fixture_name)
    sheet = json.dumps(sheet_to_json(read.sheet), ensure_ascii=False)
    return AddPC(name=name, hp=read.hp, move=read.move, sheet=sheet, palette=read.palette, **more)


def battle() -> FortState:
    state = None
    for command in (
        StartBattle(rounds=4, title="北の砦"),
        sheet_pc("ガルド", "fighter", owner="111"),
        sheet_pc("ミナ", "fighter_custom", position="outside"),
        sheet_pc("蒼月", "caster"),
        AddPC(name="素手", hp=20),
        AddPC(name="見物人"),
        AddUnit(name="ゴブリン隊", type="normal", area="A1", hp=40, fort_damage=10, strike="2d+6", defense=2),
        AddUnit(name="兵士隊", type="soldier", area="F0", hp=20, fort_damage=0, strike="2d+3"),
        AddUnit(name="増援", type="flying", area="B2", hp=30, fort_damage=5, arrive_round=3),
        AddUnit(name="倒れた隊", type="ram", area="A2", hp=10, fort_damage=8, strike="2d+10"),
        SetUnitHP(unit="倒れた隊", set=0),
        AddCommander(name="隊長", hp=60),
        GMSet(target="pc.ガルド.hp", value="30"),
    ):
        state = FORT.apply(state, command, ScriptedDice([])).state
    assert state is not None
    return state


@pytest.mark.parametrize("name", CHARACTERS)
def test_a_pc_carries_its_palette_as_ytsheets_own_ccfolia_output(name: str) -> None:
    """Field for field where they should agree: ``commands`` (the palette with every definition but the
    plain ones), ``params`` (those, in order; after them only what Toride adds: 移動力), ``status`` (HP, MP,
    防護 with their maxima; numbers here, as ココフォリア's API documents, text in ytsheet's)."""
    read = character(name)
    state = FORT.apply(None, StartBattle(rounds=3), ScriptedDice([])).state
    state = FORT.apply(state, sheet_pc(read.name or name, name), ScriptedDice([])).state
    ours = check_clipboard_character(ccfolia_text(state))
    theirs = json.loads(fixture_text(name, "ccfolia.ytsheet.txt"))["data"]
    assert ours["commands"] == theirs["commands"]
    assert ours["params"] == [*theirs["params"], {"label": "移動力", "value": str(read.move)}]
    assert [(s["label"], str(s["value"]), str(s["max"])) for s in ours["status"]] == [
        (s["label"], s["value"], s.get("max", s["value"])) for s in theirs["status"]
    ]
    # Toride's own: the PC's 先制力 as its initiative (ytsheet leaves 0), its place in the battle as memo
    assert ours["initiative"] == (read.sheet.initiative or 0)
    assert ours["memo"] == "PC／F0 砦上部"


def test_a_whole_battle_pastes_as_documented() -> None:
    lines = ccfolia_text(battle()).split("\n")
    characters = [check_clipboard_character(line) for line in lines]
    assert [c["name"] for c in characters] == [
        "ガルド", "ミナ", "蒼月", "素手", "見物人", "ゴブリン隊", "兵士隊", "増援", "倒れた隊", "隊長",
    ]  # fmt: skip
    garudo, mina, _, bare, watcher, goblins, soldiers, coming, fallen, boss = characters
    assert garudo["status"] == [
        {"label": "HP", "value": 30, "max": 35},  # /gm set pc.ガルド.hp 30: as it is now
        {"label": "MP", "value": 12, "max": 12},
        {"label": "防護", "value": 8, "max": 8},
    ]
    assert garudo["initiative"] == 5
    assert "externalUrl" not in garudo  # the sheet's URL is no https one
    assert garudo["memo"] == "PC／F0 砦上部"
    params = {p["label"]: p["value"] for p in garudo["params"]}
    # the palette's plain //変数=数 lines, for ココフォリア to fill {器用度} ...; formulas stay in commands
    assert {k: params[k] for k in ("器用度", "ファイター", "命中修正", "移動力")} == {
        "器用度": "16", "ファイター": "5", "命中修正": "0", "移動力": "15"
    }  # fmt: skip
    assert "HP" not in params and "最大HP" not in params and "威力1" not in params
    commands = garudo["commands"].split("\n")
    assert "2d+{命中1}+{命中修正} 命中力／バスタードソード1H" in commands
    assert "//命中1=({ファイター}+({器用}+{器用増強})/6+0)" in commands  # a formula: stays in the palette
    assert "//命中修正=0" not in commands  # a param now
    assert mina["commands"].startswith("### ■ミナの攻撃\n//追加ダメージ={追加D1}+1\n")  # hers first
    assert mina["memo"] == "PC／F0 砦外部"
    assert bare == {
        "name": "素手", "memo": "PC／F0 砦上部", "initiative": 0,
        "status": [{"label": "HP", "value": 20, "max": 20}],
        "params": [],  # HP and its maximum are its status
        "commands": "",
    }  # fmt: skip
    assert watcher["status"] == []
    assert goblins == {
        "name": "ゴブリン隊", "memo": "ユニット／通常／A1", "initiative": 0,
        "status": [{"label": "HP", "value": 40, "max": 40}],
        "params": [
            {"label": "防護", "value": "2"}, {"label": "移動", "value": "10"},
            {"label": "砦ダメージ", "value": "10"}, {"label": "打撃", "value": "2D+6"},
        ],
        "commands": "2D+6 打撃／ゴブリン隊",
    }  # fmt: skip
    assert soldiers["memo"] == "ユニット／兵士／F0"
    assert coming["memo"] == "ユニット／飛行／B2\n増援: ラウンド3"
    assert fallen["memo"] == "ユニット／破城槌／A2\n撃破" and fallen["status"][0]["value"] == 0
    assert boss == {
        "name": "隊長", "memo": "指揮官／A2", "initiative": 0,
        "status": [{"label": "HP", "value": 60, "max": 60}], "params": [], "commands": "",
    }  # fmt: skip


def with_text(obj: Any, name: str, value: str) -> Any:
    """``obj`` with the text field ``name``: its own (once the state has it), else a subclass's."""
    cls = type(obj)
    if name in {f.name for f in dataclasses.fields(cls)}:
        return dataclasses.replace(obj, **{name: value})
    sub = dataclasses.make_dataclass(
        cls.__name__, [(name, str | None, None)], bases=(cls,), frozen=True, slots=True
    )
    return sub(**{f.name: getattr(obj, f.name) for f in dataclasses.fields(cls)}, **{name: value})


def test_weakness_and_war_horn_where_the_state_has_them() -> None:
    """F-UNIT-15's weakness and F-UNIT-12's 鼓咆 (horn): exported when the units and commanders carry them."""
    state = battle()
    weak: Unit = with_text(state.units[0], "weakness", "炎属性ダメージ+3")
    data = check_clipboard_character(json.dumps(unit_character(weak), ensure_ascii=False))
    assert {"label": "弱点", "value": "炎属性ダメージ+3"} in data["params"]
    assert data["memo"] == "ユニット／通常／A1\n弱点: 炎属性ダメージ+3"
    horned: Commander = with_text(state.commanders[0], "horn", "鼓咆+1")
    assert commander_character(horned)["data"]["memo"] == "指揮官／A2\n鼓咆: 鼓咆+1"
