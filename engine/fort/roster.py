"""``/unit list``: the roster the GM runs the enemy turn with, read from the state: pure.

Every unit with its type, side, where it is, HP, fort damage, strike, defence, move left this turn (F-UNIT-1:
what ``/unit move`` would still allow; 0 once a barricade or a blocker stopped it, F-TRAP-3, F-UNIT-2),
weakness, and whether it has taken its main action (F-UNIT-14) or moved this turn; a destroyed unit and a
reinforcement still to come (F-MAP-7: "arrives in round n") as such; every commander, a fallen one (HP 0
or less, F-UNIT-12) as fallen.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.fort.map import parse_area
from engine.fort.rules_move import left_m
from engine.fort.state import Commander, FortState, Unit

#: a unit's standing on the roster
ON_MAP, DESTROYED, PENDING = "on_map", "destroyed", "pending"


@dataclass(frozen=True, slots=True)
class RosterUnit:
    name: str
    type: str
    side: str
    area: str
    position: str | None
    hp: int
    max_hp: int
    fort_damage: int
    strike: str | None
    defense: int
    move: int
    move_left: int
    weakness: str | None
    #: its main action this turn (``attack``, ``barrage``, ``cannon`` ...), None if it has not acted
    acted: str | None
    moved: bool
    #: why it can move no further this turn (``blocked``, ``barricade``), None if it may
    halted: str | None
    standing: str
    arrive_round: int | None


@dataclass(frozen=True, slots=True)
class RosterCommander:
    name: str
    area: str
    hp: int
    max_hp: int
    fallen: bool
    horn: str | None


@dataclass(frozen=True, slots=True)
class Roster:
    round: int
    rounds: int
    turn: str
    #: the area asked for (``/unit list area:``), None for every area
    area: str | None
    units: tuple[RosterUnit, ...]
    commanders: tuple[RosterCommander, ...]


def _standing(unit: Unit) -> str:
    if unit.destroyed:
        return DESTROYED
    return ON_MAP if unit.arrived else PENDING


def roster_unit(unit: Unit) -> RosterUnit:
    standing = _standing(unit)
    return RosterUnit(
        name=unit.name,
        type=unit.type.value,
        side=unit.side.value,
        area=unit.area.value,
        position=unit.position.value if unit.position is not None else None,
        hp=unit.hp,
        max_hp=unit.max_hp,
        fort_damage=unit.fort_damage,
        strike=unit.strike,
        defense=unit.defense,
        move=unit.move,
        move_left=left_m(unit) if standing == ON_MAP else 0,
        weakness=unit.weakness,
        acted=unit.acted,
        moved=unit.moved_m > 0,
        halted=unit.halted,
        standing=standing,
        arrive_round=unit.arrive_round if standing == PENDING else None,
    )


def roster_commander(commander: Commander) -> RosterCommander:
    return RosterCommander(
        name=commander.name,
        area=commander.area.value,
        hp=commander.hp,
        max_hp=commander.max_hp,
        fallen=commander.hp <= 0,
        horn=commander.horn,
    )


def roster(state: FortState, area: str | None = None) -> Roster:
    """The roster of ``state``; with ``area``, only what is (or arrives) there (``fort.area_invalid``)."""
    where = parse_area(area).value if area is not None else None
    units = tuple(roster_unit(u) for u in state.units if where is None or u.area.value == where)
    commanders = tuple(
        roster_commander(c) for c in state.commanders if where is None or c.area.value == where
    )
    # on the map first (in the order they were added), then reinforcements to come, then the destroyed
    rank = {ON_MAP: 0, PENDING: 1, DESTROYED: 2}
    ordered = tuple(sorted(units, key=lambda u: (rank[u.standing], u.arrive_round or 0)))
    return Roster(state.round, state.rounds, state.turn.value, where, ordered, commanders)
