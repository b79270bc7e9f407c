"""The hardened JSON reader for what users hand in (imports, sheets, ``toride roll --jsonl``): nothing a
user's file holds can crash a reader or slip past the limits of COMMANDS.md."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.commands.model import UserError
from bot.i18n.names import OptionName
from engine import limits


class JsonRefused(ValueError):
    """JSON text beyond the limits (``load_json``): ``key`` and ``values`` say which, with the limit.

    A ``ValueError``, so that a reader that takes any unreadable JSON as "not JSON" still refuses it."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


class _JsonNumber(Exception):
    """A number that no rule can mean (too many digits, NaN, Infinity)."""


def _json_int(text: str) -> int:
    number = limits.parse_int(text)
    if number is None or abs(number) >= limits.HUGE:
        raise _JsonNumber(text)
    return number


def _json_constant(text: str) -> Any:
    raise _JsonNumber(text)


def load_json(text: str) -> Any:
    """``json.loads`` for what users hand in (imports, sheets): a BOM dropped, arrays and objects
    nested at most ``limits.IMPORT_MAX_DEPTH`` deep (never a ``RecursionError``), numbers of at most
    ``limits.NUMBER_DIGITS`` digits (never the ``ValueError`` of ``int``'s 4,300-digit limit), no NaN
    or Infinity, every string valid Unicode (no lone surrogate from a ``\\ud800`` escape).

    Raises ``json.JSONDecodeError`` for text that is not JSON, ``JsonRefused`` past a limit.
    """
    try:
        value = json.loads(text.removeprefix("\ufeff"), parse_int=_json_int, parse_constant=_json_constant)
    except RecursionError:
        raise JsonRefused("command.json_too_deep", max=limits.IMPORT_MAX_DEPTH) from None
    except _JsonNumber:
        raise JsonRefused("command.json_number", digits=limits.NUMBER_DIGITS) from None
    return _within_limits(value)


def _within_limits(value: Any) -> Any:
    """``value`` (parsed JSON) if it nests within the depth limit and holds valid Unicode only."""
    if limits.json_depth(value) > limits.IMPORT_MAX_DEPTH:
        raise JsonRefused("command.json_too_deep", max=limits.IMPORT_MAX_DEPTH)
    if limits.first_bad_string(value) is not None:
        raise JsonRefused("command.json_not_unicode")
    return value


def read_json(option: str, given: Any) -> dict[str, Any]:
    """An imported document given to the option ``option``: at most ``limits.IMPORT_MAX_BYTES`` of
    UTF-8 (a BOM is dropped), within the limits of ``load_json``, an object."""

    def bad(key: str, **more: Any) -> UserError:
        return UserError(key, option=OptionName(option), **more)

    try:
        if isinstance(given, Mapping):
            document = _within_limits(dict(given))
        else:
            raw = given if isinstance(given, str | bytes) else str(given)
            size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
            if size > limits.IMPORT_MAX_BYTES:
                raise bad("command.json_too_large", max=limits.IMPORT_MAX_BYTES // 1000)
            if isinstance(raw, bytes):
                try:
                    raw = raw.decode("utf-8-sig")
                except UnicodeDecodeError:
                    raise bad("command.json_not_text") from None
            document = load_json(raw)
    except json.JSONDecodeError as error:
        raise bad("command.bad_json", line=error.lineno, column=error.colno) from None
    except JsonRefused as refused:
        raise bad(refused.key, **refused.values) from None
    if not isinstance(document, dict):
        raise bad("command.json_not_object")
    return document
