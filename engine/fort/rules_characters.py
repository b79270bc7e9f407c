"""Characters: damage to PCs (where the group tracks HP) and commanders with confusion (F-UNIT-12)."""

from __future__ import annotations

from typing import Any

from engine.fort.context import Context
from engine.fort.lookup import set_commander, set_pc
from engine.fort.state import FortState, Side, Turn, evolve


def hurt_pc(ctx: Context, state: FortState, i: int, amount: int, data: dict[str, Any]) -> FortState:
    """Damage the rules deal to a PC (failed cannon load, 同時攻撃): an event, and lower HP if tracked."""
    pc = state.pcs[i]
    before = pc.hp
    after = None if before is None else before - amount
    ctx.emit("pc.damaged", {"pc": pc.name, **data, "amount": amount, "before": before, "after": after})
    if before is None:
        return state
    return set_pc(state, i, evolve(pc, hp=after))


def next_enemy_round(state: FortState) -> int:
    """The round of the enemy side's next turn."""
    if state.turn is Turn.ENEMY or state.first is Side.ENEMY:
        return state.round + 1
    return state.round


def check_confusion(ctx: Context, before: FortState, state: FortState) -> FortState:
    """F-UNIT-12: when the last commander up falls to 0 HP or less, no enemy unit moves in the
    enemy side's next turn."""
    was_up = any(c.hp > 0 for c in before.commanders)
    if was_up and state.commanders and not any(c.hp > 0 for c in state.commanders):
        round_ = next_enemy_round(state)
        ctx.emit("battle.confused", {"round": round_})
        return evolve(state, confused_round=round_)
    return state


def set_commander_hp(ctx: Context, state: FortState, i: int, hp: int, data: dict[str, Any]) -> FortState:
    """F-UNIT-12: a commander's HP changes (never above maximum); confusion follows the last one."""
    commander = state.commanders[i]
    hp = min(hp, commander.max_hp)
    ctx.emit(
        "commander.hp_changed", {"commander": commander.name, **data, "before": commander.hp, "after": hp}
    )
    new = set_commander(state, i, evolve(commander, hp=hp))
    return check_confusion(ctx, state, new)
