"""The one table of slash commands, shared by the console and the Discord cogs.

A ``CommandSpec`` names a command (``fort start``), its options (types, choices, defaults),
whether it is for GMs, what the service does with it (``Kind``), and for rule commands a
builder that turns the checked option values into the engine's command object. Rule sets
register their own commands (``bot.rulesets.fort``); the generic ones (``/roll``, ``/gm ...``)
are registered here.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.i18n import LANGUAGES, catalogue, t
from bot.i18n.names import (
    ChoiceList,
    ChoiceName,
    CommandName,
    Named,
    OptionList,
    OptionName,
    SubcommandList,
    choice_words,
    close_word,
    command_text,
    option_text,
)
from engine import limits
from engine.dice import DiceSource
from engine.errors import EngineError


class UserError(EngineError):
    """A command the front-end or the service refuses (bad option, no battle, not GM ...)."""


class OptType(StrEnum):
    STR = "str"
    INT = "int"
    BOOL = "bool"
    CHOICE = "choice"
    #: a user: a Discord mention / id, or in the console a name (``@alice``)
    USER = "user"
    #: a number or a dice expression (``2d+10``, ``K40+12@10``): an int, or the expression text
    DAMAGE = "damage"
    #: a JSON document (Discord: an attachment; console: a local file read by the console)
    FILE = "file"
    #: a server role: a Discord role mention / id, or in the console a name
    ROLE = "role"
    #: a text file (Discord: an attachment; console: a local file read by the console)
    TEXTFILE = "textfile"
    #: a character sheet: an https URL (fetched by the front-end), or in the console a local file;
    #: the service gets a ``SheetSource``
    SHEET = "sheet"


class Kind(StrEnum):
    """What the service does with a command."""

    ENGINE = "engine"  # build an engine command, apply it to the channel's running battle
    START = "start"  # build an engine command, apply it to a new battle
    STATUS = "status"
    MAP = "map"  # the status as a picture
    LOG = "log"
    EXPORT = "export"
    IMPORT = "import"
    UNDO = "undo"
    REDO = "redo"
    GM_ADD = "gm_add"
    GM_REMOVE = "gm_remove"
    GM_ROLE = "gm_role"
    ROLL = "roll"
    #: reads the channel's battle without changing it (``spec.query``), or answers with a command to apply
    QUERY = "query"
    #: the odds planner: plays the rest of the battle many times, outside the channel's lock
    ODDS = "odds"
    #: ``/help [command:<group>]``: the commands in the user's language (no battle needed)
    HELP = "help"


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    type: OptType = OptType.STR
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    #: bounds of an INT (or a DAMAGE number); left out: ±``limits.MAX_NUMBER``
    min: int | None = None
    max: int | None = None
    #: the longest text (STR, DAMAGE as dice) in characters; left out: ``limits.TEXT_MAX``
    max_len: int | None = None
    #: may the text hold line breaks and tabs (a chat palette)? Other control characters never
    multiline: bool = False
    #: other words a choice option accepts, as (word, choice): an earlier spelling kept working
    aliases: tuple[tuple[str, str], ...] = ()
    #: the option takes the rest of the line in the console, ``name:value`` words included unless they
    #: name another option of the command (a dice command's comment: ``式:2d6+5 命中:ゴブリンへ``)
    rest: bool = False


@dataclass(frozen=True, slots=True)
class BuildContext:
    """What a builder may use besides the option values."""

    invoker: str
    is_gm: bool


Builder = Callable[[Mapping[str, Any], BuildContext], Any]


@dataclass(frozen=True, slots=True)
class QueryContext:
    """What a query may use: who asks, and the dice (a palette roll)."""

    invoker: str
    is_gm: bool
    dice: DiceSource


#: a ``Kind.QUERY`` command: the battle's state and the options → a reply view, or an engine command to apply
Query = Callable[[Any, Mapping[str, Any], QueryContext], Any]


@dataclass(frozen=True, slots=True)
class SheetSource:
    """A sheet as a front-end got it: its text (JSON) and where from (the URL or the file's name)."""

    text: str
    source: str = ""


@dataclass(frozen=True, slots=True)
class CommandSpec:
    group: str | None
    name: str
    kind: Kind
    options: tuple[Option, ...] = ()
    gm: bool = False
    #: the rule set whose battle it acts on; None: whatever battle runs in the channel
    ruleset: str | None = None
    build: Builder | None = None
    #: description key in the catalogues (``help.<path>``)
    help_key: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: what a ``Kind.QUERY`` command does
    query: Query | None = None

    @property
    def path(self) -> str:
        return self.name if self.group is None else f"{self.group} {self.name}"

    def option(self, name: str) -> Option | None:
        for opt in self.options:
            if opt.name == name:
                return opt
        return None


_COMMANDS: dict[str, CommandSpec] = {}


def register(*specs: CommandSpec) -> None:
    for spec in specs:
        if spec.path in _COMMANDS and _COMMANDS[spec.path] != spec:
            raise ValueError(f"command registered twice: {spec.path}")
        _COMMANDS[spec.path] = spec


def extend(path: str, change: Callable[[CommandSpec], CommandSpec]) -> None:
    """Replaces the registered command ``path`` by ``change(spec)`` (a feature adding options to another's
    command: ``/pc add ... sheet:``)."""
    _COMMANDS[path] = change(_COMMANDS[path])


def commands() -> dict[str, CommandSpec]:
    """Every registered command by path (``fort start``), the rule sets' included."""
    from bot import rulesets

    rulesets.load_builtin()
    return dict(_COMMANDS)


def lookup(path: str) -> CommandSpec:
    spec = commands().get(norm_word(path))
    if spec is None:
        raise unknown_command(path.split())
    return spec


def unknown_command(words: list[str]) -> UserError:
    """The refusal for ``/words`` that name no command: a group's subcommands, or a close command (in
    either language: ``/砦 状態`` → ``/砦 状況``, ``/fort strat`` → ``/fort start``)."""
    table = commands()
    words = [norm_word(w) for w in words]
    typed = " ".join(words)
    group = words[0] if words else ""
    subs = sorted(spec.name for spec in table.values() if spec.group == group)
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
        near = close_word(sub, _sub_words(group, subs))
        if near is not None:
            return UserError("command.unknown_sub_close", hint=CommandName(f"{group} {near}"), **values)
        return UserError("command.unknown_sub", **values)
    close = close_word(typed, _path_words(table))
    if close is not None:
        return UserError("command.unknown_close", command="/" + typed, hint=CommandName(str(close)))
    return UserError("command.unknown", command="/" + typed)


def _sub_words(group: str, subs: list[str]) -> dict[str, str]:
    """A group's subcommands by each of their names (English and every language's)."""
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        names = catalogue(lang)
        for sub in subs:
            out.setdefault(norm_word(names.get(f"cmd.{group}.{sub}.name", sub)), sub)
    return out


def _path_words(table: Mapping[str, CommandSpec]) -> dict[str, str]:
    """Every command path by its words in each language (``fort start``, ``砦 開始``)."""
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        names = catalogue(lang)
        for path in table:
            out.setdefault(norm_word(command_text(path, names).removeprefix("/")), path)
    return out


def _option_words(spec: CommandSpec) -> dict[str, str]:
    """A command's options by each of their names (``rounds``, ``ラウンド数``)."""
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        names = catalogue(lang)
        for opt in spec.options:
            out.setdefault(norm_word(option_text(opt.name, names, spec.path)), opt.name)
    return out


@dataclass(frozen=True, slots=True, eq=False)
class Usage(Named):
    """``/fort start rounds:<1-99> [fort_hp:<int>] ...``: the options and what each takes, in the
    reader's words (``/砦 開始 ラウンド数:<1〜99> [砦hp:<整数>] …``)."""

    path: str

    def text(self, lang: str) -> str:
        spec = commands()[self.path]
        names = catalogue(lang)
        parts = [command_text(spec.path, names)]
        for opt in spec.options:
            part = f"{option_text(opt.name, names, spec.path)}:<{_takes(opt, lang)}>"
            parts.append(part if opt.required else f"[{part}]")
        return " ".join(parts)


def usage(spec: CommandSpec) -> Usage:
    """``/fort start rounds:<1-99> [fort_hp:<int>] ...``: the options and what each takes."""
    return Usage(spec.path)


def _takes(opt: Option, lang: str) -> str:
    if opt.choices:
        return "|".join(opt.choices) if lang == "en" else ChoiceList(opt.name, opt.choices).text(lang)
    if opt.type is OptType.INT and opt.min is not None and opt.max is not None:
        return t("usage.range", lang, min=opt.min, max=opt.max)
    return t(f"usage.{opt.type.value}", lang)


# ---------------------------------------------------------------------------------------------
# Option values


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def norm_word(text: str) -> str:
    """A command or option word as the table spells it (full-width and case folded)."""
    return " ".join(nfkc(text).casefold().split())


_TRUE = {"true", "yes", "on", "1", "はい"}
_FALSE = {"false", "no", "off", "0", "いいえ"}
_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def convert(spec: CommandSpec, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Check option values against the spec and give them their types; fill in defaults.

    Strings (console, tests) are converted; values of the right type (Discord) pass through.
    Raises ``UserError`` naming the option and what it accepts.
    """
    values: dict[str, Any] = {}
    for given_name, given in raw.items():
        name = norm_word(given_name)
        opt = spec.option(name)
        if opt is None:
            shown = {
                "command": CommandName(spec.path),
                "option": given_name,
                "allowed": OptionList(spec.path, tuple(o.name for o in spec.options)) or None,
            }
            near = close_word(name, _option_words(spec))
            if near is not None:
                hint = OptionName(str(near), spec.path)
                raise UserError("command.unknown_option_close", hint=hint, **shown)
            raise UserError("command.unknown_option", **shown)
        if name in values:
            raise UserError("command.duplicate_option", option=OptionName(name, spec.path))
        values[name] = convert_value(spec, opt, given)
    for opt in spec.options:
        if opt.name not in values:
            if opt.required:
                raise UserError(
                    "command.missing_option",
                    command=CommandName(spec.path),
                    option=OptionName(opt.name, spec.path),
                    usage=usage(spec),
                )
            values[opt.name] = opt.default
    return values


def convert_value(spec: CommandSpec, opt: Option, given: Any) -> Any:
    def bad(key: str = "command.bad_value", **more: Any) -> UserError:
        return UserError(key, option=OptionName(opt.name, spec.path), value=str(given), **more)

    if opt.type is OptType.FILE:
        return read_json(opt, given)
    if isinstance(given, str) and not limits.is_unicode(given):
        raise bad("command.text_not_unicode")
    if opt.type is OptType.INT:
        return _int(opt, given, bad)
    if opt.type is OptType.BOOL:
        if isinstance(given, bool):
            return given
        word = nfkc(str(given)).strip().casefold()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise bad("command.not_bool")
    if opt.type is OptType.CHOICE:
        word = norm_word(str(given))
        for alias, choice in opt.aliases:
            if alias.casefold() == word:
                return choice
        words = choice_words(opt.name, opt.choices)
        if word in words:
            return words[word]
        choices = ChoiceList(opt.name, opt.choices)
        near = close_word(word, words)
        if near is not None:
            raise bad("command.not_choice_close", choices=choices, hint=ChoiceName(opt.name, str(near)))
        raise bad("command.not_choice", choices=choices)
    if opt.type is OptType.DAMAGE:
        if isinstance(given, int) and not isinstance(given, bool):
            return _int(opt, given, bad, 0, limits.MAX_HP)
        text = nfkc(str(given)).strip()
        if not text:
            raise bad()
        if limits.parse_int(text.replace("−", "-")) is not None:
            return _int(opt, text, bad, 0, limits.MAX_HP)
        return _text(opt, text, bad)
    if opt.type in (OptType.USER, OptType.ROLE):
        text = nfkc(str(given)).strip()
        mention = (_MENTION if opt.type is OptType.USER else _ROLE_MENTION).fullmatch(text)
        if mention:
            return mention.group(1)
        text = text.removeprefix("@")
        if not text:
            raise bad()
        return _text(opt, text, bad, limits.NAME_MAX)
    if opt.type is OptType.SHEET:
        if isinstance(given, SheetSource):
            return given
        text = str(given).strip()
        if text.startswith(("http://", "https://")):  # a front-end fetches URLs before the service runs
            raise bad("sheet.url_not_fetched")
        return SheetSource(text)
    if opt.type is OptType.TEXTFILE:
        text = given.decode("utf-8-sig") if isinstance(given, bytes) else str(given)
        if not text.strip():
            raise bad("command.empty")
        return text
    text = str(given)
    if not text.strip():
        raise bad("command.empty")
    return _text(opt, text, bad)


def _int(
    opt: Option,
    given: Any,
    bad: Callable[..., UserError],
    lo: int = -limits.MAX_NUMBER,
    hi: int = limits.MAX_NUMBER,
) -> int:
    """An integer option within its bounds (``lo``..``hi`` where the spec gives none: any number
    within ±``limits.MAX_NUMBER``, damage from 0 to ``limits.MAX_HP``)."""
    if isinstance(given, bool):
        raise bad("command.not_int")
    number = given if isinstance(given, int) else limits.parse_int(nfkc(str(given)).replace("−", "-"))
    if number is None:
        raise bad("command.not_int")
    lo = opt.min if opt.min is not None else lo
    hi = opt.max if opt.max is not None else hi
    if not lo <= number <= hi:
        raise bad("command.out_of_range", min=lo, max=hi)
    return number


def _text(opt: Option, text: str, bad: Callable[..., UserError], max_len: int | None = None) -> str:
    """A text option: valid Unicode, no control characters (line breaks and tabs where the option
    is ``multiline``), at most its ``max_len`` characters."""
    longest = max_len or opt.max_len or limits.TEXT_MAX
    checked = text.replace("\n", "").replace("\t", "").replace("\r", "") if opt.multiline else text
    problem = limits.text_problem(checked, longest)
    if problem is None and len(text) > longest:
        problem = "too_long"
    if problem is not None:
        raise bad(f"command.text_{problem}", max=longest, length=len(text))
    return text


class JsonRefused(ValueError):
    """JSON text beyond the limits (``load_json``): ``key`` and ``values`` say which, with the limit.

    A ``ValueError``, so that a reader that takes any unreadable JSON as "not JSON" still refuses it."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


class _JsonNumber(Exception):
    """A number that no rule can mean (too many digits, NaN, Infinity)."""


def _json_int(text: str) -> int:
    number = limits.parse_int(text)
    if number is None or abs(number) >= limits.HUGE:
        raise _JsonNumber(text)
    return number


def _json_constant(text: str) -> Any:
    raise _JsonNumber(text)


def load_json(text: str) -> Any:
    """``json.loads`` for what users hand in (imports, sheets): a BOM dropped, arrays and objects
    nested at most ``limits.IMPORT_MAX_DEPTH`` deep (never a ``RecursionError``), numbers of at most
    ``limits.NUMBER_DIGITS`` digits (never the ``ValueError`` of ``int``'s 4,300-digit limit), no NaN
    or Infinity, every string valid Unicode (no lone surrogate from a ``\\ud800`` escape).

    Raises ``json.JSONDecodeError`` for text that is not JSON, ``JsonRefused`` past a limit.
    """
    try:
        value = json.loads(text.removeprefix("\ufeff"), parse_int=_json_int, parse_constant=_json_constant)
    except RecursionError:
        raise JsonRefused("command.json_too_deep", max=limits.IMPORT_MAX_DEPTH) from None
    except _JsonNumber:
        raise JsonRefused("command.json_number", digits=limits.NUMBER_DIGITS) from None
    return _within_limits(value)


def _within_limits(value: Any) -> Any:
    """``value`` (parsed JSON) if it nests within the depth limit and holds valid Unicode only."""
    if limits.json_depth(value) > limits.IMPORT_MAX_DEPTH:
        raise JsonRefused("command.json_too_deep", max=limits.IMPORT_MAX_DEPTH)
    if limits.first_bad_string(value) is not None:
        raise JsonRefused("command.json_not_unicode")
    return value


def read_json(opt: Option, given: Any) -> dict[str, Any]:
    """An imported document: at most ``limits.IMPORT_MAX_BYTES`` of UTF-8 (a BOM is dropped), within
    the limits of ``load_json``, an object."""

    def bad(key: str, **more: Any) -> UserError:
        return UserError(key, option=OptionName(opt.name), **more)

    try:
        if isinstance(given, Mapping):
            document = _within_limits(dict(given))
        else:
            raw = given if isinstance(given, str | bytes) else str(given)
            size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
            if size > limits.IMPORT_MAX_BYTES:
                raise bad("command.json_too_large", max=limits.IMPORT_MAX_BYTES // 1000)
            if isinstance(raw, bytes):
                try:
                    raw = raw.decode("utf-8-sig")
                except UnicodeDecodeError:
                    raise bad("command.json_not_text") from None
            document = load_json(raw)
    except json.JSONDecodeError as error:
        raise bad("command.bad_json", line=error.lineno, column=error.colno) from None
    except JsonRefused as refused:
        raise bad(refused.key, **refused.values) from None
    if not isinstance(document, dict):
        raise bad("command.json_not_object")
    return document


# ---------------------------------------------------------------------------------------------
# The generic commands


def ruleset_lifecycle(group: str, ruleset: str) -> tuple[CommandSpec, ...]:
    """``status``, ``log``, ``export``, ``import`` of a rule set's group (``/fort ...``, ``/sg ...``)."""
    return (
        CommandSpec(group, "status", Kind.STATUS, ruleset=ruleset),
        CommandSpec(
            group,
            "log",
            Kind.LOG,
            (Option("last", OptType.INT, default=20, min=1, max=200),),
            ruleset=ruleset,
        ),
        CommandSpec(group, "export", Kind.EXPORT, ruleset=ruleset),
        CommandSpec(
            group,
            "import",
            Kind.IMPORT,
            (Option("file", OptType.FILE, required=True),),
            ruleset=ruleset,
        ),
    )


GENERIC: tuple[CommandSpec, ...] = (
    CommandSpec(
        None,
        "roll",
        Kind.ROLL,
        (
            # a dice command (``engine.dice`` allows 200 characters) and a comment after it
            Option("expr", OptType.STR, required=True, max_len=300, rest=True),
            Option("secret", OptType.BOOL, default=False),
        ),
    ),
    CommandSpec(None, "help", Kind.HELP, (Option("command", OptType.STR, max_len=60),)),
    CommandSpec("gm", "undo", Kind.UNDO, (Option("steps", OptType.INT, default=1, min=1, max=100),), gm=True),
    CommandSpec("gm", "redo", Kind.REDO, (Option("steps", OptType.INT, default=1, min=1, max=100),), gm=True),
    # applies to whatever battle runs here: the battle's rule set builds it (RulesetBinding.builders)
    CommandSpec(
        "gm",
        "set",
        Kind.ENGINE,
        (Option("target", OptType.STR, required=True), Option("value", OptType.STR, required=True)),
        gm=True,
    ),
    CommandSpec("gm", "add", Kind.GM_ADD, (Option("user", OptType.USER, required=True),), gm=True),
    CommandSpec("gm", "remove", Kind.GM_REMOVE, (Option("user", OptType.USER, required=True),), gm=True),
    # Manage Server only (the service checks); without ``role`` the server's GM role is removed
    CommandSpec("gm", "role", Kind.GM_ROLE, (Option("role", OptType.ROLE),)),
)

#: the battlefield pictures (a rule set with a map); the fort's is ``bot.render.picture``
PICTURES: tuple[CommandSpec, ...] = (CommandSpec("fort", "map", Kind.MAP, ruleset="fort"),)

register(*GENERIC, *PICTURES)


def groups(specs: Iterable[CommandSpec]) -> dict[str | None, list[CommandSpec]]:
    out: dict[str | None, list[CommandSpec]] = {}
    for spec in specs:
        out.setdefault(spec.group, []).append(spec)
    return out
