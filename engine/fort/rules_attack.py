"""Attacks on units by PCs (F-UNIT-3..6) and by units (F-UNIT-7, F-UNIT-8, F-UNIT-14)."""

from __future__ import annotations

from typing import Any

from engine.common import fold
from engine.fort.commands import AttackArea, AttackPierce, AttackSingle, UnitAttack, UnitBarrage
from engine.fort.context import (
    Context,
    amount_value,
    parse_amount,
    parse_damage_expression,
    roll_record,
)
from engine.fort.lookup import (
    find_commander,
    name_key,
    require_main_action,
    require_pc_actor,
    resolve_actor,
    take_main_action,
    unit_on_map,
)
from engine.fort.map import Area, Position, attack_range, parse_area, pierce_areas
from engine.fort.rules_characters import hurt_pc, set_commander_hp
from engine.fort.rules_damage import (
    DAMAGE_PER_BODY,
    MAX_BODIES,
    Aim,
    Blow,
    applied_to,
    area_catch,
    caught_names,
    deal_area,
    hurt_unit,
    pierce_share,
    sheltered,
    strike_unit,
)
from engine.fort.state import PC, DamageKind, FortState, Side, Unit, evolve
from engine.fort.weakness import parse_element
from engine.ruleset import RuleError

MAX_RADIUS = 30


def parse_kind(text: str) -> DamageKind:
    try:
        return DamageKind(fold(text))
    except ValueError:
        raise RuleError(
            "fort.damage_kind_invalid", kind=text, allowed=[k.value for k in DamageKind]
        ) from None


def parse_blow(kind: str, element: str | None) -> Blow:
    """F-UNIT-6, F-UNIT-15: an attack's kind of damage and its element, as the options give them."""
    return Blow(parse_kind(kind), parse_element(element))


def melee_position(unit: Unit) -> Position | None:
    """F-MAP-5: where a unit stands for melee at F0: a soldier at its position, an enemy outside."""
    if unit.area is not Area.F0:
        return None
    return unit.position if unit.side is Side.PC else Position.OUTSIDE


def check_reach(actor: str, area: Area, target: Unit) -> None:
    """F-UNIT-11, F-MAP-5: a flying unit cannot be the target of melee; melee needs the same area."""
    if target.flying:
        raise RuleError("fort.melee_flying", unit=target.name)
    if area is not target.area:
        raise RuleError(
            "fort.melee_other_area",
            actor=actor,
            area=area.value,
            unit=target.name,
            unit_area=target.area.value,
        )


def check_melee(pc: PC, target: Unit) -> None:
    """F-MAP-5, F-MAP-4, F-UNIT-11: melee needs the same area and, at F0, the PC outside (enemies at
    F0 are always outside); a flying unit cannot be the target of melee."""
    check_reach(pc.name, pc.area, target)
    if pc.area is Area.F0 and pc.position is not Position.OUTSIDE:
        raise RuleError(
            "fort.melee_position", actor=pc.name, position=pc.position.value if pc.position else None
        )


def check_unit_melee(attacker: Unit, target: Unit) -> None:
    """F-MAP-5, F-MAP-4: a unit's melee needs the same area and, at F0, the same position: enemy unit
    attacks at F0 reach only soldiers outside, and a soldier melees enemies at F0 from outside."""
    check_reach(attacker.name, attacker.area, target)
    if not _outside(attacker):
        raise RuleError("fort.melee_position", actor=attacker.name, position=_position(attacker))
    if not _outside(target):
        raise RuleError("fort.melee_target_position", actor=target.name, position=_position(target))


def _outside(unit: Unit) -> bool:
    return melee_position(unit) in (None, Position.OUTSIDE)


def _position(unit: Unit) -> str | None:
    return unit.position.value if unit.position else None


def _enemy_target(state: FortState, name: str) -> int:
    i = unit_on_map(state, name)
    if state.units[i].side is not Side.ENEMY:
        raise RuleError("fort.target_not_enemy", unit=state.units[i].name)
    return i


def resolve_aim(state: FortState, unit: str | None, commander: str | None, area: str | None) -> Aim:
    """F-UNIT-4: an area effect aims at an enemy unit, a commander still up, or a point in an area."""
    if sum(x is not None for x in (unit, commander, area)) != 1:
        raise RuleError("fort.target_one_of", options=["unit", "commander", "area"])
    if unit is not None:
        i = _enemy_target(state, unit)
        return Aim(state.units[i].area, unit=i)
    if commander is not None:
        c = find_commander(state, commander)
        if state.commanders[c].hp <= 0:
            raise RuleError("fort.commander_down", name=state.commanders[c].name)
        return Aim(state.commanders[c].area, commander=c)
    assert area is not None
    return Aim(parse_area(area))


