"""Message catalogues: every sentence a user reads, per language (``ja`` default, ``en``).

A catalogue is a flat TOML file of ``key = "text with {placeholders}"``. ``t(key, lang, **values)``
fills one in; a key with no entry is shown as the key itself (the catalogue test keeps that from
happening), so a missing sentence is visible rather than fatal.
"""

from __future__ import annotations

import string
import tomllib
from functools import cache
from importlib import resources
from typing import Any

DEFAULT_LANG = "ja"
LANGUAGES = ("ja", "en")


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The catalogue of ``lang`` as a flat dict (unknown languages fall back to the default)."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANG
    raw = resources.files("bot.i18n").joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    data = tomllib.loads(raw)
    flat: dict[str, str] = {}
    _flatten("", data, flat)
    return flat


def _flatten(prefix: str, data: dict[str, Any], out: dict[str, str]) -> None:
    for key, value in data.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict):
            _flatten(full + ".", value, out)
        else:
            out[full] = str(value)


def has(key: str, lang: str = DEFAULT_LANG) -> bool:
    return key in catalogue(lang)


def t(key: str, lang: str = DEFAULT_LANG, **values: Any) -> str:
    """The sentence ``key`` in ``lang`` with ``values`` filled in."""
    text = catalogue(lang).get(key)
    if text is None:
        if not values:
            return key
        return key + " " + ", ".join(f"{k}={v}" for k, v in values.items())
    return string.Formatter().vformat(text, (), _Missing(values))


def placeholders(text: str) -> set[str]:
    """The placeholder names used in one catalogue text."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}
