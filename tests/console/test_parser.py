"""Console lines: Discord's option syntax, quotes, full-width input, ``@name``, and clear refusals."""

from __future__ import annotations

import pytest

from bot.commands import UserError
from bot.console.parser import Line, parse_line


def test_options_quotes_and_user() -> None:
    assert parse_line('@alice /unit add name:"ゴブリン 隊" type:normal area:A1 hp:20 fort_damage:5') == Line(
        user="alice",
        path="unit add",
        options={"name": "ゴブリン 隊", "type": "normal", "area": "A1", "hp": "20", "fort_damage": "5"},
        text='/unit add name:"ゴブリン 隊" type:normal area:A1 hp:20 fort_damage:5',
    )


def test_full_width_input() -> None:
    line = parse_line("／ＦＯＲＴ　ｓｔａｒｔ　ｒｏｕｎｄｓ：５ title:“北の 砦”")
    assert line is not None
    assert (line.path, line.options) == ("fort start", {"rounds": "５", "title": "北の 砦"})


def test_one_word_command_values_with_colons_and_apostrophes() -> None:
    line = parse_line("/roll expr:2d6+3 secret:true")
    assert line is not None and (line.path, line.options) == ("roll", {"expr": "2d6+3", "secret": "true"})
    line = parse_line("/gm set target:unit.O'Neil.hp value:3")
    assert line is not None and line.options == {"target": "unit.O'Neil.hp", "value": "3"}


def test_words_after_a_value_continue_it_as_in_discord() -> None:
    line = parse_line("/roll expr:K40+12@10 大砲 の一撃 secret:true")
    assert line is not None and line.options == {"expr": "K40+12@10 大砲 の一撃", "secret": "true"}
    line = parse_line("@bob /pc add name:Bob the Brave　position:top")
    assert line is not None and line.options == {"name": "Bob the Brave", "position": "top"}


def test_unknown_commands_say_what_there_is() -> None:
    with pytest.raises(UserError) as raised:
        parse_line("/fort strat rounds:3")
    assert raised.value.key == "command.unknown_sub_close"
    assert raised.value.values == {
        "group": "/fort",
        "sub": "strat",
        "subs": "end, export, heal, import, log, map, next, odds, repair, siege, start, status",
        "hint": "/fort start",
    }
    with pytest.raises(UserError) as raised:
        parse_line("/forts start")
    assert (raised.value.key, raised.value.values) == (
        "command.unknown_close",
        {"command": "/forts start", "hint": "/fort start"},
    )


@pytest.mark.parametrize("text", ["", "   ", "# a comment"])
def test_blank_lines_and_comments(text: str) -> None:
    assert parse_line(text) is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("fort status", "console.not_a_command"),
        ("/fort fly", "command.unknown_sub"),
        ("/fort strat", "command.unknown_sub_close"),
        ("/fort", "command.needs_sub"),
        ("/nothing", "command.unknown"),
        ("/frot status", "command.unknown_close"),
        ("/fort status now", "console.stray_words"),
        ('/fort start title:"open', "console.unclosed_quote"),
        ("/fort start rounds:3 rounds:4", "command.duplicate_option"),
        ("/fort start :3", "console.bad_option"),
        ("@ /fort status", "console.bad_user"),
        ("@alice", "console.no_command"),
    ],
)
def test_refusals(text: str, key: str) -> None:
    with pytest.raises(UserError) as raised:
        parse_line(text)
    assert raised.value.key == key
