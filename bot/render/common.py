"""Pieces every text renderer uses: values as text, one event as a line, an HP bar."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import catalogue, has, placeholders, t
from engine import limits
from engine.ruleset import Event

#: how much of a refused value a refusal shows
ECHO_MAX = 120

#: per event kind: extra sentence values computed from its data (``sg.rolled`` → the dice paid ...);
#: rule sets' renderers fill it in (``bot.render.sengensho_text``)
EVENT_VALUES: dict[str, Callable[[Mapping[str, Any], str], Mapping[str, Any]]] = {}


def value_text(value: Any, lang: str, field: str = "") -> str:
    """A value in a sentence; words of the rules (``success``, ``enemy``) read ``value.<field>.<word>``."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return t("render.yes" if value else "render.no", lang)
    if isinstance(value, str) and field:
        key = f"value.{field}.{value}"
        if has(key, lang):
            return t(key, lang)
        return value
    if isinstance(value, list | tuple):
        return t("render.list_sep", lang).join(value_text(v, lang, field) for v in value) or "-"
    if isinstance(value, Mapping):
        if "text" in value:  # a roll as the rules record it: BCDice's own text
            return str(value["text"])
        return " ".join(f"{k}={value_text(v, lang, k)}" for k, v in value.items())
    return str(value)


def values_text(values: Mapping[str, Any], lang: str) -> dict[str, str]:
    return {k: value_text(v, lang, k) for k, v in values.items()}


def echo(value: Any) -> Any:
    """A value a user gave, as a refusal shows it: at most ``ECHO_MAX`` characters, and control
    characters and invalid Unicode as U+FFFD (a refused name never breaks a line or the terminal)."""
    if not isinstance(value, str):
        return value
    if len(value) > ECHO_MAX:
        value = value[: ECHO_MAX - 1] + "…"
    return limits.shown_safely(value)


def refusal_values(values: Mapping[str, Any], lang: str) -> dict[str, str]:
    """A refusal's values as text, the user's own values echoed safely (``echo``)."""
    return values_text({k: echo(v) for k, v in values.items()}, lang)


def dice_text(dice: tuple[tuple[int, int], ...] | list[Any]) -> str:
    return ",".join(str(v) for _, v in dice)


def _rolls(data: Mapping[str, Any]) -> list[str]:
    """BCDice texts of the rolls an event carries (``roll``, ``rolls``)."""
    found: list[Any] = []
    for name in ("roll", "rolls"):
        value = data.get(name)
        if isinstance(value, Mapping):
            found.append(value)
        elif isinstance(value, list | tuple):
            found.extend(v for v in value if isinstance(v, Mapping))
    return [str(r["text"]) for r in found if r.get("text")]


def _checks(data: Mapping[str, Any], lang: str) -> list[str]:
    """The d6 of F-UNIT-4 for each unit that could be caught."""
    checks = data.get("checks")
    if not isinstance(checks, list | tuple):
        return []
    return [
        t(
            "render.check",
            lang,
            unit=c.get("unit"),
            die=c.get("die"),
            caught=value_text(bool(c.get("caught")), lang),
        )
        for c in checks
        if isinstance(c, Mapping)
    ]


def event_line(event: Event, lang: str) -> str:
    """One event as a sentence, then its rolls (BCDice text) or, without them, its dice."""
    key = event.kind
    source = event.data.get("source")
    if isinstance(source, str) and has(f"{key}.{source}", lang):
        key = f"{key}.{source}"
    elif event.data.get("arrive_round") is not None and has(f"{key}.reinforcement", lang):
        # a unit that arrives later is not "placed" (F-MAP-7)
        key = f"{key}.reinforcement"
    elif "before" in event.data and event.data["before"] is None and has(f"{key}.untracked", lang):
        # HP nobody tracks (a PC added without hp:): say so rather than "HP -→-"
        key = f"{key}.untracked"
    elif "title" in event.data and not event.data["title"] and has(f"{key}.untitled", lang):
        key = f"{key}.untitled"
    values = values_text(event.data, lang)
    extra_values = EVENT_VALUES.get(event.kind)
    if extra_values is not None:
        values.update(extra_values(event.data, lang))
    for name in placeholders(catalogue(lang).get(key, "")):
        values.setdefault(name, "-")
    line = t(key, lang, **values).rstrip()
    rolls = _rolls(event.data)
    extra = [*_checks(event.data, lang), *(t("render.roll", lang, text=r) for r in rolls)]
    if extra:
        line += " " + " ".join(extra)
    if event.dice and not rolls:
        line += " " + t("render.dice", lang, dice=dice_text(event.dice))
    turn = event.data.get("out_of_turn")
    if turn is not None:  # the GM's action in the other side's turn (fort F-TURN-3)
        line += " " + t("render.out_of_turn", lang, turn=value_text(turn, lang, "side"))
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
