"""Reading what the user typed: sides, kinds and elements of damage, resistance, durations, an effect's
numbers, a weakness as Sword World writes it, and amounts and checks as dice expressions."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import TypeVar

from engine.common import fold
from engine.dice import DiceError, RollKind, parse_command
from engine.dice.command import ParsedCommand
from engine.limits import MAX_HP
from engine.ruleset import RuleError

from .state import DamageKind, Element, Mod, Resisted, Side, Stat

E = TypeVar("E", bound=StrEnum)

SIDE_WORDS: dict[str, Side] = {"pc": Side.PC, "味方": Side.PC, "enemy": Side.ENEMY, "敵": Side.ENEMY}
KIND_WORDS: dict[str, DamageKind] = {
    **{k.value: k for k in DamageKind},
    "物理": DamageKind.PHYSICAL,
    "魔法": DamageKind.MAGIC,
    "確定": DamageKind.FIXED,
}
#: B-DMG-1: the elements as Sword World names them, with the spellings a GM types
ELEMENT_WORDS: dict[str, Element] = {
    **{e.value: e for e in Element},
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
    "衝撃": Element.IMPACT,
    "断空": Element.CUTTING,
    "毒": Element.POISON,
    "病気": Element.DISEASE,
    "呪い": Element.CURSE,
    "精神": Element.MIND,
    "精神効果": Element.MIND,
}
RESISTED_WORDS: dict[str, Resisted] = {
    **{r.value: r for r in Resisted},
    "半減": Resisted.HALF,
    "消滅": Resisted.NONE,
    "抵抗なし": Resisted.FULL,
}
#: B-EFF-2: the numbers an effect may carry
STAT_WORDS: dict[str, Stat] = {
    **{s.value: s for s in Stat},
    "防護点": Stat.DEFENSE,
    "防護": Stat.DEFENSE,
    "回避力": Stat.EVASION,
    "回避": Stat.EVASION,
    "命中力": Stat.HIT,
    "命中": Stat.HIT,
    "ダメージ": Stat.DAMAGE,
}
#: B-EFF-1: the longest duration in rounds (10 minutes of game time is 60)
MAX_EFFECT_ROUNDS = 999
#: B-EFF-1: until the battle ends
UNTIL_END_WORDS = frozenset(
    {"end", "until:end", "until_end", "until end", "終了", "終了まで", "戦闘終了まで"}
)
_TIME = re.compile(r"(?P<n>\d{1,4})(?P<unit>秒|分|r|ラウンド|rounds?)?")


def _word(table: dict[str, E], text: str, key: str, field: str) -> E:
    word = fold(text)
    found = table.get(word) or table.get(word.replace(" ", ""))
    if found is None:
        allowed = ", ".join(dict.fromkeys(v.value for v in table.values()))
        raise RuleError(key, about=field, **{field: text}, allowed=allowed)
    return found


def parse_side(text: str) -> Side:
    return _word(SIDE_WORDS, text, "bt.side_invalid", "side")


def parse_kind(text: str) -> DamageKind:
    """B-DMG-1: physical, magic, fixed (物理, 魔法, 確定)."""
    return _word(KIND_WORDS, text, "bt.kind_invalid", "kind")


def parse_element(text: str | None) -> Element | None:
    """B-DMG-1: an element by its option value (``fire``) or its Japanese name (``炎``)."""
    if text is None or not text.strip():
        return None
    return _word(ELEMENT_WORDS, text.removesuffix("属性"), "bt.element_invalid", "element")


def parse_resisted(text: str, count: int) -> tuple[Resisted, ...]:
    """B-DMG-2, B-DMG-3: one resistance for every target, or one per target."""
    words = split_list(text) or ["full"]
    if len(words) == 1:
        words *= count
    if len(words) != count:
        raise RuleError("bt.resisted_count", about="resisted", targets=count, given=len(words))
    return tuple(_word(RESISTED_WORDS, w, "bt.resisted_invalid", "resisted") for w in words)


def split_list(text: str) -> list[str]:
    """Items separated by commas (``,``, ``、``, full width too), blanks dropped."""
    return [t.strip() for t in re.split(r"[,、]", unicodedata.normalize("NFKC", text)) if t.strip()]


def parse_duration(value: int | str) -> int | None:
    """B-EFF-1: rounds (10秒 = 1 round, 1分 = 6, 3分 = 18), or None: until the battle ends."""
    if isinstance(value, str) and fold(value) in UNTIL_END_WORDS:
        return None
    rounds = value if isinstance(value, int) else _time_rounds(value)
    if rounds is None or not 1 <= rounds <= MAX_EFFECT_ROUNDS:
        raise RuleError("bt.duration_invalid", about="rounds", rounds=str(value), max=MAX_EFFECT_ROUNDS)
    return rounds


def _time_rounds(text: str) -> int | None:
    """``3``, ``3r``, ``3ラウンド`` rounds; ``30秒`` (a multiple of 10) or ``3分`` of game time."""
    m = _TIME.fullmatch(fold(text).replace(" ", ""))
    if m is None:
        return None
    n, unit = int(m.group("n")), m.group("unit")
    if unit == "秒":
        return n // 10 if n % 10 == 0 else None
    return 6 * n if unit == "分" else n


_MOD = re.compile(r"(?P<stat>[^\s,、+\-]+?)\s*(?P<sign>[+\-])\s*(?P<n>\d{1,2})点?")


def parse_mods(text: str | None) -> tuple[Mod, ...]:
    """B-EFF-2: ``防護点+2``, ``回避力-1``, ``命中力+1``, ``ダメージ+2`` (several, one stat once)."""
    if text is None or not text.strip():
        return ()
    body = unicodedata.normalize("NFKC", text).replace("−", "-")
    found: dict[Stat, int] = {}
    rest = body
    for m in _MOD.finditer(body):
        stat = STAT_WORDS.get(fold(m.group("stat")))
        delta = int(m.group("n")) * (-1 if m.group("sign") == "-" else 1)
        if stat is None or delta == 0:
            raise RuleError(
                "bt.mod_invalid", about="mod", mod=text, allowed="防護点, 回避力, 命中力, ダメージ"
            )
        found[stat] = found.get(stat, 0) + delta
        rest = rest.replace(m.group(0), " ", 1)
    if re.sub(r"[\s,、]", "", rest) or not found:
        raise RuleError("bt.mod_invalid", about="mod", mod=text, allowed="防護点, 回避力, 命中力, ダメージ")
    return tuple(Mod(stat, delta) for stat, delta in found.items())


# --- weaknesses ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Weakness:
    """A 弱点: damage of ``kind`` (physical, magic) or of ``element`` gains ``bonus``; any other 弱点
    (命中力+1, 回復効果ダメージ+3) is text the table reads (bonus 0)."""

    bonus: int = 0
    kind: DamageKind | None = None
    element: Element | None = None

    def bonus_for(self, kind: DamageKind, element: Element | None) -> int:
        """B-KNOW-2: what this weakness adds to a hit of this kind and element (as F-UNIT-15)."""
        # An element's weakness adds to any damage of that element, 確定 included; 物理ダメージ+N and
        # 魔法ダメージ+N only to damage of that kind.
        if (self.kind is not None and self.kind is kind) or (
            self.element is not None and self.element is element
        ):
            return self.bonus
        return 0


_WEAKNESS = re.compile(r"(?P<what>.+?)(?:属性)?(?:ダメージ)?\+(?P<bonus>\d{1,2})点?")


@lru_cache(maxsize=256)
def parse_weakness(text: str | None) -> Weakness:
    """``炎属性ダメージ+3``, ``物理ダメージ+2``, ``魔法ダメージ+2``; anything else is kept as text (never
    refused: a sheet's 弱点 is shown as written)."""
    if text is None:
        return Weakness()
    m = _WEAKNESS.fullmatch("".join(unicodedata.normalize("NFKC", text).split()))
    if m is None:
        return Weakness()
    what, bonus = fold(m.group("what")), int(m.group("bonus"))
    if what in ("物理", "魔法", "physical", "magic"):
        return Weakness(bonus, kind=KIND_WORDS[what])
    if what in ELEMENT_WORDS and what not in KIND_WORDS:
        return Weakness(bonus, element=ELEMENT_WORDS[what])
    return Weakness()


# --- dice -------------------------------------------------------------------------------------


_INTEGER = re.compile(r"[+-]?\d{1,9}")


@lru_cache(maxsize=1024)
def _expression(text: str, kinds: tuple[RollKind, ...], reason: str) -> ParsedCommand:
    try:
        parsed = parse_command(text)
    except DiceError as error:
        raise RuleError("bt.dice_invalid", expression=text, reason=error.key) from None
    if parsed.kind not in kinds or any(c in parsed.command for c in "<>="):
        raise RuleError("bt.dice_invalid", expression=text, reason=reason)
    return parsed


def parse_amount(value: int | str, field: str = "amount") -> int | ParsedCommand:
    """B-DMG-1: an amount: a number (0 to 100,000) or a dice expression (``2d+5``, ``K20+10``)."""
    text = unicodedata.normalize("NFKC", value).strip() if isinstance(value, str) else ""
    number = value if isinstance(value, int) else int(text) if _INTEGER.fullmatch(text) else None
    if number is None:
        return _expression(text, (RollKind.RATING, RollKind.SUM), "not_damage")
    if not 0 <= number <= MAX_HP:
        raise RuleError("bt.value_invalid", about=field, field=field, value=number)
    return number


def parse_check(value: int | str, field: str = "total") -> int | ParsedCommand:
    """B-KNOW-1, B-INIT-1: a check: its total (-99 to 999) or a dice expression to roll (``2d+7``)."""
    text = unicodedata.normalize("NFKC", value).strip() if isinstance(value, str) else ""
    number = value if isinstance(value, int) else int(text) if _INTEGER.fullmatch(text) else None
    if number is None:
        return _expression(text, (RollKind.SUM,), "not_check")
    if not -99 <= number <= 999:
        raise RuleError("bt.value_invalid", about=field, field=field, value=number)
    return number
