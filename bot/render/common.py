"""Pieces every text renderer uses: values as text, one event as a line, an HP bar."""

from __future__ import annotations

import errno
import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from bot.i18n import catalogue, has, placeholders, t
from bot.i18n.names import Named, OptionName
from bot.i18n.words import ordinal, plurals, variant
from bot.registry import rulesets
from engine import limits
from engine.ruleset import Event

#: how much of a refused value a refusal shows
ECHO_MAX = 120


def value_text(value: Any, lang: str, field: str = "") -> str:
    """A value in a sentence; words of the rules (``success``, ``enemy``) read ``value.<field>.<word>``."""
    if value is None:
        return t("render.none", lang)
    if isinstance(value, Named):  # a command, an option or a choice: as the reader's client shows it
        return value.text(lang)
    if isinstance(value, bool):
        return t("render.yes" if value else "render.no", lang)
    if isinstance(value, str) and field:
        key = f"value.{field}.{value}"
        if has(key, lang):
            return t(key, lang)
        return value
    if isinstance(value, list | tuple):
        return t("render.list_sep", lang).join(value_text(v, lang, field) for v in value) or t(
            "render.none", lang
        )
    if isinstance(value, Mapping):
        if "text" in value:  # a roll as the rules record it: BCDice's own text
            return str(value["text"])
        return t("render.list_sep", lang).join(value_text(v, lang, k) for k, v in value.items())
    return str(value)


#: an operating system's refusal of a file, by its errno, as a word of the catalogue (``value.error.<word>``)
_OS_ERRORS = {
    errno.ENOENT: "not_found",
    errno.EACCES: "no_permission",
    errno.EPERM: "no_permission",
    errno.EISDIR: "is_directory",
    errno.ENOTDIR: "not_directory",
    errno.ENOSPC: "no_space",
    errno.EROFS: "read_only",
    errno.ENAMETOOLONG: "name_too_long",
    errno.EEXIST: "exists",
    errno.ELOOP: "loop",
}


if hasattr(errno, "EDQUOT"):  # a disk quota (not every system has it)
    _OS_ERRORS[errno.EDQUOT] = "no_space"


def os_error_word(error: OSError) -> str:
    """Why the system refused a file, as a word a sentence shows in the user's language (through
    ``value_text(word, lang, "error")``), never the system's own English text."""
    return _OS_ERRORS.get(error.errno or 0, "other")


def os_error_text(error: OSError, lang: str) -> str:
    """``os_error_word`` in words."""
    return value_text(os_error_word(error), lang, "error")


def absent(value: Any) -> bool:
    """A value a sentence leaves out (its variant without that part): None, or empty text."""
    return value is None or value == ""


def sentence(
    key: str,
    lang: str,
    values: Mapping[str, Any],
    *,
    parts: Mapping[str, str] | None = None,
    escape: Callable[[str], str] | None = None,
) -> str:
    """The sentence ``key`` with ``values`` in words: the variant without the values that are absent
    (``bot.i18n.words.variant``), each value as ``value_text`` says (``escape``d, for Discord), a
    ``reason`` code in the catalogue's words (with the values of its ``detail``), plurals resolved.
    ``parts`` are sentence parts already in words (an event's: ``RuleSet.text.event_values``), never
    absent."""
    if key not in catalogue(lang):  # the catalogue tests keep this from happening; show the key, not a crash
        return t(key, lang)
    given = dict(parts or {})
    missing = {n for n in _names(key, lang) if n not in given and absent(values.get(n))}
    key = variant(key, lang, missing)
    shown: dict[str, str] = {}
    for name, value in values.items():
        if absent(value) or name in ("detail", "allowed_kind"):
            continue
        if name == "reason" and isinstance(value, str):
            shown[name] = reason_text(value, values.get("detail"), lang, escape)
            continue
        if name == "place" and isinstance(value, str):
            place = place_text(value, lang)
            shown[name] = escape(place) if escape is not None else place
            continue
        if name == "options" and isinstance(value, list | tuple):  # option names, as the reader types them
            word = t("render.list_sep", lang).join(OptionName(str(v)).text(lang) for v in value)
        elif name == "allowed" and values.get("allowed_kind") and isinstance(value, list | tuple):
            word = _typed_words(value, str(values["allowed_kind"]), lang)
        else:  # the words a value takes are those of its own field (``success`` → 防衛成功)
            word = value_text(value, lang, name)
        if escape is None:
            shown[name] = word
        else:
            shown[name] = value.escaped(lang, escape) if isinstance(value, Named) else escape(word)
    shown.update(given)
    for name in _names(key, lang):
        shown.setdefault(name, "")
    return plurals(t(key, lang, **shown), {**values, **given}).rstrip()


