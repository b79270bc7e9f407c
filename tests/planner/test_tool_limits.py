"""Issue 27: ``toride map`` and ``toride odds`` hold a battle file to the import limits of COMMANDS.md
(Conventions: at most 200 units, titles without control or direction-override characters, a document
of at most 1 MB): a file the bot's ``/fort import`` would refuse is refused by the tools too, in words,
with exit status 2, and nothing is drawn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from planner_helpers import battle, toride

from bot.i18n import t
from bot.render.common import refusal_text
from engine import limits
from engine.fort import AddUnit, StartBattle
from engine.fort.export import export_state

GOBLINS = battle(
    StartBattle(rounds=1, fort_hp=20, first="enemy", title="北の砦"),
    AddUnit(name="ゴブリン隊", type="normal", area="A1", hp=15, fort_damage=20),
)
UNIT = {"name": "u", "type": "normal", "area": "A2", "hp": 10, "fort_damage": 1}


def document(**changes: Any) -> dict[str, Any]:
    return {**export_state(GOBLINS), **changes}


def refused(key: str, **values: Any) -> str:
    return t("render.refused", "ja", reason=t(key, "ja", **values))


CASES = {
    "1000 units": (
        document(units=[{**UNIT, "name": f"u{n}"} for n in range(1000)]),
        ("limits.too_many", {"what": "units", "max": 200, "count": 1000}),
    ),
    "a direction override in the title": (
        document(title="北の砦\u202e"),
        ("limits.text_control", {"what": "title", "max": limits.TEXT_MAX, "length": 4}),
    ),
}


@pytest.mark.parametrize("tool", ["map", "odds"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_file_the_bot_would_refuse_is_refused_by_the_tools(
    tool: str, case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc, (key, values) = CASES[case]
    (tmp_path / "b.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    code, out, err = toride(tool, "b.json", cwd=tmp_path, capsys=capsys)
    assert code == 2 and out == ""
    assert err.strip() == t("render.refused", "ja", reason=refusal_text(key, values, "ja"))
    assert not (tmp_path / "b.png").exists()


@pytest.mark.parametrize("tool", ["map", "odds"])
def test_a_file_over_1_mb_is_refused_by_the_tools(
    tool: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = document(title="北の砦", notes="x" * limits.IMPORT_MAX_BYTES)
    (tmp_path / "big.json").write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = toride(tool, "big.json", cwd=tmp_path, capsys=capsys)
    assert code == 2 and out == ""
    assert err.strip() == refused("map.file_too_large", path="big.json", max=1000)


def test_a_file_within_the_limits_is_still_drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = document(units=[{**UNIT, "name": f"u{n}"} for n in range(200)])
    (tmp_path / "b.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    code, _, _ = toride("map", "b.json", cwd=tmp_path, capsys=capsys)
    assert code == 0 and (tmp_path / "b.png").exists()
