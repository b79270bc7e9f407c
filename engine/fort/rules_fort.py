"""The fort: its HP, what damages and heals it, and how the battle ends (F-FORT-*, F-END-*)."""

from __future__ import annotations

import re
from typing import Any

from engine.common import fold
from engine.dice import RollKind
from engine.fort.commands import HealFort, Repair, Siege
from engine.fort.context import Context, amount_value, parse_damage_expression, roll_record
from engine.fort.lookup import require_equipment, resolve_actor, soldier_acted
from engine.fort.state import BattleOutcome, FortState, Turn, Unit, UnitTrait, evolve
from engine.ruleset import RuleError

#: F-FORT-3: emergency repair heals this much, once per round.
REPAIR_AMOUNT = 10
#: F-FORT-2: a heal of at least HEAL_MINIMUM heals the fort by exactly HEAL_AMOUNT.
HEAL_MINIMUM = 10
HEAL_AMOUNT = 5
#: F-FORT-5: 〈黄金のマトック〉 deals (total − 15); 【タイタンフット】 150; 【メテオ・ストライク】 crit 8.
MATTOCK_REDUCTION = 15
TITANFOOT_DAMAGE = 150
METEOR_CRIT = 8
SIEGE_EFFECTS = ("mattock", "meteor", "titanfoot", "fixed")
_CRIT = re.compile(r"@(\d+)")


def finish(ctx: Context, state: FortState, outcome: BattleOutcome, reason: str) -> FortState:
    """F-END-2, F-UNIT-12: the battle ends; commanders still up lend the boss their war-horn (鼓砲)."""
    warhorn = [c.name for c in state.commanders if c.hp > 0]
    state = evolve(state, turn=Turn.ENDED, outcome=outcome)
    ctx.emit(
        "battle.ended",
        {
            "outcome": outcome.value,
            "reason": reason,
            "round": state.round,
            "fort_hp": state.fort_hp,
            "fort_max_hp": state.fort_max_hp,
            "warhorn": warhorn,
        },
    )
    return state


def damage_fort(ctx: Context, state: FortState, amount: int, data: dict[str, Any]) -> FortState:
    """F-FORT-6: fort damage; HP 0 or less at any moment ends the battle at once (崩壊).

    F-FORT-1: damage is never negative: a roll below 0 (a ram's ``1d-5``, a siege roll) deals 0, it
    never heals the fort (nor lifts it above its maximum).
    """
    amount = max(0, amount)
    before = state.fort_hp
    after = before - amount
    ctx.emit("fort.damaged", {**data, "amount": amount, "before": before, "after": after})
    state = evolve(state, fort_hp=after)
    if after <= 0:
        state = finish(ctx, state, BattleOutcome.COLLAPSE, "collapse")
    return state


def unit_fort_damage(ctx: Context, state: FortState, unit: Unit, source: str) -> FortState:
    """F-FORT-4, F-UNIT-10: a unit's fixed fort damage; a ram rolls its strike each time instead.

    **Ruling:** a ram without a strike expression (only possible through /gm set) deals its fort_damage.
    """
    roll = None
    amount = unit.fort_damage
    if UnitTrait.STRIKE_IS_FORT_DAMAGE in unit.traits and unit.strike is not None:
        amount, roll = amount_value(ctx, parse_damage_expression(unit.strike))
    return damage_fort(ctx, state, amount, {"source": source, "unit": unit.name, "roll": roll})


def heal_fort(ctx: Context, state: FortState, cmd: HealFort) -> FortState:
    """F-FORT-2: a heal of 10 or more heals the fort by exactly 5 (never above maximum); under 10, nothing."""
    if cmd.amount <= 0:
        raise RuleError("fort.amount_invalid", amount=cmd.amount)
    before = state.fort_hp
    after = min(state.fort_max_hp, before + HEAL_AMOUNT) if cmd.amount >= HEAL_MINIMUM else before
    ctx.emit(
        "fort.healed", {"amount": cmd.amount, "healed": after - before, "before": before, "after": after}
    )
    return evolve(state, fort_hp=after)


def repair(ctx: Context, state: FortState, cmd: Repair) -> FortState:
    """F-FORT-3: emergency repair, +10 HP, once per round for the PC side; defence equipment.

    **Ruling:** refused when the fort is at its maximum (it would spend the round's repair for nothing).
    """
    actor = resolve_actor(state, cmd.by, cmd.invoker)
    require_equipment(state, actor)
    if state.repaired_round == state.round:
        raise RuleError("fort.repair_used", round=state.round)
    if state.fort_hp >= state.fort_max_hp:
        raise RuleError("fort.repair_full", hp=state.fort_hp, max_hp=state.fort_max_hp)
    before = state.fort_hp
    after = min(state.fort_max_hp, before + REPAIR_AMOUNT)
    ctx.emit("fort.repaired", {"by": actor.name, "amount": REPAIR_AMOUNT, "before": before, "after": after})
    return soldier_acted(evolve(state, fort_hp=after, repaired_round=state.round), actor, "repair")


def siege(ctx: Context, state: FortState, cmd: Siege) -> FortState:
    """F-FORT-5: structure-destroying effects: mattock (total − 15), meteor (crit 8), titanfoot 150, fixed."""
    effect = fold(cmd.effect)
    if effect not in SIEGE_EFFECTS:
        raise RuleError("fort.siege_effect_invalid", effect=cmd.effect, allowed=list(SIEGE_EFFECTS))
    if cmd.amount is not None and cmd.amount < 0:
        raise RuleError("fort.amount_invalid", amount=cmd.amount)
    roll: dict[str, Any] | None = None
    if effect == "titanfoot":
        total = TITANFOOT_DAMAGE
    elif cmd.roll is not None:
        parsed = parse_damage_expression(cmd.roll)
        if effect == "meteor":
            parsed = _meteor_roll(cmd.roll)
        result = ctx.roll_command(parsed)
        total, roll = result.damage, roll_record(result)
    elif cmd.amount is not None:
        total = cmd.amount
    elif effect in ("mattock", "meteor"):  # the roll, or its total: what the effect does comes after
        raise RuleError("fort.siege_roll_required", effect=effect)
    else:
        raise RuleError("fort.siege_amount_required", effect=effect)
    amount = max(0, total - MATTOCK_REDUCTION) if effect == "mattock" else total
    return damage_fort(
        ctx, state, amount, {"source": "siege", "effect": effect, "roll": roll, "total": total}
    )


def _meteor_roll(text: str) -> Any:
    """F-FORT-5: 【メテオ・ストライク】 rolls its magic damage with crit value 8 (added when left out)."""
    parsed = parse_damage_expression(text)
    if parsed.kind is not RollKind.RATING:
        raise RuleError("fort.siege_meteor_rating", roll=text)
    crit = _CRIT.search(parsed.command)
    if crit is None:
        return parse_damage_expression(parsed.command + f"@{METEOR_CRIT}")
    if int(crit.group(1)) != METEOR_CRIT:
        raise RuleError("fort.siege_meteor_crit", roll=text, crit=int(crit.group(1)))
    return parsed
