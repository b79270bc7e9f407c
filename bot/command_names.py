"""The Japanese command and option names Discord shows (``/砦 状況``, ``ラウンド数:3``), accepted in the
console beside the English ones, read from the catalogue keys the slash commands are labelled with
(``cmd.<group>.name``, ``cmd.<path dotted>.name``, ``opt.<option>.name`` or its per-command override
``cmd.<path dotted>.opt.<option>.name``), so the two never drift apart; and which commands ``/help``
shows for a topic."""

from __future__ import annotations

from functools import cache

from bot.commands import CommandSpec, UserError, commands, norm_word
from bot.i18n import catalogue

#: the language whose names Discord shows besides English
LANG = "ja"


def _dotted(path: str) -> str:
    return path.replace(" ", ".")


@cache
def _tables() -> tuple[dict[str, str], dict[tuple[str | None, str], str]]:
    """(group word → group, (group, command word) → command name): the catalogue's names, normalised."""
    names = catalogue(LANG)
    groups: dict[str, str] = {}
    subs: dict[tuple[str | None, str], str] = {}
    for spec in commands().values():
        if spec.group is not None:
            for label in _labels(names, f"cmd.{spec.group}"):
                groups.setdefault(norm_word(label), spec.group)
        for label in _labels(names, f"cmd.{_dotted(spec.path)}"):
            subs.setdefault((spec.group, norm_word(label)), spec.name)
    return groups, subs


def _labels(names: dict[str, str], key: str) -> list[str]:
    """The name at ``key.name`` and the earlier names at ``key.was`` (renamed Japanese words keep
    working in the console: ``/部隊 一覧`` is ``/ユニット 一覧``), separated by ``、``."""
    found = [names[f"{key}.name"]] if names.get(f"{key}.name") else []
    return found + [w for w in names.get(f"{key}.was", "").split("、") if w]


def command_words(words: list[str]) -> list[str]:
    """``["砦", "状況"]`` → ``["fort", "status"]``: each word that is a Japanese name, as its English one
    (words already English are kept; so are words that name nothing, for the refusal to quote)."""
    if not words:
        return words
    groups, subs = _tables()
    table = commands()
    first = groups.get(words[0], words[0])
    out = [first, *words[1:]]
    # a command without a group (``/roll`` = ``/ダイス``)
    single = subs.get((None, words[0]))
    if single is not None and first not in {spec.group for spec in table.values()}:
        return [single, *words[1:]]
    if len(out) > 1:
        out[1] = subs.get((first, out[1]), out[1])
    return out


def option_word(spec: CommandSpec, word: str) -> str:
    """An option's Japanese name (``ラウンド数``) as its English one (``rounds``); other words as given."""
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


def choice_word(spec: CommandSpec, option: str, value: str) -> str:
    """A choice's Japanese name as Discord shows it (``先攻:敵側``) as its value (``enemy``); other values
    as given (the command's check refuses what is no choice)."""
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


#: the groups in the order COMMANDS.md lists them (``/help``); any other after them
ORDER = (
    "fort",
    "pc",
    "unit",
    "commander",
    "attack",
    "trap",
    "cannon",
    "ballista",
    "gm",
    "roll",
    "help",
    "sg",
)


def help_groups() -> dict[str, list[CommandSpec]]:
    """Every command by its group (a command without a group as its own), in ``ORDER``."""
    out: dict[str, list[CommandSpec]] = {}
    for spec in sorted(commands().values(), key=lambda s: s.path):
        out.setdefault(spec.group or spec.name, []).append(spec)
    rank = {g: i for i, g in enumerate(ORDER)}
    return dict(sorted(out.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])))


def topic_specs(topic: str) -> list[CommandSpec] | None:
    """The commands ``/help <topic>`` shows: a group's (``fort``, ``砦``) or one command (``fort start``);
    None for the overview (no topic). ``help.unknown`` for a topic that names neither."""
    words = command_words(norm_word(topic).removeprefix("/").split())
    if not words:
        return None
    groups = help_groups()
    specs = groups.get(words[0])
    if specs is None:
        raise UserError("help.unknown", topic=topic, groups=", ".join(groups))
    if len(words) > 1:
        chosen = [s for s in specs if s.name == words[1]]
        if not chosen:
            raise UserError("help.unknown", topic=topic, groups=", ".join(s.path for s in specs))
        return chosen
    return specs
