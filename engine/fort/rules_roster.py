"""PCs, units and commanders joining, moving and changing HP (F-MAP-4, F-MAP-6, F-MAP-7, F-UNIT-1,
F-UNIT-12)."""

from __future__ import annotations

import unicodedata

from engine import limits
from engine.common import fold
from engine.errors import about
from engine.fort import rules_sheets
from engine.fort.commands import (
    AddCommander,
    AddPC,
    AddUnit,
    ClaimPC,
    MoveCommander,
    MovePC,
    RemovePC,
    RemoveUnit,
    SetCommanderHP,
    SetPCHP,
    SetUnitHP,
)
from engine.fort.context import Context, parse_damage_expression
from engine.fort.lookup import (
    clean_name,
    ensure_name_free,
    find_commander,
    find_pc,
    find_unit,
    set_commander,
    set_pc,
    set_unit,
)
from engine.fort.map import Area, Position, distance, parse_area, parse_position
from engine.fort.rules_characters import set_commander_hp
from engine.fort.state import PC, Commander, FortState, Unit, UnitType, evolve
from engine.fort.weakness import clean_weakness
from engine.ruleset import RuleError

#: F-MAP-4, F-MAP-6: a change of position at F0 counts as 10 m of the turn's movement (so leaving F0
#: after one counts 10 m already moved).
POSITION_CHANGE_M = 10


def _positive(option: str, value: int | None, minimum: int = 1) -> None:
    if value is not None and value < minimum:
        raise RuleError("fort.value_invalid", about=option, option=option, value=value, minimum=minimum)


def add_pc(ctx: Context, state: FortState, cmd: AddPC) -> FortState:
    """F-MAP-7: a PC joins at F0, at any position (default top), owned by the invoker or ``owner``."""
    limits.check_name(cmd.name)
    limits.check_count("pcs", len(state.pcs) + 1, limits.MAX_PCS)
    with about("name"):
        name, key = clean_name(cmd.name)
        ensure_name_free(state, key, name)
    with about("position"):
        position = parse_position(cmd.position) if cmd.position is not None else Position.TOP
    _positive("hp", cmd.hp, 0)
    _positive("move", cmd.move, 0)
    limits.check_number("hp", cmd.hp, 0, limits.MAX_HP)
    owner = cmd.owner if cmd.owner is not None else cmd.invoker
    pc = PC(name, key, owner, Area.F0, position, cmd.hp, cmd.hp, cmd.move)
    if cmd.sheet is not None:
        pc = rules_sheets.with_sheet(pc, rules_sheets.decode_sheet(cmd.sheet), None, None, cmd.palette)
    ctx.emit(
        "pc.added", {"pc": name, "owner": owner, "position": position.value, "hp": cmd.hp, "move": cmd.move}
    )
    if pc.sheet is not None:
        ctx.emit("pc.sheet_read", rules_sheets.sheet_event(pc))
    return evolve(state, pcs=(*state.pcs, pc))


def remove_pc(ctx: Context, state: FortState, cmd: RemovePC) -> FortState:
    i = find_pc(state, cmd.name)
    ctx.emit("pc.removed", {"pc": state.pcs[i].name})
    return evolve(state, pcs=state.pcs[:i] + state.pcs[i + 1 :])


def claim_pc(ctx: Context, state: FortState, cmd: ClaimPC) -> FortState:
    """``/pc claim``: a PC without an owner (one imported without one) becomes the invoker's, once; one
    with an owner is refused, naming it (the GM gives a PC to another with ``/gm set``)."""
    i = find_pc(state, cmd.name)
    pc = state.pcs[i]
    if pc.owner is not None:
        raise RuleError("fort.pc_claimed", pc=pc.name, owner=pc.owner)
    ctx.emit("pc.claimed", {"pc": pc.name, "owner": cmd.invoker})
    return set_pc(state, i, evolve(pc, owner=cmd.invoker))


