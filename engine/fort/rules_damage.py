"""Damage to units (F-UNIT-6, F-UNIT-5) and the F-UNIT-4 area catch, shared by attacks and equipment."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.fort.context import Context
from engine.fort.map import Area
from engine.fort.state import DamageKind, Unit, UnitType, evolve

#: F-UNIT-3: 5 fixed damage per body that a single-target attack could target, ten bodies at most.
DAMAGE_PER_BODY = 5
MAX_BODIES = 10


def applied_damage(raw: int, kind: DamageKind, defense: int) -> int:
    """F-UNIT-6: physical damage minus defence (not below 0); magic and fixed damage in full."""
    if kind is DamageKind.PHYSICAL:
        return max(0, raw - defense)
    return max(0, raw)


def pierce_share(applied: int, resisted: bool) -> int:
    """F-UNIT-5: a pierce deals half the applied damage, a quarter if resisted; rounded up."""
    divisor = 4 if resisted else 2
    return -(-applied // divisor)


def hurt_unit(ctx: Context, units: list[Unit], i: int, taken: int, data: dict[str, Any]) -> None:
    """F-UNIT-6: HP falls by the damage taken; at 0 or less the unit is destroyed (kept, marked)."""
    unit = units[i]
    before = unit.hp
    after = before - taken
    ctx.emit("unit.damaged", {"unit": unit.name, **data, "taken": taken, "before": before, "after": after})
    newly_destroyed = after <= 0 and not unit.destroyed
    units[i] = evolve(unit, hp=after, destroyed=unit.destroyed or after <= 0)
    if newly_destroyed:
        ctx.emit("unit.destroyed", {"unit": unit.name, "area": unit.area.value})


def catch_radius_roll(radius: int) -> int | None:
    """F-UNIT-4: the d6 result that catches another unit (r4: 1, r5: 1-2, r6: 1-3); None: no roll."""
    if 4 <= radius <= 6:
        return radius - 3
    return None


def area_catch(
    ctx: Context,
    units: list[Unit],
    target: int,
    radius: int,
    cap: int | None,
) -> tuple[list[int], list[dict[str, Any]], list[str]]:
    """F-UNIT-4, F-UNIT-11: which units an area effect on ``units[target]`` affects.

    The target is hit. Other units of its side in its area: r ≤ 3 never; r 4-6 each rolls a d6
    (flying units are immune and roll nothing); r ≥ 7 always, flying units included. **Ruling:**
    with ``cap`` (the N of /N), the first N affected in unit order (target first) are hit; the others
    are listed as over the cap. Returns (indices hit, d6 checks, names over the cap).
    """
    tgt = units[target]
    threshold = catch_radius_roll(radius)
    checks: list[dict[str, Any]] = []
    caught: list[int] = []
    if radius >= 4:
        area, soldiers = tgt.area, tgt.type is UnitType.SOLDIER
        for i, u in enumerate(units):
            if u.area is not area or i == target or u.destroyed or not u.arrived:
                continue
            if (u.type is UnitType.SOLDIER) is not soldiers:
                continue
            if threshold is None:
                caught.append(i)
            elif u.type is not UnitType.FLYING:
                die = ctx.d6()
                checks.append({"unit": u.name, "die": die, "caught": die <= threshold})
                if die <= threshold:
                    caught.append(i)
    hit = [target, *caught]
    over: list[str] = []
    if cap is not None and len(hit) > cap:
        over = [units[i].name for i in hit[cap:]]
        hit = hit[:cap]
    return hit, checks, over


def damage_each(
    ctx: Context,
    units: list[Unit],
    hit: list[int],
    kind: DamageKind,
    source: str,
    roll_one: Callable[[Context], tuple[int, dict[str, Any] | None]],
    times: int = 1,
) -> None:
    """F-UNIT-4 ruling: every affected unit gets its own damage roll(s), unit by unit, target first."""
    for i in hit:
        unit = units[i]
        raws: list[int] = []
        rolls: list[dict[str, Any]] = []
        for _ in range(times):
            raw, roll = roll_one(ctx)
            raws.append(raw)
            if roll is not None:
                rolls.append(roll)
        taken = sum(applied_damage(r, kind, unit.defense) for r in raws)
        data = {"source": source, "kind": kind.value, "raw": raws, "defense": unit.defense, "rolls": rolls}
        hurt_unit(ctx, units, i, taken, data)


def areas_units(units: list[Unit] | tuple[Unit, ...], areas: tuple[Area, ...]) -> list[int]:
    return [i for i, u in enumerate(units) if u.on_map and u.area in areas]
