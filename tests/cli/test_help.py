"""``toride --help``: every command line tool, and what plain ``toride`` does."""

from __future__ import annotations

import pytest

from bot.cli import main


def test_help_lists_every_tool_and_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("    ") and line.split()]
    assert listed[:6] == ["roll", "bench", "console", "db", "run", "sync"]
    words = " ".join(out.split())
    assert (
        "With no COMMAND: `toride run` (the Discord bot) when DISCORD_TOKEN is set, else `toride console`"
        in words
    )
