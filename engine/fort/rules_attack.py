"""Attacks on units by PCs (F-UNIT-3..6) and by units (F-UNIT-7, F-UNIT-8)."""

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
from engine.fort.lookup import require_pc_actor, resolve_actor, set_unit, unit_on_map
from engine.fort.map import Area, Position, parse_area, pierce_areas
from engine.fort.rules_characters import hurt_pc, set_commander_hp
from engine.fort.rules_damage import (
    DAMAGE_PER_BODY,
    MAX_BODIES,
    applied_damage,
    area_catch,
    damage_each,
    hurt_unit,
    pierce_share,
)
from engine.fort.state import PC, DamageKind, FortState, Side, Unit, UnitType, evolve
from engine.ruleset import RuleError

MAX_RADIUS = 30


def parse_kind(text: str) -> DamageKind:
    try:
        return DamageKind(fold(text))
    except ValueError:
        raise RuleError(
            "fort.damage_kind_invalid", kind=text, allowed=[k.value for k in DamageKind]
        ) from None


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


def _enemy_target(state: FortState, name: str) -> int:
    i = unit_on_map(state, name)
    if state.units[i].side is not Side.ENEMY:
        raise RuleError("fort.target_not_enemy", unit=state.units[i].name)
    return i


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


def characters_in(state: FortState, area: Area) -> list[str]:
    """Characters an area of radius 7 or more reaches (PCs at F0: only those outside)."""
    names = [
        p.name
        for p in state.pcs
        if p.area is area and (area is not Area.F0 or p.position is Position.OUTSIDE)
    ]
    return names + [c.name for c in state.commanders if c.area is area and c.hp > 0]


def attack_area(ctx: Context, state: FortState, cmd: AttackArea) -> FortState:
    """F-UNIT-4, F-UNIT-6, F-UNIT-11: an area attack on a unit; the catch d6s, then damage unit by unit.

    Characters are never caught by r ≤ 6; for r ≥ 7 the event lists the characters in the area
    (their damage is the players' to apply).
    """
    if not 1 <= cmd.radius <= MAX_RADIUS:
        raise RuleError("fort.radius_invalid", radius=cmd.radius, max=MAX_RADIUS)
    if cmd.targets is not None and cmd.targets < 1:
        raise RuleError("fort.targets_invalid", targets=cmd.targets)
    kind = parse_kind(cmd.kind)
    amount = parse_amount(cmd.damage)
    i = _enemy_target(state, cmd.unit)
    pc = require_pc_actor(state, resolve_actor(state, cmd.by, cmd.invoker))
    units = list(state.units)
    hit, checks, over = area_catch(ctx, units, i, cmd.radius, cmd.targets)
    area = units[i].area
    ctx.emit(
        "attack.area",
        {
            "by": pc.name,
            "unit": units[i].name,
            "area": area.value,
            "radius": cmd.radius,
            "kind": kind.value,
            "checks": checks,
            "hit": [units[j].name for j in hit],
            "over_cap": over,
            "characters": characters_in(state, area) if cmd.radius >= 7 else [],
        },
    )
    damage_each(ctx, units, hit, kind, "area", lambda c: amount_value(c, amount))
    return evolve(state, units=tuple(units))


def attack_pierce(ctx: Context, state: FortState, cmd: AttackPierce) -> FortState:
    """F-MAP-3, F-UNIT-5, F-UNIT-11: every enemy ground unit on the covered line takes half its applied
    damage (a quarter if resisted), rounded up; each rolls its own damage, in unit order.

    **Ruling:** the pierce starts from the actor's own area.
    """
    origin, target = parse_area(cmd.from_), parse_area(cmd.to)
    areas = pierce_areas(origin, target)
    kind = parse_kind(cmd.kind)
    amount = parse_amount(cmd.damage)
    pc = require_pc_actor(state, resolve_actor(state, cmd.by, cmd.invoker))
    if pc.area is not origin:
        raise RuleError("fort.pierce_origin", pc=pc.name, area=pc.area.value, origin=origin.value)
    units = list(state.units)
    hit = [
        i
        for i, u in enumerate(units)
        if u.on_map and u.area in areas and u.side is Side.ENEMY and not u.flying
    ]
    ctx.emit(
        "attack.pierce",
        {
            "by": pc.name,
            "from": origin.value,
            "to": target.value,
            "areas": [a.value for a in areas],
            "kind": kind.value,
            "resisted": cmd.resisted,
            "hit": [units[i].name for i in hit],
        },
    )
    for i in hit:
        raw, roll = amount_value(ctx, amount)
        applied = applied_damage(raw, kind, units[i].defense)
        hurt_unit(
            ctx,
            units,
            i,
            pierce_share(applied, cmd.resisted),
            {
                "source": "pierce",
                "kind": kind.value,
                "raw": [raw],
                "defense": units[i].defense,
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
    """F-UNIT-7: ▶ユニット攻撃: one melee attack on a unit of the other side in the same area:
    strike roll minus the target's defence. F-UNIT-13: a soldier's main action for the round."""
    a = unit_on_map(state, cmd.attacker)
    t = unit_on_map(state, cmd.target)
    attacker, target = state.units[a], state.units[t]
    if attacker.side is target.side:
        raise RuleError("fort.unit_attack_same_side", attacker=attacker.name, target=target.name)
    check_reach(attacker.name, attacker.area, target)
    strike = _strike(attacker)
    if attacker.type is UnitType.SOLDIER and attacker.acted_round == state.round:
        raise RuleError("fort.soldier_already_acted", name=attacker.name, round=state.round)
    units = list(state.units)
    if attacker.type is UnitType.SOLDIER:
        units[a] = evolve(attacker, acted_round=state.round)
    ctx.emit("unit.attacked", {"attacker": attacker.name, "target": target.name, "hit": cmd.hit})
    if cmd.hit:
        result = ctx.roll_command(strike)
        taken = applied_damage(result.damage, DamageKind.PHYSICAL, target.defense)
        hurt_unit(
            ctx,
            units,
            t,
            taken,
            {
                "source": "unit_attack",
                "attacker": attacker.name,
                "kind": DamageKind.PHYSICAL.value,
                "raw": [result.damage],
                "defense": target.defense,
                "rolls": [roll_record(result)],
            },
        )
    return evolve(state, units=tuple(units))


def unit_barrage(ctx: Context, state: FortState, cmd: UnitBarrage) -> FortState:
    """F-UNIT-8: ▶同時攻撃: for each character in the unit's melee area (in the order they joined) a d6
    for the count, then that many strike rolls (a roll below 0 deals 0). F-UNIT-13: a soldier's
    barrage is its main action for the round.

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
    else:
        targets = [
            ("commander", i) for i, c in enumerate(state.commanders) if c.area is unit.area and c.hp > 0
        ]
    if not targets:
        raise RuleError("fort.barrage_no_target", unit=unit.name, area=unit.area.value)
    if unit.type is UnitType.SOLDIER:
        if unit.acted_round == state.round:
            raise RuleError("fort.soldier_already_acted", name=unit.name, round=state.round)
        state = set_unit(state, u, evolve(unit, acted_round=state.round))  # F-UNIT-13: its main action
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
