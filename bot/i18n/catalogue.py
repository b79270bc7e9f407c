"""Message catalogues: every sentence a user reads, per language (``ja`` default, ``en``).

A language's catalogue is the flat TOML files (``key = "text with {placeholders}"``) of its folder
``<lang>/`` in each catalogue folder: the bot's own (``bot/i18n/``: ``core``, ``discord``, ``words``,
...) and each rule set's (``bot/rulesets/fort/i18n/`` ...), which the registry names when it is
installed (``use_folders``). A key lives in one file only. ``t(key, lang, **values)`` fills one in; a
key with no entry is shown as the key itself (the catalogue test keeps that from happening), so a
missing sentence is visible rather than fatal.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from bot.i18n.marks import resolve_marks
from bot.i18n.named import shown

DEFAULT_LANG = "ja"
LANGUAGES = ("ja", "en")


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


#: parses templates and formats the rare one that is more than plain ``{name}`` fields (stateless)
_FORMATTER = string.Formatter()
#: a compiled template: (literal text, then the field's name or None), in order
_Parts = tuple[tuple[str, str | None], ...]


@lru_cache(maxsize=8192)
def _compiled(text: str) -> _Parts | None:
    """``text`` split once into literal text and plain ``{name}`` fields (``{{``/``}}`` already
    unescaped); None when a field has a conversion, a format spec, an attribute or an index, or is no
    name (``string.Formatter`` formats those). A malformed template raises ValueError, as formatting
    it does."""
    parts: list[tuple[str, str | None]] = []
    for literal, name, spec, conversion in _FORMATTER.parse(text):
        if name is not None and (spec or conversion or not name.isidentifier()):
            return None
        parts.append((literal, name))
    return tuple(parts)


def fill(text: str, values: dict[str, Any]) -> str:
    """``text`` with ``values`` filled in, as ``string.Formatter().vformat`` fills it; a field
    without a value stays ``{name}`` (visible, never fatal)."""
    parts = _compiled(text)
    if parts is None:
        return _FORMATTER.vformat(text, (), _Missing(values))
    out: list[str] = []
    for literal, name in parts:
        out.append(literal)
        if name is not None:
            out.append(format(values[name], "") if name in values else "{" + name + "}")
    return "".join(out)


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The catalogue of ``lang`` as a flat dict (unknown languages fall back to the default), its marks
    of commands, options and choices (``[[/cannon load]]``, ``[[rounds:]]``) in the words of ``lang``
    (``bot.i18n.names``)."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANG
    raw = raw_catalogue(lang)
    return {key: resolve_marks(text, raw, lang) for key, text in raw.items()}


#: the catalogue folders besides the bot's own: those of the rule sets installed (``use_folders``)
_FOLDERS: tuple[Traversable, ...] = ()


def own_folder() -> Traversable:
    """The bot's own catalogue folder (``bot/i18n``), its languages' files in ``ja/``, ``en/``."""
    return resources.files("bot.i18n")


def folders() -> tuple[Traversable, ...]:
    """Every catalogue folder read: the bot's own first, then the rule sets'."""
    return (own_folder(), *_FOLDERS)


def use_folders(extra: Iterable[Traversable]) -> None:
    """Read the catalogue folders ``extra`` beside the bot's own (the rule sets' of the registry being
    installed, ``bot.registry.install``), from the next sentence on."""
    global _FOLDERS
    chosen = tuple(extra)
    if chosen != _FOLDERS:
        _FOLDERS = chosen
        catalogue.cache_clear()
        raw_catalogue.cache_clear()


def catalogue_files(lang: str) -> list[Traversable]:
    """The TOML files of ``lang``'s catalogue, folder by folder, each folder's by name."""
    files: list[Traversable] = []
    for folder in folders():
        own = folder.joinpath(lang)
        if own.is_dir():
            files += sorted((f for f in own.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)
    return files


@cache
def raw_catalogue(lang: str) -> dict[str, str]:
    """The catalogue of ``lang`` as written, marks and all."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANG
    flat: dict[str, str] = {}
    for part in catalogue_files(lang):
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
    if values:
        values = shown(values, lang)
    if text is None:
        if not values:
            return key
        return key + " " + ", ".join(f"{k}={v}" for k, v in values.items())
    return fill(text, values)


def placeholders(text: str) -> set[str]:
    """The placeholder names used in one catalogue text."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FORMATTER.parse(text) if name}
