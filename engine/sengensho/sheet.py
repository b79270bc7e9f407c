"""A character's sheet: its skills, and the base of a check read from it (S-CORE-4: 特性値+〈技能〉+修正).

``skills:"隠密3 感知2 射撃4"`` on ``/sg join``; ``check:感覚+感知`` on ``/sg roll``. Attributes and
skills are named in Japanese or English (``sense+perception``), with or without their brackets
(``{感覚}+〈感知〉``), and numbers add or subtract a modifier (``感覚+感知-5``).
"""

from __future__ import annotations

import re
import unicodedata

from engine.common import fold
from engine.ruleset import RuleError
from engine.sengensho.state import Character

#: S-CORE-1: the five attributes in the order they are stored, by each of their names
ATTRIBUTE_NAMES: tuple[tuple[str, ...], ...] = (
    ("身体", "body"),
    ("耐久", "endurance"),
    ("知性", "intellect"),
    ("感覚", "sense"),
    ("意志", "will"),
)
#: English names of the skills the rules name, read as their Japanese ones
SKILL_ALIASES = {"stealth": "隠密", "perception": "感知", "fantasy": "幻想", "shooting": "射撃"}
#: S-HIDE-1, S-SUR-3: the checks hiding and searching use when no base is given
STEALTH_CHECK = "身体+隠密"
PERCEPTION_CHECK = "感覚+感知"

_BRACKETS = "{}｛｝〈〉<>［］[]【】《》"
_SKILL = re.compile(r"([^\s\d:=：,、，+\-]+)\s*[:=：]?\s*([+\-]?\d{1,3})\s*[,、，]?\s*")
_TERM = re.compile(r"\s*([+\-]?)\s*([^+\-]+)")

Skills = tuple[tuple[str, int], ...]


def _word(text: str) -> str:
    """A name as written on a sheet: NFKC, brackets and spaces taken off."""
    text = unicodedata.normalize("NFKC", text).replace("−", "-")
    return "".join(ch for ch in text if ch not in _BRACKETS).strip()


def _skill_key(name: str) -> str:
    key = fold(_word(name))
    return fold(SKILL_ALIASES.get(key, key))


def parse_skills(text: str) -> Skills:
    """``隠密3 感知2 射撃4`` → ((隠密, 3), (感知, 2), (射撃, 4)); each part must be ``name value``."""
    rest = unicodedata.normalize("NFKC", text).replace("−", "-").strip()
    found: dict[str, tuple[str, int]] = {}
    while rest:
        match = _SKILL.match(rest)
        if match is None:
            raise RuleError("sg.skills_invalid", skills=text, at=rest)
        name = _word(match.group(1))
        if not name:
            raise RuleError("sg.skills_invalid", skills=text, at=rest)
        found[_skill_key(name)] = (name, int(match.group(2)))
        rest = rest[match.end() :]
    return tuple(found.values())


def skills_text(skills: Skills) -> str:
    return " ".join(f"{name}{value}" for name, value in skills)


def _attribute(word: str) -> int | None:
    key = fold(word)
    for i, names in enumerate(ATTRIBUTE_NAMES):
        if key in names:
            return i
    return None


def check_base(c: Character, check: str) -> int:
    """S-CORE-4: the base of ``check`` (``感覚+感知+2``) from ``c``'s attributes and skills."""
    text = unicodedata.normalize("NFKC", check).replace("−", "-")
    terms = list(_TERM.finditer(text))
    if not terms or "".join(m.group(0) for m in terms).strip() != text.strip():
        raise RuleError("sg.check_invalid", check=check)
    skills = {_skill_key(name): value for name, value in c.skills}
    total = 0
    for term in terms:
        sign = -1 if term.group(1) == "-" else 1
        word = _word(term.group(2))
        if not word:
            raise RuleError("sg.check_invalid", check=check)
        if word.isdigit():
            total += sign * int(word)
            continue
        index = _attribute(word)
        if index is not None:
            if c.attributes is None:
                raise RuleError("sg.no_attributes", name=c.name, attribute=word)
            total += sign * c.attributes[index]
            continue
        value = skills.get(_skill_key(word))
        if value is None:
            if not c.skills:
                raise RuleError("sg.no_skills", name=c.name, skill=word)
            raise RuleError("sg.skill_unknown", name=c.name, skill=word, skills=skills_text(c.skills))
        total += sign * value
    return total


def base_of(c: Character, base: int | None, check: str | None) -> int:
    """``base`` as given, or read from the sheet by ``check``; exactly one of the two."""
    if base is not None and check is not None:
        raise RuleError("sg.base_and_check", name=c.name)
    if check is not None:
        return check_base(c, check)
    if base is None:
        raise RuleError("sg.base_required", name=c.name)
    return base
