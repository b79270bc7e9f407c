"""Commands, options and choices in the reader's own words (COMMANDS.md, "The reader's own words").

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
(``CommandName``, ``OptionName``, ``ChoiceName``, ``ChoiceList``, ``OptionList``), which ``bot.i18n.t``
and the renderers show in the reader's language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

#: ``[[/path opt:value]]``, ``[[opt:]]``, ``[[opt=value]]`` (never a plural mark ``[[n:one|other]]``)
MARK = re.compile(
    r"\[\[(?P<path>/[a-z_]+(?: [a-z_]+)?)?(?: ?(?P<opt>[a-z_]+)(?P<sep>[:=])(?P<value>[A-Za-z0-9_.\-]*))?\]\]"
)
#: a language's separator of choices in a list
_CHOICE_SEP = {"ja": "・", "en": " | "}
_LIST_SEP = {"ja": "、", "en": ", "}


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


# --- values that name a command, an option or a choice ------------------------------------------


class Named:
    """A value shown in the reader's language (``text``); ``str`` is its English form (logs).
    ``markup``: its text is Discord markup already (a mention), not to be escaped."""

    markup = False

    def text(self, lang: str) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text("en")

    def __eq__(self, other: object) -> bool:
        """Equal to its English text (a refusal's values compare as they read in English) or to a like
        value naming the same thing."""
        if isinstance(other, str):
            return str(self) == other
        return type(other) is type(self) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


def _names(lang: str) -> Mapping[str, str]:
    from bot.i18n import catalogue

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
        return _LIST_SEP.get(lang, ", ").join(option_text(o, names, self.path) for o in self.options)


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
        return _CHOICE_SEP.get(lang, " | ").join(
            choice_text(self.option, v, names, lang) for v in self.values
        )


@dataclass(frozen=True, slots=True, eq=False)
class Words(Named):
    """Several named things in a list (``/砦 状況、/砦 開始``)."""

    items: tuple[Named, ...]

    def text(self, lang: str) -> str:
        return _LIST_SEP.get(lang, ", ").join(item.text(lang) for item in self.items)


def shown(values: Mapping[str, object], lang: str) -> dict[str, object]:
    """``values`` with each ``Named`` one in the words of ``lang``."""
    return {k: v.text(lang) if isinstance(v, Named) else v for k, v in values.items()}


@dataclass(frozen=True, slots=True, eq=False)
class SubcommandList(Named):
    """The subcommands of a group, as its reader types them after the group: ``開始、状況、…``."""

    group: str
    names: tuple[str, ...]

    def text(self, lang: str) -> str:
        names = _names(lang)
        return _LIST_SEP.get(lang, ", ").join(
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
    from bot.i18n import LANGUAGES, catalogue

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
