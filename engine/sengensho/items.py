"""Damage and mercy, characters turned into items, spell cards (S-MERCY-1, S-ITEM-1/2, S-HIDE-1, S-REIN-1)."""

from __future__ import annotations

from dataclasses import replace

from engine.common import EventRecorder, fold
from engine.ruleset import RuleError
from engine.sengensho.commands import Damage, Item, SpellCard
from engine.sengensho.core import able, locate, non_negative
from engine.sengensho.state import Character, Down, SengenshoState

#: how an attack reaches its target: aimed at it, a barrage (弾幕), an area spell
VIAS = ("direct", "barrage", "area")


# --- damage -----------------------------------------------------------------------------------


def reachable(c: Character, via: str) -> None:
    """S-HIDE-1: hidden, hit only by barrages and area spells; S-ITEM-1: an item is never hit by a barrage."""
    if c.hidden and via == "direct":
        raise RuleError("sg.target_hidden", name=c.name)
    if c.is_item and via == "barrage":
        raise RuleError("sg.item_not_hit_by_barrage", name=c.name)


def mercy(c: Character, choice: str | None) -> tuple[int, Down]:
    """S-MERCY-1: damage bringing HP to 0: the attacker chooses unconscious, or HP 1 and incapacitated."""
    if choice is None:
        raise RuleError("sg.mercy_required", name=c.name, choices="unconscious, hp1")
    try:
        down = Down(fold(choice))
    except ValueError:
        raise RuleError("sg.mercy_invalid", mercy=choice, choices="unconscious, hp1") from None
    return (0 if down is Down.UNCONSCIOUS else 1), down


def damage(state: SengenshoState, command: Damage, rec: EventRecorder) -> SengenshoState:
    """HP damage to a character; at 0, S-MERCY-1."""
    i, c = able(state, command.name)
    non_negative("amount", command.amount)
    via = fold(command.via)
    if via not in VIAS:
        raise RuleError("sg.via_invalid", via=command.via, allowed=", ".join(VIAS))
    reachable(c, via)
    if c.hp is None:
        raise RuleError("sg.hp_untracked", name=c.name)
    hp, down = c.hp - command.amount, None
    if hp <= 0:
        hp, down = mercy(c, command.mercy)
    rec.emit(
        "sg.damaged",
        {
            "name": c.name,
            "amount": command.amount,
            "via": via,
            "hp_before": c.hp,
            "hp": hp,
            "max_hp": c.max_hp,
        },
    )
    if down is not None:
        rec.emit("sg.knocked_out", {"name": c.name, "mercy": down.value, "hp": hp})
    return state.put(i, replace(c, hp=hp, down=down, declared=None if down else c.declared))


# --- items --------------------------------------------------------------------------------------


def item_dp_cap(c: Character) -> int:
    """S-ITEM-2: an item's DP is capped at half its maximum (rounded down)."""
    return c.dp_max // 2


def hold(state: SengenshoState, i: int, holder_name: str, rec: EventRecorder) -> SengenshoState:
    """S-ITEM-2: a character becomes an item someone holds; DP above half its maximum is cut at once."""
    c = state.characters[i]
    if c.is_item:
        raise RuleError("sg.already_item", name=c.name)
    _, holder = locate(state, holder_name)
    if holder.key == c.key:
        raise RuleError("sg.item_self", name=c.name)
    if holder.is_item:
        raise RuleError("sg.item_nested", name=c.name, holder=holder.name)
    dp = min(c.dp, item_dp_cap(c))
    rec.emit(
        "sg.item_held",
        {"name": c.name, "holder": holder.name, "dp_before": c.dp, "dp": dp, "cap": item_dp_cap(c)},
    )
    return state.put(i, replace(c, held_by=holder.key, exposed=False, dp=dp))


def jump_out(state: SengenshoState, i: int, rec: EventRecorder) -> SengenshoState:
    """S-ITEM-2: jumping out ends the item state at once; the character keeps its current DP."""
    c = state.characters[i]
    if c.held_by is None:
        raise RuleError("sg.not_item", name=c.name)
    holder = state.find(c.held_by)
    assert holder is not None
    rec.emit("sg.item_released", {"name": c.name, "holder": state.characters[holder].name, "dp": c.dp})
    return state.put(i, replace(c, held_by=None, exposed=False))


