"""One cog per command group, generated from the command table (``bot.registry.commands()``).

Every ``CommandSpec`` becomes an ``app_commands.Command`` whose parameters are made from its
options, through discord.py's public API only (a callback with a signature, the ``describe``,
``rename``, ``choices`` and ``autocomplete`` decorators, ``guild_only`` on a ``GroupCog``): Discord
option types from ``OptType``, choices for fixed sets, min/max for numbers, required or optional,
and autocomplete where the rule set names a list of names (``RuleSet.names``: units, PCs, edges ...).
The callback hands the values to ``Frontend.command``; nothing here knows a rule, so a new rule set's
group (``/sg``) gets its cog from its commands in the registry.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Callable, Coroutine, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Optional

import discord
from discord import app_commands
from discord.ext import commands as ext

from bot.commands import WITHIN, CommandSpec, Kind, Option, OptType, groups
from bot.discord import labels
from bot.registry import rulesets

if TYPE_CHECKING:
    from bot.discord.frontend import Frontend

#: Discord allows at most 25 choices; a longer fixed set is offered by autocomplete
MAX_CHOICES = 25
Completer = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]


#: ``/palette``'s options that complete from the user's own palettes (its lines, its characters)
PALETTE_COMPLETED = frozenset({"line", "name"})


def py_name(option: str) -> str:
    """The Python parameter name of an option (``from`` → ``from_``); Discord sees the option name."""
    return option + "_" if keyword.iskeyword(option) or not option.isidentifier() else option


def _annotation(opt: Option) -> Any:
    if opt.type is OptType.INT:
        base: Any = int if opt.min is None and opt.max is None else app_commands.Range[int, opt.min, opt.max]
    elif opt.type is OptType.BOOL:
        base = bool
    elif opt.type is OptType.USER:
        base = discord.User
    elif opt.type is OptType.ROLE:
        base = discord.Role
    elif opt.type in (OptType.FILE, OptType.TEXTFILE):
        base = discord.Attachment
    else:  # STR, CHOICE, DAMAGE (a number or a dice expression, typed as text), SHEET (a URL)
        base = str
    return base if opt.required else Optional[base]  # noqa: UP045 - discord.py reads typing.Optional


def make_command(spec: CommandSpec, frontend: Frontend, owner: str) -> app_commands.Command[Any, ..., None]:
    """The slash command of ``spec``, as a method of the cog class named ``owner``."""
    names = {py_name(opt.name): opt.name for opt in spec.options}

    async def callback(cog: Any, interaction: discord.Interaction, **values: Any) -> None:
        raw = {names[key]: value for key, value in values.items() if value is not None}
        await frontend.command(interaction, spec, raw)

    parameters = [
        inspect.Parameter("cog", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
    ]
    descriptions: dict[str, app_commands.locale_str] = {}
    renames: dict[str, app_commands.locale_str] = {}
    choices: dict[str, list[app_commands.Choice[str]]] = {}
    completers: dict[str, Completer] = {}
    for opt in spec.options:
        name = py_name(opt.name)
        parameters.append(
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=_annotation(opt),
                default=inspect.Parameter.empty if opt.required else None,
            )
        )
        descriptions[name] = labels.option_desc(spec, opt)
        renames[name] = labels.option_name(spec, opt)
        if opt.type is OptType.CHOICE and len(opt.choices) <= MAX_CHOICES:
            choices[name] = [labels.choice(opt, value) for value in opt.choices]
        elif (
            opt.type is OptType.CHOICE
            or rulesets().completion_kind(spec, opt) is not None
            or (spec.kind is Kind.PALETTE and opt.name in PALETTE_COMPLETED)
        ):
            completers[name] = _completer(frontend, spec, opt)

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__name__ = py_name(spec.name)
    callback.__qualname__ = f"{owner}.{py_name(spec.name)}"
    # discord.py's public decorators, each keyed by parameter name, as ``@app_commands.describe(...)``
    # would be written over a hand-written callback
    app_commands.describe(**descriptions)(callback)
    app_commands.rename(**renames)(callback)
    app_commands.choices(**choices)(callback)
    app_commands.autocomplete(**completers)(callback)
    return app_commands.Command(
        name=labels.command_name(spec),
        description=labels.command_desc(spec),
        callback=callback,
        extras={"path": spec.path},
    )


def _completer(frontend: Frontend, spec: CommandSpec, opt: Option) -> Completer:
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await frontend.complete(interaction, spec, opt, current)

    return complete


def _class_name(group: str | None, specs: Iterable[CommandSpec]) -> str:
    word = group if group is not None else "_".join(s.name for s in specs)
    return "".join(part.capitalize() for part in word.split("_")) + "Cog"


def build_cogs(frontend: Frontend, specs: Mapping[str, CommandSpec]) -> list[ext.Cog]:
    """One cog per group: a ``GroupCog`` (``/fort ...``) or, for top-level commands, a plain cog."""
    cogs: list[ext.Cog] = []
    # a command Discord reads as the words of another's option (``/roll secrets``) is not its own
    registered = (spec for spec in specs.values() if WITHIN not in spec.extra)
    for group, members in groups(registered).items():
        name = _class_name(group, members)
        attrs: dict[str, Any] = {spec.name: make_command(spec, frontend, name) for spec in members}
        attrs["__module__"] = __name__
        attrs["__qualname__"] = name
        cls: Any
        if group is None:
            cls = ext.CogMeta(name, (ext.Cog,), attrs)
        else:
            cls = ext.CogMeta(
                name,
                (ext.GroupCog,),
                attrs,
                group_name=labels.group_name(group),
                group_description=labels.group_desc(group),
            )
            cls = app_commands.guild_only()(cls)  # on top of a GroupCog: its group is guild-only
        cogs.append(cls())
    return cogs
