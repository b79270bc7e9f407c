"""A 千幻抄 battle: immutable values (frozen dataclasses with tuples), replaced, never mutated."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class Side(StrEnum):
    PC = "pc"
    ENEMY = "enemy"

    @property
    def other(self) -> Side:
        return Side.ENEMY if self is Side.PC else Side.PC


class Down(StrEnum):
    """S-MERCY-1: how a character at 0 HP was left."""

    UNCONSCIOUS = "unconscious"
    #: HP 1 and 戦闘不能: can talk and move slowly
    INCAPACITATED = "hp1"


class Evasion(StrEnum):
    """What a surprised character's next evasion may do (S-SUR-1..4)."""

    REFUSED = "refused"
    #: S-SUR-2: only after winning the perception check against the attacker, and at most 3D
    PERCEIVE_MAX3 = "perceive_max3"
    #: S-SUR-2 inside [アラート]/[識閾結界]: perception succeeds by itself; at most 3D
    MAX3 = "max3"
    MINUS5 = "minus5"


class RollKind(StrEnum):
    CHECK = "check"
    ATTACK = "attack"
    MELEE = "melee"
    ABILITY = "ability"
    EVASION = "evasion"
    RESIST = "resist"
    PERCEPTION = "perception"
    STEALTH = "stealth"
    DAMAGE = "damage"


@dataclass(frozen=True, slots=True)
class LastRoll:
    """A character's last roll, for contests (``against``). ``against``/``won`` if it was one."""

    total: int
    kind: RollKind
    turn: int
    against: str | None = None
    won: bool | None = None


@dataclass(frozen=True, slots=True)
class Surprise:
    """A pending restriction on the next evasion, from ``attacker`` (a key) in case ``case``."""

    case: str
    attacker: str
    evasion: Evasion


@dataclass(frozen=True, slots=True)
class Character:
    """S-CORE-1: a character with its attributes (if given), HP, DP and recovery.

    ``held_by`` is the key of the holder while it is an item (S-ITEM-2), ``exposed`` once it was
    noticed as more than an object. ``hidden_total`` is its 身体+〈隠密〉 while hidden (S-HIDE-1),
    ``hidden_turn`` the turn it hid, ``searched_by`` who searched it this turn. ``entry_turn`` is the
    turn a late entrant (reinforcement, revealed hidden character) came in: that turn it may declare
    or take over spell cards (S-REIN-1). ``unaware_at`` is the initiative at which it was caught
    unaware this turn (S-SUR-5); ``attack_limit`` names the rule (S-SUR-1/2) that holds its next attack to 3D.
    """

    name: str
    key: str
    owner: str | None
    side: Side
    dp: int
    dp_max: int
    recovery: int
    attributes: tuple[int, int, int, int, int] | None = None
    hp: int | None = None
    max_hp: int | None = None
    declared: int | None = None
    unable: bool = False
    down: Down | None = None
    held_by: str | None = None
    exposed: bool = False
    hidden_total: int | None = None
    hidden_turn: int | None = None
    searched_by: tuple[str, ...] = ()
    entry_turn: int | None = None
    last_roll: LastRoll | None = None
    surprise: Surprise | None = None
    unaware_at: int | None = None
    attack_limit: str | None = None
    cards: int = 0
    cards_used: int = 0

    @property
    def hidden(self) -> bool:
        return self.hidden_total is not None

    @property
    def is_item(self) -> bool:
        return self.held_by is not None

    @property
    def acts(self) -> bool:
        """In the turn order: anyone not knocked out (S-MERCY-1)."""
        return self.down is None

    @property
    def cards_unused(self) -> int:
        return self.cards - self.cards_used


@dataclass(frozen=True, slots=True)
class SengenshoState:
    """A whole battle. ``turn`` is 0 until the GM starts turn progression (S-START-1).

    ``card_allowance`` is how many more spell cards the PC side and the enemy side may still declare
    during the battle, answering a late entrant's new cards (S-REIN-1).
    """

    title: str
    ambush: bool = False
    gm_fixed: bool = False
    turn: int = 0
    ended: bool = False
    characters: tuple[Character, ...] = ()
    card_allowance: tuple[int, int] = (0, 0)

    def find(self, key: str) -> int | None:
        for i, c in enumerate(self.characters):
            if c.key == key:
                return i
        return None

    def put(self, i: int, character: Character) -> SengenshoState:
        return replace(self, characters=(*self.characters[:i], character, *self.characters[i + 1 :]))

    def side_cards(self, side: Side) -> int:
        """S-REIN-1: the spell cards a side has declared (a card taken over stays counted once)."""
        return sum(c.cards for c in self.characters if c.side is side)

    def allowance(self, side: Side) -> int:
        return self.card_allowance[0 if side is Side.PC else 1]

    def with_allowance(self, side: Side, value: int) -> SengenshoState:
        pc, enemy = self.card_allowance
        return replace(self, card_allowance=(value, enemy) if side is Side.PC else (pc, value))
