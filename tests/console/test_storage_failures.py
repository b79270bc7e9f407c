"""Issue 27, storage failures in words: a full disk (a file size limit), a damaged page, a read-only
file. The console answers each line the storage refused with one line in the user's language saying
what happened and that nothing was changed, goes on with the next line, exits as usual (no traceback),
and every action it acknowledged before is still there."""

from __future__ import annotations

import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from console_run import ROOT, console

from bot.i18n import t

SETUP = "/fort start rounds:3 title:disk\n/pc add name:A\n"
#: a reader without root's override of file permissions (root may write a file marked read-only)
NO_OVERRIDE = ["setpriv", "--inh-caps=-dac_override", "--bounding-set=-dac_override"]


def refused(key: str, lang: str = "ja") -> str:
    return t("render.refused", lang, reason=t(key, lang))


def run(
    db: Path,
    script: str,
    *args: str,
    prefix: list[str] | None = None,
    preexec: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TORIDE_DATABASE_URL", None)
    return subprocess.run(
        [*(prefix or []), sys.executable, "-m", "bot.cli", "console", "--db", str(db), *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=db.parent,
        env=env,
        check=False,
        preexec_fn=preexec,
    )


def pc_names(db: Path) -> list[str]:
    """The PCs of the battle, as its status shows them (read by a console with no limit)."""
    status = console(db, "/fort status\n").stdout
    return sorted(set(re.findall(r"\b(A|P\d+)\b", status)))


def test_a_full_disk_refuses_in_words_and_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "full.db"
    assert console(db, SETUP).returncode == 0
    limit = db.stat().st_size + 24_000  # a few more commands fit, then the file may not grow

    def size_limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails (EFBIG) instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    script = "".join(f"/pc add name:P{n}\n" for n in range(80))
    done = run(db, script, "--strict", preexec=size_limit)
    lines = done.stdout.splitlines()
    added = [line for line in lines if "が参加しました" in line]
    full = [line for line in lines if line == refused("storage.disk_full")]
    assert added and full, done.stdout + done.stderr
    assert len(added) + len(full) == 80  # every line answered: a PC added, or the disk full
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    assert done.returncode == len(full)  # --strict: the refused lines, as for any refusal
    # every acknowledged PC is stored (read without the limit), and no refused one
    expected = sorted(["A", *(line.split()[1].removesuffix("が参加しました(持ち主") for line in added)])
    assert pc_names(db) == expected


def _damage(db: Path, table: str) -> None:
    """Overwrite the root page of ``table`` with garbage (a damaged sector)."""
    with sqlite3.connect(db) as conn:
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
        (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with db.open("r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(b"\x5a" * page_size)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_damaged_page_refuses_in_words(tmp_path: Path, lang: str) -> None:
    db = tmp_path / "damaged.db"
    assert console(db, SETUP).returncode == 0
    _damage(db, "battles")
    done = run(db, "/fort status\n/pc add name:B\n", "--lang", lang)
    assert done.stdout.splitlines() == [refused("storage.corrupt", lang)] * 2, done.stderr
    assert "Traceback" not in done.stderr and done.returncode == 0


def test_a_read_only_file_refuses_writes_in_words_and_reads_on(tmp_path: Path) -> None:
    db = tmp_path / "readonly.db"
    assert console(db, SETUP).returncode == 0
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.chmod(0o444)
    tmp_path.chmod(0o777)
    done = run(db, "/pc add name:B\n/fort status\n", "--strict", prefix=NO_OVERRIDE)
    lines = done.stdout.splitlines()
    assert lines[0] == refused("storage.read_only"), done.stdout + done.stderr
    assert "disk" in "\n".join(lines[1:]) and "砦上部: A" in done.stdout  # the battle still reads
    assert "Traceback" not in done.stderr and done.returncode == 1
    db.chmod(0o644)
    assert pc_names(db) == ["A"]
