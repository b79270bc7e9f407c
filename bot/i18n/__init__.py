"""Message catalogues: every sentence a user reads, per language (``ja`` default, ``en``).

A language's catalogue is a folder of flat TOML files (``bot/i18n/<lang>/*.toml``, one per part of
the bot: ``core``, ``fort``, ``discord``, ``sengensho``, ...) of ``key = "text with {placeholders}"``;
a key lives in one file only. ``t(key, lang, **values)``
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
    flat: dict[str, str] = {}
    folder = resources.files("bot.i18n").joinpath(lang)
    for part in sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name):
        found: dict[str, str] = {}
        _flatten("", tomllib.loads(part.read_text(encoding="utf-8")), found)
        twice = found.keys() & flat.keys()
        if twice:
            raise ValueError(f"catalogue {lang}/{part.name} repeats keys of another file: {sorted(twice)}")
        flat.update(found)
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
