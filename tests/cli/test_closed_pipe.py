"""``toride odds b.json | head``: when the reader of standard output goes away, a tool stops quietly
with exit status 141 (128 + SIGPIPE, as a shell reports a Unix tool stopped by that signal), no
traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import EXIT_BROKEN_PIPE
from engine.fort import AddUnit, StartBattle
from engine.fort.export import export_state
from engine.fort.state import FortState

ROOT = Path(__file__).resolve().parents[2]


def _battle() -> FortState:
    from engine.dice import ScriptedDice
    from engine.fort import FORT

    state = None
    for command in (
        StartBattle(rounds=2, fort_hp=20, title="pipe"),
        AddUnit(name="goblins", type="normal", area="A1", hp=15, fort_damage=3),
    ):
        state = FORT.apply(state, command, ScriptedDice([])).state
    assert state is not None
    return state


def _closed_pipe_run(words: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``toride WORDS`` with its standard output a pipe whose reader is already gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run(
            [sys.executable, "-m", "bot.cli", *words],
            input=stdin,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
            env=env,
            check=False,
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "words",
    [
        ["odds", "b.json", "--runs", "100", "--seed", "1", "--lang", "en"],
        ["odds", "b.json", "--runs", "100", "--seed", "1", "--json"],
        ["map", "b.json"],
        ["roll", "--dice", "3,4", "2d+10"],
    ],
)
def test_a_closed_pipe_ends_the_tool_quietly(tmp_path: Path, words: list[str]) -> None:
    (tmp_path / "b.json").write_text(json.dumps(export_state(_battle()), ensure_ascii=False), "utf-8")
    done = _closed_pipe_run(words, tmp_path)
    assert (done.returncode, done.stderr) == (EXIT_BROKEN_PIPE, "")


def test_the_help_into_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    """argparse drops a help it cannot write and exits 0 itself; no traceback either."""
    done = _closed_pipe_run(["--help"], tmp_path)
    assert (done.returncode, done.stderr) == (0, "")


def test_jsonl_into_a_closed_pipe_stops_quietly(tmp_path: Path) -> None:
    lines = "".join(json.dumps({"command": "2d+10", "rands": [3, 4]}) + "\n" for _ in range(5000))
    done = _closed_pipe_run(["roll", "--jsonl"], tmp_path, stdin=lines)
    assert (done.returncode, done.stderr) == (EXIT_BROKEN_PIPE, "")


def test_the_same_tool_into_an_open_pipe_succeeds(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_text(json.dumps(export_state(_battle()), ensure_ascii=False), "utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "odds", "b.json", "--runs", "100", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["runs"] == 100


@pytest.mark.parametrize("words", [["run"], ["sync", "--guild", "1"]])
def test_the_bots_own_broken_pipe_is_not_taken_for_a_reader_gone(
    words: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``toride run`` talks to sockets: a broken pipe there is an error to see, not a quiet exit."""
    import bot.cli

    def broken(words: list[str]) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(bot.cli, "_dispatch", broken)
    with pytest.raises(BrokenPipeError):
        bot.cli.main(words)