def move_pc(ctx: Context, state: FortState, cmd: MovePC) -> FortState:
    """F-MAP-4, F-MAP-6: a PC changes position at F0 (its normal move) or moves between areas.

    Only a PC outside leaves F0: from another position it goes outside first, and a change of
    position counts 10 m of the turn's movement, so leaving F0 after one counts 10 m already moved.
    Entering F0 puts a PC outside. F-TURN-3: the metres add up over the PC side's turn. **Ruling:**
    the distance is checked only when the PC's movement is known; otherwise the event carries the
    metres as a reminder.
    """
    if cmd.position is None and cmd.area is None:
        raise RuleError("fort.option_required", options=["position", "area"])
    i = find_pc(state, cmd.name)
    pc = state.pcs[i]
    position = parse_position(cmd.position) if cmd.position is not None else None
    area = parse_area(cmd.area) if cmd.area is not None else pc.area
    if position is not None and area is not Area.F0:
        if cmd.area is not None:  # F-MAP-4: a position is one at F0; a move away from it takes none
            where = pc.position.value if pc.position is not None else None
            raise RuleError(
                "fort.position_with_area", pc=pc.name, at=pc.area.value, position=where, area=area.value
            )
        raise RuleError("fort.position_only_at_f0", pc=pc.name, area=area.value)
    extra = 0
    if area is Area.F0 and pc.area is Area.F0:
        if position is None or position is pc.position:
            raise RuleError("fort.pc_move_same", pc=pc.name)
        new = evolve(pc, position=position)
        dist, extra = 0, POSITION_CHANGE_M
    elif area is pc.area:
        raise RuleError("fort.pc_move_same", pc=pc.name)
    elif area is Area.F0:
        if position is not None and position is not Position.OUTSIDE:
            raise RuleError("fort.pc_enter_f0_outside", pc=pc.name, position=position.value)
        dist = distance(pc.area, area)
        new = evolve(pc, area=area, position=Position.OUTSIDE)
    else:
        dist = distance(pc.area, area)
        if pc.area is Area.F0 and pc.position is not Position.OUTSIDE:
            extra = POSITION_CHANGE_M
        new = evolve(pc, area=area, position=None)
    if pc.move is not None and pc.moved_m + dist + extra > pc.move:
        raise RuleError(
            "fort.pc_move_too_far", pc=pc.name, distance=dist, extra=extra, move=pc.move, used=pc.moved_m
        )
    new = evolve(new, moved_m=pc.moved_m + dist + extra)
    ctx.emit(
        "pc.moved",
        {
            "pc": pc.name,
            "from": pc.area.value,
            "to": new.area.value,
            "from_position": pc.position.value if pc.position else None,
            "to_position": new.position.value if new.position else None,
            "distance": dist,
            "extra_m": extra,
            "moved_m": new.moved_m,
            "move": pc.move,
        },
    )
    return set_pc(state, i, new)


def _hp_option(delta: int | None, set_: int | None, current: int | None) -> int:
    if delta is not None and set_ is not None:
        raise RuleError("fort.hp_options_both", options=["delta", "set"])
    if delta is None and set_ is None:
        raise RuleError("fort.hp_option_required", options=["delta", "set"])
    if set_ is not None:
        return set_
    if current is None:
        raise RuleError("fort.pc_hp_untracked")
    assert delta is not None
    return current + delta


def set_pc_hp(ctx: Context, state: FortState, cmd: SetPCHP) -> FortState:
    """A PC's HP, if the group tracks it: ``delta`` never heals above the maximum; ``set`` above the
    maximum raises the maximum (the group's number wins)."""
    i = find_pc(state, cmd.name)
    pc = state.pcs[i]
    hp = _hp_option(cmd.delta, cmd.set, pc.hp)
    max_hp = pc.max_hp
    if cmd.set is not None:
        max_hp = hp if max_hp is None or hp > max_hp else max_hp
    elif max_hp is not None and cmd.delta is not None and cmd.delta > 0:
        hp = min(hp, max(max_hp, pc.hp or 0))
    ctx.emit(
        "pc.hp_changed", {"pc": pc.name, "delta": cmd.delta, "set": cmd.set, "before": pc.hp, "after": hp}
    )
    return set_pc(state, i, evolve(pc, hp=hp, max_hp=max_hp))


