"""The commands every battle has, whatever its rule set: ``/roll``, ``/help``, ``/gm ...``, and the
lifecycle commands a rule set's group gets (``status``, ``log``, ``export``, ``import``); and
``engine_command``, which makes a rule set's command from its engine command class."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from bot.commands.model import BuildContext, CommandSpec, Kind, Option, OptType


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


#: ``CommandSpec.extra``'s key of a command that Discord reads as the words of another's first option
WITHIN = "within"

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
    # Discord cannot give ``/roll`` subcommands beside its options: there these two are typed as the
    # words of ``/roll``'s ``expr:`` (``/ダイス 秘密一覧``), which is where Discord's client puts them
    CommandSpec("roll", "secrets", Kind.SECRETS, extra={WITHIN: "roll"}),
    CommandSpec(
        "roll",
        "reveal",
        Kind.REVEAL,
        (Option("number", OptType.INT, required=True, min=1),),
        extra={WITHIN: "roll"},
    ),
    # a line of the user's own palette (a PC of the channel's battle, or a sheet they registered);
    # Discord's ``/palette`` also takes ``register``'s ``sheet:`` and ``file:`` (``/パレット 登録 シート:``)
    CommandSpec(
        None,
        "palette",
        Kind.PALETTE,
        (
            Option("line", OptType.STR, required=True, max_len=200, rest=True),
            Option("name", OptType.STR, max_len=64),
            Option("secret", OptType.BOOL, default=False),
            # ``register``'s, for Discord, where it is typed as this command's words
            Option("sheet", OptType.SHEET),
            Option("file", OptType.TEXTFILE),
        ),
    ),
    CommandSpec(
        "palette",
        "register",
        Kind.PALETTE_REGISTER,
        (Option("sheet", OptType.SHEET), Option("file", OptType.TEXTFILE)),
        extra={WITHIN: "palette"},
    ),
    CommandSpec(
        "palette",
        "forget",
        Kind.PALETTE_FORGET,
        (Option("name", OptType.STR, required=True, max_len=64),),
        extra={WITHIN: "palette"},
    ),
    # Manage Server or the server's GM role (the service checks)
    CommandSpec(None, "settings", Kind.SETTINGS, (Option("chat_dice", OptType.BOOL, required=True),)),
    CommandSpec(None, "help", Kind.HELP, (Option("command", OptType.STR, max_len=60),)),
    CommandSpec("gm", "undo", Kind.UNDO, (Option("steps", OptType.INT, default=1, min=1, max=100),), gm=True),
    CommandSpec("gm", "redo", Kind.REDO, (Option("steps", OptType.INT, default=1, min=1, max=100),), gm=True),
    # applies to whatever battle runs here: the battle's rule set builds it (RuleSet.builders)
    CommandSpec(
        "gm",
        "set",
        Kind.ENGINE,
        (Option("target", OptType.STR, required=True), Option("value", OptType.STR, required=True)),
        gm=True,
    ),
    # Manage Channels only (the service checks): not a GM-only command, a way to become one
    CommandSpec("gm", "takeover", Kind.GM_TAKEOVER),
    CommandSpec("gm", "add", Kind.GM_ADD, (Option("user", OptType.USER, required=True),), gm=True),
    CommandSpec("gm", "remove", Kind.GM_REMOVE, (Option("user", OptType.USER, required=True),), gm=True),
    # Manage Server only (the service checks); without ``role`` the server's GM role is removed
    CommandSpec("gm", "role", Kind.GM_ROLE, (Option("role", OptType.ROLE),)),
)
#: the groups of the generic commands, in the order ``/help`` lists them
GENERIC_GROUPS = ("gm", "roll", "palette", "settings", "help")


def engine_command(
    ruleset: str,
    group: str,
    name: str,
    cls: type[Any],
    *options: Option,
    kind: Kind = Kind.ENGINE,
    renames: Mapping[str, str] | None = None,
) -> CommandSpec:
    """The command ``/group name`` building the engine command class ``cls`` (a dataclass).

    Whether an option is required and its default come from ``cls``'s fields, the (GM) mark from its
    ``gm_only``, so the table cannot drift from the engine; a field ``invoker`` gets the invoking user.
    ``renames`` maps option names to field names where they differ (``from`` → ``from_``).
    """
    names = renames or {}
    fields = {f.name: f for f in dataclasses.fields(cls)}
    full: list[Option] = []
    for opt in options:
        f = fields[names.get(opt.name, opt.name)]
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        full.append(dataclasses.replace(opt, required=required, default=None if required else f.default))

    def build(values: Mapping[str, Any], ctx: BuildContext) -> Any:
        kwargs = {names.get(k, k): v for k, v in values.items()}
        if "invoker" in fields:
            kwargs["invoker"] = ctx.invoker
        return cls(**kwargs)

    return CommandSpec(group, name, kind, tuple(full), gm=bool(cls.gm_only), ruleset=ruleset, build=build)
