"""Unit movement: paths, blocks, traps, entering F0, and the enemy side's auto-advance.

F-MAP-2, F-UNIT-2, F-TRAP-1..5, F-FORT-4, F-TURN-2, F-UNIT-12 (confusion).
"""

from __future__ import annotations

from engine.dice import parse_command
from engine.fort.commands import AdvanceUnits, MoveUnit
from engine.fort.context import Context, roll_record
from engine.fort.lookup import unit_on_map
from engine.fort.map import Area, Edge, distance, edge_text, make_edge, parse_area, shortest_path
from engine.fort.rules_damage import hurt_unit
from engine.fort.rules_fort import unit_fort_damage
from engine.fort.state import DamageKind, FortState, Side, Trap, TrapKind, Turn, Unit, UnitTrait, evolve
from engine.ruleset import RuleError

#: F-TRAP-4: the mine's damage, fire magic; a plain sum, so no automatic failure (F-DICE-1).
MINE_DAMAGE = parse_command("2D6+10")


def confused(state: FortState) -> bool:
    """F-UNIT-12: the enemy side is confused in this enemy turn: no enemy unit moves."""
    return state.turn is Turn.ENEMY and state.confused_round == state.round


def blocks(other: Unit, mover: Unit) -> bool:
    """F-UNIT-2: units of the other side block a unit entering their area (characters never do);
    a flying unit is blocked only by flying units."""
    return other.on_map and other.side is not mover.side and (other.flying or not mover.flying)


def trap_affects(unit: Unit) -> bool:
    """F-TRAP-1, F-UNIT-11, F-UNIT-13: traps act on enemy ground units only (not flying, not soldiers)."""
    return UnitTrait.IGNORES_TRAPS not in unit.traits


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


def barricade(
    ctx: Context, units: list[Unit], traps: list[Trap], i: int, edge: Edge, goal: Area, round_: int
) -> bool:
    """F-TRAP-3: a barricade cancels the unit's move (it stays where it started) and holds it; its next
    move passes this barricade freely; a ram passes and the barricade loses a use. True if cancelled."""
    unit = units[i]
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
    used = unit.moved_m if unit.moved_round == round_ else 0
    units[i] = evolve(unit, held_edge=edge, held_to=goal, moved_round=round_, moved_m=max(used, unit.move))
    return True


def mine(ctx: Context, units: list[Unit], traps: list[Trap], i: int, edge: Edge) -> None:
    """F-TRAP-4: a mine deals 2D6+10 fire magic damage (defence does not count) and loses a use."""
    m = _first_trap(traps, TrapKind.MINE, edge)
    if m is None:
        return
    _use_trap(ctx, traps, m, "trap.mine", units[i], {})
    result = ctx.roll_command(MINE_DAMAGE)  # its dice go with the damage event, beside its roll text
    hurt_unit(ctx, units, i, result.damage, {
        "source": "mine", "kind": DamageKind.MAGIC.value, "raw": [result.damage],
        "defense": units[i].defense, "rolls": [roll_record(result)],
    })  # fmt: skip


def cross_edge(
    ctx: Context, units: list[Unit], traps: list[Trap], i: int, edge: Edge, goal: Area, round_: int
) -> str | None:
    """F-TRAP-5: on an edge with both, the barricade is checked first, and a unit it stops triggers
    nothing else there; F-TRAP-1: traps act on enemy ground units only. Returns why the move ended."""
    if not trap_affects(units[i]):
        return None
    if barricade(ctx, units, traps, i, edge, goal, round_):
        return "cancelled"
    mine(ctx, units, traps, i, edge)
    return "destroyed" if units[i].destroyed else None


