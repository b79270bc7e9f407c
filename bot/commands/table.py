"""The command table: every command a process runs, by path (``fort start``), and the words that name
them. The registry (``bot.registry``) makes one from its rule sets' commands and the generic ones.

Besides the English names of COMMANDS.md, the console accepts the Japanese names Discord shows
(``/砦 状況``, ``ラウンド数:3``), read from the catalogue keys the slash commands are labelled with
(``cmd.<group>.name``, ``cmd.<path dotted>.name``, ``opt.<option>.name`` or its per-command override
``cmd.<path dotted>.opt.<option>.name``), so the two never drift apart; a near miss in either language
gets a suggestion (``/砦 状態`` → ``/砦 状況``). ``/help`` lists the table's groups in its ``order``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any

from bot.commands.model import CommandSpec, UserError
from bot.commands.values import norm_word
from bot.i18n import LANGUAGES, catalogue
from bot.i18n.names import CommandName, SubcommandList, Words, close_word, command_text

#: the language whose names Discord shows besides English
LANG = "ja"


def _dotted(path: str) -> str:
    return path.replace(" ", ".")


def _labels(names: Mapping[str, str], key: str) -> list[str]:
    """The name at ``key.name`` and the earlier names at ``key.was`` (renamed Japanese words keep
    working in the console: ``/部隊 一覧`` is ``/ユニット 一覧``), separated by ``、``."""
    found = [names[f"{key}.name"]] if names.get(f"{key}.name") else []
    return found + [w for w in names.get(f"{key}.was", "").split("、") if w]


class CommandTable:
    """The commands by path, and the words that name them in each language."""

    def __init__(self, specs: Iterable[CommandSpec], order: Iterable[str] = ()) -> None:
        self.specs: dict[str, CommandSpec] = {}
        for spec in specs:
            if spec.path in self.specs:
                raise ValueError(f"two commands are named /{spec.path}")
            self.specs[spec.path] = spec
        #: the groups in the order ``/help`` lists them; any other after them
        self.order = tuple(order)

    def __contains__(self, path: object) -> bool:
        return path in self.specs

    def __getitem__(self, path: str) -> CommandSpec:
        return self.specs[path]

    def lookup(self, path: str) -> CommandSpec:
        """The command ``path`` names (its words folded); ``UserError`` saying what is close if none."""
        spec = self.specs.get(norm_word(path))
        if spec is None:
            raise self.unknown(path.split())
        return spec

    def unknown(self, words: list[str]) -> UserError:
        """The refusal for ``/words`` that name no command: a group's subcommands, or a close command (in
        either language: ``/砦 状態`` → ``/砦 状況``, ``/fort strat`` → ``/fort start``)."""
        words = [norm_word(w) for w in words]
        typed = " ".join(words)
        group = words[0] if words else ""
        subs = sorted(spec.name for spec in self.specs.values() if spec.group == group)
        if subs and len(words) == 1:
            listed = SubcommandList(group, tuple(subs))
            return UserError("command.needs_sub", group=CommandName(group), subs=listed)
        if subs:
            sub = " ".join(words[1:])
            values: dict[str, Any] = {
                "group": CommandName(group),
                "sub": sub,
                "subs": SubcommandList(group, tuple(subs)),
            }
            near = close_word(sub, self._sub_words(group, subs))
            if near is not None:
                return UserError("command.unknown_sub_close", hint=CommandName(f"{group} {near}"), **values)
            return UserError("command.unknown_sub", **values)
        close = close_word(typed, self._path_words)
        if close is not None:
            return UserError("command.unknown_close", command="/" + typed, hint=CommandName(str(close)))
        return UserError("command.unknown", command="/" + typed)

    def _sub_words(self, group: str, subs: list[str]) -> dict[str, str]:
        """A group's subcommands by each of their names (English and every language's)."""
        out: dict[str, str] = {}
        for lang in LANGUAGES:
            names = catalogue(lang)
            for sub in subs:
                out.setdefault(norm_word(names.get(f"cmd.{group}.{sub}.name", sub)), sub)
        return out

    @cached_property
    def _path_words(self) -> dict[str, str]:
        """Every command path by its words in each language (``fort start``, ``砦 開始``)."""
        out: dict[str, str] = {}
        for lang in LANGUAGES:
            names = catalogue(lang)
            for path in self.specs:
                out.setdefault(norm_word(command_text(path, names).removeprefix("/")), path)
        return out

    # --- the Japanese names Discord shows ------------------------------------------------------

    @cached_property
    def _names(self) -> tuple[dict[str, str], dict[tuple[str | None, str], str]]:
        """(group word → group, (group, command word) → command name): the catalogue's names, normalised."""
        names = catalogue(LANG)
        groups: dict[str, str] = {}
        subs: dict[tuple[str | None, str], str] = {}
        for spec in self.specs.values():
            if spec.group is not None:
                for label in _labels(names, f"cmd.{spec.group}"):
                    groups.setdefault(norm_word(label), spec.group)
            for label in _labels(names, f"cmd.{_dotted(spec.path)}"):
                subs.setdefault((spec.group, norm_word(label)), spec.name)
        return groups, subs

    def command_words(self, words: list[str]) -> list[str]:
        """``["砦", "状況"]`` → ``["fort", "status"]``: each word that is a Japanese name, as its English
        one (words already English are kept; so are words that name nothing, for the refusal to quote)."""
        if not words:
            return words
        groups, subs = self._names
        first = groups.get(words[0], words[0])
        out = [first, *words[1:]]
        # a command without a group (``/roll`` = ``/ダイス``)
        single = subs.get((None, words[0]))
        if single is not None and first not in {spec.group for spec in self.specs.values()}:
            return [single, *words[1:]]
        if len(out) > 1:
            out[1] = subs.get((first, out[1]), out[1])
        return out

    @staticmethod
    def option_word(spec: CommandSpec, word: str) -> str:
        """An option's Japanese name (``ラウンド数``) as its English one (``rounds``); other words as
        given."""
        if spec.option(word) is not None:
            return word
        names = catalogue(LANG)
        for opt in spec.options:
            for key in (f"cmd.{_dotted(spec.path)}.opt.{opt.name}", f"opt.{opt.name}"):
                labels = _labels(names, key)
                if any(norm_word(label) == word for label in labels):
                    return opt.name
                if labels:
                    break
        return word

    @staticmethod
    def choice_word(spec: CommandSpec, option: str, value: str) -> str:
        """A choice's Japanese name as Discord shows it (``先攻:敵側``) as its value (``enemy``); other
        values as given (the command's check refuses what is no choice)."""
        opt = spec.option(option)
        if opt is None or not opt.choices:
            return value
        names = catalogue(LANG)
        word = norm_word(value)
        for choice in opt.choices:
            label = names.get(f"choice.{opt.name}.{choice}")
            if label and norm_word(label) == word:
                return choice
        return value

    # --- /help ---------------------------------------------------------------------------------

    def help_groups(self) -> dict[str, list[CommandSpec]]:
        """Every command by its group (a command without a group as its own), in ``order``; a group's
        commands as its rule set lists them (start first, end near the end: the order play goes),
        not alphabetically (which no reader's language shares)."""
        out: dict[str, list[CommandSpec]] = {}
        for spec in self.specs.values():
            out.setdefault(spec.group or spec.name, []).append(spec)
        rank = {g: i for i, g in enumerate(self.order)}
        return dict(sorted(out.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])))

    def topic_specs(self, topic: str) -> list[CommandSpec] | None:
        """The commands ``/help <topic>`` shows: a group's (``fort``, ``砦``) or one command (``fort
        start``); None for the overview (no topic). ``help.unknown`` for a topic that names neither."""
        words = self.command_words(norm_word(topic).removeprefix("/").split())
        if not words:
            return None
        groups = self.help_groups()
        specs = groups.get(words[0])
        if specs is None:
            raise UserError("help.unknown", topic=topic, groups=Words(tuple(CommandName(g) for g in groups)))
        if len(words) > 1:
            chosen = [s for s in specs if s.name == words[1]]
            if not chosen:
                raise UserError(
                    "help.unknown", topic=topic, groups=Words(tuple(CommandName(s.path) for s in specs))
                )
            return chosen
        return specs