def aim_data(state: FortState, aim: Aim) -> dict[str, Any]:
    """How an event names what an area effect aimed at: ``unit``, ``commander`` (None if not that) and
    ``area``."""
    return {
        "unit": state.units[aim.unit].name if aim.unit is not None else None,
        "commander": state.commanders[aim.commander].name if aim.commander is not None else None,
        "area": aim.area.value,
    }


def attack_single(ctx: Context, state: FortState, cmd: AttackSingle) -> FortState:
    """F-UNIT-3: 群れで受ける: a single-target attack deals 5 fixed damage per body it could target
    (at most ten bodies, 50), and nothing else."""
    if not 1 <= cmd.bodies <= MAX_BODIES:
        raise RuleError("fort.bodies_invalid", bodies=cmd.bodies, max=MAX_BODIES)
    i = _enemy_target(state, cmd.unit)
    pc = require_pc_actor(state, resolve_actor(state, cmd.by, cmd.invoker))
    if cmd.melee:
        check_melee(pc, state.units[i])
    units = list(state.units)
    damage = DAMAGE_PER_BODY * cmd.bodies
    hurt_unit(
        ctx,
        units,
        i,
        damage,
        {
            "source": "single",
            "by": pc.name,
            "kind": DamageKind.FIXED.value,
            "bodies": cmd.bodies,
            "melee": cmd.melee,
            "raw": [damage],
            "defense": units[i].defense,
            "rolls": [],
        },
    )
    return evolve(state, units=tuple(units))


def attack_area(ctx: Context, state: FortState, cmd: AttackArea) -> FortState:
    """F-UNIT-4, F-UNIT-6, F-UNIT-11, F-UNIT-15: an area attack on a unit, a commander or a point in an
    area: the catch d6s, then damage one by one, target first (characters named, F-UNIT-4)."""
    if not 1 <= cmd.radius <= MAX_RADIUS:
        raise RuleError("fort.radius_invalid", radius=cmd.radius, max=MAX_RADIUS)
    if cmd.targets is not None and cmd.targets < 1:
        raise RuleError("fort.targets_invalid", targets=cmd.targets)
    blow = parse_blow(cmd.kind, cmd.element)
    amount = parse_amount(cmd.damage)
    aim = resolve_aim(state, cmd.unit, cmd.commander, cmd.area)
    pc = require_pc_actor(state, resolve_actor(state, cmd.by, cmd.invoker))
    caught = area_catch(ctx, state, aim, cmd.radius, cmd.targets)
    hit, characters = caught_names(state, caught)
    ctx.emit(
        "attack.area",
        {
            "by": pc.name,
            **aim_data(state, aim),
            "range": attack_range(pc.area, aim.area),
            "radius": cmd.radius,
            **blow.data(),
            "checks": list(caught.checks),
            "hit": hit,
            "characters": characters,
            "over_cap": list(caught.over),
        },
    )
    data = {"source": "area", "by": pc.name}
    return deal_area(ctx, state, caught, blow, data, lambda c: amount_value(c, amount))


def attack_pierce(ctx: Context, state: FortState, cmd: AttackPierce) -> FortState:
    """F-MAP-3, F-UNIT-5, F-UNIT-11: every ground unit on the covered line, soldier units included,
    takes half its applied damage (a quarter if resisted), rounded up; each rolls its own damage, in
    unit order. **Ruling:** the pierce starts from the actor's own area; soldiers inside the fort are
    out of its reach (F-MAP-4)."""
    origin, target = parse_area(cmd.from_), parse_area(cmd.to)
    areas = pierce_areas(origin, target)
    blow = parse_blow(cmd.kind, cmd.element)
    amount = parse_amount(cmd.damage)
    pc = require_pc_actor(state, resolve_actor(state, cmd.by, cmd.invoker))
    if pc.area is not origin:
        raise RuleError("fort.pierce_origin", pc=pc.name, area=pc.area.value, origin=origin.value)
    units = list(state.units)
    hit = [
        i for i, u in enumerate(units) if u.on_map and u.area in areas and not u.flying and not sheltered(u)
    ]
    ctx.emit(
        "attack.pierce",
        {
            "by": pc.name,
            "from": origin.value,
            "to": target.value,
            "areas": [a.value for a in areas],
            **blow.data(),
            "resisted": cmd.resisted,
            "hit": [units[i].name for i in hit],
        },
    )
    for i in hit:
        raw, roll = amount_value(ctx, amount)
        applied, bonus = applied_to(units[i], raw, blow)
        extra = {"weakness": bonus} if bonus else {}
        hurt_unit(
            ctx,
            units,
            i,
            pierce_share(applied, cmd.resisted),
            {
                "source": "pierce",
                "by": pc.name,
                **blow.data(),
                "raw": [raw],
                "defense": units[i].defense,
                **extra,
                "applied": applied,
                "resisted": cmd.resisted,
                "rolls": [roll] if roll else [],
            },
        )
    return evolve(state, units=tuple(units))


