"""Damage to units (F-UNIT-6, F-UNIT-5, F-UNIT-15) and who an area effect affects (F-UNIT-4), shared by
attacks and equipment."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.fort.context import Context
from engine.fort.map import Area, Position
from engine.fort.state import DamageKind, Element, FortState, Unit, evolve
from engine.fort.weakness import parse_weakness

#: F-UNIT-3: 5 fixed damage per body that a single-target attack could target, ten bodies at most.
DAMAGE_PER_BODY = 5
MAX_BODIES = 10
#: F-UNIT-4: from this radius every unit and character in the area is affected, flying units too.
ALL_RADIUS = 7

Roll = Callable[[Context], tuple[int, dict[str, Any] | None]]


@dataclass(frozen=True, slots=True)
class Blow:
    """What a hit deals: its kind of damage and, when it has one, its element (F-UNIT-15)."""

    kind: DamageKind
    element: Element | None = None

    def data(self) -> dict[str, Any]:
        """The event fields of the blow: ``kind``, and ``element`` when it has one."""
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.element is not None:
            out["element"] = self.element.value
        return out


#: F-TRAP-4, F-CAN-3: mines and cannon shells deal fire magic damage.
FIRE_MAGIC = Blow(DamageKind.MAGIC, Element.FIRE)


def weakness_bonus(unit: Unit, blow: Blow) -> int:
    """F-UNIT-15: what the unit's weakness adds to a hit of this kind and element (0 without one)."""
    if unit.weakness is None:
        return 0
    return parse_weakness(unit.weakness).bonus_for(blow.kind, blow.element)


def applied_damage(raw: int, kind: DamageKind, defense: int, bonus: int = 0) -> int:
    """F-UNIT-6: physical damage minus defence (not below 0); magic and fixed damage in full.

    **Ruling (F-UNIT-15):** a weakness bonus is added to a hit that deals damage, before defence, as
    Sword World adds to the damage rolled; a hit that deals nothing (1ゾロ, F-DICE-1) gains nothing.
    """
    if raw > 0:
        raw += bonus
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


def applied_to(unit: Unit, raw: int, blow: Blow) -> tuple[int, int]:
    """F-UNIT-6, F-UNIT-15: a hit's applied damage on ``unit``, and what its weakness added to it."""
    bonus = weakness_bonus(unit, blow) if raw > 0 else 0
    return applied_damage(raw, blow.kind, unit.defense, bonus), bonus


def strike_unit(
    ctx: Context,
    units: list[Unit],
    i: int,
    raws: list[int],
    rolls: list[Any],
    blow: Blow,
    data: dict[str, Any],
) -> None:
    """F-UNIT-6, F-UNIT-15: hits of one blow on a unit: each gains the weakness bonus, then defence."""
    unit = units[i]
    hits = [applied_to(unit, raw, blow) for raw in raws]
    added = sum(bonus for _, bonus in hits)
    extra = {"weakness": added} if added else {}
    data = {**data, **blow.data(), "raw": raws, "defense": unit.defense, **extra, "rolls": rolls}
    hurt_unit(ctx, units, i, sum(applied for applied, _ in hits), data)


def catch_radius_roll(radius: int) -> int | None:
    """F-UNIT-4: the d6 result that catches another unit (r4: 1, r5: 1-2, r6: 1-3); None: no roll."""
    if 4 <= radius <= 6:
        return radius - 3
    return None


def sheltered(unit: Unit) -> bool:
    """F-MAP-4: a soldier inside the fort is reached by nothing from outside it."""
    return unit.area is Area.F0 and unit.position is Position.INSIDE


@dataclass(frozen=True, slots=True)
class Aim:
    """What an area effect is aimed at (F-UNIT-4): a unit, a commander, or a point in ``area``."""

    area: Area
    unit: int | None = None
    commander: int | None = None


@dataclass(frozen=True, slots=True)
class Caught:
    """Who an area effect affects, in the order of its damage rolls: ``order`` holds ``("unit", i)``,
    ``("pc", i)`` and ``("commander", i)``; ``checks`` the d6 of F-UNIT-4; ``over`` the names a cap
    (the N of /N) left out."""

    order: tuple[tuple[str, int], ...]
    checks: tuple[dict[str, Any], ...]
    over: tuple[str, ...]
    target: tuple[str, int] | None = None


