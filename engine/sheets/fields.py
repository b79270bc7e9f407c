"""Typed reads of a ゆとシートⅡ JSON document's fields, each under the limits of engine/limits.py.

ゆとシート saves every field as a string (``"hpTotal": "35"``), a few that its update fills in as numbers;
a field left empty is absent. Text is stored HTML-escaped, with ``<br>`` for a new line, and then
escaped again, so the JSON carries ``&lt;br&gt;`` (ytsheet2 ``calc-chara.pl``): a text is unescaped
first and its ``<br>`` become new lines after. A value of another type (a list, a boolean) is absent.

A value beyond a limit is refused (``sheet.value_invalid``, ``sheet.text_too_long``, ``sheet.text_control``)
with the word of its field (``value.field.hp``: HP), so a hostile sheet changes nothing.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from engine import limits
from engine.ruleset import RuleError

_RUBY = re.compile(r"[|｜]([^|｜]+?)《.+?》")
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
#: the most rows of a table read (ゆとシート's forms stay well below)
MAX_ROWS = 50


def unescape(value: str) -> str:
    """ゆとシート's stored text as written: entities unescaped first, then ``<br>`` as new lines."""
    return _BR.sub("\n", html.unescape(value))


def strip_ruby(text: str) -> str:
    """``|蒼月《そうげつ》`` → ``蒼月``."""
    return _RUBY.sub(r"\1", text)


def refuse_number(field: str, value: Any, lo: int, hi: int) -> RuleError:
    text = str(value)
    shown = limits.shown_safely(text[:30]) + ("…" if len(text) > 30 else "")
    return RuleError("sheet.value_invalid", field=field, min=lo, max=hi, value=shown)


def refuse_text(field: str, text: str, max_len: int) -> RuleError:
    """``sheet.text_too_long``, or ``sheet.text_control`` for a text within the length."""
    key = "sheet.text_too_long" if len(text) > max_len else "sheet.text_control"
    return RuleError(key, field=field, max=max_len, length=len(text))


class Fields:
    """The fields of one document; ``field`` words (``hp``, ``weapon_name``) name a value refused."""

    def __init__(self, doc: Mapping[str, Any]) -> None:
        self.doc = doc

    def raw(self, key: str) -> str:
        """The field as text (unescaped, new lines kept), ``""`` when absent or not text."""
        value = self.doc.get(key)
        if value is None or isinstance(value, bool):
            return ""
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            return str(int(value)) if value.is_integer() else str(value)
        if not isinstance(value, str):
            return ""
        return unescape(value).strip()

    def text(self, key: str, field: str, max_len: int = limits.TEXT_MAX, *, lines: bool = False) -> str:
        """A text of at most ``max_len`` characters; without ``lines``, one line without controls."""
        text = self.raw(key)
        body = text.replace("\n", "").replace("\t", "") if lines else text
        if len(text) > max_len or not limits.is_unicode(text) or any(limits.is_control(c) for c in body):
            raise refuse_text(field, text, max_len)
        return text

    def name(self, key: str, field: str, max_len: int = limits.TEXT_MAX) -> str:
        """A name without its ruby, at most ``max_len`` characters (its ruby not counted)."""
        name = strip_ruby(self.text(key, field, max_len * 3)).strip()
        if len(name) > max_len:
            raise refuse_text(field, name, max_len)
        return name

    def int_(
        self, key: str, field: str, lo: int = -limits.MAX_NUMBER, hi: int = limits.MAX_NUMBER
    ) -> int | None:
        """An integer within ``lo``..``hi`` (read by ``limits.parse_int``), None when absent or no number."""
        value = self.doc.get(key)
        if isinstance(value, bool) or value is None:
            return None
        if isinstance(value, float):
            if not value.is_integer():
                return None
            value = int(value) if abs(value) < limits.HUGE else limits.HUGE
        if isinstance(value, int):
            number: int | None = value
        else:
            text = unicodedata.normalize("NFKC", self.raw(key)).replace("−", "-").replace(" ", "")
            number = limits.parse_int(text) if len(text) < 1000 else limits.HUGE
        if number is not None and not lo <= number <= hi:
            raise refuse_number(field, value, lo, hi)
        return number

    def count(self, key: str, *probes: str) -> int:
        """``weaponNum``-style row counts; without one, the rows that have a ``probe.format(n)`` field."""
        value = self.doc.get(key)
        text = self.raw(key) if isinstance(value, str | int) and not isinstance(value, bool) else ""
        given = limits.parse_int(unicodedata.normalize("NFKC", text)) if len(text) < 1000 else limits.HUGE
        if given is not None:
            return max(0, min(MAX_ROWS, given))
        n = 0
        while n < MAX_ROWS and any(probe.format(n + 1) in self.doc for probe in probes):
            n += 1
        return n

    def flag(self, key: str) -> bool:
        return self.raw(key) not in ("", "0")
