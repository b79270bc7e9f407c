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


def test_gm_targets_in_the_readers_words() -> None:
    """Issue 38, item 3: Tab after ``対象:`` offers the fort's targets in the console's language (the
    Japanese words first, then the paths); in English, the paths."""
    from engine.fort import FORT
    from engine.fort.export import import_state

    doc = FORT.export(
        import_state(
            {
                "format": "toride.fort/1",
                "rounds": 3,
                "units": [{"name": "ゴブリン隊", "type": "normal", "area": "A1", "hp": 30, "fort_damage": 5}],
            }
        )
    )

    def tab(text: str, lang: str) -> list[str]:
        completer = CommandCompleter(lambda: doc, lang=lang)
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    assert tab("/gm 上書き 対象:砦", "ja") == ["対象:砦HP", "対象:砦の最大HP", "対象:砦の修理ラウンド"]
    assert tab("/gm 上書き 対象:ゴブリン隊.行", "ja") == ["対象:ゴブリン隊.行動済み"]
    assert tab("/gm 上書き 対象:unit.ゴブリン隊.a", "ja") == [
        "対象:unit.ゴブリン隊.area",
        "対象:unit.ゴブリン隊.acted",
    ]
    assert tab("/gm set target:fort.", "en") == [
        "target:fort.hp",
        "target:fort.max_hp",
        "target:fort.repaired_round",
    ]
    assert tab("/gm set target:砦", "en") == []
