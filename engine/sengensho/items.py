"""Damage and mercy, characters turned into items (S-MERCY-1, S-ITEM-1/2, S-HIDE-1, S-GM-1)."""

from __future__ import annotations

from dataclasses import replace

from engine.common import EventRecorder, fold
from engine.ruleset import RuleError
from engine.sengensho.commands import Damage, Item
from engine.sengensho.lookup import able, locate, non_negative
from engine.sengensho.state import Character, Down, SengenshoState, secret_of

#: how an attack reaches its target: aimed at it, a barrage (弾幕), an area spell
VIAS = ("direct", "barrage", "area")
#: S-MERCY-1: the attacker's choices at 0 HP; ``none`` leaves HP at 0 for the core rules
NO_MERCY = "none"
MERCY_CHOICES = (NO_MERCY, *(d.value for d in Down))


# --- damage -----------------------------------------------------------------------------------


def reachable(c: Character, via: str) -> None:
    """S-HIDE-1: hidden, hit only by barrages and area spells; S-ITEM-1: an item is never hit by a barrage."""
    if c.hidden and via == "direct":
        raise RuleError("sg.target_hidden", name=c.name)
    if c.is_item and via == "barrage":
        raise RuleError("sg.item_not_hit_by_barrage", name=c.name)


def mercy(c: Character, choice: str | None) -> tuple[int, Down | None]:
    """S-MERCY-1: at 0 HP the attacker chooses unconscious, HP 1 and incapacitated, or neither."""
    # Neither (``none``) leaves HP at 0, and the core rules apply.
    choices = ", ".join(MERCY_CHOICES)
    if choice is None:
        raise RuleError("sg.mercy_required", name=c.name, choices=choices)
    word = fold(choice)
    if word == NO_MERCY:
        return 0, None
    try:
        down = Down(word)
    except ValueError:
        raise RuleError("sg.mercy_invalid", mercy=choice, choices=choices) from None
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
    hp, down, at_zero = c.hp - command.amount, None, False
    if hp <= 0:
        hp, down = mercy(c, command.mercy)
        at_zero = down is None
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
        c.secret,
    )
    if down is not None:
        rec.emit("sg.knocked_out", {"name": c.name, "mercy": down.value, "hp": hp}, c.secret)
    if at_zero:
        rec.emit("sg.no_mercy", {"name": c.name}, c.secret)
    return state.put(i, replace(c, hp=hp, down=down, declared=None if down else c.declared))


# --- items --------------------------------------------------------------------------------------


def item_dp_cap(c: Character) -> int:
    """S-ITEM-2: an item's DP is capped at half its maximum (rounded down)."""
    return c.dp_max // 2


def held_audience(c: Character, holder: Character, knows: bool) -> tuple[str, ...] | None:
    """S-ITEM-2: who reads that ``c`` became ``holder``'s item: only a holder who knows is told."""
    # Seen by the table (no one hides), everyone saw it, the holder too.
    audience = secret_of(c, holder)
    if audience is None:
        return None
    if knows and holder.owner and holder.owner not in audience:
        return (*audience, holder.owner)
    if not knows and holder.owner in audience and holder.owner != c.owner:
        return tuple(o for o in audience if o != holder.owner)
    return audience


def hold(
    state: SengenshoState, i: int, holder_name: str, rec: EventRecorder, knows: bool = False
) -> SengenshoState:
    """S-ITEM-2: a character becomes an item someone holds; DP above half its maximum is cut at once."""
    c = state.characters[i]
    if c.is_item:
        raise RuleError("sg.already_item", name=c.name)
    _, holder = locate(state, holder_name)
    if holder.key == c.key:
        raise RuleError("sg.item_self", name=c.name)
    if holder.is_item:
        raise RuleError("sg.item_nested", name=c.name, holder=holder.name)
    if holder.hidden and not c.hidden:  # S-HIDE-1: it would go where no one sees its holder
        raise RuleError("sg.target_hidden", name=holder.name)
    dp = min(c.dp, item_dp_cap(c))
    rec.emit(
        "sg.item_held",
        {"name": c.name, "holder": holder.name, "dp_before": c.dp, "dp": dp, "cap": item_dp_cap(c)},
        held_audience(c, holder, knows),
    )
    return state.put(i, replace(c, held_by=holder.key, exposed=False, dp=dp, holder_knows=knows))


def jump_out(state: SengenshoState, i: int, rec: EventRecorder) -> SengenshoState:
    """S-ITEM-2: jumping out ends the item state at once; the character keeps its current DP."""
    c = state.characters[i]
    if c.held_by is None:
        raise RuleError("sg.not_item", name=c.name)
    h = state.find(c.held_by)
    assert h is not None
    holder = state.characters[h]
    rec.emit("sg.item_released", {"name": c.name, "holder": holder.name, "dp": c.dp}, secret_of(c, holder))
    return state.put(i, replace(c, held_by=None, exposed=False, holder_knows=False))


def item(state: SengenshoState, command: Item, rec: EventRecorder) -> SengenshoState:
    """S-ITEM-2: ``holder:`` makes a character an item someone holds, ``release:true`` ends it."""
    i, _ = locate(state, command.name)
    if (command.holder is None) == (not command.release):
        raise RuleError("sg.item_holder_or_release", name=command.name)
    if command.release:
        return jump_out(state, i, rec)
    assert command.holder is not None
    return hold(state, i, command.holder, rec, command.holder_knows)
