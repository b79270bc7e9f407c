"""The terminal console completes commands from the command table, then options and choices."""

from __future__ import annotations

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from bot.console.app import CommandCompleter


def complete(text: str) -> list[str]:
    return [c.text for c in CommandCompleter().get_completions(Document(text), CompleteEvent())]


def test_commands() -> None:
    assert complete("/fort s") == ["/fort siege ", "/fort start ", "/fort status "]
    assert "/gm undo " in complete("/gm")
    assert complete("@bob /unit a") == ["/unit add ", "/unit advance ", "/unit attack "]


def test_options_and_choices() -> None:
    assert complete("/fort start r") == ["rounds:"]
    assert complete("/fort start rounds:3 ") == ["fort_hp:", "cannons:", "first:", "title:"]
    assert complete("/fort start first:") == ["first:pc", "first:enemy"]
    assert complete("/unit move force:t") == ["force:true"]
    assert complete("hello") == []
