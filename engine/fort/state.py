"""The battle state: immutable values (frozen dataclasses with tuples), replaced, never mutated."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, TypeVar

from engine.common import DamageKind as DamageKind
from engine.common import Element as Element
from engine.fort.map import Area, Edge, Position
from engine.sheets.model import PCSheet


class Side(StrEnum):
    PC = "pc"
    ENEMY = "enemy"


class Turn(StrEnum):
    PC = "pc"
    ENEMY = "enemy"
    ENDED = "ended"


class BattleOutcome(StrEnum):
    SUCCESS = "success"
    COLLAPSE = "collapse"
    RETREAT = "retreat"


class UnitType(StrEnum):
    NORMAL = "normal"
    RAM = "ram"
    FLYING = "flying"
    SOLDIER = "soldier"


class UnitTrait(StrEnum):
    """What sets a unit type apart (F-UNIT-9..13)."""

    STRIKE_IS_FORT_DAMAGE = "strike_is_fort_damage"
    PASSES_BARRICADES = "passes_barricades"
    FLIES = "flies"
    IGNORES_TRAPS = "ignores_traps"
    PC_SIDE = "pc_side"
    USES_EQUIPMENT = "uses_equipment"


#: The unit types as the rules describe them, as a table.
UNIT_TRAITS: dict[UnitType, frozenset[UnitTrait]] = {
    UnitType.NORMAL: frozenset(),
    UnitType.RAM: frozenset({UnitTrait.STRIKE_IS_FORT_DAMAGE, UnitTrait.PASSES_BARRICADES}),
    UnitType.FLYING: frozenset({UnitTrait.FLIES, UnitTrait.IGNORES_TRAPS}),
    UnitType.SOLDIER: frozenset({UnitTrait.PC_SIDE, UnitTrait.IGNORES_TRAPS, UnitTrait.USES_EQUIPMENT}),
}


def traits_of(unit_type: UnitType) -> frozenset[UnitTrait]:
    """F-UNIT-9: a normal unit has nothing more than F-UNIT-1..8; F-UNIT-10 ram, F-UNIT-11 flying,
    F-UNIT-13 soldier: what each other type adds."""
    return UNIT_TRAITS[unit_type]


class TrapKind(StrEnum):
    BARRICADE = "barricade"
    MINE = "mine"


#: F-CAN-1: a cannon holds 0 to 5 shells.
MAX_SHELLS = 5


@dataclass(frozen=True, slots=True)
class PC:
    """A player character. ``position`` is set at F0 only; HP and movement are tracked if given.

    ``moved_m`` is what the PC has moved in its side's current turn, a change of position counting
    10 m (F-MAP-6); it is renewed when the PC side's turn starts (F-TURN-3). ``sheet`` holds what was
    read from a character sheet (MP, 防護点, 回避力, weapons ...), ``palette`` its own chat palette
    (None: the palette generated from the sheet, engine/sheets/palette_gen.py).
    """

    name: str
    key: str
    owner: str | None
    area: Area
    position: Position | None
    hp: int | None = None
    max_hp: int | None = None
    move: int | None = None
    moved_m: int = 0
    sheet: PCSheet | None = None
    palette: str | None = None


@dataclass(frozen=True, slots=True)
class Unit:
    """F-UNIT-1: a unit with its own stats.

    ``arrived`` is False for a reinforcement still waiting for ``arrive_round``. ``position`` is a
    soldier's place at F0 (F-MAP-4; None elsewhere and for enemy units, which are always outside).
    ``weakness`` is its 弱点 as Sword World writes it (F-UNIT-15). Per turn of its side, renewed when
    that turn starts (F-TURN-3): ``moved_m`` the metres moved, ``halted`` why its movement ended early
    (``blocked``, ``barricade``: no more this turn, F-UNIT-2, F-TRAP-3), ``acted`` its main action
    (F-UNIT-14). ``held_edge``/``held_to`` remember the barricade that held it, until its next move.
    """

    name: str
    key: str
    type: UnitType
    area: Area
    hp: int
    max_hp: int
    fort_damage: int
    strike: str | None = None
    defense: int = 0
    move: int = 10
    arrive_round: int | None = None
    arrived: bool = True
    destroyed: bool = False
    position: Position | None = None
    weakness: str | None = None
    moved_m: int = 0
    halted: str | None = None
    acted: str | None = None
    held_edge: Edge | None = None
    held_to: Area | None = None

    @property
    def side(self) -> Side:
        return Side.PC if self.type is UnitType.SOLDIER else Side.ENEMY

    @property
    def traits(self) -> frozenset[UnitTrait]:
        return UNIT_TRAITS[self.type]

    @property
    def on_map(self) -> bool:
        """F-UNIT-6: a destroyed unit has left the map; a reinforcement has not yet arrived."""
        return self.arrived and not self.destroyed

    @property
    def flying(self) -> bool:
        return self.type is UnitType.FLYING


@dataclass(frozen=True, slots=True)
class Commander:
    """F-UNIT-12: an enemy character with its own HP; ``horn`` is its war-horn (鼓砲) effect, as the GM
    wrote it."""

    name: str
    key: str
    area: Area
    hp: int
    max_hp: int
    horn: str | None = None


@dataclass(frozen=True, slots=True)
class Trap:
    """F-TRAP-1: a trap on an edge with its uses left (0 = spent)."""

    kind: TrapKind
    edge: Edge
    uses: int


@dataclass(frozen=True, slots=True)
class Ballista:
    """F-BAL-1: loaded or not, with which bolt; the single 〈魔力の太矢〉 used or not."""

    loaded: bool = False
    magic_bolt_used: bool = False
    bolt: str | None = None


@dataclass(frozen=True, slots=True)
class FortState:
    """A whole battle. ``confused_round`` is the round whose enemy turn is confused (F-UNIT-12);
    ``begun``: an action of a side's turn was taken (F-TURN-3: round 1 has begun, the set-up is over)."""

    title: str
    rounds: int
    round: int
    turn: Turn
    first: Side
    fort_hp: int
    fort_max_hp: int
    repaired_round: int | None = None
    pcs: tuple[PC, ...] = ()
    units: tuple[Unit, ...] = ()
    commanders: tuple[Commander, ...] = ()
    traps: tuple[Trap, ...] = ()
    cannons: tuple[int, ...] = (0, 0)
    ballista: Ballista = Ballista()
    confused_round: int | None = None
    outcome: BattleOutcome | None = None
    begun: bool = False

    @property
    def ended(self) -> bool:
        return self.turn is Turn.ENDED

    @property
    def second(self) -> Side:
        return Side.ENEMY if self.first is Side.PC else Side.PC

    def enemy_turn_done(self, round_: int) -> bool:
        """Whether the enemy side's turn of ``round_`` is over (or the battle is)."""
        if self.ended or round_ < self.round:
            return True
        if round_ > self.round:
            return False
        return self.first is Side.ENEMY and self.turn is Turn.PC


