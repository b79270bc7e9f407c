"""The command-line tools start without what they do not use: ``toride map`` and ``toride odds`` load
neither the database nor Discord; ``toride roll`` and ``toride --help`` load no more than the dice engine
and the messages (``bot.cli`` imports a tool's module only when that tool runs)."""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import TOOLS, build_parser

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sqlalchemy", "discord", "aiosqlite", "alembic", "prompt_toolkit")
#: not even the picture library for the dice and the help
HEAVIER = (*HEAVY, "PIL", "aiohttp", "asyncpg")


def _loaded_after(words: list[str], cwd: Path, modules: tuple[str, ...]) -> tuple[int | str, list[str]]:
    """(what ``main(words)`` returned or exited with, which of ``modules`` it imported), in a fresh
    interpreter."""
    code = (
        "import sys\n"
        "from bot.cli import main\n"
        "try:\n"
        f"    result = main({words!r})\n"
        "except SystemExit as done:\n"
        "    result = done.code\n"
        f"loaded = sorted(m for m in {modules!r} if m in sys.modules)\n"
        "print(repr((result, loaded)))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    result, loaded = ast.literal_eval(done.stdout.splitlines()[-1])
    return result, loaded


@pytest.mark.parametrize("words", [["map", "b.json"], ["odds", "b.json", "--runs", "100", "--seed", "1"]])
def test_a_tool_loads_neither_the_database_nor_discord(tmp_path: Path, words: list[str]) -> None:
    (tmp_path / "b.json").write_text('{"rounds": 2}', encoding="utf-8")
    assert _loaded_after(words, tmp_path, HEAVY) == (0, [])


@pytest.mark.parametrize(
    "words",
    [
        ["roll", "--dice", "3,4", "2d+10"],
        ["roll", "--seed", "1", "--json", "K20@10"],
        ["--help"],
        ["roll", "--help"],
        ["bench", "--help"],
    ],
)
def test_roll_and_the_help_load_nothing_heavy(tmp_path: Path, words: list[str]) -> None:
    assert _loaded_after(words, tmp_path, HEAVIER) == (0, [])


def test_a_refused_roll_loads_nothing_heavy(tmp_path: Path) -> None:
    assert _loaded_after(["roll", "K20@2x"], tmp_path, HEAVIER) == (2, [])


def _helps(parser: argparse.ArgumentParser) -> dict[str, str | None]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {action.dest: action.help for action in sub._choices_actions}


def test_the_table_lists_every_tool_with_its_modules_own_help() -> None:
    """The help ``toride --help`` shows without importing a tool is the one the tool registers."""
    listed = _helps(build_parser())
    assert list(listed) == [tool.name for tool in TOOLS]
    for tool in TOOLS:
        assert _helps(build_parser(tool.name))[tool.name] == tool.help == listed[tool.name]


def test_the_console_starts_without_the_http_client_and_the_drawing_code(tmp_path: Path) -> None:
    """aiohttp is imported when a sheet is fetched by URL, Pillow and the drawing code when a picture
    is drawn, not when the console starts."""
    later = (
        "aiohttp",
        "yarl",
        "multidict",
        "PIL",
        "bot.rulesets.fort.pictures.draw",
        "bot.rulesets.fort.pictures.chart",
    )
    code = (
        "import sys\n"
        "import bot.console.app\n"
        "import bot.sheet_fetch\n"
        f"print(sorted(m for m in {later!r} if m in sys.modules))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def _console_loaded(db: Path, stdin: str, modules: tuple[str, ...]) -> tuple[int, list[str], str]:
    """(exit status, which of ``modules`` were imported, what was printed) of ``toride console`` on a
    pipe, in a fresh interpreter."""
    code = (
        "import sys\n"
        "from bot.cli import main\n"
        f"result = main(['console', '--db', {str(db)!r}])\n"
        f"print(repr(sorted(m for m in {modules!r} if m in sys.modules)))\n"
        "sys.exit(result)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=db.parent,
        env=env,
        check=False,
    )
    assert done.stderr == ""
    *printed, loaded = done.stdout.splitlines()
    return done.returncode, ast.literal_eval(loaded), "\n".join(printed)


#: what the piped console needs not before its first command
CONSOLE_LATER = (
    "prompt_toolkit",
    "alembic",
    "PIL",
    "discord",
    "aiohttp",
    "mako",
    "bot.render.picture.pictures",
)


def test_the_piped_console_at_head_loads_neither_alembic_nor_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "battles.db"
    # the first start upgrades the new database (alembic), the next finds it at the head
    assert _console_loaded(db, "/quit\n", ("alembic",))[:2] == (0, ["alembic"])
    assert _console_loaded(db, "/quit\n", CONSOLE_LATER) == (0, [], "")
    # a command still works without them
    status, loaded, printed = _console_loaded(db, "/fort status\n/quit\n", ("prompt_toolkit", "alembic"))
    assert (status, loaded) == (0, [])
    assert printed != ""
