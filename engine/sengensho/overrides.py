"""``/gm set`` in a 千幻抄 battle: the GM overrides any value (a ruling is a default, never a wall)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from enum import StrEnum
from typing import Any

from engine.common import EventRecorder, Unfit, fold, parse_bool
from engine.ruleset import RuleError
from engine.sengensho.cards import card_names, find_card
from engine.sengensho.commands import GMSet
from engine.sengensho.core import parse_gm_fixed
from engine.sengensho.lookup import locate
from engine.sengensho.names import rename
from engine.sengensho.sheet import parse_skills, skills_text
from engine.sengensho.state import (
    Card,
    Character,
    Down,
    Evasion,
    Opening,
    SengenshoState,
    Side,
    Surprise,
    secret_of,
)
from engine.sengensho.steps import appeared, hid_again


def _int(text: str, least: int = 0) -> int:
    word = fold(text).replace("−", "-")
    if not word.lstrip("+-").isdigit():
        raise Unfit("not_an_integer")
    if int(word) < least:
        raise Unfit("out_of_range", min=least, max=None)
    return int(word)


def _bool(text: str) -> bool:
    value = parse_bool(text)
    if value is None:
        raise Unfit("not_a_boolean")
    return value


def _none_or(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def parsed(text: str) -> Any:
        return None if fold(text) in (*_NONE, "false") else parse(text)

    return parsed


def _hp(c: Character, v: int) -> Character:
    if c.max_hp is not None and v > c.max_hp:
        raise Unfit("out_of_range", min=0, max=c.max_hp)
    return replace(c, hp=v, max_hp=c.max_hp if c.max_hp is not None else v)


def _max_hp(c: Character, v: int) -> Character:
    return replace(c, max_hp=v, hp=v if c.hp is None else min(c.hp, v))


def _dp(c: Character, v: int) -> Character:
    if v > c.dp_max:
        raise Unfit("out_of_range", min=0, max=c.dp_max)
    return replace(c, dp=v)


def _cards(c: Character, names: list[str]) -> Character:
    """The declared cards by name; a card kept keeps whether it was used."""
    kept = [find_card(c, n) for n in names]
    return replace(c, cards=tuple(k if k is not None else Card(n) for k, n in zip(kept, names, strict=True)))


def _used(c: Character, names: list[str]) -> Character:
    if any(find_card(c, n) is None for n in names):
        raise ValueError(names)
    used = {k.name for k in (find_card(c, n) for n in names) if k is not None}
    return replace(c, cards=tuple(replace(k, used=k.name in used) for k in c.cards))


def _names(text: str) -> list[str]:
    return [] if fold(text) in _NONE else card_names(text)


def _attributes(text: str) -> tuple[int, int, int, int, int] | None:
    if fold(text) in _NONE:
        return None
    values = [_int(v) for v in text.replace(",", " ").replace("、", " ").split()]
    if len(values) != 5:
        raise ValueError(text)
    return (values[0], values[1], values[2], values[3], values[4])


def _hidden(c: Character, v: bool | int) -> Character:
    """``none``/``false``: seen by the table; ``true``: hidden (total kept); a number: hidden with it."""
    if v is False:
        return replace(c, hidden=False, hidden_total=None, hidden_turn=None, searched_by=())
    total = c.hidden_total if v is True else v
    return replace(c, hidden=True, hidden_total=total, hidden_turn=c.hidden_turn or 0)


def _read_hidden(text: str) -> bool | int:
    flag = parse_bool(text)
    if flag is not None or fold(text) in _NONE:
        return bool(flag)
    return _int(text, -999)


def _surprise(state: SengenshoState) -> Callable[[Character, Evasion | None], Character]:
    """S-SUR-5: the GM lifts (``none``) or sets a restriction on a character's defence."""
    # One set by the GM restricts every defence until the turn moves past the value now acting;
    # with several surprises on the character (S-SUR-5), ``none`` lifts them all and a value sets each.

    def write(c: Character, v: Evasion | None) -> Character:
        if v is None:
            return replace(c, surprises=(), unaware_at=None)
        if c.surprises:
            return replace(c, surprises=tuple(replace(s, evasion=v) for s in c.surprises))
        return replace(c, surprises=(Surprise("GM", None, v, state.step),))

    return write


Field = tuple[Callable[[str], Any], Callable[[Character, Any], Character], Callable[[Character], Any]]
#: the longest GM's note kept (characters)
NOTE_MAX = 200
_NONE = ("none", "null", "-", "なし")

