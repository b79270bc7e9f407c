"""How the planner plays the PC side: the stated policy, shared by the fast runs and the engine runs.

Each PC turn, in this order:

1. with ``equipment`` (``repair:true``): emergency repair (F-FORT-3) when the fort is below its
   maximum and the round's repair is unused;
2. with ``equipment``: every cannon with a shell fires, in cannon order, at the most urgent threat
   (F-CAN-3; its catch dice and shells as the rules roll them);
3. with ``equipment``: the ballista (F-BAL-1): loaded, it fires at the most urgent threat (the bolt
   hits; ``K90+20@10`` physical for each one affected, catching by F-UNIT-4, r6); empty, it is loaded,
   the first time with its one 〈魔力の太矢〉 while that is unused (the bolt's own text is not played);
4. each attack of ``pc_damage``, in the order given: with ``focus:commanders`` at the standing
   commander with the least HP left (then the one added first) while one stands (F-UNIT-12: the
   last one down confuses the enemy), else at the most urgent threat still standing: one roll, its
   applied damage as F-UNIT-6 says (physical less defence, weakness added; a commander has neither),
   on that one target; what it deals beyond the target's HP is lost (an attack has one target);
5. every soldier outside at F0 that has not acted attacks the most urgent threat at F0 that melee
   reaches (F-UNIT-7, F-MAP-5: not a flying one), its strike less the unit's defence;
6. with ``equipment``: soldiers who have not acted load the first cannon not full (2 shells each,
   F-CAN-2).

The equipment is worked by a soldier unit at F0 on the fort top that has not acted this turn (its
main action, F-UNIT-13/14), else by the first PC at the top, besides the damage given for the PCs.
PCs never load cannons (their strength check is theirs to roll). The most urgent threat is the
enemy unit that would damage the fort soonest: at F0 (it strikes when the enemy turn starts), else
in the fewest enemy moves to F0 at its movement; of those equally soon, the one dealing the most
fort damage per hit (a ram: its strike's average), then the one added first.

The enemy side plays the auto-advance (F-TURN-2; none while confused, F-UNIT-12), then every enemy
unit at F0 with a strike that has not acted attacks the first soldier outside at F0 (F-UNIT-7,
F-MAP-4: the hit declared), its strike less the soldier's defence; a destroyed soldier stops
blocking and working the equipment. Attacks on PCs leave the fort's HP as it is and are not played
(a PC's HP, evasion and resistance are the players' to roll); commanders do not move.
"""

from __future__ import annotations

from fractions import Fraction

from engine.fort.context import parse_damage_expression
from engine.fort.map import Area, Position, distance
from engine.fort.planner.rolls import mean_damage
from engine.fort.state import FortState, Side, Unit, UnitTrait

#: how many moves a unit that cannot move at all needs (it never reaches the fort)
NEVER = 10**6


def moves_to_fort(area: Area, move: int) -> int:
    """Enemy turns until a unit in ``area`` deals fort damage: 0 at F0, else the moves it needs to enter
    F0 (F-MAP-2: 10 m per edge, F-FORT-4: it strikes as it enters)."""
    if area is Area.F0:
        return 0
    per_move = move // 10
    if per_move <= 0:
        return NEVER
    return -(-(distance(area, Area.F0) // 10) // per_move)


def per_hit(unit: Unit) -> Fraction:
    """The fort damage of one hit: the unit's fort damage, a ram's strike's average (F-UNIT-10)."""
    if UnitTrait.STRIKE_IS_FORT_DAMAGE in unit.traits and unit.strike is not None:
        mean = mean_damage(parse_damage_expression(unit.strike))
        if mean is not None:
            return mean
    return Fraction(unit.fort_damage)


def threat_key(moves: int, hit: Fraction, index: int) -> tuple[int, Fraction, int]:
    """Soonest first; of those, the most fort damage per hit; then the one added first."""
    return (moves, -hit, index)


def threat_order(state: FortState) -> list[int]:
    """The enemy units on the map, most urgent threat first."""
    return sorted(
        (i for i, u in enumerate(state.units) if u.on_map and u.side is Side.ENEMY),
        key=lambda i: threat_key(moves_to_fort(state.units[i].area, state.units[i].move),
                                 per_hit(state.units[i]), i),
    )  # fmt: skip


def works_equipment(unit: Unit) -> bool:
    """A soldier unit that may take an equipment action now: on the map, at F0 on the top, not acted."""
    return (
        unit.side is Side.PC
        and unit.on_map
        and unit.area is Area.F0
        and unit.position is Position.TOP
        and unit.acted is None
    )


def equipment_actor(state: FortState) -> str | None:
    """Who works the equipment: the first soldier free to (``works_equipment``), else the first PC at
    the top; None when nobody can."""
    for unit in state.units:
        if works_equipment(unit):
            return unit.name
    for pc in state.pcs:
        if pc.area is Area.F0 and pc.position is Position.TOP:
            return pc.name
    return None


def commander_target(state: FortState) -> int | None:
    """``focus:commanders``: the standing commander with the least HP left, then the one added first."""
    standing = [(c.hp, i) for i, c in enumerate(state.commanders) if c.hp > 0]
    return min(standing)[1] if standing else None


def outside_at_fort(unit: Unit) -> bool:
    """F-MAP-4, F-MAP-5: a unit that melee at F0 reaches: an enemy there, or a soldier outside."""
    reached = unit.side is Side.ENEMY or unit.position is Position.OUTSIDE
    return unit.on_map and unit.area is Area.F0 and reached


def attacks_now(unit: Unit, side: Side) -> bool:
    """A unit of ``side`` that makes its unit attack now (F-UNIT-7, F-UNIT-14): outside at F0, a strike
    to roll, its main action not taken."""
    return unit.side is side and outside_at_fort(unit) and unit.strike is not None and unit.acted is None


def soldier_target(state: FortState) -> int | None:
    """The soldier an enemy unit at F0 attacks: the first one outside at F0."""
    for i, unit in enumerate(state.units):
        if unit.side is Side.PC and outside_at_fort(unit):
            return i
    return None
