"""Unit movement: paths, blocks, traps, entering F0, soldiers' positions, and the enemy side's auto-advance.

F-MAP-2, F-MAP-4, F-UNIT-2, F-TRAP-1..5, F-FORT-4, F-TURN-2, F-TURN-3, F-UNIT-12 (confusion).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import parse_command
from engine.fort.commands import AdvanceUnits, MoveUnit
from engine.fort.context import Context, roll_record
from engine.fort.lookup import set_unit, unit_on_map
from engine.fort.map import (
    Area,
    Edge,
    Position,
    distance,
    edge_text,
    make_edge,
    parse_area,
    parse_position,
    shortest_path,
)
from engine.fort.rules_damage import FIRE_MAGIC, strike_unit
from engine.fort.rules_fort import unit_fort_damage
from engine.fort.rules_roster import POSITION_CHANGE_M
from engine.fort.state import FortState, Side, Trap, TrapKind, Turn, Unit, UnitTrait, evolve
from engine.ruleset import RuleError

#: F-TRAP-4: the mine's damage, fire magic; a plain sum, so no automatic failure (F-DICE-1).
MINE_DAMAGE = parse_command("2D6+10")


def confused(state: FortState) -> bool:
    """F-UNIT-12: the enemy side is confused in this enemy turn: no enemy unit moves."""
    return state.turn is Turn.ENEMY and state.confused_round == state.round


def blocks(other: Unit, mover: Unit) -> bool:
    """F-UNIT-2: units of the other side block a unit entering their area (characters never do), both
    ways; a flying unit is blocked only by flying units, and holds no ground unit (it is in the air)."""
    return other.on_map and other.side is not mover.side and other.flying is mover.flying


def trap_affects(unit: Unit) -> bool:
    """F-TRAP-1, F-UNIT-11, F-UNIT-13: traps act on enemy ground units only (not flying, not soldiers)."""
    return UnitTrait.IGNORES_TRAPS not in unit.traits


def left_m(unit: Unit) -> int:
    """F-TURN-3: the metres of movement the unit has left in this turn of its side."""
    return 0 if unit.halted is not None else max(0, unit.move - unit.moved_m)


def _first_trap(traps: list[Trap], kind: TrapKind, edge: Edge) -> int | None:
    """F-TRAP-2: of several traps of one kind on one edge, only the first with uses left triggers."""
    for i, t in enumerate(traps):
        if t.kind is kind and t.edge == edge and t.uses > 0:
            return i
    return None


def _use_trap(
    ctx: Context, traps: list[Trap], i: int, kind: str, unit: Unit, extra: dict[str, object]
) -> None:
    """F-TRAP-1: a trap that triggers loses one use; at 0 it is spent."""
    trap = traps[i]
    traps[i] = evolve(trap, uses=trap.uses - 1)
    data = {
        "unit": unit.name,
        "edge": edge_text(trap.edge),
        "uses_before": trap.uses,
        "uses_after": trap.uses - 1,
    }
    ctx.emit(kind, {**data, **extra})


def barricade(ctx: Context, unit: Unit, traps: list[Trap], edge: Edge, goal: Area) -> bool:
    """F-TRAP-3: a barricade holds the unit (True): it stays on its side, where it reached the edge, and
    moves no more this turn; its next move passes this barricade freely; a ram passes and the
    barricade loses a use."""
    b = _first_trap(traps, TrapKind.BARRICADE, edge)
    if b is None:
        return False
    if UnitTrait.PASSES_BARRICADES in unit.traits:
        _use_trap(ctx, traps, b, "trap.rammed", unit, {})
        return False
    if edge == unit.held_edge:
        ctx.emit("trap.passed", {"unit": unit.name, "edge": edge_text(edge)})
        return False
    _use_trap(ctx, traps, b, "trap.barricade", unit, {"stays": unit.area.value, "to": goal.value})
    return True


def mine(ctx: Context, units: list[Unit], traps: list[Trap], i: int, edge: Edge) -> None:
    """F-TRAP-4: a mine deals 2D6+10 fire magic damage (defence does not count; a fire weakness adds,
    F-UNIT-15) and loses a use."""
    m = _first_trap(traps, TrapKind.MINE, edge)
    if m is None:
        return
    _use_trap(ctx, traps, m, "trap.mine", units[i], {})
    result = ctx.roll_command(MINE_DAMAGE)  # its dice go with the damage event, beside its roll text
    strike_unit(ctx, units, i, [result.damage], [roll_record(result)], FIRE_MAGIC, {"source": "mine"})


@dataclass(frozen=True, slots=True)
class Walk:
    """Where a walk ended: the areas reached, why it stopped early (``blocked``, ``barricade``,
    ``destroyed``) and by whom (the blocking unit)."""

    path: tuple[Area, ...]
    stopped: str | None = None
    blocker: str | None = None


def _step(
    ctx: Context, units: list[Unit], traps: list[Trap], i: int, path: tuple[Area, ...], goal: Area
) -> Walk:
    """F-TRAP-5, F-UNIT-2, F-UNIT-6: one edge at a time: its traps (the barricade first; a unit it holds
    triggers nothing else there), then the area entered, where a unit of the other side stops it."""
    walked = [path[0]]
    for nxt in path[1:]:
        unit = units[i] = evolve(units[i], area=walked[-1])  # where it is: the area a mine's event names
        edge = make_edge(walked[-1], nxt)
        assert edge is not None
        if trap_affects(unit):
            if barricade(ctx, unit, traps, edge, goal):
                return Walk(tuple(walked), "barricade")
            mine(ctx, units, traps, i, edge)
            if units[i].destroyed:
                return Walk(tuple(walked), "destroyed")  # it falls on the edge, before ``nxt``
        walked.append(nxt)
        blocker = next((o for j, o in enumerate(units) if j != i and o.area is nxt and blocks(o, unit)), None)
        if blocker is not None:
            return Walk(tuple(walked), "blocked", blocker.name)
    return Walk(tuple(walked))


def walk(
    ctx: Context, state: FortState, i: int, path: tuple[Area, ...], force: bool, extra_m: int = 0
) -> FortState:
    """F-MAP-2: moves ``units[i]`` along ``path``, each edge finished before the next (traps, blocks).

    F-UNIT-2: a unit of the other side in an area it enters, on its way or at its end, stops it there
    for the rest of the turn. F-TRAP-3: a barricade leaves it where it reached that edge, for the rest
    of the turn, so one move or several give the same result; traps crossed before stay triggered.
    F-UNIT-6: a unit a mine destroys stays in the area it was leaving. F-FORT-4: entering F0 costs the
    fort the unit's fort damage. ``force`` ignores traps and blocks, not the fort damage; ``extra_m``
    is what leaving a position at F0 costs (F-MAP-4).
    """
    unit = state.units[i]
    traps = list(state.traps)
    units = list(state.units)
    goal = path[-1]
    done = Walk(path) if force else _step(ctx, units, traps, i, path, goal)
    reached = done.path[-1]
    moved = 10 * (len(done.path) - 1)
    held = done.stopped in ("blocked", "barricade")
    changes: dict[str, object] = {
        "area": reached,
        "moved_m": unit.moved_m + moved + (extra_m if moved else 0),
        "halted": done.stopped if held else None,
        "held_edge": None,
        "held_to": None,
    }
    if done.stopped == "barricade":
        changes |= {"held_edge": make_edge(reached, path[len(done.path)]), "held_to": goal}
    if reached is not unit.area:
        changes["position"] = Position.OUTSIDE if reached is Area.F0 and unit.side is Side.PC else None
    units[i] = evolve(units[i], **changes)
    if moved:
        ctx.emit(
            "unit.moved",
            {
                "unit": unit.name,
                "from": unit.area.value,
                "to": reached.value,
                "path": [a.value for a in done.path],
                "distance": moved,
                "extra_m": extra_m,
                "stopped": done.stopped,
                "blocker": done.blocker,
                "force": force,
            },
        )
    state = evolve(state, units=tuple(units), traps=tuple(traps))
    if reached is Area.F0 and moved and unit.side is Side.ENEMY and not units[i].destroyed:
        state = unit_fort_damage(ctx, state, units[i], "enter")
    return state


def _path(start: Area, to: Area, via: Area | None) -> tuple[Area, ...]:
    if via is None:
        return shortest_path(start, to)
    path = shortest_path(start, via) + shortest_path(via, to)[1:]
    if via in (start, to) or len(path) != len(shortest_path(start, to)):
        raise RuleError("fort.via_invalid", via=via.value, start=start.value, to=to.value)
    return path


def _leaving_cost(unit: Unit, to: Area) -> int:
    """F-MAP-4, F-MAP-6: a soldier leaves F0 from outside; from another position it goes outside first
    (10 m)."""
    if unit.area is Area.F0 and to is not Area.F0 and unit.side is Side.PC:
        return 0 if unit.position is Position.OUTSIDE else POSITION_CHANGE_M
    return 0


def _check_allowance(unit: Unit, need: int) -> None:
    """F-TURN-3, F-UNIT-2, F-TRAP-3: a move fits what the unit has left of this turn's movement."""
    if unit.halted is not None:
        raise RuleError("fort.unit_halted", unit=unit.name, reason=unit.halted, area=unit.area.value)
    if need > left_m(unit):
        raise RuleError("fort.unit_move_too_far", unit=unit.name, distance=need, left=left_m(unit))


