"""``/help`` and ``/help <group>`` (or ``/help <group> <command>``), in the console and Discord, in the
user's language: every command with its catalogue description (the one Discord shows), and for a group
each command's options, its Japanese name, and an example (``help.example.<path dotted>``)."""

from __future__ import annotations

from bot.command_names import help_groups, japanese_path, topic_specs
from bot.commands import CommandSpec, Kind, norm_word, usage
from bot.i18n import catalogue, has, t


def _dotted(path: str) -> str:
    return path.replace(" ", ".")


def _desc(key: str, lang: str) -> str:
    return t(key, lang) if has(key, lang) else t("help.no_desc", lang)


def help_text(lang: str, topic: str = "") -> str:
    """The help: every command, or one group's (one command's) options and examples."""
    specs = topic_specs(topic)
    if specs is None:
        return _overview(lang)
    lines: list[str] = []
    for spec in specs:
        lines.extend(_command(spec, lang))
        lines.append("")
    return "\n".join(lines).rstrip()


def _overview(lang: str) -> str:
    lines = [t("help.header", lang)]
    for group, specs in help_groups().items():
        if len(specs) > 1 or specs[0].group is not None:
            japanese = "/" + (catalogue("ja").get(f"cmd.{group}.name") or group)
            lines.append(_named("help.group", lang, "/" + group, japanese, _desc(f"cmd.{group}.desc", lang)))
        for spec in specs:
            desc = _desc(f"cmd.{_dotted(spec.path)}.desc", lang)
            lines.append(_named("help.command", lang, "/" + spec.path, japanese_path(spec), desc))
    lines.append(t("help.console", lang))
    return "\n".join(lines)


def _named(key: str, lang: str, path: str, japanese: str, desc: str) -> str:
    """``key`` with the Japanese name beside the English one, or ``key.plain`` where they are the same."""
    if norm_word(japanese) == norm_word(path):
        return t(key + "_plain", lang, path=path, desc=desc)
    return t(key, lang, path=path, japanese=japanese, desc=desc)


def _option_name(spec: CommandSpec, name: str) -> str:
    """The option's Japanese name as Discord shows it (its English name where there is none)."""
    special = f"cmd.{_dotted(spec.path)}.opt.{name}.name"
    key = special if has(special, "ja") else f"opt.{name}.name"
    return t(key, "ja") if has(key, "ja") else name


def _option_desc(spec: CommandSpec, name: str, lang: str) -> str:
    special = f"cmd.{_dotted(spec.path)}.opt.{name}.desc"
    return _desc(special if has(special, lang) else f"opt.{name}.desc", lang)


def _command(spec: CommandSpec, lang: str) -> list[str]:
    lines = [
        t("help.usage", lang, usage=usage(spec)),
        t("help.desc", lang, desc=_desc(f"cmd.{_dotted(spec.path)}.desc", lang)),
        "  " + t("help.japanese", lang, path=japanese_path(spec)),
    ]
    for opt in spec.options:
        key = "help.option_required" if opt.required else "help.option"
        japanese = _option_name(spec, opt.name)
        if norm_word(japanese) == opt.name:
            key += "_plain"
        desc = _option_desc(spec, opt.name, lang)
        lines.append(t(key, lang, name=opt.name, japanese=japanese, desc=desc))
    if spec.kind is Kind.EXPORT and spec.option("file") is None:
        lines.append(t("help.export_file", lang))
    example = f"help.example.{_dotted(spec.path)}"
    if has(example, lang):
        lines.append(t("help.example", lang, example=t(example, lang)))
    return lines
