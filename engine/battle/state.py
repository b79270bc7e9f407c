"""An ordinary SW2.5 battle (BATTLE.md): immutable values (frozen dataclasses with tuples), replaced,
never mutated.

Characters are kept by key (their name as compared, ``engine.common.fold``); effects and the party's
knowledge refer to them by key. Whether a character is down (戦闘不能) or a part destroyed is read from
its HP (B-CHAR-3), never stored apart, so a heal or a GM's override that lifts the HP lifts it too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.common import DamageKind as DamageKind
from engine.common import Element as Element
from engine.common import fold


class Side(StrEnum):
    PC = "pc"
    ENEMY = "enemy"

    @property
    def other(self) -> Side:
        return Side.ENEMY if self is Side.PC else Side.PC


class Phase(StrEnum):
    #: before the first turn (先制判定, 魔物知識判定, 戦闘準備)
    SETUP = "setup"
    RUNNING = "running"
    ENDED = "ended"


class Resisted(StrEnum):
    """B-DMG-2: what a target's resistance made of the damage."""

    #: not resisted (or 必中): the whole damage
    FULL = "full"
    #: 半減: half, rounded up
    HALF = "half"
    #: 消滅: nothing gets through
    NONE = "none"


class Stat(StrEnum):
    """B-EFF-2: the numbers an effect may change."""

    DEFENSE = "defense"
    EVASION = "evasion"
    HIT = "hit"
    DAMAGE = "damage"


class Rough(StrEnum):
    """B-KNOW-1: a part's state as the table sees it without the numbers (無傷, 軽傷, 重傷, 瀕死)."""

    UNHURT = "unhurt"
    LIGHT = "light"
    HEAVY = "heavy"
    DYING = "dying"


@dataclass(frozen=True, slots=True)
class PC:
    """B-CHAR-1: a PC (an NPC ally is a PC the GM owns). ``sheet`` is the sheet read, as JSON text;
    ``initiative_total`` its 先制判定 once rolled (B-INIT-1); ``acted`` in its side's turn (B-INIT-2)."""

    name: str
    key: str
    owner: str | None
    hp: int
    max_hp: int
    mp: int = 0
    max_mp: int = 0
    defense: int = 0
    evasion: int = 0
    fortitude: int = 0
    willpower: int = 0
    initiative: int = 0
    palette: str | None = None
    sheet: str | None = None
    acted: bool = False
    initiative_total: int | None = None

    @property
    def side(self) -> Side:
        return Side.PC

    @property
    def down(self) -> bool:
        """B-CHAR-3: a PC at 0 HP or less is 戦闘不能."""
        return self.hp <= 0


@dataclass(frozen=True, slots=True)
class Part:
    """B-CHAR-2: one part (部位) of a monster. The only part of a one-part monster has the name ``""``.
    ``hit`` and ``evasion`` are None where the data says ``—``; ``strike`` is the 打撃点 as written."""

    name: str
    hp: int
    max_hp: int
    mp: int = 0
    max_mp: int = 0
    defense: int = 0
    hit: int | None = None
    strike: str | None = None
    evasion: int | None = None

    @property
    def destroyed(self) -> bool:
        """B-CHAR-3: a part at 0 HP or less."""
        return self.hp <= 0


@dataclass(frozen=True, slots=True)
class Monster:
    """B-CHAR-2: a monster. ``kind`` is the name it was added under (ゴブリン for ゴブリンA): the party's
    knowledge is of the kind (B-KNOW-1). ``core`` is the index of its core part (None: one part, or
    several without a core). ``hidden_stats``: no check reveals its numbers, only the GM (B-KNOW-1)."""

    name: str
    key: str
    kind: str
    kind_key: str
    parts: tuple[Part, ...]
    core: int | None = None
    reputation: int = 0
    weakness_value: int = 0
    weakness: str | None = None
    initiative: int = 0
    move: str | None = None
    fortitude: int | None = None
    willpower: int | None = None
    level: int | None = None
    hidden_stats: bool = False
    acted: bool = False

    @property
    def side(self) -> Side:
        return Side.ENEMY

    @property
    def down(self) -> bool:
        """B-CHAR-3: down when its core (or only) part is at 0 HP or less."""
        # Without a core part, when every part is.
        if self.core is not None:
            return self.parts[self.core].destroyed
        return all(p.destroyed for p in self.parts)

    def part_index(self, key: str) -> int | None:
        """The index of the part whose name folds to ``key``."""
        return next((i for i, p in enumerate(self.parts) if fold(p.name) == key), None)

    def with_part(self, i: int, part: Part) -> Monster:
        return replace(self, parts=(*self.parts[:i], part, *self.parts[i + 1 :]))


