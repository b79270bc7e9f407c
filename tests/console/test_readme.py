"""The README's console session runs as written: no refusal, the status at the end, no dice left."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from console_run import ROOT, console


def test_the_readme_console_example_runs(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^\$ toride console (.*) <<'EOF'\n(.*?)^EOF$", readme, re.M | re.S)
    assert found is not None
    args, script = shlex.split(found.group(1)), found.group(2)
    done = console(tmp_path / "readme.db", script, *args)
    assert done.returncode == 0 and done.stderr == ""
    assert "⚠" not in done.stdout
    assert "Cannon: ゴブリン隊 takes 23 damage (HP 40 → 17)." in done.stdout
    assert done.stdout.splitlines()[-1] == "GM: gm"