def _name(state: FortState, what: str, i: int) -> str:
    if what == "unit":
        return state.units[i].name
    return state.pcs[i].name if what == "pc" else state.commanders[i].name


def area_catch(ctx: Context, state: FortState, aim: Aim, radius: int, cap: int | None) -> Caught:
    """F-UNIT-4, F-UNIT-11: who an area effect affects, and the catch d6s it rolls.

    The target (a unit or a commander) is hit. Every other unit in the area, of either side: r ≤ 3
    never; r 4-6 on a d6 each, in unit order (flying units are immune and roll nothing); r ≥ 7 always,
    flying units included. Characters only at r ≥ 7: the PCs (in the order they joined), then the
    commanders. Nothing reaches those inside the fort (F-MAP-4). **Ruling:** with ``cap``, the first N
    in that order (target first) are affected and the others named as over the cap.
    """
    threshold = catch_radius_roll(radius)
    order: list[tuple[str, int]] = []
    if aim.unit is not None:
        order.append(("unit", aim.unit))
    if aim.commander is not None:
        order.append(("commander", aim.commander))
    checks: list[dict[str, Any]] = []
    area = aim.area
    for i, u in enumerate(state.units):  # the area first: it rules out most units (the hot path)
        if u.area is not area or i == aim.unit or not u.on_map or sheltered(u):
            continue
        if radius >= ALL_RADIUS:
            order.append(("unit", i))
        elif threshold is not None and not u.flying:
            die = ctx.d6()
            checks.append({"unit": u.name, "die": die, "caught": die <= threshold})
            if die <= threshold:
                order.append(("unit", i))
    if radius >= ALL_RADIUS:
        order += [
            ("pc", i)
            for i, p in enumerate(state.pcs)
            if p.area is aim.area and p.position is not Position.INSIDE
        ]
        order += [
            ("commander", i)
            for i, c in enumerate(state.commanders)
            if i != aim.commander and c.area is aim.area and c.hp > 0
        ]
    over: list[tuple[str, int]] = []
    if cap is not None and len(order) > cap:
        order, over = order[:cap], order[cap:]
    target = order[0] if aim.unit is not None or aim.commander is not None else None
    return Caught(tuple(order), tuple(checks), tuple(_name(state, w, i) for w, i in over), target)


def caught_names(state: FortState, caught: Caught) -> tuple[list[str], list[str]]:
    """The units and the characters an area effect affects, by name."""
    units = [_name(state, w, i) for w, i in caught.order if w == "unit"]
    characters = [_name(state, w, i) for w, i in caught.order if w != "unit"]
    return units, characters


def deal_area(
    ctx: Context,
    state: FortState,
    caught: Caught,
    blow: Blow,
    data: dict[str, Any],
    roll_one: Roll,
    times: int = 1,
) -> FortState:
    """F-UNIT-4 ruling: every one affected gets its own damage roll(s), in ``caught.order`` (target
    first); a cannon rolls every shell for one before the next. Units take their damage (F-UNIT-6,
    F-UNIT-15); a character is named with its damage and the half of each roll (rounded up), its HP
    left to ``/pc hp`` and ``/commander hp`` (evasion and resistance are the players' to roll)."""
    units = list(state.units)
    for what, i in caught.order:
        raws: list[int] = []
        rolls: list[dict[str, Any]] = []
        for _ in range(times):
            raw, roll = roll_one(ctx)
            raws.append(raw)
            if roll is not None:
                rolls.append(roll)
        if what == "unit":
            strike_unit(ctx, units, i, raws, rolls, blow, data)
            continue
        damages = [max(0, raw) for raw in raws]
        ctx.emit(
            "attack.character",
            {
                "character": _name(state, what, i),
                "role": what,
                "targeted": (what, i) == caught.target,
                **data,
                **blow.data(),
                "damages": damages,
                "damage": sum(damages),
                "half": sum(-(-d // 2) for d in damages),
                "rolls": rolls,
            },
        )
    return evolve(state, units=tuple(units))
