"""The one table of slash commands, shared by the console and the Discord cogs.

A ``CommandSpec`` names a command (``fort start``), its options (types, choices, defaults),
whether it is for GMs, what the service does with it (``Kind``), and for rule commands a
builder that turns the checked option values into the engine's command object. Rule sets
register their own commands (``bot.rulesets.fort``); the generic ones (``/roll``, ``/gm ...``)
are registered here.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

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
    ROLL = "roll"
    #: reads the channel's battle without changing it (``spec.query``), or answers with a command to apply
    QUERY = "query"
    #: the odds planner: plays the rest of the battle many times, outside the channel's lock
    ODDS = "odds"


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    type: OptType = OptType.STR
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    #: other words a choice option accepts, as (word, choice): an earlier spelling kept working
    aliases: tuple[tuple[str, str], ...] = ()


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
    """The refusal for ``/words`` that name no command: a group's subcommands, or a close command."""
    table = commands()
    words = [norm_word(w) for w in words]
    typed = " ".join(words)
    group = words[0] if words else ""
    subs = sorted(spec.name for spec in table.values() if spec.group == group)
    if subs and len(words) == 1:
        return UserError("command.needs_sub", group="/" + group, subs=", ".join(subs))
    if subs:
        sub = " ".join(words[1:])
        values = {"group": "/" + group, "sub": sub, "subs": ", ".join(subs)}
        near = difflib.get_close_matches(sub, subs, n=1, cutoff=0.6)
        if near:
            return UserError("command.unknown_sub_close", hint=f"/{group} {near[0]}", **values)
        return UserError("command.unknown_sub", **values)
    close = difflib.get_close_matches(typed, list(table), n=1, cutoff=0.6)
    if close:
        return UserError("command.unknown_close", command="/" + typed, hint="/" + close[0])
    return UserError("command.unknown", command="/" + typed)


def usage(spec: CommandSpec) -> str:
    """``/fort start rounds:<1-99> [fort_hp:<int>] ...``: the options and what each takes."""
    parts = ["/" + spec.path]
    for opt in spec.options:
        part = f"{opt.name}:<{_takes(opt)}>"
        parts.append(part if opt.required else f"[{part}]")
    return " ".join(parts)


_TAKES = {
    OptType.STR: "text",
    OptType.INT: "int",
    OptType.BOOL: "true|false",
    OptType.USER: "@user",
    OptType.DAMAGE: "n|dice",
    OptType.FILE: "json",
    OptType.TEXTFILE: "file",
    OptType.SHEET: "url|file",
}


def _takes(opt: Option) -> str:
    if opt.choices:
        return "|".join(opt.choices)
    if opt.type is OptType.INT and opt.min is not None and opt.max is not None:
        return f"{opt.min}-{opt.max}"
    return _TAKES.get(opt.type, opt.type.value)


# ---------------------------------------------------------------------------------------------
# Option values


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def norm_word(text: str) -> str:
    """A command or option word as the table spells it (full-width and case folded)."""
    return " ".join(nfkc(text).casefold().split())


_INT = re.compile(r"[+-]?\d+")
_TRUE = {"true", "yes", "on", "1", "はい"}
_FALSE = {"false", "no", "off", "0", "いいえ"}
_MENTION = re.compile(r"<@!?(\d+)>")


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
            raise UserError(
                "command.unknown_option",
                command="/" + spec.path,
                option=given_name,
                allowed=", ".join(o.name for o in spec.options) or "-",
            )
        if name in values:
            raise UserError("command.duplicate_option", option=name)
        values[name] = convert_value(spec, opt, given)
    for opt in spec.options:
        if opt.name not in values:
            if opt.required:
                raise UserError(
                    "command.missing_option", command="/" + spec.path, option=opt.name, usage=usage(spec)
                )
            values[opt.name] = opt.default
    return values


def convert_value(spec: CommandSpec, opt: Option, given: Any) -> Any:
    def bad(key: str = "command.bad_value", **more: Any) -> UserError:
        return UserError(key, option=opt.name, value=str(given), **more)

    if opt.type is OptType.INT:
        if isinstance(given, bool):
            raise bad("command.not_int")
        if isinstance(given, int):
            number = given
        else:
            text = nfkc(str(given)).strip().replace("−", "-")
            if not _INT.fullmatch(text):
                raise bad("command.not_int")
            number = int(text)
        if (opt.min is not None and number < opt.min) or (opt.max is not None and number > opt.max):
            raise bad(
                "command.out_of_range",
                min=opt.min if opt.min is not None else "-",
                max=opt.max if opt.max is not None else "-",
            )
        return number
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
        word = nfkc(str(given)).strip().casefold()
        for choice in opt.choices:
            if choice.casefold() == word:
                return choice
        for alias, choice in opt.aliases:
            if alias.casefold() == word:
                return choice
        raise bad("command.not_choice", choices=" | ".join(opt.choices))
    if opt.type is OptType.DAMAGE:
        if isinstance(given, int) and not isinstance(given, bool):
            return given
        text = nfkc(str(given)).strip()
        if not text:
            raise bad()
        if _INT.fullmatch(text):
            return int(text)
        return text
    if opt.type is OptType.USER:
        text = nfkc(str(given)).strip()
        mention = _MENTION.fullmatch(text)
        if mention:
            return mention.group(1)
        text = text.removeprefix("@")
        if not text:
            raise bad()
        return text
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
    if opt.type is OptType.FILE:
        if isinstance(given, Mapping):
            return dict(given)
        try:
            document = json.loads(given if isinstance(given, str | bytes) else str(given))
        except json.JSONDecodeError as error:
            raise bad("command.bad_json", line=error.lineno, column=error.colno, error=error.msg) from None
        except ValueError:  # not UTF-8 text
            raise bad("command.json_not_text") from None
        if not isinstance(document, dict):
            raise bad("command.json_not_object")
        return document
    text = str(given)
    if not text.strip():
        raise bad("command.empty")
    return text


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
            gm=True,
            ruleset=ruleset,
        ),
    )


GENERIC: tuple[CommandSpec, ...] = (
    CommandSpec(
        None,
        "roll",
        Kind.ROLL,
        (Option("expr", OptType.STR, required=True), Option("secret", OptType.BOOL, default=False)),
    ),
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
)

#: the battlefield pictures (a rule set with a map); the fort's is ``bot.render.picture``
PICTURES: tuple[CommandSpec, ...] = (CommandSpec("fort", "map", Kind.MAP, ruleset="fort"),)

register(*GENERIC, *PICTURES)


def groups(specs: Iterable[CommandSpec]) -> dict[str | None, list[CommandSpec]]:
    out: dict[str | None, list[CommandSpec]] = {}
    for spec in specs:
        out.setdefault(spec.group, []).append(spec)
    return out