def _strike(unit: Unit) -> Any:
    if unit.strike is None:
        raise RuleError("fort.unit_no_strike", unit=unit.name)
    return parse_damage_expression(unit.strike)


def unit_attack(ctx: Context, state: FortState, cmd: UnitAttack) -> FortState:
    """F-UNIT-7, F-UNIT-14: ▶ユニット攻撃: the unit's main action, one melee attack on a unit of the other
    side in the same area (and position, F-MAP-5): strike roll minus the target's defence."""
    a = unit_on_map(state, cmd.attacker)
    pc = next((p for p in state.pcs if p.key == name_key(cmd.target)), None)
    if pc is not None:  # a unit's attack on a PC is the table's to roll; its damage is the PC's HP
        raise RuleError("fort.unit_attack_pc", unit=state.units[a].name, pc=pc.name)
    t = unit_on_map(state, cmd.target)
    attacker, target = state.units[a], state.units[t]
    if attacker.side is target.side:
        raise RuleError("fort.unit_attack_same_side", attacker=attacker.name, target=target.name)
    check_unit_melee(attacker, target)
    strike = _strike(attacker)
    require_main_action(attacker)
    state = take_main_action(state, a, "unit_attack")
    ctx.emit("unit.attacked", {"attacker": attacker.name, "target": target.name, "hit": cmd.hit})
    if not cmd.hit:
        return state
    units = list(state.units)
    result = ctx.roll_command(strike)
    strike_unit(
        ctx,
        units,
        t,
        [result.damage],
        [roll_record(result)],
        Blow(DamageKind.PHYSICAL),
        {"source": "unit_attack", "attacker": attacker.name},
    )
    return evolve(state, units=tuple(units))


def unit_barrage(ctx: Context, state: FortState, cmd: UnitBarrage) -> FortState:
    """F-UNIT-8, F-UNIT-14: ▶同時攻撃, the unit's main action: for each character in its melee area (in
    the order they joined) a d6 for the count, then that many strike rolls (a roll below 0 deals 0).

    As RULINGS says, the bot lists the attacks and the players resolve evasion and apply HP
    (``/pc hp``). **Ruling:** with ``apply_hp:true`` every strike is applied as a hit instead, to
    PCs whose HP is tracked (a soldier's barrage to commanders), for groups that skip evasion.
    """
    u = unit_on_map(state, cmd.unit)
    unit = state.units[u]
    strike = _strike(unit)
    if unit.side is Side.ENEMY:
        targets: list[tuple[str, int]] = [
            ("pc", i)
            for i, p in enumerate(state.pcs)
            if p.area is unit.area and (p.area is not Area.F0 or p.position is Position.OUTSIDE)
        ]
    elif _outside(unit):  # F-MAP-5: commanders at F0 are outside
        targets = [
            ("commander", i) for i, c in enumerate(state.commanders) if c.area is unit.area and c.hp > 0
        ]
    else:
        targets = []
    if not targets:
        raise RuleError("fort.barrage_no_target", unit=unit.name, area=unit.area.value)
    require_main_action(unit)
    state = take_main_action(state, u, "barrage")
    for what, i in targets:
        name = state.pcs[i].name if what == "pc" else state.commanders[i].name
        count = ctx.d6()
        rolls = [ctx.roll_command(strike) for _ in range(count)]
        damages = [max(0, r.damage) for r in rolls]  # F-UNIT-6: a strike below 0 deals nothing
        ctx.emit(
            "unit.barrage",
            {
                "unit": unit.name,
                "target": name,
                "count": count,
                "rolls": [roll_record(r) for r in rolls],
                "damages": damages,
                "total": sum(damages),
            },
        )
        if not cmd.apply_hp:
            continue
        data = {"source": "barrage", "unit": unit.name}
        if what == "pc":
            state = hurt_pc(ctx, state, i, sum(damages), data)
        else:
            state = set_commander_hp(ctx, state, i, state.commanders[i].hp - sum(damages), data)
    return state
