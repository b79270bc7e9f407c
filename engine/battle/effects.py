"""Effects with a duration (B-EFF-1) and the numbers they change (B-EFF-2).

**Ruling (B-EFF-1):** an effect ends when the turn of the side that made it begins for the Nth time
after it was made (a 1-round effect made in round 1 ends when that side's turn of round 2 begins,
whichever turn of round 1 it was made in); one made before the first turn counts from its side's first
turn (that turn's start does not count). One made anew under the name of an effect already on the same
target replaces it (Sword World: the same effect does not stack; the newer counts).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import limits
from engine.common import EventRecorder, fold
from engine.limits import visible
from engine.ruleset import RuleError

from . import lookup
from .commands import EffectAdd, EffectEnd, EffectExtend
from .ranges import MAX_EFFECTS
from .state import PC, BattleState, Effect, Monster, Phase, Side, Stat
from .words import MAX_EFFECT_ROUNDS, parse_duration, parse_mods


def mod_total(state: BattleState, key: str, part: str | None, stat: Stat) -> int:
    """B-EFF-2: what the effects on a character (and, for a monster's part, on that part) add to a number."""
    return sum(
        m.delta
        for e in state.effects
        if e.target == key and (e.part is None or e.part == part)
        for m in e.mods
        if m.stat is stat
    )


def part_key(m: Monster, i: int | None) -> str | None:
    """How an effect names a monster's part: None for the whole monster (or its only part)."""
    return None if i is None or len(m.parts) == 1 else fold(m.parts[i].name)


def numbers_of(state: BattleState, who: PC | Monster, i: int | None = None) -> dict[str, Any]:
    """B-EFF-2: a character's (a part's) 防護点, 回避力, 命中力 with the effects applied."""
    # None where it has none (a PC's 命中力, a ``—``); 防護点 never below 0; ``mods``: what the effects add
    # to each number, ダメージ (to the damage it deals) among them.
    if isinstance(who, PC):
        key, base = None, {"defense": who.defense, "evasion": who.evasion, "hit": None}
    else:
        p = who.parts[i if i is not None else 0]
        key, base = part_key(who, i), {"defense": p.defense, "evasion": p.evasion, "hit": p.hit}
    mods = {stat.value: mod_total(state, who.key, key, stat) for stat in Stat}
    out: dict[str, Any] = {
        name: None if value is None else value + mods[name] for name, value in base.items()
    }
    out["defense"] = max(0, out["defense"] or 0)
    out["mods"] = mods
    return out


def effect_record(state: BattleState, e: Effect) -> dict[str, Any]:
    """An effect as events and views show it (names, not keys)."""
    target = state.character(e.target)
    by = state.character(e.by) if e.by is not None else None
    part = None
    if isinstance(target, Monster) and e.part is not None:
        i = target.part_index(e.part)
        part = target.parts[i].name if i is not None else e.part
    return {
        "id": e.id,
        "name": e.name,
        "target": target.name if target is not None else e.target,
        "part": part,
        "text": e.text,
        "rounds": e.rounds,
        "left": e.left,
        "until_end": e.until_end,
        "side": e.made_side.value,
        "made_round": e.made_round,
        "by": by.name if by is not None else None,
        "mods": [{"stat": m.stat.value, "delta": m.delta} for m in e.mods],
    }


def maker_side(state: BattleState, by: PC | Monster | None, target: PC | Monster) -> Side:
    """B-EFF-1: the side that made an effect: its maker's, else the turn's, else the target's."""
    # Before the first turn no side has the turn: the target's side made it.
    if by is not None:
        return by.side
    if state.phase is Phase.RUNNING and state.turn is not None:
        return state.turn
    return target.side


def effect_add(state: BattleState, command: EffectAdd, rec: EventRecorder) -> BattleState:
    """B-EFF-1, B-EFF-2: an effect with a duration (or until the end) and the numbers it changes."""
    t = lookup.target(state, command.target, need_part=False)
    limits.check_name(command.name)
    limits.check_text("text", command.text)
    rounds = parse_duration(command.rounds)
    mods = parse_mods(command.mod)
    maker = lookup.target(state, command.by, need_part=False).who if command.by is not None else None
    if maker is not None:
        lookup.turn_guard(state, maker, command.gm)
    part = part_key(t.who, t.part) if isinstance(t.who, Monster) else None
    name = visible(command.name).strip()
    old = next(
        (e for e in state.effects_on(t.who.key) if e.part == part and fold(e.name) == fold(name)), None
    )
    kept = tuple(e for e in state.effects if e is not old)
    limits.check_count("effects", sum(1 for e in kept if e.target == t.who.key) + 1, MAX_EFFECTS)
    effect = Effect(
        id=state.next_effect,
        name=name,
        target=t.who.key,
        text=command.text.strip(),
        made_round=state.round,
        made_side=maker_side(state, maker, t.who),
        rounds=rounds,
        left=rounds,
        part=part,
        by=maker.key if maker is not None else None,
        mods=mods,
    )
    new = replace(state, effects=(*kept, effect), next_effect=state.next_effect + 1)
    rec.emit("bt.effect_added", {**effect_record(new, effect), "replaced": old.id if old else None})
    if maker is not None:
        new = lookup.mark_acted(new, maker, rec)
    return new


def find_effect(state: BattleState, target: str, name: str) -> Effect:
    """The effect ``name`` (or ``#<id>``) on ``target`` (a part of it, if one is named)."""
    t = lookup.target(state, target, need_part=False)
    part = part_key(t.who, t.part) if isinstance(t.who, Monster) and t.part is not None else None
    on = [e for e in state.effects_on(t.who.key) if part is None or e.part in (None, part)]
    word = fold(name)
    if word.startswith("#") and word[1:].isdigit():
        found = [e for e in on if e.id == int(word[1:])]
    else:
        found = [e for e in on if fold(e.name) == word]
    if not found:
        names = ", ".join(e.name for e in on)
        raise RuleError("bt.unknown_effect", target=t.label, name=name, effects=names)
    if len(found) > 1:
        raise RuleError("bt.effect_which", target=t.label, name=name, ids=[e.id for e in found])
    return found[0]


def _may_end(state: BattleState, e: Effect, command: EffectEnd) -> bool:
    """B-EFF-1: the GM, the owner of the PC it is on, or the owner of the PC that made it."""
    if command.gm:
        return True
    owners = [state.character(k) for k in (e.target, e.by) if k is not None]
    return any(isinstance(c, PC) and c.owner == command.invoker for c in owners)


def effect_end(state: BattleState, command: EffectEnd, rec: EventRecorder) -> BattleState:
    """B-EFF-1: an effect ended before its time (dispelled, given up)."""
    e = find_effect(state, command.target, command.name)
    if not _may_end(state, e, command):
        raise RuleError("bt.not_your_effect", target=command.target, name=e.name)
    rec.emit("bt.effect_ended", {**effect_record(state, e), "reason": "ended"})
    return replace(state, effects=tuple(x for x in state.effects if x is not e))


def effect_extend(state: BattleState, command: EffectExtend, rec: EventRecorder) -> BattleState:
    """B-EFF-1: the GM extends (or shortens) an effect by some rounds."""
    e = find_effect(state, command.target, command.name)
    if e.rounds is None or e.left is None:
        raise RuleError("bt.effect_until_end", target=command.target, name=e.name)
    left = e.left + command.rounds
    if command.rounds == 0 or not 1 <= left <= MAX_EFFECT_ROUNDS:
        raise RuleError(
            "bt.extend_invalid", name=e.name, left=e.left, rounds=command.rounds, max=MAX_EFFECT_ROUNDS
        )
    changed = replace(e, rounds=max(1, e.rounds + command.rounds), left=left)
    new = replace(state, effects=tuple(changed if x is e else x for x in state.effects))
    rec.emit("bt.effect_extended", {**effect_record(new, changed), "delta": command.rounds})
    return new


def expire(state: BattleState, side: Side) -> tuple[BattleState, list[dict[str, Any]]]:
    """B-EFF-1: as ``side``'s turn begins, each effect it made counts one turn; those with none left end."""
    kept: list[Effect] = []
    ended: list[dict[str, Any]] = []
    for e in state.effects:
        counts = e.made_side is side and e.left is not None and not (e.made_round == 0 and state.round == 1)
        if not counts or e.left is None:
            kept.append(e)
        elif e.left <= 1:
            ended.append(effect_record(state, e))
        else:
            kept.append(replace(e, left=e.left - 1))
    return replace(state, effects=tuple(kept)), ended
