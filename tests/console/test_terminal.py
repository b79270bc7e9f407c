"""In a terminal the console runs prompt_toolkit: the same replies, and lines kept in the history file.
Each wait is bounded by a deadline derived from the console's warm start in a terminal, measured in
this test process (``console_run.terminal_deadline``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from console_run import in_terminal, program_env, read_until, terminal_deadline

#: with the other tests that start processes in a terminal (test_secrets): the console's warm start
#: in a terminal is measured once
pytestmark = pytest.mark.xdist_group("processes")


def test_interactive_session_with_history(tmp_path: Path) -> None:
    allowed = terminal_deadline()
    env = {**program_env(), "HOME": str(tmp_path), "TERM": "xterm"}
    db = str(tmp_path / "t.db")
    argv = [sys.executable, "-m", "bot.cli", "console", "--db", db, "--dice", "3,4", "--lang", "en"]
    process, master = in_terminal(argv, tmp_path, env)
    try:
        assert b"Toride console" in read_until(master, b"gm@console>", allowed)
        os.write(master, b"/roll expr:2d6+1\r")
        reply = "(2D6+1) ＞ 7[3,4]+1 ＞ 8".encode()
        assert reply in read_until(master, reply, allowed)
        os.write(master, b"/quit\r")
        read_until(master, b"Bye.", allowed)
        assert process.wait(timeout=allowed.seconds) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    assert "/roll expr:2d6+1" in (tmp_path / ".toride_history").read_text(encoding="utf-8")
