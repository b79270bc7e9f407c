"""``t()`` fills a catalogue sentence from a template compiled once, with exactly the output of
``string.Formatter().vformat`` (what it used before), a missing value shown as ``{name}``."""

from __future__ import annotations

import string
from decimal import Decimal
from enum import StrEnum
from typing import Any

import pytest

from bot.i18n import LANGUAGES, catalogue, fill, placeholders, t
from bot.i18n.catalogue import _compiled


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def reference(text: str, values: dict[str, Any]) -> str:
    """The formatting ``t()`` used before: a ``string.Formatter`` per call."""
    return string.Formatter().vformat(text, (), _Missing(values))


class Colour(StrEnum):
    RED = "red"


class Shouty:
    def __format__(self, spec: str) -> str:
        return f"<{spec or 'plain'}>"

    def __str__(self) -> str:  # never used by format(): __format__ wins
        return "str"


SAMPLES: tuple[object, ...] = (
    "ゴブリン隊",
    12,
    -3,
    2.5,
    1e20,
    None,
    True,
    Decimal("1.50"),
    Colour.RED,
    Shouty(),
    [1, 2],
)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_sentence_is_filled_as_before(lang: str) -> None:
    for key, text in catalogue(lang).items():
        names = sorted(placeholders(text))
        full = {name: SAMPLES[i % len(SAMPLES)] for i, name in enumerate(names)}
        half = {name: value for i, (name, value) in enumerate(full.items()) if i % 2}
        for values in (full, half, {}, {**full, "unused": 1}):
            assert t(key, lang, **values) == reference(text, values), key


def test_a_template_is_compiled_once() -> None:
    text = "{a} と {b}"
    assert _compiled(text) is _compiled(text)
    assert _compiled(text) == (("", "a"), (" と ", "b"))


@pytest.mark.parametrize(
    ("text", "values", "expected"),
    [
        ("{name} の HP {hp}", {"name": "A", "hp": 3}, "A の HP 3"),
        ("{name} の HP {hp}", {"name": "A"}, "A の HP {hp}"),
        ("{name} の HP {hp}", {}, "{name} の HP {hp}"),
        ("no fields {{ ... }}", {}, "no fields { ... }"),
        ("{{{name}}}", {"name": "x"}, "{x}"),
        ("{{{name}}}", {}, "{{name}}"),
        ("{a}{a}{b}", {"a": 1, "b": 2}, "112"),
        ("", {}, ""),
        ("{x}", {"x": Shouty()}, "<plain>"),
        ("{x}", {"x": Colour.RED}, "red"),
        ("{x}", {"x": None}, "None"),
        # more than plain names: formatted by string.Formatter, as before
        ("{n:>4}|{n!r}", {"n": "ab"}, "  ab|'ab'"),
        ("{n:03d}", {"n": 7}, "007"),
        ("{x:{w}}", {"x": "a", "w": 3}, "a  "),
        ("{p[0]}-{p[1]}", {"p": ["a", "b"]}, "a-b"),
        ("{x:>5}", {}, "  {x}"),
    ],
)
def test_fill_matches_the_formatter(text: str, values: dict[str, Any], expected: str) -> None:
    assert fill(text, values) == expected == reference(text, values)


@pytest.mark.parametrize("text", ["{", "}", "a { b", "{x!z}", "{0}", "{}"])
def test_a_broken_template_fails_as_before(text: str) -> None:
    with pytest.raises((ValueError, IndexError)) as before:
        reference(text, {"x": 1})
    with pytest.raises(before.type) as now:
        fill(text, {"x": 1})
    assert str(now.value) == str(before.value)


def test_a_missing_key_reads_as_the_key_with_its_values() -> None:
    assert t("no.such.key", "ja") == "no.such.key"
    assert t("no.such.key", "en", a=1, b="x") == "no.such.key a=1, b=x"
