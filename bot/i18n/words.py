"""Words that depend on the values of a sentence: English plurals, ordinals, and which variant of a
sentence to use when some of its values are absent.

The catalogues mark a word that follows a count as ``[[name:one|other]]`` (``{shells}
[[shells:shell|shells]]``): the form for one when the value ``name`` is 1, else the other. The mark
holds no ``{``, so the formatter (``bot.i18n.t``) leaves it for ``plurals`` to resolve afterwards; a
language without plurals (Japanese) never writes one.

A sentence with a value that may be absent has a variant without that part, keyed
``<key>.no_<name>`` (several absent names joined by ``+`` in sorted order: ``<key>.no_after+before``);
``variant`` picks the one that leaves out the most of the absent values.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from itertools import combinations
from typing import Any

from bot.i18n.catalogue import catalogue, t

_PLURAL = re.compile(r"\[\[(\w+):([^|\]]*)\|([^\]]*)\]\]")
#: English ordinal suffixes (1st 2nd 3rd 4th ... 11th 12th 13th ... 21st)
_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


def is_one(value: Any) -> bool:
    """Whether a count reads as one (an int or its text)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value in (1, -1)
    return isinstance(value, str) and value.strip().lstrip("+-") == "1"


def plurals(text: str, values: Mapping[str, Any]) -> str:
    """``text`` with every ``[[name:one|other]]`` mark replaced by the form ``values[name]`` asks for."""
    if "[[" not in text:
        return text
    return _PLURAL.sub(lambda m: m.group(2) if is_one(values.get(m.group(1))) else m.group(3), text)


def ordinal(n: int, lang: str) -> str:
    """``3`` as the language counts places: ``3rd`` (en), ``3`` (ja, whose sentence adds 番目)."""
    if lang != "en":
        return str(n)
    suffix = "th" if 10 <= n % 100 <= 20 else _SUFFIX.get(n % 10, "th")
    return f"{n}{suffix}"


def variant_key(base: str, absent: Collection[str]) -> str:
    """The key of ``base``'s variant without ``absent`` (sorted, joined by ``+``)."""
    return f"{base}.no_{'+'.join(sorted(absent))}"


def variant(key: str, lang: str, absent: Collection[str]) -> str:
    """The variant of ``key`` that leaves out the most of the ``absent`` values (``key`` itself when
    none of them, or no variant, exists)."""
    if not absent:
        return key
    texts = catalogue(lang)
    names = sorted(absent)
    for size in range(len(names), 0, -1):
        for chosen in combinations(names, size):
            candidate = variant_key(key, chosen)
            if candidate in texts:
                return candidate
    return key


def say(key: str, lang: str, **values: Any) -> str:
    """``t`` for a sentence whose words follow a count (``[[name:one|other]]``): the plurals resolved."""
    return plurals(t(key, lang, **values), values)
