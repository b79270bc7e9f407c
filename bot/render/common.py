"""Pieces every text renderer uses: values as text, one event as a line, an HP bar."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from engine.ruleset import Event


def value_text(value: Any, lang: str) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return t("render.yes" if value else "render.no", lang)
    if isinstance(value, list | tuple):
        return t("render.list_sep", lang).join(value_text(v, lang) for v in value) or "-"
    if isinstance(value, Mapping):
        if "text" in value:  # a roll as the rules record it: BCDice's own text
            return str(value["text"])
        return " ".join(f"{k}={value_text(v, lang)}" for k, v in value.items())
    return str(value)


def values_text(values: Mapping[str, Any], lang: str) -> dict[str, str]:
    return {k: value_text(v, lang) for k, v in values.items()}


def dice_text(dice: tuple[tuple[int, int], ...] | list[Any]) -> str:
    return ",".join(str(v) for _, v in dice)


def event_line(event: Event, lang: str) -> str:
    line = t(event.kind, lang, **values_text(event.data, lang))
    if event.dice:
        line += " " + t("render.dice", lang, dice=dice_text(event.dice))
    return line


def hp_bar(hp: int, max_hp: int, width: int = 20) -> str:
    """``[██████████░░░░░░░░░░]``: the filled part is hp / max_hp of the width (not below 0)."""
    if max_hp <= 0:
        filled = 0
    else:
        filled = max(0, min(width, round(width * hp / max_hp)))
        if hp > 0 and filled == 0:
            filled = 1
    return "[" + "█" * filled + "░" * (width - filled) + "]"
