"""In a terminal the console runs prompt_toolkit: the same replies, and lines kept in the history file."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from console_run import ROOT


def _read_until(fd: int, needle: bytes, timeout: float = 20) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
    return seen


def test_interactive_session_with_history(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(tmp_path), "TERM": "xterm"}
    env.pop("TORIDE_DATABASE_URL", None)
    db = str(tmp_path / "t.db")
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "console", "--db", db, "--dice", "3,4", "--lang", "en"],
        stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path, env=env, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    try:
        assert b"Toride console" in _read_until(master, b"gm@console>")
        os.write(master, b"/roll expr:2d6+1\r")
        reply = "(2D6+1) ＞ 7[3,4]+1 ＞ 8".encode()
        assert reply in _read_until(master, reply)
        os.write(master, b"/quit\r")
        _read_until(master, b"Bye.")
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    assert "/roll expr:2d6+1" in (tmp_path / ".toride_history").read_text(encoding="utf-8")
