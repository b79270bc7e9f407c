"""``/help`` and ``/help <group>`` (or ``/help <group> <command>``), in the console and Discord, in the
user's language: every command with its catalogue description (the one Discord shows), and for a group
each command's options (those the command table gives it) and an example (``help.example.<path dotted>``;
in the console also ``help.console_example.<path dotted>``, one that needs the console, as its own
``file:`` of an export), every name as the reader's client shows it."""

from __future__ import annotations

import re

from bot.commands import CommandSpec, Kind, usage
from bot.i18n import catalogue, has, t
from bot.i18n.names import command_text, option_text
from bot.registry import rulesets


def _dotted(path: str) -> str:
    return path.replace(" ", ".")


def _desc(key: str, lang: str) -> str:
    return t(key, lang) if has(key, lang) else t("help.no_desc", lang)


def help_text(lang: str, topic: str = "", *, console: bool = True) -> str:
    """The help: every command, or one group's (one command's) options and examples; ``console``: the
    overview ends with how the console is used (not in Discord, where it means nothing)."""
    specs = rulesets().table.topic_specs(topic)
    if specs is None:
        return _overview(lang, console)
    lines: list[str] = []
    for spec in specs:
        lines.extend(_command(spec, lang, console))
        lines.append("")
    return "\n".join(lines).rstrip()


def _overview(lang: str, console: bool = True) -> str:
    lines = [t("help.header", lang)]
    names = catalogue(lang)
    for group, specs in rulesets().table.help_groups().items():
        if len(specs) == 1 and specs[0].group is None:  # a command of its own (``/roll``, ``/help``)
            desc = _desc(f"cmd.{_dotted(specs[0].path)}.desc", lang)
            lines.append(t("help.group_plain", lang, path=command_text(specs[0].path, names), desc=desc))
            continue
        desc = _desc(f"cmd.{group}.desc", lang)
        lines.append(t("help.group_plain", lang, path=command_text(group, names), desc=desc))
        for spec in specs:
            if spec.group is None:  # ``/roll`` itself, the head of its group
                continue
            desc = _desc(f"cmd.{_dotted(spec.path)}.desc", lang)
            lines.append(t("help.command_plain", lang, path=command_text(spec.path, names), desc=desc))
    if console:
        lines.append(t("help.console", lang))
    return "\n".join(lines)


def _option_desc(spec: CommandSpec, name: str, lang: str) -> str:
    special = f"cmd.{_dotted(spec.path)}.opt.{name}.desc"
    return _desc(special if has(special, lang) else f"opt.{name}.desc", lang)


#: a quoted value (``title:"North Fort"``): the console's words; Discord's client would keep the quotes
_QUOTED = re.compile(r'(?<=:)"([^"]*)"')


def _command(spec: CommandSpec, lang: str, console: bool = True) -> list[str]:
    """One command as its reader types it: the usage, the description, each option the command table
    gives it (and no other; in Discord, not the console's own), an example (in Discord, as typed there:
    a value runs to the next option, unquoted)."""
    names = catalogue(lang)
    lines = [
        t("help.usage", lang, usage=usage(spec)),
        t("help.desc", lang, desc=_desc(f"cmd.{_dotted(spec.path)}.desc", lang)),
    ]
    about = f"help.about.{_dotted(spec.path)}"  # what the short description has no room for
    if has(about, lang):
        lines.append(t("help.desc", lang, desc=t(about, lang)))
    for opt in spec.options:
        key = "help.option_required_plain" if opt.required else "help.option_plain"
        desc = _option_desc(spec, opt.name, lang)
        lines.append(t(key, lang, name=option_text(opt.name, names, spec.path), desc=desc))
    if console and spec.kind is Kind.EXPORT and spec.option("file") is None:
        lines.append(t("help.export_file", lang))
    example = f"help.example.{_dotted(spec.path)}"
    # more examples of one command: ``help.example.<path>.2``, ``.3`` ...
    keys = [key for key in (example, *(f"{example}.{n}" for n in range(2, 10))) if has(key, lang)]
    console_only = f"help.console_example.{_dotted(spec.path)}"
    if console and has(console_only, lang):
        keys.append(console_only)
    for key in keys:
        text = t(key, lang) if console else _QUOTED.sub(r"\1", t(key, lang))
        lines.append(t("help.example", lang, example=text))
    return lines
