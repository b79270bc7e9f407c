"""Checks paid with DP, contests, hiding and searching (S-CORE-4, S-GM-1, S-SUR-1..4 at evasion, S-HIDE-1)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.common import EventRecorder, fold
from engine.ruleset import RuleError
from engine.sengensho.commands import Hide, Roll, Search
from engine.sengensho.core import able, locate, non_negative
from engine.sengensho.state import Character, Evasion, LastRoll, RollKind, SengenshoState, Side

#: S-CORE-4: a resistance check takes at most 3D; S-SUR-1/2: so do surprised evasions and far attacks
THREE_DICE = 3
#: S-SUR-4: the evasion of a wary target that has not found its attacker
MINUS_FIVE = -5


@dataclass(frozen=True, slots=True)
class Throw:
    """The dice of one check: the values rolled (none when fixed), their sum, the DP paid."""

    count: int
    values: tuple[int, ...]
    dice_total: int
    paid: int
    fixed: bool


def fixed_dice(count: int) -> int:
    """S-GM-1: the GM side's N dice count N × 3.5, rounded down."""
    return count * 7 // 2


def pays_dp(kind: RollKind) -> bool:
    """S-CORE-4: N dice cost N DP; DP is never paid for damage dice."""
    return kind is not RollKind.DAMAGE


def throw(state: SengenshoState, c: Character, count: int, kind: RollKind, rec: EventRecorder) -> Throw:
    """S-CORE-4 and S-GM-1: pay the DP (refused if short) and roll the dice, or count them fixed."""
    non_negative("dice", count)
    paid = count if pays_dp(kind) else 0
    if paid > c.dp:
        raise RuleError("sg.dp_short", name=c.name, dice=count, dp=c.dp)
    if state.gm_fixed and c.side is Side.ENEMY:
        return Throw(count, (), fixed_dice(count), paid, True)
    values = tuple(rec.roll(6) for _ in range(count))
    return Throw(count, values, sum(values), paid, False)


def contest_won(total: int, other: int, roller_defends: bool) -> bool:
    """S-CORE-4: a contest goes to the higher total; a tie goes to the defender."""
    return total > other or (total == other and roller_defends)


def roller_defends(kind: RollKind) -> bool:
    """S-CORE-4, S-ITEM-2: the roller answering a roll defends, except perception against 隠密."""
    return kind is not RollKind.PERCEPTION


def parse_kind(text: str) -> RollKind:
    try:
        return RollKind(fold(text))
    except ValueError:
        raise RuleError("sg.kind_invalid", kind=text, allowed=", ".join(k.value for k in RollKind)) from None


def dice_cap(c: Character, command: Roll, kind: RollKind) -> tuple[int | None, str | None]:
    """S-CORE-4, S-SUR-1..4: the most dice this roll may take, and the rule that says so."""
    caps: list[tuple[int, str]] = []
    if command.cap is not None:
        caps.append((command.cap, "cap"))
    if kind is RollKind.RESIST:
        caps.append((THREE_DICE, "S-CORE-4"))
    if kind in (RollKind.ATTACK, RollKind.MELEE) and c.attack_limit is not None:
        caps.append((THREE_DICE, c.attack_limit))
    if kind is RollKind.EVASION and c.surprise is not None and c.surprise.evasion is not Evasion.MINUS5:
        caps.append((THREE_DICE, c.surprise.case))
    if not caps:
        return None, None
    return min(caps)


def evasion_allowed(c: Character) -> int:
    """S-SUR-1..4: what the pending surprise lets this evasion do; the modifier it gets."""
    s = c.surprise
    if s is None:
        return 0
    if s.evasion is Evasion.REFUSED:
        raise RuleError("sg.evasion_refused", name=c.name, case=s.case)
    if s.evasion is Evasion.PERCEIVE_MAX3:
        last = c.last_roll
        if last is None or last.against != s.attacker or not last.won:
            raise RuleError("sg.evasion_needs_perception", name=c.name, case=s.case)
    return MINUS_FIVE if s.evasion is Evasion.MINUS5 else 0


def item_may_roll(c: Character, kind: RollKind) -> None:
    """S-ITEM-2: while held, a character cannot defend (its holder evades, S-ITEM-1) nor strike in melee."""
    if c.held_by is None:
        return
    if kind is RollKind.EVASION:
        raise RuleError("sg.item_cannot_defend", name=c.name)
    if kind is RollKind.MELEE:
        raise RuleError("sg.item_no_melee", name=c.name)


def reveal(state: SengenshoState, i: int, reason: str, by: str | None, rec: EventRecorder) -> SengenshoState:
    """S-HIDE-1: a hidden character appears; hidden since before the turns, it declares spell cards now."""
    c = state.characters[i]
    late = c.hidden_turn == 0 and state.turn >= 1
    rec.emit("sg.revealed", {"name": c.name, "reason": reason, "by": by, "cards_entry": late})
    return state.put(
        i,
        replace(
            c,
            hidden_total=None,
            hidden_turn=None,
            searched_by=(),
            entry_turn=state.turn if late else c.entry_turn,
        ),
    )