def change_position(ctx: Context, state: FortState, i: int, text: str, force: bool) -> FortState:
    """F-MAP-4: a soldier at F0 changes position (top, inside, outside); it counts 10 m of its movement."""
    unit = state.units[i]
    position = parse_position(text)
    if unit.area is not Area.F0 or unit.side is not Side.PC:
        raise RuleError("fort.unit_position_only_soldier_f0", unit=unit.name, area=unit.area.value)
    if position is unit.position:
        raise RuleError("fort.unit_position_same", unit=unit.name, position=position.value)
    if not force:
        _check_allowance(unit, POSITION_CHANGE_M)
    ctx.emit(
        "unit.repositioned",
        {
            "unit": unit.name,
            "from_position": unit.position.value if unit.position else None,
            "to_position": position.value,
            "force": force,
        },
    )
    moved_m = unit.moved_m + POSITION_CHANGE_M
    return set_unit(state, i, evolve(unit, position=position, moved_m=moved_m))


def move_unit(ctx: Context, state: FortState, cmd: MoveUnit) -> FortState:
    """F-MAP-2, F-TURN-3: the GM moves one unit by the shortest path, within what is left of its movement
    this turn unless ``force``; F-MAP-4: ``to:F0 position:`` changes a soldier's position at F0."""
    i = unit_on_map(state, cmd.unit)
    unit = state.units[i]
    to = parse_area(cmd.to)
    if cmd.position is not None and to is unit.area:
        return change_position(ctx, state, i, cmd.position, cmd.force)
    if cmd.position is not None and (
        to is not Area.F0 or parse_position(cmd.position) is not Position.OUTSIDE
    ):
        raise RuleError("fort.unit_enter_f0_outside", unit=unit.name, to=to.value, position=cmd.position)
    via = parse_area(cmd.via) if cmd.via is not None else None
    if to is unit.area:
        raise RuleError("fort.unit_move_same", unit=unit.name, area=to.value)
    if not cmd.force and unit.side is Side.ENEMY and confused(state):
        raise RuleError("fort.enemy_confused", unit=unit.name, round=state.round)
    path = _path(unit.area, to, via)
    extra = _leaving_cost(unit, to)
    if not cmd.force:
        _check_allowance(unit, distance(unit.area, to) + extra)
    return walk(ctx, state, i, path, cmd.force, extra)


