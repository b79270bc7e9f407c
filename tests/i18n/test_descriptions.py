"""Issue 23, item 8: a command's and an option's description says something — what to give and what it
does — and never only restates the name Discord already shows beside it (``量: 量``, ``名前: 名前``,
``身体: 身体``, ``hp: HP``), in either language."""

from __future__ import annotations

import re
import unicodedata

import pytest

from bot.commands import CommandSpec
from bot.discord.labels import option_desc_key, option_name_key
from bot.i18n import LANGUAGES, catalogue
from bot.registry import commands, rulesets


def _norm(text: str, names: tuple[str, ...] = ()) -> str:
    """``text`` without what does not say anything: a bracket holding a unit (``(m)``) or the name in
    another language (``Body (身体)``), punctuation, spaces, a leading English article, case."""
    text = unicodedata.normalize("NFKC", text).casefold()
    others = {_norm(n) for n in names}
    text = re.sub(r"\(([^)]*)\)", lambda m: "" if len(m[1]) <= 2 or _norm(m[1]) in others else m[0], text)
    text = re.sub(r"^(?:the|an?)\s+", "", text)
    return re.sub(r"[\s.,:;。、・/()「」]", "", text)


def restates(desc: str, name: str, *others: str) -> bool:
    """Does ``desc`` only say ``name`` (or ``others``, its names in other languages) again, give or take
    one character (``修正値``)?"""
    d = _norm(desc, (name, *others))
    return d == "" or any(d == n or (n in d and len(d) - len(n) <= 1) for n in map(_norm, (name, *others)))


def test_the_check_finds_what_the_issue_found() -> None:
    assert restates("量", "量") and restates("名前", "名前") and restates("身体", "身体")
    assert restates("HP", "hp") and restates("The name", "name") and restates("Body (身体)", "body")
    assert restates("修正値", "修正") and restates("距離(m)", "距離") and restates("Defense", "defense")
    assert restates("Body (身体)", "body", "身体") and restates("Distance (m)", "distance")
    assert not restates("与えるダメージの点数", "量") and not restates("Your PC's name", "name")
    assert not restates("狙う指揮官", "指揮官") and not restates("大砲の数(既定 2)", "大砲の数")


def _builtin() -> list[CommandSpec]:
    """The commands users get (no rule set another test registers for itself)."""
    bindings = ((r.name, r) for r in rulesets())
    builtin = {name for name, b in bindings if type(b.ruleset).__module__.startswith("engine.")}
    return [s for s in commands().values() if s.ruleset is None or s.ruleset in builtin]


def _described() -> list[tuple[str, str, tuple[str, ...], str]]:
    """(language, where, names, description) of every group, command and option Discord shows: its name
    in that language first, then in the other."""
    ja = catalogue("ja")
    out = []
    for lang in LANGUAGES:
        names = catalogue(lang)
        for spec in _builtin():
            dotted = spec.path.replace(" ", ".")
            shown = [(spec.path, f"cmd.{dotted}", spec.name)]
            if spec.group:
                shown.append((spec.group, f"cmd.{spec.group}", spec.group))
            for where, key, english in shown:
                both = (ja.get(f"{key}.name", english), english)
                out.append((lang, where, both if lang == "ja" else both[::-1], names.get(f"{key}.desc", "")))
            for opt in spec.options:
                both = (ja.get(option_name_key(spec, opt), opt.name), opt.name)
                desc = names.get(option_desc_key(spec, opt), "")
                out.append((lang, f"{spec.path} {opt.name}", both if lang == "ja" else both[::-1], desc))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_description_only_restates_its_name(lang: str) -> None:
    mine = [(where, names, desc) for lg, where, names, desc in _described() if lg == lang]
    assert sorted({(where, desc) for where, names, desc in mine if restates(desc, *names)}) == []
