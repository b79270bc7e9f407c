"""Names and descriptions of the generated slash commands, from the catalogues.

Base names are the English words of COMMANDS.md (fixed: users and scripts rely on them); base
descriptions are the English catalogue's. Each is a ``locale_str`` carrying its catalogue key,
so ``CatalogueTranslator`` can give Discord the Japanese name and description.

Keys: ``cmd.<group>.name|desc`` for a group, ``cmd.<path dotted>.name|desc`` for a command,
``opt.<option>.name|desc`` for an option (``cmd.<path dotted>.opt.<option>.name|desc`` overrides
it for one command), ``choice.<option>.<value>`` for a choice's display name.
"""

from __future__ import annotations

import regex
from discord import app_commands

from bot.commands import CommandSpec, Option
from bot.i18n import catalogue

#: Discord's limits for names and descriptions of commands, options and choices
NAME_MAX = 32
DESC_MAX = 100
CHOICE_MAX = 100
#: Discord's rule for CHAT_INPUT command and option names, their localizations too ("Application
#: Command Naming"): this pattern with the unicode flag, and a letter that has a lower-case variant
#: must be that variant (uncased letters, as in Japanese, are allowed as they are)
NAME_PATTERN = regex.compile(r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")


def valid_name(name: str) -> bool:
    """Would Discord accept ``name`` as a command or option name (pattern and lower case)?"""
    return NAME_PATTERN.fullmatch(name) is not None and all(c.lower() == c for c in name)


def _dotted(path: str) -> str:
    return path.replace(" ", ".")


def shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _base(key: str, fallback: str, limit: int) -> str:
    text = catalogue("en").get(key) or fallback
    return shorten(text, limit)


def group_name(group: str) -> app_commands.locale_str:
    return app_commands.locale_str(group, key=f"cmd.{group}.name", kind="name")


def group_desc(group: str) -> app_commands.locale_str:
    key = f"cmd.{group}.desc"
    return app_commands.locale_str(_base(key, "/" + group, DESC_MAX), key=key, kind="desc")


def command_name(spec: CommandSpec) -> app_commands.locale_str:
    return app_commands.locale_str(spec.name, key=f"cmd.{_dotted(spec.path)}.name", kind="name")


def command_desc_key(spec: CommandSpec) -> str:
    return f"cmd.{_dotted(spec.path)}.desc"


def command_desc(spec: CommandSpec) -> app_commands.locale_str:
    key = command_desc_key(spec)
    return app_commands.locale_str(_base(key, "/" + spec.path, DESC_MAX), key=key, kind="desc")


def option_name_key(spec: CommandSpec, opt: Option) -> str:
    special = f"cmd.{_dotted(spec.path)}.opt.{opt.name}.name"
    return special if special in catalogue("ja") else f"opt.{opt.name}.name"


def option_name(spec: CommandSpec, opt: Option) -> app_commands.locale_str:
    return app_commands.locale_str(opt.name, key=option_name_key(spec, opt), kind="name")


def option_desc_key(spec: CommandSpec, opt: Option) -> str:
    special = f"cmd.{_dotted(spec.path)}.opt.{opt.name}.desc"
    if special in catalogue("en") or special in catalogue("ja"):
        return special
    return f"opt.{opt.name}.desc"


def option_desc(spec: CommandSpec, opt: Option) -> app_commands.locale_str:
    key = option_desc_key(spec, opt)
    return app_commands.locale_str(_base(key, opt.name, DESC_MAX), key=key, kind="desc")


def choice_key(opt: Option, value: str) -> str:
    return f"choice.{opt.name}.{value}"


def choice(opt: Option, value: str) -> app_commands.Choice[str]:
    key = choice_key(opt, value)
    name = app_commands.locale_str(_base(key, value, CHOICE_MAX), key=key, kind="choice")
    return app_commands.Choice(name=name, value=value)
