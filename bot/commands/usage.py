"""A command's options as its reader types them: ``/fort start rounds:<1-99> [fort_hp:<int>] ...``."""

from __future__ import annotations

from dataclasses import dataclass

from bot.commands.model import CommandSpec, Option, OptType
from bot.i18n import catalogue, t
from bot.i18n.names import ChoiceList, Named, command_text, option_text


@dataclass(frozen=True, slots=True, eq=False)
class Usage(Named):
    """``/fort start rounds:<1-99> [fort_hp:<int>] ...``: the options and what each takes, in the
    reader's words (``/砦 開始 ラウンド数:<1〜99> [砦hp:<整数>] …``)."""

    spec: CommandSpec

    def text(self, lang: str) -> str:
        spec = self.spec
        names = catalogue(lang)
        parts = [command_text(spec.path, names)]
        for opt in spec.options:
            part = f"{option_text(opt.name, names, spec.path)}:<{_takes(opt, lang)}>"
            parts.append(part if opt.required else f"[{part}]")
        return " ".join(parts)


def usage(spec: CommandSpec) -> Usage:
    """``/fort start rounds:<1-99> [fort_hp:<int>] ...``: the options and what each takes."""
    return Usage(spec)


def _takes(opt: Option, lang: str) -> str:
    if opt.choices:
        return "|".join(opt.choices) if lang == "en" else ChoiceList(opt.name, opt.choices).text(lang)
    if opt.type is OptType.INT and opt.min is not None and opt.max is not None:
        return t("usage.range", lang, min=opt.min, max=opt.max)
    return t(f"usage.{opt.type.value}", lang)