def _typed_words(words: list[Any] | tuple[Any, ...], field: str, lang: str) -> str:
    """Allowed words as they are typed, each with its meaning where it has one: ``ended(戦闘終了)``."""
    shown = []
    for word in words:
        meaning = value_text(word, lang, field)
        same = meaning == str(word)
        shown.append(str(word) if same else t("render.typed_word", lang, word=word, meaning=meaning))
    return t("render.list_sep", lang).join(shown)


@cache
def _names(key: str, lang: str) -> frozenset[str]:
    """The placeholders of the sentence ``key`` (read once per key and language)."""
    return frozenset(placeholders(catalogue(lang)[key]))


def reason_text(code: str, detail: Any, lang: str, escape: Callable[[str], str] | None = None) -> str:
    """Why a value was refused, in words: ``value.reason.<code>`` (``not_an_integer``), or the
    refusal ``code`` names (``fort.area_invalid``), filled in with ``detail``'s values."""
    values = detail if isinstance(detail, Mapping) else {}
    for key in (f"value.reason.{code}", code):
        if has(key, lang):
            return sentence(key, lang, values, escape=escape).removesuffix("。").removesuffix(".")
    return t("value.reason.unknown", lang)


#: how a language joins the parts of a place in a file: innermost first (en: the HP of the 3rd unit)
_INNERMOST_FIRST = frozenset({"en"})
_PATH_PART = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


def place_text(path: str, lang: str) -> str:
    """A place in an imported file in words: ``$.units[2].hp`` → 3番目のユニットのHP / the HP of the
    3rd unit; ``characters.0.dp`` likewise. Names without a word of their own are shown as written."""
    parts: list[str] = []
    pending: str | None = None  # a list's key, waiting for its index
    for index, name in _PATH_PART.findall(path.removeprefix("$")):
        if name.isdigit():
            index, name = name, ""
        if index:
            item = t(f"place.item.{pending}", lang) if pending and has(f"place.item.{pending}", lang) else ""
            if pending and parts:
                parts.pop()
            parts.append(t("place.nth", lang, nth=ordinal(int(index) + 1, lang), item=item))
            pending = None
            continue
        pending = name
        field = f"place.field.{name}"
        parts.append(t(field, lang) if has(field, lang) else t("place.named", lang, name=name))
    if not parts:
        return t("place.document", lang)
    if lang in _INNERMOST_FIRST:
        parts.reverse()
    return t("place.join", lang).join(parts)


def echo(value: Any) -> Any:
    """A value a user gave, as a refusal shows it: at most ``ECHO_MAX`` characters, and control
    characters and invalid Unicode as U+FFFD (a refused name never breaks a line or the terminal)."""
    if not isinstance(value, str):
        return value
    if len(value) > ECHO_MAX:
        value = value[: ECHO_MAX - 1] + "…"
    return limits.shown_safely(value)


def refusal_text(
    key: str, values: Mapping[str, Any], lang: str, escape: Callable[[str], str] | None = None
) -> str:
    """A refusal as a sentence (``sentence``), the user's own values echoed safely (``echo``), those of
    its reason's ``detail`` too."""
    shown = {k: echo(v) for k, v in values.items()}
    detail = shown.get("detail")
    if isinstance(detail, Mapping):
        shown["detail"] = {k: echo(v) for k, v in detail.items()}
    return sentence(key, lang, shown, escape=escape)


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
    elif (
        ("before" in event.data and event.data["before"] is None)
        or ("after" in event.data and event.data["after"] is None)
    ) and has(f"{key}.untracked", lang):
        # HP nobody tracks (a PC added without hp:): say so rather than "HP -→-"
        key = f"{key}.untracked"
    elif "title" in event.data and not event.data["title"] and has(f"{key}.untitled", lang):
        key = f"{key}.untitled"
    # the sentence parts its rule set computes from its data (``sg.rolled`` → the dice paid ...)
    extra_values = rulesets().event_values.get(event.kind)
    parts = dict(extra_values(event.data, lang)) if extra_values is not None else {}
    line = sentence(key, lang, event.data, parts=parts)
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
