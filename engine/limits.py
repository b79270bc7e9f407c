"""The limits of COMMANDS.md's Conventions: one definition, used by commands and imports alike.

Names 1-32 characters, titles and free texts up to 100, no control characters; at most 200 units,
20 commanders, 20 PCs, 40 traps and 10 cannons per battle; numbers within what the rules can mean
(HP and damage up to 100,000). An imported document is at most 1 MB, nested at most 20 deep.

A value beyond a limit raises ``LimitError``: its key (``limits.*``) names a sentence that says the
limit, in the user's language. Nothing here knows a rule set.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from engine.ruleset import RuleError

#: names of PCs, units, commanders, characters (in characters, after NFKC and trimming)
NAME_MAX = 32
#: titles and free texts (option values, a weakness, a war-horn's effect ...)
TEXT_MAX = 100
MAX_UNITS = 200
MAX_COMMANDERS = 20
MAX_PCS = 20
MAX_TRAPS = 40
MAX_CANNONS = 10
#: 千幻抄: PCs and enemies together, as many as a fort battle's units
MAX_CHARACTERS = 200
#: HP (of the fort, units, commanders, PCs) and damage
MAX_HP = 100_000
#: any other number an option or a document holds lies within ±MAX_NUMBER
MAX_NUMBER = 100_000
#: an imported document (UTF-8 bytes) and how deep its arrays and objects may nest
IMPORT_MAX_BYTES = 1_000_000
IMPORT_MAX_DEPTH = 20

#: characters never allowed in a name or a text: they break lines, drive a terminal or turn text
#: around (bidirectional embeddings, overrides and isolates)
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_LINE_BREAKS = frozenset("\u2028\u2029")


#: letters that show nothing: Hangul fillers (a name of them looks empty), the blank Braille pattern
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_ZWJ = "\u200d"


def _invisible(text: str, i: int) -> bool:
    """Is ``text[i]`` a character that shows nothing: a format character (Unicode category Cf:
    zero-width space and joiners, word joiner, soft hyphen, BOM, ...; not the direction controls,
    which ``is_control`` refuses) or a filler? A zero-width joiner
    between two symbols is kept: it joins an emoji sequence (👨‍👩‍👧)."""
    char = text[i]
    if char in _FILLERS:
        return True
    if char in _BIDI or unicodedata.category(char) != "Cf":  # a direction control is refused, not dropped
        return False
    if char == _ZWJ and 0 < i < len(text) - 1:
        before = text[i - 1] if text[i - 1] != "\ufe0f" or i < 2 else text[i - 2]
        return not (unicodedata.category(before) == "So" and unicodedata.category(text[i + 1]) == "So")
    return True


def visible(text: str) -> str:
    """``text`` in NFKC without the characters that show nothing (``_invisible``): so ``Bob`` and
    ``Bob\u200b`` are one name, and a name made of nothing else is empty (and refused)."""
    text = unicodedata.normalize("NFKC", text)
    if text.isascii():
        return text
    return "".join(c for i, c in enumerate(text) if not _invisible(text, i))


class LimitError(RuleError):
    """A value beyond a limit of COMMANDS.md; the sentence of its key says the limit."""


#: every refusal raised here, with the values it carries (each rule set's refusals besides its own)
REFUSALS: dict[str, tuple[str, ...]] = {
    "limits.name": ("name", "max"),
    "limits.name_invisible": (),
    "limits.text_not_unicode": ("what", "max", "length"),
    "limits.text_control": ("what", "max", "length"),
    "limits.text_too_long": ("what", "max", "length"),
    "limits.too_many": ("what", "max", "count"),
    "limits.number": ("what", "min", "max", "value"),
}


def is_control(char: str) -> bool:
    """C0 and C1 controls (tab and newline included), DEL, U+2028/2029, bidirectional controls."""
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F or char in _LINE_BREAKS or char in _BIDI


def is_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode, i.e. has no lone surrogate (it could not be stored as UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_safely(text: str) -> str:
    """``text`` with every control character and lone surrogate as U+FFFD (for echoing it back)."""
    if text_problem(text, len(text)) is None:
        return text
    return "".join("\ufffd" if is_control(c) or not is_unicode(c) else c for c in text)


def text_problem(text: str, max_len: int) -> str | None:
    """What is wrong with ``text`` as a name or text of at most ``max_len`` characters, or None.

    ``not_unicode`` (a lone surrogate), ``control`` (see ``is_control``), ``too_long``.
    """
    if not is_unicode(text):
        return "not_unicode"
    if any(is_control(c) for c in text):
        return "control"
    if len(text) > max_len:
        return "too_long"
    return None


def check_name(name: str) -> None:
    """A new name: 1-32 characters after NFKC, without the characters that show nothing (``visible``)
    and trimmed; no control characters (``limits.name``); not made of invisible characters only
    (``limits.name_invisible``)."""
    problem = text_problem(name, len(name))
    shown = visible(name).strip() if problem != "not_unicode" else ""
    if problem is None and not shown and name.strip():
        raise LimitError("limits.name_invisible", about="name")
    if problem is not None or not shown or len(shown) > NAME_MAX:
        raise LimitError("limits.name", about="name", name=shown, max=NAME_MAX)


def check_text(what: str, text: str, max_len: int = TEXT_MAX) -> None:
    """A title or free text: at most ``max_len`` characters, valid Unicode, no control characters."""
    problem = text_problem(text, max_len)
    if problem is not None:
        raise LimitError(f"limits.text_{problem}", about=what, what=what, max=max_len, length=len(text))


def check_count(what: str, count: int, limit: int) -> None:
    """At most ``limit`` of ``what`` (``units``, ``pcs`` ...) in a battle (``limits.too_many``)."""
    if count > limit:
        raise LimitError("limits.too_many", about=what, what=what, max=limit, count=count)


def check_number(what: str, value: int | None, lo: int = -MAX_NUMBER, hi: int = MAX_NUMBER) -> None:
    """A number within ``lo``..``hi`` (``limits.number``, about ``what``: a field's name, or the last key
    of a path ``$.units[0].hp``); None passes."""
    if value is not None and not lo <= value <= hi:
        field = re.sub(r"\[\d+\]$", "", what.rsplit(".", 1)[-1])
        raise LimitError("limits.number", about=field, what=what, min=lo, max=hi, value=value)


#: more digits than any limit needs: such a number is read as ±HUGE, which every range refuses
NUMBER_DIGITS = 18
HUGE: int = 10**NUMBER_DIGITS


def parse_int(text: str) -> int | None:
    """``text`` (ASCII digits, an optional sign, spaces around) as an integer, or None if it is none.

    It never raises: a number of more than 18 digits reads as ``±HUGE`` (beyond every limit, so a
    range check refuses it) and is never handed to ``int``, whose 4,300-digit limit raises
    ``ValueError``. Callers normalise first (NFKC, ``−`` for ``-``).
    """
    body = text.strip()
    sign = body[:1] if body[:1] in ("+", "-") else ""
    digits = body[len(sign) :]
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    if len(digits.lstrip("0")) > NUMBER_DIGITS:
        return -HUGE if sign == "-" else HUGE
    return int(sign + digits)


def json_depth(value: Any, limit: int = IMPORT_MAX_DEPTH) -> int:
    """How deep arrays and objects nest in ``value`` (a scalar: 0), counted up to ``limit + 1``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth) for child in children)
    return deepest


def first_bad_string(value: Any) -> str | None:
    """A string (key or value) in a JSON value that is not valid Unicode, if any."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not is_unicode(item):
                return item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def check_numbers(document: Any, lo: int = -MAX_NUMBER, hi: int = MAX_NUMBER) -> None:
    """Every integer in a JSON value within ``lo``..``hi`` (``limits.number``, ``what``: its path)."""
    stack: list[tuple[Any, str]] = [(document, "$")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, bool):
            continue
        if isinstance(item, int):
            check_number(path, item, lo, hi)
        elif isinstance(item, dict):
            stack.extend((v, f"{path}.{k}") for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))
