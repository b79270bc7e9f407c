"""A command as the log keeps it, and as a reader reads it (COMMANDS.md, "The reader's own words").

The log keeps the command a user gave as text (``/unit hp unit:u1 delta:-1`` from Discord, the typed line
from the console, in whichever language it was typed). What a reader is shown — a log entry, a round's
actions, an undo, an embed's title — is that command in the reader's own words: a Japanese reader reads
``/ユニット hp ユニット:u1 増減:-1``, an English one ``/unit hp unit:u1 delta:-1``, whoever typed it and in
whichever language. The values the user gave (names, dice, text) stay as given; a choice is shown by its
word. A text that is not a command the table knows (a truncated one, say) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands import CommandSpec, UserError, norm_word
from bot.console.parser import parse_line
from bot.i18n import catalogue
from bot.i18n.names import choice_text, choice_words, command_text, option_text
from bot.registry import rulesets


def _value(text: str) -> str:
    """A value as typed: quoted when it holds a space (or is empty), its own quotes made single."""
    if not text or any(c.isspace() for c in text) or '"' in text:
        return '"' + text.replace('"', "'") + '"'
    return text


def typed(path: str, options: Mapping[str, Any]) -> str:
    """The command as the log keeps it: ``/unit move unit:"ゴブリン 隊" to:F0``."""
    parts = ["/" + path]
    for name, value in options.items():
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        parts.append(f"{name}:{_value(text)}")
    return " ".join(parts)


def shown(text: str, lang: str) -> str:
    """The logged command ``text`` in the words of ``lang`` (``text`` itself if it names no command)."""
    try:
        line = parse_line(text)
    except (UserError, ValueError):
        return text
    if line is None or line.user is not None:
        return text
    spec = rulesets().table[line.path]
    names = catalogue(lang)
    parts = [command_text(line.path, names)]
    for name, value in line.options.items():
        opt = spec.option(name)
        word = option_text(name, names, line.path)
        if opt is not None and opt.rest:  # a dice expression and its comment: exactly as given
            parts.append(f"{word}:{value}")
            continue
        choice = _choice(spec, name, value)
        if choice is not None:
            value = choice_text(name, choice, names, lang)
        parts.append(f"{word}:{_value(value)}")
    return " ".join(parts)


def _choice(spec: CommandSpec, option: str, value: str) -> str | None:
    """The choice a typed word picks, as the command reads it (its value, label or synonym), if any."""
    opt = spec.option(option)
    if opt is None or not opt.choices:
        return None
    word = norm_word(value)
    for alias, choice in opt.aliases:
        if alias.casefold() == word:
            return choice
    return choice_words(opt.name, opt.choices).get(word)
