"""The limits of BATTLE.md and the ranges of its numbers: one definition, for commands and imports alike.

50 characters a battle, 10 parts a monster, 30 effects a character; names 1-32 characters
(``engine.limits.check_name``). A value beyond a limit raises ``engine.limits.LimitError``.
"""

from __future__ import annotations

from engine import limits

from .state import BattleState

MAX_CHARACTERS = 50
MAX_PARTS = 10
MAX_EFFECTS = 30
#: B-CHAR-1: a PC's 防護点, 回避力, 生命抵抗力, 精神抵抗力, 先制力
PC_STAT = (-99, 999)
#: B-CHAR-2: a monster's 知名度, 弱点値, 先制値, 抵抗力, level, and a part's 防護点, 命中力, 回避力
MONSTER_VALUE = (0, 999)
#: a check's total (B-KNOW-1, B-INIT-1)
CHECK = (-99, 999)
#: the highest round
MAX_ROUND = limits.MAX_NUMBER
#: the longest 打撃点, 移動速度, weakness or effect text
TEXT_MAX = limits.TEXT_MAX
#: the longest sheet (JSON text) a PC keeps
SHEET_MAX = 200_000


def check_range(field: str, value: int | None, bounds: tuple[int, int]) -> None:
    """A number within ``bounds`` (``limits.number``, about ``field``); None passes."""
    limits.check_number(field, value, bounds[0], bounds[1])


def check_counts(state: BattleState) -> None:
    """Characters, parts of each monster and effects on each character within the limits."""
    limits.check_count("characters", len(state.pcs) + len(state.monsters), MAX_CHARACTERS)
    for m in state.monsters:
        limits.check_count("parts", len(m.parts), MAX_PARTS)
    for c in state.characters:
        limits.check_count("effects", len(state.effects_on(c.key)), MAX_EFFECTS)
