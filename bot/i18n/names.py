"""Values that name a command, an option or a choice (``CommandName``, ``OptionName``, ``ChoiceName``,
``ChoiceList``, ``OptionList``, ``SubcommandList``), shown in the reader's language; the words a choice
accepts in either language; and the closest word to a typo. The words themselves and the catalogue's
marks are ``bot.i18n.marks``'s.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from bot.i18n.catalogue import LANGUAGES, catalogue
from bot.i18n.marks import CHOICE_SEP, LIST_SEP, MARK, choice_text, command_text, option_text, resolve_marks
from bot.i18n.named import Named, shown

__all__ = [
    "MARK",
    "ChoiceList",
    "ChoiceName",
    "CommandName",
    "Named",
    "OptionList",
    "OptionName",
    "SubcommandList",
    "Words",
    "choice_text",
    "choice_words",
    "close_word",
    "command_text",
    "option_text",
    "resolve_marks",
    "shown",
]


def _names(lang: str) -> Mapping[str, str]:
    return catalogue(lang)


@dataclass(frozen=True, slots=True, eq=False)
class CommandName(Named):
    """``/fort start`` → ``/砦 開始``."""

    path: str

    def text(self, lang: str) -> str:
        return command_text(self.path, _names(lang))


@dataclass(frozen=True, slots=True, eq=False)
class OptionName(Named):
    """``rounds`` (of ``fort start``) → ``ラウンド数``, as the command shows it (no colon)."""

    option: str
    path: str | None = None

    def text(self, lang: str) -> str:
        return option_text(self.option, _names(lang), self.path)


@dataclass(frozen=True, slots=True, eq=False)
class OptionList(Named):
    """The options of a command, as a list: ``ラウンド数、砦hp、…`` / ``rounds, fort_hp, …``."""

    path: str
    options: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.options)

    def text(self, lang: str) -> str:
        names = _names(lang)
        return LIST_SEP.get(lang, ", ").join(option_text(o, names, self.path) for o in self.options)


@dataclass(frozen=True, slots=True, eq=False)
class ChoiceName(Named):
    """``enemy`` of ``first`` → ``敵側``."""

    option: str
    value: str

    def text(self, lang: str) -> str:
        return choice_text(self.option, self.value, _names(lang), lang)


@dataclass(frozen=True, slots=True, eq=False)
class ChoiceList(Named):
    """The choices of an option: ``通常・破城槌・飛行・兵士`` / ``normal | ram | flying | soldier``."""

    option: str
    values: tuple[str, ...]

    def text(self, lang: str) -> str:
        names = _names(lang)
        return CHOICE_SEP.get(lang, " | ").join(choice_text(self.option, v, names, lang) for v in self.values)


@dataclass(frozen=True, slots=True, eq=False)
class Words(Named):
    """Several named things in a list (``/砦 状況、/砦 開始``)."""

    items: tuple[Named, ...]

    def text(self, lang: str) -> str:
        return LIST_SEP.get(lang, ", ").join(item.text(lang) for item in self.items)


@dataclass(frozen=True, slots=True, eq=False)
class TextList(Named):
    """Names the user gave (characters, sheets) as a list in the reader's language: ``ガルド、ミナ``."""

    items: tuple[str, ...]

    def text(self, lang: str) -> str:
        return LIST_SEP.get(lang, ", ").join(self.items)


@dataclass(frozen=True, slots=True, eq=False)
class SubcommandList(Named):
    """The subcommands of a group, as its reader types them after the group: ``開始、状況、…``."""

    group: str
    names: tuple[str, ...]

    def text(self, lang: str) -> str:
        names = _names(lang)
        return LIST_SEP.get(lang, ", ").join(
            names.get(f"cmd.{self.group}.{name}.name") or name for name in self.names
        )


# --- the words a choice accepts ---------------------------------------------------------------


def _norm(word: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", word).casefold().split())


def choice_words(option: str, values: tuple[str, ...]) -> dict[str, str]:
    """Every word that picks a choice of ``option`` (normalised) → the choice: its English value, its
    label in each language (``choice.<option>.<value>``), the words the bot prints for it
    (``choice_word.``, ``value.<option>.<value>``) and other short forms (``choice_also.<option>.<value>``,
    listed with ``、``). A word two choices share picks neither."""
    found: dict[str, str] = {}
    shared: set[str] = set()
    for value in values:
        words = {value}
        for lang in LANGUAGES:
            names = catalogue(lang)
            for key in (
                f"choice.{option}.{value}",
                f"choice_word.{option}.{value}",
                f"value.{option}.{value}",
            ):
                if key in names:
                    words.add(names[key])
            also = names.get(f"choice_also.{option}.{value}", "")
            words.update(w for w in re.split(r"[、,]", also) if w.strip())
        for word in {_norm(w) for w in words}:
            if found.get(word, value) != value:
                shared.add(word)
            found[word] = value
    return {word: value for word, value in found.items() if word not in shared}


def close_word(word: str, candidates: Mapping[str, object]) -> object | None:
    """The candidate closest to ``word`` (a typo in either language), or None: English words need
    difflib's 0.6, short Japanese ones 0.5 (``状態`` → ``状況``)."""
    import difflib

    typed = _norm(word)
    cutoff = 0.7 if typed.isascii() else 0.5
    near = difflib.get_close_matches(typed, list(candidates), n=1, cutoff=cutoff)
    return candidates[near[0]] if near else None
