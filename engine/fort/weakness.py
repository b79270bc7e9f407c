"""Weaknesses (弱点) as Sword World writes them, and the elements of damage (F-UNIT-15)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from engine.common import fold
from engine.fort.state import DamageKind, Element
from engine.ruleset import RuleError

#: The elements as Sword World names them (属性), with the other spellings a GM types.
ELEMENT_WORDS: dict[str, Element] = {
    "炎": Element.FIRE,
    "火": Element.FIRE,
    "水・氷": Element.WATER,
    "水氷": Element.WATER,
    "水": Element.WATER,
    "氷": Element.WATER,
    "風": Element.WIND,
    "土": Element.EARTH,
    "雷": Element.LIGHTNING,
    "純エネルギー": Element.ENERGY,
    "断空": Element.CUTTING,
    "衝撃": Element.IMPACT,
    "毒": Element.POISON,
    "病気": Element.DISEASE,
    "精神": Element.MIND,
    "精神効果": Element.MIND,
    "呪い": Element.CURSE,
    **{e.value: e for e in Element},
}
_KIND_WORDS: dict[str, DamageKind] = {
    "物理": DamageKind.PHYSICAL,
    "physical": DamageKind.PHYSICAL,
    "魔法": DamageKind.MAGIC,
    "magic": DamageKind.MAGIC,
}
#: 弱点 that are not damage the fort deals (命中力+1, 回復効果ダメージ+3点): kept and shown, the bot has
#: nothing to add them to
_OTHER_WORDS = ("命中力", "回避力", "生命抵抗力", "精神抵抗力", "先制力", "回復効果")
_JA = re.compile(r"(?P<what>.+?)(?:属性)?(?:ダメージ)?\+(?P<bonus>\d{1,2})点?")
_EN = re.compile(r"(?P<what>[a-z]+?)(?:damage)?\+(?P<bonus>\d{1,2})")
EXAMPLES = ("炎属性ダメージ+3", "物理ダメージ+2", "魔法ダメージ+2")


@dataclass(frozen=True, slots=True)
class Weakness:
    """One 弱点: damage of ``kind`` (physical, magic) or of ``element`` gains ``bonus``."""

    bonus: int
    kind: DamageKind | None = None
    element: Element | None = None

    def bonus_for(self, kind: DamageKind, element: Element | None) -> int:
        """F-UNIT-15: the bonus a hit of this kind and element gains (0 if the weakness is another)."""
        if (self.kind is not None and self.kind is kind) or (
            self.element is not None and self.element is element
        ):
            return self.bonus
        return 0


def clean_weakness(text: str) -> str:
    """The weakness as stored: NFKC, trimmed; ``fort.weakness_invalid`` if it is not one."""
    cleaned = unicodedata.normalize("NFKC", text).strip()
    parse_weakness(cleaned)
    return cleaned


@lru_cache(maxsize=256)
def parse_weakness(text: str) -> Weakness:
    """F-UNIT-15: ``炎属性ダメージ+3``, ``物理ダメージ+2``, ``魔法ダメージ+2``, ``fire+3``, ``命中力+1``."""
    compact = "".join(unicodedata.normalize("NFKC", text).split())
    for match in (_JA.fullmatch(compact), _EN.fullmatch(fold(compact))):
        if match is None or int(match.group("bonus")) == 0:
            continue
        what, bonus = fold(match.group("what")), int(match.group("bonus"))
        if what in _KIND_WORDS:
            return Weakness(bonus, kind=_KIND_WORDS[what])
        if what in ELEMENT_WORDS:
            return Weakness(bonus, element=ELEMENT_WORDS[what])
        if what in _OTHER_WORDS:
            return Weakness(0)
    raise RuleError("fort.weakness_invalid", weakness=text, examples=list(EXAMPLES))


def parse_element(text: str | None) -> Element | None:
    """F-UNIT-15: an attack's element, by its option value (``fire``) or its Japanese name (``炎``)."""
    if text is None:
        return None
    word = unicodedata.normalize("NFKC", text).strip()
    element = ELEMENT_WORDS.get(word) or ELEMENT_WORDS.get(fold(word))
    if element is None:
        raise RuleError("fort.element_invalid", element=text, allowed=[e.value for e in Element])
    return element
