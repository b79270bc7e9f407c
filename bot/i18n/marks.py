"""Commands, options and choices in the reader's own words (COMMANDS.md, "The reader's own words"):
the words themselves, from a language's names, and the marks a catalogue writes them with.

One place renders them for a language, from the names the slash commands are labelled with
(``cmd.<group>.name``, ``cmd.<path dotted>.name``, ``opt.<option>.name`` or its per-command override
``cmd.<path dotted>.opt.<option>.name``, ``choice.<option>.<value>``, shortened for sentences by
``choice_word.<option>.<value>``): a Japanese reader reads ``/大砲 装填``, ``ラウンド数:``, ``先攻:敵側``,
an English one ``/cannon load``, ``rounds:``, ``first:enemy``.

A catalogue sentence never writes these words itself; it writes a mark, resolved when the catalogue is
read (so every sentence, another helper's new one too, follows a rename):

- ``[[/cannon load]]`` — a command (``[[/fort]]``, a group);
- ``[[by:]]`` or ``[[/gm set target:]]`` — an option with its colon (the command picks a per-command name);
- ``[[first:enemy]]`` — an option with a choice (``先攻:敵側``), or with a literal value (``[[to:F0]]``);
- ``[[first=enemy]]`` — the choice's word alone (``敵側`` / ``enemy``).

A value of a sentence that names one (``command="/fort start"`` in a refusal) is a ``Named`` value
(``bot.i18n.names``: ``CommandName``, ``OptionName``, ``ChoiceName``, ``ChoiceList``, ``OptionList``),
which ``bot.i18n.t`` and the renderers show in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: ``[[/path opt:value]]``, ``[[opt:]]``, ``[[opt=value]]`` (never a plural mark ``[[n:one|other]]``)
MARK = re.compile(
    r"\[\[(?P<path>/[a-z_]+(?: [a-z_]+)?)?(?: ?(?P<opt>[a-z_]+)(?P<sep>[:=])(?P<value>[A-Za-z0-9_.\-]*))?\]\]"
)
#: a language's separator of choices in a list
CHOICE_SEP = {"ja": "・", "en": " | "}
LIST_SEP = {"ja": "、", "en": ", "}


def _dotted(path: str) -> str:
    return path.replace(" ", ".")


def command_text(path: str, names: Mapping[str, str]) -> str:
    """``/砦 開始`` (``names``: a language's catalogue); words without a name stay English."""
    words = path.strip().removeprefix("/").split()
    if not words:
        return "/"
    shown = [names.get(f"cmd.{words[0]}.name") or words[0]]
    if len(words) > 1:
        # a command without a group (``/roll``) is named by ``cmd.roll.name`` itself
        shown.append(names.get(f"cmd.{words[0]}.{words[1]}.name") or words[1])
        shown.extend(words[2:])
    return "/" + " ".join(shown)


def option_text(option: str, names: Mapping[str, str], path: str | None = None) -> str:
    """``ラウンド数`` (without the colon): the command's own name for it, else the option's."""
    if path:
        special = names.get(f"cmd.{_dotted(path.strip().removeprefix('/'))}.opt.{option}.name")
        if special:
            return special
    return names.get(f"opt.{option}.name") or option


def choice_text(option: str, value: str, names: Mapping[str, str], lang: str) -> str:
    """A choice's word: English its value (``enemy``), Japanese its short word or label (``敵側``)."""
    if lang == "en":
        return value
    return names.get(f"choice_word.{option}.{value}") or names.get(f"choice.{option}.{value}") or value


def resolve_marks(text: str, names: Mapping[str, str], lang: str) -> str:
    """``text`` with every mark (module docstring) in the words of ``lang``."""
    if "[[" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        path, opt, sep, value = (
            match.group("path"),
            match.group("opt"),
            match.group("sep"),
            match.group("value"),
        )
        if opt is None:
            return command_text(path or "/", names)
        if sep == "=":
            return choice_text(opt, value, names, lang)
        word = option_text(opt, names, path) + ":"
        return word + choice_text(opt, value, names, lang) if value else word

    return MARK.sub(one, text)


def marks(text: str) -> list[re.Match[str]]:
    """The marks of a raw catalogue text (for the catalogue tests)."""
    return list(MARK.finditer(text))
