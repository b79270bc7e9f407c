"""What the planner is asked: how many runs, the PC side's damage per round, equipment, the seed.

``pc_damage`` as the GM types it: one expression, or several separated by commas, each optionally
named and optionally of a kind: ``2d+8``, ``Alice=K20+10:magic,Bob=2d+8``, ``30:fixed``. Each one is
one attack per PC turn (see ``engine.fort.planner.policy``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from engine.common import fold
from engine.fort.context import parse_amount
from engine.fort.state import DamageKind
from engine.limits import NAME_MAX
from engine.ruleset import RuleError

DEFAULT_RUNS = 10_000
MIN_RUNS, MAX_RUNS = 100, 100_000
#: at most this many attacks per PC turn, and so long a ``pc_damage`` text
MAX_ATTACKS = 20
PC_DAMAGE_MAX = 600
#: Discord's integer options reach 2**53
MAX_SEED = 2**53 - 1
#: the words a damage kind may be written with (``:magic``, ``:魔法``)
KIND_WORDS: dict[str, DamageKind] = {
    **{k.value: k for k in DamageKind},
    "物理": DamageKind.PHYSICAL,
    "魔法": DamageKind.MAGIC,
    "確定": DamageKind.FIXED,
}
#: and the words the bot prints for a kind (``物理ダメージ``, ``確定ダメージ``), taken as well
_PRINTED_KIND_WORDS = {f"{word}ダメージ": kind for word, kind in KIND_WORDS.items() if not word.isascii()}
_SEPARATORS = re.compile(r"[,、]")
#: ``name=expression``: an ``=`` that is no part of a comparison (``2d>=5`` names nobody)
_NAMED = re.compile(r"(?P<name>[^=<>!]*)=(?![=<>])(?P<expression>.*)")


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack of the PC side per PC turn: who (a label, None if not named), its damage
    expression (a dice expression or a number, as given) and its kind of damage (F-UNIT-6)."""

    expression: str
    kind: DamageKind = DamageKind.PHYSICAL
    name: str | None = None


class Focus(StrEnum):
    """``focus:``: where the PC side's attacks go (``engine.fort.planner.policy``)."""

    THREATS = "threats"
    COMMANDERS = "commanders"


@dataclass(frozen=True, slots=True)
class PlanRequest:
    """``/fort odds``: ``runs`` battles played from the current state with ``seed``; the PC side's
    ``attacks`` each PC turn, aimed by ``focus``; ``equipment`` (``repair:true``): repair, cannons and
    the ballista used."""

    runs: int = DEFAULT_RUNS
    attacks: tuple[Attack, ...] = ()
    equipment: bool = False
    seed: int = 0
    focus: Focus = Focus.THREATS

    def __post_init__(self) -> None:
        if not MIN_RUNS <= self.runs <= MAX_RUNS:
            raise RuleError("odds.runs_invalid", runs=self.runs, min=MIN_RUNS, max=MAX_RUNS)
        if not 0 <= self.seed <= MAX_SEED:
            raise RuleError("odds.seed_invalid", seed=self.seed, max=MAX_SEED)


#: the words ``focus`` may be written with: its values, and the Japanese words the bot prints for them
FOCUS_WORDS: dict[str, Focus] = {
    **{f.value: f for f in Focus},
    "脅威": Focus.THREATS,
    "指揮官": Focus.COMMANDERS,
}


def parse_focus(text: str | None) -> Focus:
    """``threats`` (the default) or ``commanders`` (``脅威``, ``指揮官``); ``odds.focus_invalid`` else."""
    if text is None:
        return Focus.THREATS
    found = FOCUS_WORDS.get(fold(unicodedata.normalize("NFKC", text)).strip())
    if found is None:
        raise RuleError("odds.focus_invalid", focus=text, allowed=list(FOCUS_WORDS))
    return found


def parse_pc_damage(text: str | None) -> tuple[Attack, ...]:
    """``Alice=K20+10:magic,Bob=2d+8`` → the attacks; a refusal naming the entry that is not one
    (``odds.pc_damage_empty``, ``_name``, ``_kind``, ``fort.dice_invalid``)."""
    if text is None:
        return ()
    entries = [e.strip() for e in _SEPARATORS.split(unicodedata.normalize("NFKC", text))]
    if not all(entries):  # nothing given, or nothing between two commas
        raise RuleError("odds.pc_damage_empty", text=text)
    if len(entries) > MAX_ATTACKS:
        raise RuleError("odds.pc_damage_too_many", count=len(entries), max=MAX_ATTACKS)
    return tuple(_attack(entry) for entry in entries)


def _attack(entry: str) -> Attack:
    expression, name = entry, None
    named = _NAMED.fullmatch(entry)
    if named is not None:
        name, expression = named["name"].strip(), named["expression"].strip()
        if not name or len(name) > NAME_MAX:
            raise RuleError("odds.pc_damage_name", entry=entry, max=NAME_MAX)
    kind = DamageKind.PHYSICAL
    if ":" in expression:
        expression, _, word = (part.strip() for part in expression.rpartition(":"))
        found = KIND_WORDS.get(fold(word)) or _PRINTED_KIND_WORDS.get(fold(word))
        if found is None:
            raise RuleError("odds.pc_damage_kind", entry=entry, kind=word, allowed=list(KIND_WORDS))
        kind = found
    if not expression:
        raise RuleError("odds.pc_damage_empty", text=entry)
    parse_amount(expression)  # a number or a damage expression (fort.dice_invalid otherwise)
    return Attack(expression=expression, kind=kind, name=name)