#: character fields: (how the value is read, how it is set, how its current value reads)
_FIELDS: dict[str, Field] = {
    "hp": (_int, _hp, lambda c: c.hp),
    "max_hp": (lambda t: _int(t, 1), _max_hp, lambda c: c.max_hp),
    "dp": (_int, _dp, lambda c: c.dp),
    "dp_max": (_int, lambda c, v: replace(c, dp_max=v, dp=min(c.dp, v)), lambda c: c.dp_max),
    "recovery": (_int, lambda c, v: replace(c, recovery=v), lambda c: c.recovery),
    "declared": (_none_or(_int), lambda c, v: replace(c, declared=v), lambda c: c.declared),
    "cards": (_names, _cards, lambda c: [k.name for k in c.cards]),
    "used": (_names, _used, lambda c: [k.name for k in c.cards if k.used]),
    "acted": (_bool, lambda c, v: replace(c, acted=v), lambda c: c.acted),
    "unable": (_bool, lambda c, v: replace(c, unable=v), lambda c: c.unable),
    "exposed": (_bool, lambda c, v: replace(c, exposed=v), lambda c: c.exposed),
    "hidden": (_read_hidden, _hidden, lambda c: c.hidden_total if c.hidden else False),
    "down": (_none_or(lambda t: Down(fold(t))), lambda c, v: replace(c, down=v), lambda c: c.down),
    "skills": (
        lambda t: () if fold(t) in _NONE else parse_skills(t),
        lambda c, v: replace(c, skills=v),
        lambda c: skills_text(c.skills) or None,
    ),
    "attributes": (_attributes, lambda c, v: replace(c, attributes=v), lambda c: c.attributes),
    "note": (
        lambda t: "" if fold(t) in _NONE else t.strip()[:NOTE_MAX],
        lambda c, v: replace(c, note=v),
        lambda c: c.note or None,
    ),
    "surprise": (
        _none_or(lambda t: Evasion(fold(t))),
        lambda c, v: c,  # replaced per battle in gm_set (the value now acting)
        lambda c: c.surprise.evasion if c.surprise else None,
    ),
    "attack_limit": (
        _none_or(lambda t: t.strip()),
        lambda c, v: replace(c, attack_limit=v),
        lambda c: c.attack_limit,
    ),
}

#: battle fields: (how the value is read, how it is set, how its current value reads)
_BATTLE: dict[str, tuple[Callable[[str], Any], Callable[[SengenshoState, Any], SengenshoState], Any]] = {
    "turn": (_int, lambda s, v: replace(s, turn=v), lambda s: s.turn),
    "step": (_none_or(_int), lambda s, v: replace(s, step=v), lambda s: s.step),
    "opening": (lambda t: Opening(fold(t)), lambda s, v: replace(s, opening=v), lambda s: s.opening),
    "gm_fixed": (parse_gm_fixed, lambda s, v: replace(s, gm_fixed=v), lambda s: s.gm_fixed),
}


def _plain(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def gm_set(state: SengenshoState, command: GMSet, rec: EventRecorder) -> SengenshoState:
    """Sets ``turn``, ``step``, ``opening`` (S-START-1), ``gm_fixed`` (S-GM-1), ``allowance.pc|enemy``
    or ``<name>.<field>`` (a surprise restriction among them, S-SUR-5) to a value.

    A change to a hidden character is read by the GM and its owner only (S-HIDE-1)."""
    target = fold(command.target)
    owner, _, field = target.rpartition(".")
    audience = None
    try:
        if target in _BATTLE:
            read_battle, write_battle, now = _BATTLE[target]
            before, value = now(state), read_battle(command.value)
            new = write_battle(state, value)
        elif owner == "allowance" and field in (s.value for s in Side):
            side = Side(field)
            before, value = state.allowance(side), _int(command.value)
            new = state.with_allowance(side, value)
        elif owner and field == "name":  # everywhere its key is kept (S-HIDE-1: a clash resolved)
            i, c = locate(state, owner)
            before, value = c.name, command.value.strip()
            new = rename(state, i, value)
            audience = secret_of(c)
        elif owner and field in _FIELDS:
            i, c = locate(state, owner)
            read, write, current = _FIELDS[field]
            if field == "surprise":
                write = _surprise(state)
            before, value = current(c), read(command.value)
            changed = write(c, value)
            new = state.put(i, changed)
            audience = secret_of(c, changed)
            if c.hidden != changed.hidden:  # S-SUR-5: appearing, it is found; hiding, no longer
                new = appeared(new, c.key, c.secret, rec) if c.hidden else hid_again(new, c.key)
        else:
            fields = ", ".join(("name", *_FIELDS))
            raise RuleError("sg.set_target_invalid", target=command.typed or command.target, fields=fields)
    except ValueError as bad:
        typed = command.typed or command.target
        reason, detail = (bad.reason, bad.detail) if isinstance(bad, Unfit) else (None, {})
        raise RuleError(
            "sg.set_value_invalid", target=typed, value=command.value, reason=reason, detail=detail
        ) from None
    rec.emit(
        "sg.gm_set",
        {"target": command.target, "before": _plain(before), "value": _plain(value)},
        audience,
    )
    return new
