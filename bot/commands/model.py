"""The command model: a ``CommandSpec`` names a command (``fort start``), its options (types, choices,
defaults), whether it is for GMs, what the service does with it (``Kind``), and for rule commands a
builder that turns the checked option values into the engine's command object.

Nothing here knows a rule set or holds a table of commands: each rule set lists its own commands
(``RuleSet.commands``), and the registry (``bot.registry``) makes the one table of them all.
"""

from __future__ import annotations

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
    MAP = "map"  # the status as a picture (a rule set with pictures)
    LOG = "log"
    EXPORT = "export"
    IMPORT = "import"
    UNDO = "undo"
    REDO = "redo"
    GM_ADD = "gm_add"
    GM_REMOVE = "gm_remove"
    GM_ROLE = "gm_role"
    #: ``/gm takeover``: Manage Channels makes its member a GM of the channel's battle, said and logged
    GM_TAKEOVER = "gm_takeover"
    ROLL = "roll"
    #: ``/roll secrets``, ``/roll reveal number:``: a channel's kept secret rolls
    SECRETS = "secrets"
    REVEAL = "reveal"
    #: ``/palette``: a line of the user's own character's palette, wherever they are; ``/palette
    #: register``, ``/palette forget``: the sheets they keep for it
    PALETTE = "palette"
    PALETTE_REGISTER = "palette_register"
    PALETTE_FORGET = "palette_forget"
    #: ``/settings``: a channel's settings (chat dice), no battle needed
    SETTINGS = "settings"
    #: reads the channel's battle without changing it (``spec.query``), or answers with a command to apply
    QUERY = "query"
    #: the rule set's planner (``RuleSet.planner``) plays the battle forward many times, outside the
    #: channel's lock and off the event loop (``/fort odds``)
    PLAN = "plan"
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
    """What a builder may use besides the option values: who runs the command (and the rule set's
    ``authorize``, who may)."""

    invoker: str
    is_gm: bool
    #: the names the invoker goes by besides the id (Discord: username, display name), which a
    #: character owner given as a name (``@はなこ``) matches
    names: tuple[str, ...] = ()
    #: a start's: the channel's last battle before it, as (its rule set's name, its document), for a
    #: battle that begins where another ended (``/battle start from:fort``, B-VIEW-2); None: none
    previous: tuple[str, Mapping[str, Any]] | None = None
    #: the channel's battle as its document, made when called (``/gm set`` reads its targets' names)
    document: Callable[[], Mapping[str, Any]] | None = None


Builder = Callable[[Mapping[str, Any], BuildContext], Any]


@dataclass(frozen=True, slots=True)
class QueryContext:
    """What a query may use: who asks, and the dice (a palette roll)."""

    invoker: str
    is_gm: bool
    dice: DiceSource
    #: as ``BuildContext.names``
    names: tuple[str, ...] = ()


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


def groups(specs: Iterable[CommandSpec]) -> dict[str | None, list[CommandSpec]]:
    """The commands by group (None: the commands without one), in the order given."""
    out: dict[str | None, list[CommandSpec]] = {}
    for spec in specs:
        out.setdefault(spec.group, []).append(spec)
    return out


def extended(
    specs: Iterable[CommandSpec], path: str, change: Callable[[CommandSpec], CommandSpec]
) -> tuple[CommandSpec, ...]:
    """``specs`` with the command ``path`` replaced by ``change(spec)`` (a feature adding options to
    another's command: ``/pc add ... sheet:``). ``KeyError`` if no command has that path."""
    out = list(specs)
    for n, spec in enumerate(out):
        if spec.path == path:
            out[n] = change(spec)
            return tuple(out)
    raise KeyError(path)
