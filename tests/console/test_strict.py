"""``toride console --strict`` for scripts: the exit status is the number of refused lines (at most 100),
with a line on stderr saying how many; without it a script's run exits 0 as before."""

from __future__ import annotations

from pathlib import Path

from console_run import console

SCRIPT = """\
/fort start rounds:2
/fort heal amount:abc
/unit add name:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx type:normal area:A1 hp:5 fort_damage:1
/砦 状況
/fort status
"""


def test_strict_exits_with_the_number_of_refused_lines(tmp_path: Path) -> None:
    done = console(tmp_path / "s.db", SCRIPT, "--strict", "--lang", "en")
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == "2 lines were refused."
    # the too-long name is refused saying the limit for names
    assert "names are 1 to 32 characters" in done.stdout
    # the Japanese command names Discord shows work as the English ones
    assert done.stdout.count("Fort HP [████████████████████] 300/300") == 2


def test_strict_exits_0_when_every_line_was_taken(tmp_path: Path) -> None:
    done = console(tmp_path / "s.db", "/fort start rounds:2\n/fort status\n", "--strict")
    assert (done.returncode, done.stderr) == (0, "")


def test_one_refused_line_and_without_strict(tmp_path: Path) -> None:
    done = console(tmp_path / "s.db", "/fort heal amount:1\n", "--strict")
    assert done.returncode == 1 and done.stderr.splitlines()[-1] == "1 行が拒否されました。"
    assert console(tmp_path / "t.db", SCRIPT).returncode == 0