def item(state: SengenshoState, command: Item, rec: EventRecorder) -> SengenshoState:
    i, _ = locate(state, command.name)
    if (command.holder is None) == (not command.release):
        raise RuleError("sg.item_holder_or_release", name=command.name)
    if command.release:
        return jump_out(state, i, rec)
    assert command.holder is not None
    return hold(state, i, command.holder, rec)


# --- spell cards ----------------------------------------------------------------------------------


def late_entrant(state: SengenshoState, c: Character) -> bool:
    """S-REIN-1: a reinforcement (or a hidden character appearing, S-HIDE-1) in the turn it came in."""
    return state.turn >= 1 and c.entry_turn == state.turn


def take_over(state: SengenshoState, i: int, giver: str, count: int, rec: EventRecorder) -> SengenshoState:
    """S-REIN-1: a late entrant takes over declared, unused cards from an ally; the side's count stays."""
    c = state.characters[i]
    if not late_entrant(state, c):
        raise RuleError("sg.cards_not_late_entrant", name=c.name)
    j, ally = locate(state, giver)
    if j == i or ally.side is not c.side:
        raise RuleError("sg.cards_not_ally", name=c.name, ally=ally.name)
    if ally.cards_unused < count:
        raise RuleError("sg.cards_short", name=ally.name, unused=ally.cards_unused, count=count)
    state = state.put(j, replace(ally, cards=ally.cards - count))
    state = state.put(i, replace(c, cards=c.cards + count))
    rec.emit(
        "sg.cards_taken",
        {
            "name": c.name,
            "from": ally.name,
            "count": count,
            "side": c.side.value,
            "side_total": state.side_cards(c.side),
        },
    )
    return state


def declare_cards(state: SengenshoState, i: int, count: int, rec: EventRecorder) -> SengenshoState:
    """S-REIN-1: new cards: free before the turns; then a late entrant's, and as many for the other side."""
    c = state.characters[i]
    answer = 0
    if state.turn >= 1:
        if late_entrant(state, c):
            answer = count
            state = state.with_allowance(c.side.other, state.allowance(c.side.other) + count)
        elif state.allowance(c.side) >= count:
            state = state.with_allowance(c.side, state.allowance(c.side) - count)
        else:
            raise RuleError("sg.cards_closed", name=c.name, count=count, allowance=state.allowance(c.side))
    state = state.put(i, replace(c, cards=c.cards + count))
    rec.emit(
        "sg.cards_declared",
        {
            "name": c.name,
            "count": count,
            "side": c.side.value,
            "side_total": state.side_cards(c.side),
            "answer": answer,
            "other_side": c.side.other.value,
        },
    )
    return state


def use_cards(state: SengenshoState, i: int, count: int, rec: EventRecorder) -> SengenshoState:
    """A declared card is used (発動/展開): it can no longer be taken over (S-REIN-1)."""
    c = state.characters[i]
    if c.cards_unused < count:
        raise RuleError("sg.cards_short", name=c.name, unused=c.cards_unused, count=count)
    rec.emit("sg.cards_used", {"name": c.name, "count": count, "unused": c.cards_unused - count})
    return state.put(i, replace(c, cards_used=c.cards_used + count))


def spellcard(state: SengenshoState, command: SpellCard, rec: EventRecorder) -> SengenshoState:
    i, c = able(state, command.name)
    if command.declare is None and command.take_from is None and command.use is None:
        raise RuleError("sg.nothing_to_change", name=c.name)
    for field, value in (("declare", command.declare), ("use", command.use)):
        if value is not None and value < 1:
            raise RuleError("sg.value_invalid", field=field, value=value)
    if command.take_from is not None:
        state = take_over(state, i, command.take_from, command.declare or 1, rec)
    elif command.declare is not None:
        state = declare_cards(state, i, command.declare, rec)
    if command.use is not None:
        state = use_cards(state, i, command.use, rec)
    return state