def parse_unit_type(text: str) -> UnitType:
    try:
        return UnitType(fold(text))
    except ValueError:
        raise RuleError("fort.unit_type_invalid", type=text, allowed=[t.value for t in UnitType]) from None


def add_unit(ctx: Context, state: FortState, cmd: AddUnit) -> FortState:
    """F-UNIT-1, F-MAP-7: a unit with its stats; enemies start anywhere but F0, soldiers at F0 at a
    position (F-MAP-4, top unless given); with ``arrive_round`` it arrives at the end of that round's
    enemy turn; F-UNIT-15: its weakness, as Sword World writes it."""
    limits.check_name(cmd.name)
    limits.check_count("units", len(state.units) + 1, limits.MAX_UNITS)
    with about("name"):
        name, key = clean_name(cmd.name)
        ensure_name_free(state, key, name)
    with about("type"):
        utype = parse_unit_type(cmd.type)
    with about("area"):
        area = parse_area(cmd.area)
    _positive("hp", cmd.hp)
    _positive("fort_damage", cmd.fort_damage, 0)
    _positive("defense", cmd.defense, 0)
    _positive("move", cmd.move, 0)
    move = unit_move(cmd.move)
    strike = None
    if cmd.strike is not None:
        with about("strike"):
            strike = parse_damage_expression(cmd.strike).command
    if utype is UnitType.RAM and strike is None:
        raise RuleError("fort.ram_needs_strike", about="strike", unit=name)
    if utype is UnitType.SOLDIER and area is not Area.F0:
        raise RuleError("fort.soldier_not_at_f0", about="area", unit=name, area=area.value)
    if utype is not UnitType.SOLDIER and area is Area.F0:
        raise RuleError("fort.enemy_at_f0", about="area", unit=name)
    position = None
    if utype is UnitType.SOLDIER:
        with about("position"):
            position = parse_position(cmd.position) if cmd.position is not None else Position.TOP
    elif cmd.position is not None:
        raise RuleError("fort.position_only_soldier", about="position", unit=name)
    with about("weakness"):
        weakness = clean_weakness(cmd.weakness) if cmd.weakness else None
    arrived = True
    if cmd.arrive_round is not None:
        if utype is UnitType.SOLDIER:
            raise RuleError("fort.soldier_reinforcement", about="arrive_round", unit=name)
        if cmd.arrive_round > state.rounds or state.enemy_turn_done(cmd.arrive_round):
            raise RuleError(
                "fort.arrive_round_invalid",
                about="arrive_round",
                arrive_round=cmd.arrive_round,
                round=state.round,
                rounds=state.rounds,
            )
        arrived = False
    unit = Unit(
        name,
        key,
        utype,
        area,
        cmd.hp,
        cmd.hp,
        cmd.fort_damage,
        strike,
        cmd.defense,
        move,
        cmd.arrive_round,
        arrived,
        position=position,
        weakness=weakness,
    )
    ctx.emit(
        "unit.added",
        {
            "unit": name,
            "type": utype.value,
            "side": unit.side.value,
            "area": area.value,
            "position": position.value if position else None,
            "hp": cmd.hp,
            "fort_damage": cmd.fort_damage,
            "strike": strike,
            "defense": cmd.defense,
            "move": move,
            "weakness": weakness,
            "arrive_round": cmd.arrive_round,
            **{k: v for k, v in (("level", cmd.level), ("accuracy", cmd.accuracy), ("evasion", cmd.evasion))
               if v is not None},
        },
    )  # fmt: skip
    if move != cmd.move:
        ctx.emit("unit.move_rounded", {"unit": name, "given": cmd.move, "move": move})
    return evolve(state, units=(*state.units, unit))