def walk(ctx: Context, state: FortState, i: int, path: tuple[Area, ...], force: bool) -> FortState:
    """F-MAP-2: moves ``units[i]`` along ``path``, one edge at a time, each step finished before the next.

    Per edge the traps (F-TRAP-5); then the unit enters the area: F0 costs the fort the unit's fort
    damage (F-FORT-4), and a unit of the other side there stops it (F-UNIT-2). ``force`` ignores traps
    and blocks, not the fort damage. **Ruling:** when a barricade cancels a move, traps already
    triggered on earlier edges of that path stay triggered; a unit a mine destroys falls on that
    edge and stays (destroyed) in the area it last reached, so no move is reported if it reached none.
    """
    unit = state.units[i]
    start = unit.area
    traps = list(state.traps)
    units = list(state.units)
    walked: list[Area] = [start]
    stop: str | None = None
    used = unit.moved_m if unit.moved_round == state.round else 0
    for nxt in path[1:]:
        edge = make_edge(walked[-1], nxt)
        assert edge is not None
        if not force:
            stop = cross_edge(ctx, units, traps, i, edge, path[-1], state.round)
            if stop == "cancelled":
                return evolve(state, units=tuple(units), traps=tuple(traps))
            if stop == "destroyed":
                break  # it falls on the edge: it never reaches ``nxt``
        walked.append(nxt)
        if (
            not force
            and nxt is not path[-1]
            and any(blocks(o, unit) for j, o in enumerate(units) if j != i and o.area is nxt)
        ):
            stop = "blocked"
            break
    moved = 10 * (len(walked) - 1)
    units[i] = evolve(
        units[i],
        area=walked[-1],
        held_edge=None,
        held_to=None,
        moved_round=state.round,
        moved_m=max(used + moved, unit.move) if stop == "blocked" else used + moved,
    )
    if moved:
        ctx.emit(
            "unit.moved",
            {
                "unit": unit.name,
                "from": start.value,
                "to": walked[-1].value,
                "path": [a.value for a in walked],
                "distance": moved,
                "stopped": stop,
                "force": force,
            },
        )
    state = evolve(state, units=tuple(units), traps=tuple(traps))
    if walked[-1] is Area.F0 and start is not Area.F0 and unit.side is Side.ENEMY and not units[i].destroyed:
        state = unit_fort_damage(ctx, state, units[i], "enter")
    return state


def _path(start: Area, to: Area, via: Area | None) -> tuple[Area, ...]:
    if via is None:
        return shortest_path(start, to)
    path = shortest_path(start, via) + shortest_path(via, to)[1:]
    if via in (start, to) or len(path) != len(shortest_path(start, to)):
        raise RuleError("fort.via_invalid", via=via.value, start=start.value, to=to.value)
    return path


def move_unit(ctx: Context, state: FortState, cmd: MoveUnit) -> FortState:
    """F-MAP-2: the GM moves one unit by the shortest path, within its movement unless ``force``."""
    i = unit_on_map(state, cmd.unit)
    unit = state.units[i]
    to = parse_area(cmd.to)
    via = parse_area(cmd.via) if cmd.via is not None else None
    if to is unit.area:
        raise RuleError("fort.unit_move_same", unit=unit.name, area=to.value)
    if not cmd.force and unit.side is Side.ENEMY and confused(state):
        raise RuleError("fort.enemy_confused", unit=unit.name, round=state.round)
    path = _path(unit.area, to, via)
    used = unit.moved_m if unit.moved_round == state.round else 0
    dist = distance(unit.area, to)
    if not cmd.force and used + dist > unit.move:
        raise RuleError(
            "fort.unit_move_too_far", unit=unit.name, distance=dist, left=max(0, unit.move - used)
        )
    return walk(ctx, state, i, path, cmd.force)


def advance_path(state: FortState, unit: Unit) -> tuple[Area, ...]:
    """F-TURN-2: toward F0 along the shortest path by the unit's movement left this round;
    F-TRAP-3: a unit held by a barricade heads for the area it was going to."""
    used = unit.moved_m if unit.moved_round == state.round else 0
    steps = max(0, unit.move - used) // 10
    goal = unit.held_to if unit.held_to is not None else Area.F0
    return shortest_path(unit.area, goal)[: steps + 1]


def advance(ctx: Context, state: FortState, cmd: AdvanceUnits) -> FortState:
    """F-TURN-2: auto-advance of one or all enemy units, unit by unit, each move finished first.

    Units at F0 stay; ground units stop at blocks, barricades and F0. Refused outside the enemy
    side's turn and while the enemy is confused (F-UNIT-12).
    """
    if state.turn is not Turn.ENEMY:
        raise RuleError("fort.not_enemy_turn", turn=state.turn.value)
    if confused(state):
        raise RuleError("fort.enemy_confused", unit=cmd.unit, round=state.round)
    if cmd.unit is not None:
        i = unit_on_map(state, cmd.unit)
        if state.units[i].side is not Side.ENEMY:
            raise RuleError("fort.unit_not_enemy", unit=state.units[i].name)
        order = [i]
    else:
        order = [i for i, u in enumerate(state.units) if u.side is Side.ENEMY and u.on_map]
    moved = 0
    for i in order:
        unit = state.units[i]
        if not unit.on_map:
            continue
        path = advance_path(state, unit)
        if len(path) < 2:
            continue
        state = walk(ctx, state, i, path, False)
        moved += 1
        if state.turn is Turn.ENDED:
            break
    ctx.emit("unit.advanced", {"unit": cmd.unit, "moved": moved})
    return state
