"""One console line → who acts and which command: ``@alice /unit add name:"ゴブリン 隊" hp:20``.

The option syntax is Discord's: ``option:value`` or ``option:"two words"``; as in Discord's option
box, words after a value that are not ``name:value`` continue it (``expr:K40+12@10 大砲``), and words
right after a command whose first option takes the rest of the line are that option (``/roll 2d6+5 命中``).
Full-width input (``／ｆｏｒｔ　ｓｔａｔｕｓ``, ``ｈｐ：２０``) is accepted, and so are the Japanese names
Discord shows (``/砦 開始 ラウンド数:3``). Which words form the command is decided with the command
table (``/roll`` has one word, ``/fort start`` two).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from bot.commands import UserError, nfkc, norm_word
from bot.i18n.names import CommandName, OptionName
from bot.registry import rulesets
from engine import limits


@dataclass(frozen=True, slots=True)
class Line:
    user: str | None
    path: str
    options: dict[str, str] = field(default_factory=dict)
    text: str = ""


def split_user(text: str) -> tuple[str | None, str]:
    """``@alice /fort status`` → ("alice", "/fort status")."""
    stripped = text.strip()
    if nfkc(stripped[:1]) == "@":
        head, _, rest = stripped.partition(" ")
        user = nfkc(head)[1:]
        if not user:
            raise UserError("console.bad_user")
        if limits.text_problem(user, limits.NAME_MAX) is not None:
            raise UserError("console.user_invalid", max=limits.NAME_MAX)
        return user, rest.strip()
    return None, stripped


def parse_line(text: str) -> Line | None:
    """The parsed line, or None for a blank line or a comment (``#``)."""
    user, rest = split_user(text)
    if not rest or rest.startswith("#"):
        if user is not None and not rest:
            raise UserError("console.no_command")
        return None
    if nfkc(rest[:1]) != "/":
        raise UserError("console.not_a_command", text=rest)
    try:
        tokens = _tokens(rest[1:])
    except ValueError:
        raise UserError("console.unclosed_quote") from None
    words: list[str] = []
    typed: list[str] = []  # the words as typed (a dice command's case is its own: ``S2d6``)
    while tokens and ":" not in nfkc(tokens[0]):
        typed.append(tokens.pop(0))
        words.append(norm_word(typed[-1]))
    table = rulesets().table
    words = table.command_words(words)  # the Japanese names Discord shows (``/砦 状況``)
    path = ""
    for size in (2, 1):
        candidate = " ".join(words[:size])
        if len(words) >= size and candidate in table:
            path = candidate
            extra = words[size:]
            break
    else:
        raise table.unknown(words)
    options: dict[str, str] = {}
    last = ""
    if extra:
        # as Discord's client does, words typed after the command fill its first option when that one
        # takes the rest of the line (``/roll 2d6+5 命中``, ``/ダイス 秘密一覧``)
        first = table[path].options[0] if table[path].options else None
        if first is None or not first.rest:
            raise UserError("console.stray_words", words=" ".join(extra), command=CommandName(path))
        options[first.name] = " ".join(typed[len(typed) - len(extra) :])
        last = first.name
    for token in tokens:
        normal = token if ":" in token else token.replace("：", ":", 1)
        name, sep, value = normal.partition(":")
        spec = table[path]
        taken = spec.option(last) if last else None
        other = spec.option(table.option_word(spec, norm_word(name))) if sep else None
        if sep and taken is not None and taken.rest and other is None:
            options[last] += " " + token  # BCDice: text after the expression is a comment, colons too
            continue
        if not sep and last:
            # as in Discord's option box: words after a value continue it (``expr:K40+12@10 大砲``)
            options[last] += " " + token
            continue
        if not sep or not name.strip():
            raise UserError("console.bad_option", token=token)
        key = table.option_word(table[path], norm_word(name))
        if key in options:
            raise UserError("command.duplicate_option", option=OptionName(key, path))
        options[key] = value
        last = key
    spec = table[path]
    options = {name: table.choice_word(spec, name, value) for name, value in options.items()}
    return Line(user=user, path=path, options=options, text=("/" + rest[1:]).strip())


def _tokens(text: str) -> list[str]:
    """Split on spaces (full-width too); ``"..."`` (also “...” and ＂...＂) keeps spaces in a value."""
    for quote in ("“", "”", "＂"):
        text = text.replace(quote, '"')
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.whitespace = " \t\r\n\u3000"
    lexer.quotes = '"'
    lexer.escape = ""
    lexer.commenters = ""
    return list(lexer)