Character = PC | Monster


@dataclass(frozen=True, slots=True)
class Lore:
    """B-KNOW-1: what the party knows of a kind of monster: the best 魔物知識判定 total so far and who
    rolled it, the PCs (keys) that have rolled, and what the GM revealed (B-KNOW-2)."""

    kind: str
    name: str
    best: int | None = None
    by: str | None = None
    rolled: tuple[str, ...] = ()
    numbers_revealed: bool = False
    weakness_revealed: bool = False


@dataclass(frozen=True, slots=True)
class Mod:
    """B-EFF-2: a number an effect changes (``防護点+2``: defense, +2)."""

    stat: Stat
    delta: int


@dataclass(frozen=True, slots=True)
class Effect:
    """B-EFF-1: an effect on a character (``part``: on one part of a monster), made in round
    ``made_round`` (0: before the first turn) by side ``made_side`` (by ``by``, a character's key, if
    named). ``rounds`` is its duration and ``left`` how many more turns of its side's begin before it
    ends; both None for one that lasts until the battle ends."""

    id: int
    name: str
    target: str
    text: str
    made_round: int
    made_side: Side
    rounds: int | None = None
    left: int | None = None
    part: str | None = None
    by: str | None = None
    mods: tuple[Mod, ...] = ()

    @property
    def until_end(self) -> bool:
        return self.rounds is None


@dataclass(frozen=True, slots=True)
class BattleState:
    """A whole battle. ``round`` is 0 and ``turn`` None before the first turn; ``first`` is the side the
    GM set to go first (B-INIT-1) until the turns start, then the side that went first."""

    title: str = ""
    phase: Phase = Phase.SETUP
    round: int = 0
    turn: Side | None = None
    first: Side | None = None
    pcs: tuple[PC, ...] = ()
    monsters: tuple[Monster, ...] = ()
    lore: tuple[Lore, ...] = ()
    effects: tuple[Effect, ...] = ()
    next_effect: int = 1

    @property
    def ended(self) -> bool:
        return self.phase is Phase.ENDED

    @property
    def characters(self) -> tuple[Character, ...]:
        return (*self.pcs, *self.monsters)

    def pc_index(self, key: str) -> int | None:
        return next((i for i, p in enumerate(self.pcs) if p.key == key), None)

    def monster_index(self, key: str) -> int | None:
        return next((i for i, m in enumerate(self.monsters) if m.key == key), None)

    def character(self, key: str) -> Character | None:
        i = self.pc_index(key)
        if i is not None:
            return self.pcs[i]
        j = self.monster_index(key)
        return None if j is None else self.monsters[j]

    def put(self, who: Character) -> BattleState:
        """The battle with ``who`` (a character already in it, by key) replaced."""
        if isinstance(who, PC):
            i = self.pc_index(who.key)
            assert i is not None
            return replace(self, pcs=(*self.pcs[:i], who, *self.pcs[i + 1 :]))
        j = self.monster_index(who.key)
        assert j is not None
        return replace(self, monsters=(*self.monsters[:j], who, *self.monsters[j + 1 :]))

    def lore_of(self, kind_key: str) -> Lore:
        return next((k for k in self.lore if k.kind == kind_key), Lore(kind_key, kind_key))

    def with_lore(self, lore: Lore) -> BattleState:
        kept = tuple(k for k in self.lore if k.kind != lore.kind)
        at = next((i for i, k in enumerate(self.lore) if k.kind == lore.kind), len(kept))
        return replace(self, lore=(*kept[:at], lore, *kept[at:]))

    def effects_on(self, key: str) -> tuple[Effect, ...]:
        return tuple(e for e in self.effects if e.target == key)
