"""The console tests run ``toride console`` in this process (``console_run.console``); here the real
program runs the same scripts, and answers byte for byte as they were answered here: the same exit
status, standard output and standard error. (A pipe its reader closes, a terminal, SIGKILL and a file
size limit need the program itself: test_console_battle, test_terminal, test_crash and
test_storage_failures start it.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from console_run import console, console_bytes, console_process, program_env
from test_console_battle import BATTLE
from test_refused_in_words import FILES, NO_BATTLE, RUNNING, SETUP, TEXT_FILES

from bot.i18n import t

#: (folder, database, script, arguments): each a case the tests here check in this process
CASES: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    # the refusal matrix's first phase (files in the folder, paths in the replies), --strict's status
    "refusals": ("t", "t.db", "".join(line + "\n" for line, _, _ in NO_BATTLE), ("--strict",)),
    # a battle with a refused line and running out of nothing: the summaries, the export
    "battle": ("t", "b.db", BATTLE, ("--dice", "3,4,2,3", "--lang", "en")),
    # the battle set up, then the matrix's running phase in English (more dice than it needs: stderr)
    "running": (
        "t",
        "r.db",
        "".join(line + "\n" for line in SETUP) + "".join(line + "\n" for line, _, _ in RUNNING),
        ("--dice", "3,3,3,3,3,3", "--lang", "en", "--strict"),
    ),
    # a database that cannot be opened: exit status 2, the reason on stderr
    "no database": ("t", "no/such/dir.db", "/fort status\n", ("--lang", "en")),
    # an option argparse refuses: its usage and error on stderr, exit status 2
    "bad option": ("t", "b.db", "/fort status\n", ("--lang", "xx")),
    # a name the console refuses before it opens anything
    "bad channel": ("t", "b.db", "/fort status\n", ("--channel", "a\tb")),
}


def _folder(root: Path, name: str) -> Path:
    folder = root / name
    folder.mkdir()
    for file, document in FILES.items():
        (folder / file).write_text(json.dumps(document), encoding="utf-8")
    for file, text in TEXT_FILES.items():
        (folder / file).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("case", list(CASES))
def test_the_program_answers_as_the_console_in_this_process(tmp_path: Path, case: str) -> None:
    folder_name, db, script, args = CASES[case]
    # the same folder for both (the replies name files in it), emptied of the first one's database
    folder = _folder(tmp_path, folder_name)
    program = console_process(folder / db, script, *args, cwd=folder)
    for made in folder.glob("*.db*"):
        made.unlink()
    here = console(folder / db, script, *args, cwd=folder)
    assert (here.returncode, here.stdout, here.stderr) == (program.returncode, program.stdout, program.stderr)
    assert program.stdout or program.stderr  # each case says something


def test_the_program_reads_bytes_as_the_console_in_this_process(tmp_path: Path) -> None:
    """A line that is not UTF-8 is refused and the next read, in the program as here."""
    script = b"/fort start rounds:3 title:\xff\xfe\n/fort start rounds:2\n\xc3\x28\n"
    script += b"\xef\xbb\xbf/fort status\n"  # a BOM before a line
    db = tmp_path / "b.db"
    program = subprocess.run(
        [sys.executable, "-m", "bot.cli", "console", "--db", str(db), "--lang", "en"],
        input=script, capture_output=True, timeout=60, cwd=tmp_path, env=program_env(), check=False,
    )  # fmt: skip
    db.unlink()
    here = console_bytes(db, script, "--lang", "en")
    assert (here.returncode, here.stdout, here.stderr) == (program.returncode, program.stdout, program.stderr)
    assert here.stdout.decode("utf-8").splitlines()[0] == "⚠ " + t("console.not_utf8", "en", line=1)