_T = TypeVar("_T")
_Evolver = Callable[[Any, dict[str, Any]], Any]
#: one generated copier per (class, names of the changed fields)
_EVOLVERS: dict[tuple[type, tuple[str, ...]], _Evolver] = {}


def _make_evolver(cls: type, changed: tuple[str, ...]) -> _Evolver:
    """Generates ``f(obj, changes)`` building a copy slot by slot, the changed fields from ``changes``
    (what the frozen ``__init__`` does, without its argument handling): a new object nobody has seen."""
    names = [f.name for f in fields(cls)]
    unknown = set(changed) - set(names)
    if unknown:
        raise TypeError(f"unknown fields for {cls.__name__}: {sorted(unknown)}")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = ["def evolve(o, ch):", "    n = _new(_cls)"]
    for i, name in enumerate(names):
        namespace[f"_s{i}"] = getattr(cls, name).__set__
        lines.append(f"    _s{i}(n, ch[{name!r}])" if name in changed else f"    _s{i}(n, o.{name})")
    lines.append("    return n")
    exec("\n".join(lines), namespace)
    function: _Evolver = namespace["evolve"]
    return function


def evolve(obj: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` for the state's frozen dataclasses, about three times as fast (the hot
    path). Unknown field names are refused, as ``replace`` does."""
    key = (type(obj), tuple(changes))
    evolver = _EVOLVERS.get(key)
    if evolver is None:
        evolver = _EVOLVERS[key] = _make_evolver(*key)
    new: _T = evolver(obj, changes)
    return new