def advance_path(unit: Unit) -> tuple[Area, ...]:
    """F-TURN-2: toward F0 along the shortest path by the unit's movement left this turn;
    F-TRAP-3: a unit held by a barricade makes an ordinary move too (with its whole movement, not
    ending where its held move was going), passing that barricade."""
    return shortest_path(unit.area, Area.F0)[: left_m(unit) // 10 + 1]


def advance(ctx: Context, state: FortState, cmd: AdvanceUnits) -> FortState:
    """F-TURN-2: auto-advance of one or all enemy units, unit by unit, each move finished first.

    Units at F0 stay; ground units stop at blocks, barricades and F0. Refused while the enemy is
    confused (F-UNIT-12). The event counts the units that reached another area, and names those that
    set out but stayed where they were (held at their first edge); a unit destroyed on its first edge
    is in neither (its own events say so).
    """
    if confused(state):
        if cmd.unit is None:
            raise RuleError("fort.enemy_confused_all", round=state.round)
        raise RuleError("fort.enemy_confused", unit=cmd.unit, round=state.round)
    if cmd.unit is not None:
        i = unit_on_map(state, cmd.unit)
        if state.units[i].side is not Side.ENEMY:
            raise RuleError("fort.unit_not_enemy", unit=state.units[i].name)
        order = [i]
    else:
        order = [i for i, u in enumerate(state.units) if u.side is Side.ENEMY and u.on_map]
    moved: list[str] = []
    stayed: list[str] = []
    for i in order:
        unit = state.units[i]
        path = advance_path(unit)
        if not unit.on_map or len(path) < 2:
            continue
        state = walk(ctx, state, i, path, False)
        if state.units[i].area is not unit.area:
            moved.append(unit.name)
        elif not state.units[i].destroyed:
            stayed.append(unit.name)
        if state.turn is Turn.ENDED:
            break
    ctx.emit("unit.advanced", {"unit": cmd.unit, "moved": len(moved), "units": moved, "stayed": stayed})
    return state
