"""Renaming a character everywhere its key is kept, and a join whose name a hidden character has (S-HIDE-1).

A player may not learn that a hidden character exists, not even by joining under its name. So when a
player's new character takes a name that only a hidden character they may not read of has, the
player's character joins under it and the hidden one is renamed ``<name>(2)`` (the lowest number
free); the GM and the hidden character's owner are told, and may rename it with ``/gm set``.
"""

from __future__ import annotations

from dataclasses import replace

from engine.common import EventRecorder, clean_name, fold
from engine.limits import NAME_MAX
from engine.ruleset import RuleError
from engine.sengensho.commands import Join
from engine.sengensho.state import Character, LastRoll, SengenshoState


def _moved(key: str | None, old: str, new: str) -> str | None:
    return new if key == old else key


def _roll(r: LastRoll | None, old: str, new: str) -> LastRoll | None:
    if r is None:
        return None
    return replace(r, against=_moved(r.against, old, new), aim=_moved(r.aim, old, new))


def _references(c: Character, old: str, new: str) -> Character:
    """``c`` with every mention of the key ``old`` (holder, searchers, rolls, surprise, cards) as ``new``."""

    def keys(ks: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(new if k == old else k for k in ks)

    return replace(
        c,
        held_by=_moved(c.held_by, old, new),
        searched_by=keys(c.searched_by),
        found=keys(c.found),
        unnoticed=keys(c.unnoticed),
        last_roll=_roll(c.last_roll, old, new),
        surprises=tuple(replace(s, attacker=_moved(s.attacker, old, new)) for s in c.surprises),
        cards=tuple(replace(k, taken_from=_moved(k.taken_from, old, new)) for k in c.cards),
    )


def rename(state: SengenshoState, i: int, name: str) -> SengenshoState:
    """Character ``i`` is called ``name`` from now on (refused if another has it)."""
    new_name, key = clean_name(name, "sg")
    old = state.characters[i].key
    j = state.find(key)
    if j is not None and j != i:
        raise RuleError("sg.name_taken", name=new_name)
    characters = tuple(
        _references(replace(c, name=new_name, key=key, clash=None) if n == i else c, old, key)
        for n, c in enumerate(state.characters)
    )
    return replace(state, characters=characters)


def free_name(state: SengenshoState, name: str) -> str:
    """``name(2)``, ``name(3)`` …: the first such name no character has (cut to fit the longest name)."""
    n = 2
    while True:
        suffix = f"({n})"
        candidate = name[: NAME_MAX - len(suffix)] + suffix
        if state.find(fold(candidate)) is None:
            return candidate
        n += 1


def make_room(
    state: SengenshoState, command: Join, key: str, name: str, rec: EventRecorder
) -> SengenshoState:
    """S-HIDE-1: a name taken is refused, unless its holder hides from the joiner: it is renamed."""
    # The GM and the hidden character's owner are told; no one else.
    i = state.find(key)
    if i is None:
        return state
    existing = state.characters[i]
    if command.gm or not existing.hidden or existing.owner == command.invoker:
        raise RuleError("sg.name_taken", name=name)
    renamed = free_name(state, existing.name)
    new = rename(state, i, renamed)
    new = new.put(i, replace(new.characters[i], clash=existing.name))
    rec.emit(
        "sg.name_clash",
        {"name": existing.name, "renamed": renamed, "owner": existing.owner},
        new.characters[i].secret,
    )
    return new