def roll(state: SengenshoState, command: Roll, rec: EventRecorder) -> SengenshoState:
    """S-CORE-4: base + N D6 for N DP, against a target number or another character's last roll."""
    kind = parse_kind(command.kind)
    i, c = locate(state, command.name)
    if c.down is not None and kind is not RollKind.RESIST:  # S-SUR-6: resistance is always rolled
        raise RuleError("sg.character_down", name=c.name, down=c.down.value)
    item_may_roll(c, kind)
    non_negative("cap", command.cap)
    cap, why = dice_cap(c, command, kind)
    if cap is not None and command.dice > cap:
        raise RuleError("sg.dice_over_cap", name=c.name, dice=command.dice, cap=cap, rule=why)
    modifier = evasion_allowed(c) if kind is RollKind.EVASION else 0
    other: Character | None = None
    if command.against is not None:
        _, other = locate(state, command.against)
        if other.key == c.key:
            raise RuleError("sg.against_self", name=c.name)
        if other.last_roll is None:
            raise RuleError("sg.no_roll_to_contest", name=other.name)
    t = throw(state, c, command.dice, kind, rec)
    total = command.base + t.dice_total + modifier
    won = None if other is None else contest_won(total, _last_total(other), roller_defends(kind))
    surprise = c.surprise
    changed = replace(
        c,
        dp=c.dp - t.paid,
        last_roll=LastRoll(total, kind, state.turn, other.key if other else None, won),
        surprise=None if kind is RollKind.EVASION else c.surprise,
        attack_limit=None if kind in (RollKind.ATTACK, RollKind.MELEE) else c.attack_limit,
    )
    new = state.put(i, changed)
    rec.emit(
        "sg.rolled",
        {
            **_throw_record(c, t, command.base, total),
            "kind": kind.value,
            "label": command.label,
            "modifier": modifier,
            "surprise": surprise.case if surprise is not None and kind is RollKind.EVASION else None,
            "target": command.target,
            "success": None if command.target is None else total >= command.target,
            "against": other.name if other else None,
            "against_total": _last_total(other) if other else None,
            "won": won,
        },
    )
    return _after_roll(new, i, kind, other, won, rec)


def _last_total(c: Character) -> int:
    assert c.last_roll is not None
    return c.last_roll.total


def _throw_record(c: Character, t: Throw, base: int, total: int) -> dict[str, Any]:
    return {
        "name": c.name,
        "base": base,
        "dice": t.count,
        "values": list(t.values),
        "fixed": t.fixed,
        "dice_total": t.dice_total,
        "paid": t.paid,
        "dp_before": c.dp,
        "dp": c.dp - t.paid,
        "dp_max": c.dp_max,
        "total": total,
    }


def _after_roll(
    state: SengenshoState,
    i: int,
    kind: RollKind,
    other: Character | None,
    won: bool | None,
    rec: EventRecorder,
) -> SengenshoState:
    """S-HIDE-1, S-ITEM-2: what a roll gives away: a hidden attacker appears, an item is noticed."""
    c = state.characters[i]
    if kind in (RollKind.ATTACK, RollKind.MELEE) and c.hidden:
        state = reveal(state, i, "attack", None, rec)
    if kind is RollKind.ATTACK and c.is_item and not c.exposed:
        state = expose(state, i, "attack", None, rec)
    if (
        kind is RollKind.PERCEPTION
        and won
        and other is not None
        and other.is_item
        and not other.exposed
        and other.last_roll is not None
        and other.last_roll.kind is RollKind.STEALTH
    ):
        j = state.find(other.key)
        assert j is not None
        state = expose(state, j, "perception", c.name, rec)
    return state


def expose(state: SengenshoState, i: int, reason: str, by: str | None, rec: EventRecorder) -> SengenshoState:
    """S-ITEM-2: an item is noticed as a character (it attacked, or lost 感知 against its 隠密)."""
    c = state.characters[i]
    rec.emit("sg.item_exposed", {"name": c.name, "reason": reason, "by": by})
    return state.put(i, replace(c, exposed=True))


def hide(state: SengenshoState, command: Hide, rec: EventRecorder) -> SengenshoState:
    """S-HIDE-1: 身体+〈隠密〉 rolled when it hides, and again each time it moves while hidden."""
    i, c = able(state, command.name)
    t = throw(state, c, command.dice, RollKind.STEALTH, rec)
    total = command.base + t.dice_total
    moved = c.hidden
    new = state.put(
        i,
        replace(
            c,
            dp=c.dp - t.paid,
            hidden_total=total,
            hidden_turn=c.hidden_turn if moved else state.turn,
            searched_by=(),
            last_roll=LastRoll(total, RollKind.STEALTH, state.turn),
        ),
    )
    rec.emit("sg.hidden", {**_throw_record(c, t, command.base, total), "moved": moved})
    return new


def search(state: SengenshoState, command: Search, rec: EventRecorder) -> SengenshoState:
    """S-HIDE-1: each turn, each searcher's perception against the hidden 身体+〈隠密〉 (hider defends)."""
    i, c = able(state, command.name)
    j, target = locate(state, command.target)
    if j == i:
        raise RuleError("sg.against_self", name=c.name)
    if target.hidden_total is None:
        raise RuleError("sg.not_hidden", name=target.name)
    if c.key in target.searched_by:
        raise RuleError("sg.already_searched", name=c.name, target=target.name, turn=state.turn)
    t = throw(state, c, command.dice, RollKind.PERCEPTION, rec)
    total = command.base + t.dice_total
    found = contest_won(total, target.hidden_total, roller_defends=False)
    new = state.put(
        i,
        replace(
            c, dp=c.dp - t.paid, last_roll=LastRoll(total, RollKind.PERCEPTION, state.turn, target.key, found)
        ),
    )
    new = new.put(j, replace(target, searched_by=(*target.searched_by, c.key)))
    rec.emit(
        "sg.searched",
        {
            **_throw_record(c, t, command.base, total),
            "target": target.name,
            "hidden_total": target.hidden_total,
            "found": found,
        },
    )
    return reveal(new, j, "found", c.name, rec) if found else new
