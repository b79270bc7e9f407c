"""Finding the battle and its characters, for every rule of the set (refusals say which name was wrong)."""

from __future__ import annotations

from engine.common import fold
from engine.ruleset import RuleError
from engine.sengensho.state import Character, SengenshoState


def running(state: SengenshoState | None) -> SengenshoState:
    """The battle a command acts on: refused if there is none or it is over."""
    if state is None:
        raise RuleError("sg.no_battle")
    if state.ended:
        raise RuleError("sg.battle_over", title=state.title)
    return state


def locate(state: SengenshoState, name: str) -> tuple[int, Character]:
    i = state.find(fold(name))
    if i is None:
        raise RuleError("sg.unknown_character", name=name)
    return i, state.characters[i]


def able(state: SengenshoState, name: str) -> tuple[int, Character]:
    """A character that can still act: not knocked out (S-MERCY-1)."""
    i, c = locate(state, name)
    if c.down is not None:
        raise RuleError("sg.character_down", name=c.name, down=c.down.value)
    return i, c


def non_negative(field: str, value: int | None) -> None:
    if value is not None and value < 0:
        raise RuleError("sg.value_invalid", field=field, value=value)
