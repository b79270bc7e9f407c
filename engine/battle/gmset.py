"""``/gm set`` in an ordinary battle: the GM overrides any value (a ruling is a default, never a wall).

Targets: ``round``, ``turn``, ``first``, ``title``; ``<pc>.<hp|max_hp|mp|max_mp|defense|evasion|fortitude|
willpower|initiative|initiative_total|acted|owner>``; ``<monster>.<acted|reputation|weakness_value|
weakness|initiative|move|fortitude|willpower|level|core|hidden_stats|knowledge|reveal>``; a part's
``<monster>:<part>.<hp|max_hp|mp|max_mp|defense|hit|evasion|strike>`` (``<monster>.hp`` for a monster
of one part). ``none`` clears what may be empty. A change to an unknown monster's numbers is the GM's
alone (B-KNOW-1).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine import limits
from engine.common import EventRecorder, Unfit, fold, parse_bool
from engine.limits import MAX_HP, parse_int
from engine.ruleset import RuleError

from . import lookup
from .commands import GMSet
from .damage import falls
from .knowledge import audience
from .lookup import Target
from .ranges import CHECK, MAX_ROUND, MONSTER_VALUE, PC_STAT
from .state import PC, BattleState, Lore, Monster, Part, Phase
from .words import parse_side

_NONE = ("none", "null", "-", "なし", "")


def _int(lo: int, hi: int) -> Callable[[str], int]:
    def read(text: str) -> int:
        value = parse_int(unicodedata.normalize("NFKC", text).replace("−", "-"))
        if value is None:
            raise Unfit("not_an_integer")
        if not lo <= value <= hi:
            raise Unfit("out_of_range", min=lo, max=hi)
        return value

    return read


def _or_none(read: Callable[[str], Any]) -> Callable[[str], Any]:
    return lambda text: None if fold(text) in _NONE else read(text)


def _bool(text: str) -> bool:
    value = parse_bool(text)
    if value is None:
        raise Unfit("not_a_boolean")
    return value


def _text(text: str) -> str:
    if limits.text_problem(text, limits.TEXT_MAX) is not None:
        raise ValueError(text)
    return text.strip()


def _side(text: str) -> Any:
    try:
        return parse_side(text)
    except RuleError:
        raise ValueError(text) from None


# (read the value, set it, read the value now)
Field = tuple[Callable[[str], Any], Callable[[Any, Any], Any], Callable[[Any], Any]]


def _plain(name: str, read: Callable[[str], Any]) -> Field:
    return (read, lambda c, v: replace(c, **{name: v}), lambda c: getattr(c, name))


def _hp(c: Any, v: int) -> Any:
    """B-CHAR-3: HP may fall below 0 (戦闘不能), never above the maximum."""
    if v > c.max_hp:
        raise Unfit("out_of_range", min=None, max=c.max_hp)
    return replace(c, hp=v)


def _mp(c: Any, v: int) -> Any:
    if v > c.max_mp:
        raise Unfit("out_of_range", min=0, max=c.max_mp)
    return replace(c, mp=v)


_POOLS: dict[str, Field] = {
    "hp": (_int(-MAX_HP, MAX_HP), _hp, lambda c: c.hp),
    "max_hp": (_int(1, MAX_HP), lambda c, v: replace(c, max_hp=v, hp=min(c.hp, v)), lambda c: c.max_hp),
    "mp": (_int(0, MAX_HP), _mp, lambda c: c.mp),
    "max_mp": (_int(0, MAX_HP), lambda c, v: replace(c, max_mp=v, mp=min(c.mp, v)), lambda c: c.max_mp),
}
PC_FIELDS: dict[str, Field] = {
    **_POOLS,
    **{f: _plain(f, _int(*PC_STAT)) for f in ("defense", "evasion", "fortitude", "willpower", "initiative")},
    "initiative_total": _plain("initiative_total", _or_none(_int(*CHECK))),
    "acted": _plain("acted", _bool),
    "owner": _plain("owner", _or_none(str.strip)),
}
PART_FIELDS: dict[str, Field] = {
    **_POOLS,
    "defense": _plain("defense", _int(*MONSTER_VALUE)),
    "hit": _plain("hit", _or_none(_int(*MONSTER_VALUE))),
    "evasion": _plain("evasion", _or_none(_int(*MONSTER_VALUE))),
    "strike": _plain("strike", _or_none(_text)),
}
MONSTER_FIELDS: dict[str, Field] = {
    "acted": _plain("acted", _bool),
    **{f: _plain(f, _int(*MONSTER_VALUE)) for f in ("reputation", "weakness_value", "initiative")},
    **{f: _plain(f, _or_none(_int(*MONSTER_VALUE))) for f in ("fortitude", "willpower", "level")},
    **{f: _plain(f, _or_none(_text)) for f in ("weakness", "move")},
    "hidden_stats": _plain("hidden_stats", _bool),
}
#: fields of a monster the table may read of a change even when it does not know the monster
PUBLIC = frozenset({"acted", "knowledge", "reveal"})
REVEALS = {"none": (False, False), "numbers": (True, False), "weakness": (False, True), "all": (True, True)}


def _battle(state: BattleState, field: str, text: str) -> tuple[Any, Any, BattleState]:
    if field == "round":  # 0 before the first turn, from 1 once the turns run
        low, high = {Phase.SETUP: (0, 0), Phase.RUNNING: (1, MAX_ROUND)}.get(state.phase, (0, MAX_ROUND))
        value = _int(low, high)(text)
        return state.round, value, replace(state, round=value)
    if field == "turn":
        if state.phase is not Phase.RUNNING:
            raise ValueError(text)
        side = _side(text)
        return state.turn, side, replace(state, turn=side)
    if field == "first":
        side = _or_none(_side)(text)
        if side is None and state.phase is Phase.RUNNING:
            raise ValueError(text)
        return state.first, side, replace(state, first=side)
    limits.check_text("title", text)
    return state.title, text.strip(), replace(state, title=text.strip())


def _monster(state: BattleState, m: Monster, field: str, text: str) -> tuple[Any, Any, BattleState]:
    if field == "core":
        value = _or_none(_int(0, len(m.parts) - 1))(text)
        if value is not None and len(m.parts) == 1:
            raise ValueError(text)
        return m.core, value, state.put(replace(m, core=value))
    lore = state.lore_of(m.kind_key)
    if field == "knowledge":
        value = _or_none(_int(*CHECK))(text)
        return (
            lore.best,
            value,
            state.with_lore(replace(lore, best=value, by=None if value is None else lore.by)),
        )
    if field == "reveal":
        word = fold(text)
        if word not in REVEALS:
            raise ValueError(text)
        numbers, weakness = REVEALS[word]
        before = [
            k for k, v in (("numbers", lore.numbers_revealed), ("weakness", lore.weakness_revealed)) if v
        ]
        changed = Lore(lore.kind, lore.name, lore.best, lore.by, lore.rolled, numbers, weakness)
        return "+".join(before) or "none", word, state.with_lore(changed)
    read, write, now = MONSTER_FIELDS[field]
    value = read(text)
    return now(m), value, state.put(write(m, value))


def _fields_text() -> str:
    every = ("round", "turn", "first", "title", *PC_FIELDS, *MONSTER_FIELDS, *PART_FIELDS)
    return ", ".join(dict.fromkeys((*every, "core", "knowledge", "reveal")))


def gm_set(state: BattleState, command: GMSet, rec: EventRecorder) -> BattleState:
    """Sets a battle's, a character's or a part's value; the event says what it was and is now."""
    target = command.target.strip()
    typed = command.typed or command.target
    owner, _, raw_field = target.rpartition(".")
    field = fold(raw_field if owner else target)
    secret: tuple[str, ...] | None = None
    hurt: Target | None = None  # whose HP the override set (B-CHAR-3: do they fall, or stand again?)
    try:
        if not owner and field in ("round", "turn", "first", "title"):
            before, value, new = _battle(state, field, command.value)
        elif owner:
            t = lookup.target(state, owner, need_part=False)
            who = t.who
            if isinstance(who, PC) and field in PC_FIELDS:
                read, write, now = PC_FIELDS[field]
                before, value = now(who), read(command.value)
                new = state.put(write(who, value))
                hurt = t if field in ("hp", "max_hp") else None
            elif isinstance(who, Monster) and field in PART_FIELDS and field not in MONSTER_FIELDS:
                if t.part is None:
                    raise RuleError("bt.part_required", name=who.name, parts=lookup.parts_text(who))
                part: Part = who.parts[t.part]
                read, write, now = PART_FIELDS[field]
                before, value = now(part), read(command.value)
                new = state.put(who.with_part(t.part, write(part, value)))
                hurt = t if field in ("hp", "max_hp") else None
            elif isinstance(who, Monster) and (
                field in MONSTER_FIELDS or field in ("core", "knowledge", "reveal")
            ):
                before, value, new = _monster(state, who, field, command.value)
            else:
                raise RuleError("bt.set_target_invalid", target=typed, fields=_fields_text())
            if isinstance(who, Monster) and field not in PUBLIC:
                secret = audience(state, who)
        else:
            raise RuleError("bt.set_target_invalid", target=typed, fields=_fields_text())
    except ValueError as bad:
        reason, detail = (bad.reason, bad.detail) if isinstance(bad, Unfit) else (None, {})
        raise RuleError(
            "bt.set_value_invalid", target=typed, value=command.value, reason=reason, detail=detail
        ) from None
    rec.emit("bt.gm_set", {"target": target, "before": _json(before), "value": _json(value)}, secret)
    if hurt is not None:
        now_who = new.character(hurt.who.key)
        assert now_who is not None
        falls(hurt, Target(now_who, hurt.part), rec)
    return new


def _json(value: Any) -> Any:
    return value.value if hasattr(value, "value") else value