def unit_move(metres: int) -> int:
    """F-MAP-2 moves go in steps of 10 m: a move that is not a multiple of 10 is the multiple below, at least
    10 m (COMMANDS.md's Conventions; a sheet's 移動速度 5, 12 or 25)."""
    return metres if metres % 10 == 0 else max(10, metres // 10 * 10)


def remove_unit(ctx: Context, state: FortState, cmd: RemoveUnit) -> FortState:
    i = find_unit(state, cmd.unit)
    ctx.emit("unit.removed", {"unit": state.units[i].name})
    return evolve(state, units=state.units[:i] + state.units[i + 1 :])


def set_unit_hp(ctx: Context, state: FortState, cmd: SetUnitHP) -> FortState:
    """F-UNIT-6: the GM sets a unit's HP (never above maximum); 0 or less destroys it, above 0 revives it."""
    i = find_unit(state, cmd.unit)
    unit = state.units[i]
    hp = min(_hp_option(cmd.delta, cmd.set, unit.hp), unit.max_hp)
    ctx.emit(
        "unit.hp_changed",
        {"unit": unit.name, "delta": cmd.delta, "set": cmd.set, "before": unit.hp, "after": hp},
    )
    if hp <= 0 and not unit.destroyed:
        ctx.emit("unit.destroyed", {"unit": unit.name, "area": unit.area.value})
    elif hp > 0 and unit.destroyed:
        ctx.emit("unit.revived", {"unit": unit.name, "area": unit.area.value})
    return set_unit(state, i, evolve(unit, hp=hp, destroyed=hp <= 0))


def add_commander(ctx: Context, state: FortState, cmd: AddCommander) -> FortState:
    """F-UNIT-12, F-MAP-7: a commander is an enemy character with its own HP, anywhere but F0, and its
    war-horn (鼓砲) effect as the GM writes it."""
    limits.check_name(cmd.name)
    limits.check_count("commanders", len(state.commanders) + 1, limits.MAX_COMMANDERS)
    with about("name"):
        name, key = clean_name(cmd.name)
        ensure_name_free(state, key, name)
    _positive("hp", cmd.hp)
    with about("area"):
        area = parse_area(cmd.area)
    if area is Area.F0:
        raise RuleError("fort.enemy_at_f0", about="area", unit=name)
    horn = unicodedata.normalize("NFKC", cmd.horn).strip() if cmd.horn is not None else None
    horn = horn or None
    ctx.emit("commander.added", {"commander": name, "hp": cmd.hp, "area": area.value, "horn": horn})
    commander = Commander(name, key, area, cmd.hp, cmd.hp, horn)
    return evolve(state, commanders=(*state.commanders, commander))


def move_commander(ctx: Context, state: FortState, cmd: MoveCommander) -> FortState:
    """F-UNIT-12: a commander moves like a character (traps and units never stop it); at F0 it is
    outside (F-MAP-5)."""
    i = find_commander(state, cmd.name)
    commander = state.commanders[i]
    to = parse_area(cmd.to)
    if commander.hp <= 0:
        raise RuleError("fort.commander_down", name=commander.name)
    if to is commander.area:
        raise RuleError("fort.commander_move_same", commander=commander.name, area=to.value)
    ctx.emit(
        "commander.moved",
        {
            "commander": commander.name,
            "from": commander.area.value,
            "to": to.value,
            "distance": distance(commander.area, to),
        },
    )
    return set_commander(state, i, evolve(commander, area=to))


def commander_hp(ctx: Context, state: FortState, cmd: SetCommanderHP) -> FortState:
    """F-UNIT-12: damage to a commander; at 0 for the last one, the enemy is confused."""
    i = find_commander(state, cmd.name)
    hp = _hp_option(cmd.delta, cmd.set, state.commanders[i].hp)
    return set_commander_hp(ctx, state, i, hp, {"delta": cmd.delta, "set": cmd.set})
