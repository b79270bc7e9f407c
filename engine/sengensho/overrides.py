"""``/gm set`` in a 千幻抄 battle: the GM overrides any value (a ruling is a default, never a wall)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.common import EventRecorder, fold, parse_bool
from engine.ruleset import RuleError
from engine.sengensho.commands import GMSet
from engine.sengensho.core import locate
from engine.sengensho.state import Character, Down, SengenshoState, Side


def _int(text: str, least: int = 0) -> int:
    word = fold(text).replace("−", "-")
    if not word.lstrip("+-").isdigit() or int(word) < least:
        raise ValueError(text)
    return int(word)


def _bool(text: str) -> bool:
    value = parse_bool(text)
    if value is None:
        raise ValueError(text)
    return value


def _none_or(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def parsed(text: str) -> Any:
        return None if fold(text) in ("none", "null", "-", "false") else parse(text)

    return parsed


def _hp(c: Character, v: int) -> Character:
    if c.max_hp is not None and v > c.max_hp:
        raise ValueError(v)
    return replace(c, hp=v, max_hp=c.max_hp if c.max_hp is not None else v)


def _max_hp(c: Character, v: int) -> Character:
    return replace(c, max_hp=v, hp=v if c.hp is None else min(c.hp, v))


def _dp(c: Character, v: int) -> Character:
    if v > c.dp_max:
        raise ValueError(v)
    return replace(c, dp=v)


def _cards_used(c: Character, v: int) -> Character:
    if v > c.cards:
        raise ValueError(v)
    return replace(c, cards_used=v)


Field = tuple[Callable[[str], Any], Callable[[Character, Any], Character], Callable[[Character], Any]]

#: character fields: (how the value is read, how it is set, how its current value reads)
_FIELDS: dict[str, Field] = {
    "hp": (_int, _hp, lambda c: c.hp),
    "max_hp": (lambda t: _int(t, 1), _max_hp, lambda c: c.max_hp),
    "dp": (_int, _dp, lambda c: c.dp),
    "dp_max": (_int, lambda c, v: replace(c, dp_max=v, dp=min(c.dp, v)), lambda c: c.dp_max),
    "recovery": (_int, lambda c, v: replace(c, recovery=v), lambda c: c.recovery),
    "declared": (_none_or(_int), lambda c, v: replace(c, declared=v), lambda c: c.declared),
    "cards": (_int, lambda c, v: replace(c, cards=v, cards_used=min(c.cards_used, v)), lambda c: c.cards),
    "cards_used": (_int, _cards_used, lambda c: c.cards_used),
    "unable": (_bool, lambda c, v: replace(c, unable=v), lambda c: c.unable),
    "exposed": (_bool, lambda c, v: replace(c, exposed=v), lambda c: c.exposed),
    "hidden": (
        _none_or(lambda t: _int(t, -999)),
        lambda c, v: replace(c, hidden_total=v, hidden_turn=None if v is None else c.hidden_turn or 0),
        lambda c: c.hidden_total,
    ),
    "down": (_none_or(lambda t: Down(fold(t))), lambda c, v: replace(c, down=v), lambda c: c.down),
}


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Down) else value


def gm_set(state: SengenshoState, command: GMSet, rec: EventRecorder) -> SengenshoState:
    """Sets ``turn``, ``allowance.pc|enemy`` or ``<name>.<field>`` to a value."""
    target = fold(command.target)
    owner, _, field = target.rpartition(".")
    try:
        if target == "turn":
            before, value = state.turn, _int(command.value)
            new = replace(state, turn=value)
        elif owner == "allowance" and field in (s.value for s in Side):
            side = Side(field)
            before, value = state.allowance(side), _int(command.value)
            new = state.with_allowance(side, value)
        elif owner and field in _FIELDS:
            i, c = locate(state, owner)
            read, write, current = _FIELDS[field]
            before, value = current(c), read(command.value)
            new = state.put(i, write(c, value))
        else:
            raise RuleError("sg.set_target_invalid", target=command.target, fields=", ".join(_FIELDS))
    except ValueError:
        raise RuleError("sg.set_value_invalid", target=command.target, value=command.value) from None
    rec.emit("sg.gm_set", {"target": command.target, "before": _plain(before), "value": _plain(value)})
    return new
