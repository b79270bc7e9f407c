"""``/fort map`` in the console writes the picture and says where; ``toride map BATTLE.json`` draws an
exported battle without the database or Discord."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path

import pytest
from picture_helpers import battle
from PIL import Image

from bot.cli import main
from bot.console.session import ConsoleSession
from bot.registry import Registry
from bot.rulesets.builtin import BUILTIN
from bot.rulesets.fort.pictures import geometry as g
from bot.service import BattleService
from bot.storage import open_storage
from bot.storage.interface import Storage
from engine.dice import ScriptedDice

# ``toride console`` in this process lives with the console tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "console"))
from console_run import console as run_console

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    storage = await open_storage(str(tmp_path / "battles.db"))
    yield storage
    await storage.close()


def session(storage: Storage, folder: Path, lang: str = "ja") -> ConsoleSession:
    return ConsoleSession(
        BattleService(storage, ScriptedDice([])), channel="north", lang=lang, base_dir=folder
    )


async def test_fort_map_writes_a_png_and_says_where(storage: Storage, tmp_path: Path) -> None:
    console = session(storage, tmp_path)
    for line in ("/fort start rounds:3 title:北の砦", "/pc add name:アリス position:top hp:40"):
        assert (await console.handle(line)) is not None
    reply = await console.handle("/fort map")
    path = tmp_path / "fort-map-north-1.png"
    assert reply is not None and reply.ok
    assert reply.text == f"戦場図を書き出しました: {path}"
    assert Image.open(path).size == (g.WIDTH, g.HEIGHT)
    english = await session(storage, tmp_path, "en").handle("/fort map")
    assert english is not None and english.text == f"The battlefield map is written to {path}"


async def test_fort_map_refusals_say_why(
    storage: Storage, tmp_path: Path, use_registry: Callable[[Registry], Registry]
) -> None:
    console = session(storage, tmp_path)
    none = await console.handle("/fort map")
    assert (
        none is not None
        and not none.ok
        and none.text.startswith("⚠ このチャンネルでは戦闘が行われていません。")
    )
    await console.handle("/fort start rounds:3")
    nowhere = session(storage, tmp_path / "no-such-folder")
    refused = await nowhere.handle("/fort map")
    assert refused is not None and not refused.ok
    assert refused.text.startswith(
        f"⚠ ファイル {tmp_path / 'no-such-folder' / 'fort-map-north-1.png'}に書き込めません: "
    )
    use_registry(Registry(replace(r, pictures=None) for r in BUILTIN))  # a fort without pictures
    unmapped = await console.handle("/fort map")
    assert unmapped is not None and unmapped.text == "この戦闘には戦場図がありません。" and not unmapped.ok


def toride_map(*args: str, cwd: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``toride map ARGS`` run in ``cwd``: (exit code, stdout, stderr)."""
    here = Path.cwd()
    os.chdir(cwd)
    try:
        code = main(["map", *args])
    finally:
        os.chdir(here)
    out, err = capsys.readouterr()
    return code, out, err


def test_toride_map_draws_an_exported_battle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exported = tmp_path / "north.json"
    exported.write_text(json.dumps(battle(units=8, pcs=2, traps=3), ensure_ascii=False), encoding="utf-8")
    assert toride_map("north.json", cwd=tmp_path, capsys=capsys) == (
        0,
        "戦場図を書き出しました: north.png\n",
        "",
    )
    assert Image.open(tmp_path / "north.png").size == (g.WIDTH, g.HEIGHT)
    code, _, err = toride_map(str(exported), "-o", "out/map.png", "--lang", "en", cwd=tmp_path, capsys=capsys)
    assert code == 2 and err.startswith("⚠ The file out/map.png cannot be written: ")
    (tmp_path / "out").mkdir()
    done = toride_map("north.json", "-o", "out/map.png", "--lang", "en", cwd=tmp_path, capsys=capsys)
    assert done == (0, "The battlefield map is written to out/map.png\n", "")


def test_toride_map_draws_a_scenario_with_only_its_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "scenario.json").write_text('{"rounds": 4, "title": "峠の砦"}', encoding="utf-8")
    assert toride_map("scenario.json", cwd=tmp_path, capsys=capsys)[0] == 0
    assert Image.open(tmp_path / "scenario.png").size == (g.WIDTH, g.HEIGHT)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "⚠ ファイル missing.jsonがありません。"),
        (
            "{",
            "⚠ missing.jsonのJSONが読めません(1行目 2文字目)。"
            "/砦 書き出し で書き出したファイルを指定してください。",
        ),
        (
            "[1]",
            "⚠ missing.jsonは戦闘データ(JSONのオブジェクト)ではありません。"
            "/砦 書き出し で書き出したファイルを指定してください。",
        ),
        ('{"rounds": 0}', "⚠ 読み込めない戦闘データです。ラウンド数: 1から99までの整数にしてください。"),
        (
            '{"format": "toride.sengensho/1", "rounds": 2}',
            "⚠ 読み込めない戦闘データです。形式(「format」): "
            "砦防衛戦の書き出し(toride.fort/1)ではありません。",
        ),
    ],
)
def test_toride_map_refuses_what_is_not_a_fort_battle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    if content is not None:
        (tmp_path / "missing.json").write_text(content, encoding="utf-8")
    assert toride_map("missing.json", cwd=tmp_path, capsys=capsys) == (2, "", message + "\n")
    assert not (tmp_path / "missing.png").exists()


def test_the_readmes_pictures_come_from_the_session_it_shows(tmp_path: Path) -> None:
    """docs/map-example.txt, as the README runs it, draws the map and the chart the README shows."""
    script = (ROOT / "docs" / "map-example.txt").read_text(encoding="utf-8")
    done = run_console(Path("m.db"), script, "--seed", "11", "--channel", "north", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "" and "⚠" not in done.stdout
    written = [line.rsplit(": ", 1)[1] for line in done.stdout.splitlines() if "書き出しました: " in line]
    assert [Path(p).name for p in written] == ["fort-map-north-1.png", "fort-hp-north-46.png"]
    for path, shown in zip(written, ("map-example.png", "fort-hp-example.png"), strict=True):
        assert Image.open(path).size == Image.open(ROOT / "docs" / shown).size
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/map-example.png)" in readme and "(docs/fort-hp-example.png)" in readme
