"""The sheet commands in the fort engine: events as engine/fort/keys.py lists them, commands as JSON, replay,
refusals that change nothing, and the export of a PC's sheet and palette."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from sheet_fixtures import character

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fort"))
from fort_helpers import Run  # the fort engine tests' harness

from engine.fort import (
    FORT,
    AddPC,
    ReadPCSheet,
    SetPCPalette,
    StartBattle,
    command_from_json,
    command_to_json,
    replay,
)
from engine.ruleset import RuleError
from engine.sheets.model import sheet_to_json


def sheet_command(pc: str, name: str) -> ReadPCSheet:
    got = character(name)
    text = json.dumps(sheet_to_json(got.sheet), ensure_ascii=False)
    return ReadPCSheet(name=pc, sheet=text, hp=got.hp, move=got.move, palette=got.palette)


def test_reading_a_sheet_and_setting_a_palette_replay_exactly() -> None:
    run = Run()
    run(StartBattle(rounds=3))
    run(AddPC(name="ガルド", hp=10))
    (event,) = run(sheet_command("ガルド", "fighter"))
    assert event.kind == "pc.sheet_read"
    wanted = ("hp", "max_hp", "mp", "defense", "evasion", "move", "lines", "custom")
    assert {k: event.data[k] for k in wanted} == {
        "hp": 10, "max_hp": 35, "mp": 12, "defense": 8, "evasion": 7, "move": 15, "lines": 15,
        "custom": False,
    }  # fmt: skip
    (event,) = run(SetPCPalette(name="ガルド", text="//a=1\n2d+{a} 判定\n\n"))
    assert event.data == {"pc": "ガルド", "lines": 1, "custom": True}
    (event,) = run(SetPCPalette(name="ガルド", text="  "))
    assert event.data == {"pc": "ガルド", "lines": 15, "custom": False}
    for command, _ in run.log:
        assert command_from_json(json.loads(json.dumps(command_to_json(command)))) == command
    assert replay(None, run.log) == run.state
    assert run.state is not None
    assert FORT.import_(json.loads(json.dumps(FORT.export(run.state)))) == run.state


def test_refusals_change_nothing() -> None:
    run = Run()
    run(StartBattle(rounds=3))
    run(AddPC(name="ガルド"))
    run.refused(ReadPCSheet(name="ガルド", sheet="{"), "fort.sheet_invalid")
    error = run.refused(ReadPCSheet(name="ガルド", sheet='{"weapons": [{"acc": "x"}]}'), "fort.sheet_invalid")
    assert error.values == {"place": "$.weapons[0].acc", "reason": "not_an_integer", "detail": {}}
    run.refused(ReadPCSheet(name="誰か", sheet="{}"), "fort.pc_unknown")
    with pytest.raises(RuleError) as caught:
        FORT.apply(run.state, SetPCPalette(name="ガルド", text="2d\n" * 500), None)  # type: ignore[arg-type]
    assert caught.value.key == "palette.too_long"


def test_an_import_refuses_a_bad_sheet_or_palette() -> None:
    run = Run()
    run(StartBattle(rounds=3))
    run(AddPC(name="ガルド"))
    run(sheet_command("ガルド", "caster"))
    assert run.state is not None
    document = json.loads(json.dumps(FORT.export(run.state)))
    document["pcs"][0]["sheet"]["values"]["知力"] = "22"
    with pytest.raises(RuleError) as caught:
        FORT.import_(document)
    assert caught.value.values == {
        "place": "$.pcs[0].sheet.values.知力",
        "reason": "not_an_integer",
        "detail": {},
    }
    document["pcs"][0]["sheet"] = None
    document["pcs"][0]["palette"] = "2d\n" * 500
    with pytest.raises(RuleError) as caught:
        FORT.import_(document)
    assert caught.value.values == {"place": "$.pcs[0].palette", "reason": "too_long", "detail": {}}


def test_an_import_refuses_sheet_values_beyond_the_limits() -> None:
    """A sheet in an exported battle is read under the same limits: HP and MP, lengths, control texts."""
    run = Run()
    run(StartBattle(rounds=3))
    run(AddPC(name="ガルド"))
    run(sheet_command("ガルド", "fighter"))
    assert run.state is not None
    for change, place, reason in (
        (("max_mp", -100_000), "$.pcs[0].sheet.max_mp", "out_of_range"),
        (("mp", 13), "$.pcs[0].sheet.mp", "above_max"),
        (("source", "x" * 301), "$.pcs[0].sheet.source", "too_long"),
    ):
        document = json.loads(json.dumps(FORT.export(run.state)))
        document["pcs"][0]["sheet"][change[0]] = change[1]
        with pytest.raises(RuleError) as caught:
            FORT.import_(document)
        assert (caught.value.values["place"], caught.value.values["reason"]) == (place, reason)
    document = json.loads(json.dumps(FORT.export(run.state)))
    document["pcs"][0]["sheet"]["weapons"][0]["name"] = "剣\n2d6 注入"
    with pytest.raises(RuleError) as caught:
        FORT.import_(document)
    assert caught.value.values["place"] == "$.pcs[0].sheet.weapons[0].name"
