"""``toride odds BATTLE.json``: the planner for an exported battle, without the database or Discord."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from PIL import Image
from planner_helpers import battle, toride

from bot.rulesets.fort.pictures import odds_chart
from engine.fort import AddUnit, SetTrap, StartBattle
from engine.fort.export import export_state
from engine.fort.planner import PlanRequest, plan

ROOT = Path(__file__).resolve().parents[2]
MINE = battle(
    StartBattle(rounds=1, fort_hp=20, first="enemy", title="地雷原"),
    AddUnit(name="ゴブリン隊", type="normal", area="A1", hp=15, fort_damage=20),
    SetTrap(kind="mine", edge="A1-F0", uses=1),
)


def test_json_answers_what_the_planner_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.json").write_text(json.dumps(export_state(MINE), ensure_ascii=False), encoding="utf-8")
    code, out, err = toride(
        "odds", "mine.json", "--runs", "3000", "--seed", "5", "--json", cwd=tmp_path, capsys=capsys
    )
    assert (code, err) == (0, "")
    answer = json.loads(out)
    expected = plan(MINE, PlanRequest(runs=3000, seed=5))
    assert answer["runs"] == 3000 and answer["hold"] == expected.hold
    assert answer["fort_hp"] == {"p10": 0, "p50": 20, "p90": 20}
    assert answer["threats"] == [
        {"unit": "ゴブリン隊", "fort_damage": round(20 * expected.falls / 3000, 3), "share": 1.0}
    ]
    assert answer["seed"] == 5 and answer["falls"] == {
        "runs": expected.falls,
        "round": {"p10": 1, "p50": 1, "p90": 1},
    }
    assert not (tmp_path / "mine-odds.png").exists()  # --json alone writes no chart


def test_text_and_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.json").write_text(json.dumps(export_state(MINE), ensure_ascii=False), encoding="utf-8")
    code, out, err = toride(
        "odds", "mine.json", "--runs", "1000", "--seed", "5", "--lang", "en", cwd=tmp_path, capsys=capsys
    )
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Will the fort hold? 地雷原"
    assert lines[1].startswith("The defence holds: ")
    assert lines[-2] == "1,000 battles, seed 5, from now (round 1 of 1)."
    assert lines[-1] == "The odds chart was written to mine-odds.png"
    assert Image.open(tmp_path / "mine-odds.png").size == (odds_chart.WIDTH, odds_chart.HEIGHT)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("missing.json",), "⚠ ファイル missing.jsonがありません。"),
        (("mine.json", "--runs", "10"), "⚠ 試行回数 10は使えません。100〜100000回で指定してください。"),
        (("mine.json", "--pc-damage", "2d:holy"),
         "⚠ PC側のダメージ「2d:holy」の種類「holy」は使えません。"
         "使える種類: 物理ダメージ、魔法ダメージ、確定ダメージ(「ダメージ」は省いても構いません)"),
    ],
)  # fmt: skip
def test_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    (tmp_path / "mine.json").write_text(json.dumps(export_state(MINE), ensure_ascii=False), encoding="utf-8")
    assert toride("odds", *args, cwd=tmp_path, capsys=capsys) == (2, "", message + "\n")


def test_the_readmes_example_is_what_toride_odds_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """README.md shows a run of docs/odds-example.json and its chart: the same lines come out."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ toride odds ", 1)[1].split("\n  ...", 1)[0]
    command, *shown = block.splitlines()
    args = shlex.split(command)
    chart = tmp_path / "odds.png"
    code, out, err = toride("odds", *args, "-o", str(chart), cwd=ROOT, capsys=capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[: len(shown)] == shown
    assert Image.open(chart).size == Image.open(ROOT / "docs" / "odds-example.png").size


def test_focus_and_what_is_not_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """F-UNIT-12: ``--focus commanders`` goes for the commander; ``not_played`` names its war-horn and
    what else of this battle is left out, in the JSON and the text."""
    from engine.fort import AddCommander, AddPC

    state = battle(
        StartBattle(rounds=1, fort_hp=40, first="pc", title="指揮官"),
        AddPC(name="Alice", position="top", invoker="u1"),
        AddUnit(name="オーガ", type="normal", area="A1", hp=100, fort_damage=30),
        AddCommander(name="隊長", hp=7, area="A2", horn="全員の命中+1"),
    )
    (tmp_path / "boss.json").write_text(json.dumps(export_state(state), ensure_ascii=False), encoding="utf-8")
    args = ("odds", "boss.json", "--runs", "2000", "--seed", "3", "--pc-damage", "Alice=2d")
    code, out, err = toride(*args, "--focus", "commanders", "--json", cwd=tmp_path, capsys=capsys)
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["focus"] == "commanders" and 0.5 < answer["hold"] < 0.67  # 21/36 within 3σ
    assert answer["not_played"] == [
        {"what": "horn", "names": ["隊長"], "text": "全員の命中+1"},
        {"what": "commander_actions", "names": ["隊長"]},
        {"what": "pc_hp", "names": ["Alice"]},
        {"what": "pc_actions", "names": ["Alice"]},
        {"what": "equipment"},
    ]
    assert answer["commanders"] == [{"commander": "隊長", "standing": round(1 - answer["hold"], 6)}]
    code, out, err = toride(*args, "--lang", "ja", cwd=tmp_path, capsys=capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[lines.index("この戦闘で計算に入れていないもの:") + 1] == (
        "　指揮官「隊長」の鼓咆「全員の命中+1」: "
        "効果は計算に入れていません(計算に使う数値は何も変わりません)。"
    )
    assert "　指揮官「隊長」への攻撃(「集中先:指揮官」で狙います)。" in lines  # focus: threats, the default
    assert "最後まで立っていた指揮官: 隊長 100.0%" in lines
