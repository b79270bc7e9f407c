"""The command-line tools for GMs preparing a battle start without the bot: ``toride map`` and
``toride odds`` load neither the database nor Discord."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sqlalchemy", "discord", "aiosqlite", "alembic", "prompt_toolkit")


@pytest.mark.parametrize("words", [["map", "b.json"], ["odds", "b.json", "--runs", "100", "--seed", "1"]])
def test_a_tool_loads_neither_the_database_nor_discord(tmp_path: Path, words: list[str]) -> None:
    (tmp_path / "b.json").write_text('{"rounds": 2}', encoding="utf-8")
    code = (
        "import sys\n"
        "from bot.cli import main\n"
        f"assert main({words!r}) == 0\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
