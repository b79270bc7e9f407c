from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def console(
    db: Path, script: str, *args: str, cwd: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``toride console --db DB ARGS`` with ``script`` on stdin (not a terminal: line by line)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TORIDE_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "console", "--db", str(db), *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd or db.parent,
        env=env,
        check=False,
    )
