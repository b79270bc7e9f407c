"""The terminal console draws its prompt first and loads the session behind it (``SessionLoader``):
the first line waits for the load and is answered as ever, completion starts once loaded, Ctrl-D
before the load has finished ends cleanly (the database closed), and a database that cannot be opened
ends the prompt with the error at once."""

from __future__ import annotations

import argparse
import asyncio
import re
import time
from pathlib import Path

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from bot.console import app
from bot.console.app import DatabaseUnavailable, SessionLoader, play
from bot.console.completion import CommandCompleter
from bot.i18n import t
from engine.dice import ScriptedDice


def _args(db: str) -> argparse.Namespace:
    return argparse.Namespace(db=db, channel="console", lang="en", user="gm")


def _prompt(loader: SessionLoader, pipe: object) -> PromptSession[str]:
    completer = CommandCompleter(
        lambda: None if loader.ready is None else loader.ready.document, lambda: loader.ready is not None
    )
    return PromptSession(input=pipe, output=DummyOutput(), completer=completer)  # type: ignore[arg-type]


def _completions(completer: CommandCompleter, text: str) -> list[str]:
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]


async def test_a_line_typed_while_loading_is_answered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    loader = SessionLoader(_args(str(tmp_path / "l.db")), ScriptedDice([3, 4]))
    with create_pipe_input() as pipe:
        prompt = _prompt(loader, pipe)
        assert isinstance(prompt.completer, CommandCompleter)
        assert _completions(prompt.completer, "/ro") == []  # nothing loaded yet: nothing completed
        # typed at once, before the session has loaded
        pipe.send_text("/roll expr:2d6+1\r/quit\r")
        refused = await play(loader, prompt, "> ")
        assert _completions(prompt.completer, "/ro") == ["/roll ", "/roll reveal ", "/roll secrets "]
    await loader.close()
    assert refused == 0
    assert capsys.readouterr().out.splitlines() == ["gm: (2D6+1) ＞ 7[3,4]+1 ＞ 8", "Bye."]


async def test_ctrl_d_before_the_load_ends_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    imported = app._import_service

    def slow() -> None:
        time.sleep(0.5)  # a slow machine: Ctrl-D comes before the session has loaded
        imported()

    monkeypatch.setattr(app, "_import_service", slow)
    loader = SessionLoader(_args(str(tmp_path / "d.db")), ScriptedDice([]))
    with create_pipe_input() as pipe:
        pipe.send_text("\x04")
        assert await play(loader, _prompt(loader, pipe), "> ") == 0
    assert loader.ready is None
    assert capsys.readouterr().out.splitlines() == ["Bye."]
    await loader.close()  # waits for the load under way, then closes the database
    assert loader.ready is not None


async def test_a_database_that_cannot_open_ends_the_prompt_at_once(tmp_path: Path) -> None:
    loader = SessionLoader(_args(str(tmp_path / "no" / "such" / "x.db")), ScriptedDice([]))
    # nothing typed: the prompt ends by itself, with the database's error in words (issue 39)
    said = t("storage.folder_missing", "en", folder=str(tmp_path / "no" / "such"))
    with create_pipe_input() as pipe, pytest.raises(DatabaseUnavailable, match=re.escape(said)):
        await asyncio.wait_for(play(loader, _prompt(loader, pipe), "> "), 30)
    await loader.close()
    assert loader.ready is None
