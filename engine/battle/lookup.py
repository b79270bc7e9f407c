"""Finding the battle, its characters and parts, and who may act when (B-INIT-2, B-CHAR-1, B-DMG-4).

Refusals say which name was wrong. A target is ``name`` or ``name:part`` (``グリフォン:頭部``); a
one-part monster's only part is the monster itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.common import EventRecorder, fold
from engine.ruleset import RuleError

from .state import PC, BattleState, Character, Monster, Phase, Side


def running(state: BattleState | None) -> BattleState:
    """The battle a command acts on: refused if there is none or it is over."""
    if state is None:
        raise RuleError("bt.no_battle")
    if state.ended:
        raise RuleError("bt.battle_over", title=state.title)
    return state


def character(state: BattleState, name: str) -> Character:
    found = state.character(fold(name))
    if found is None:
        raise RuleError("bt.unknown_character", name=name)
    return found


def pc(state: BattleState, name: str) -> PC:
    found = character(state, name)
    if not isinstance(found, PC):
        raise RuleError("bt.not_a_pc", name=found.name)
    return found


def monster(state: BattleState, name: str) -> Monster:
    found = character(state, name)
    if not isinstance(found, Monster):
        raise RuleError("bt.not_a_monster", name=found.name)
    return found


@dataclass(frozen=True, slots=True)
class Target:
    """A character and, for a monster, one of its parts (None: the whole monster, of several parts)."""

    who: Character
    part: int | None = None

    @property
    def label(self) -> str:
        """``name`` or ``name:part`` as stored."""
        if isinstance(self.who, Monster) and self.part is not None and self.who.parts[self.part].name:
            return f"{self.who.name}:{self.who.parts[self.part].name}"
        return self.who.name

    @property
    def part_name(self) -> str | None:
        if isinstance(self.who, Monster) and self.part is not None:
            return self.who.parts[self.part].name or None
        return None


def parts_text(m: Monster) -> str:
    return ", ".join(p.name for p in m.parts)


def target(state: BattleState, text: str, need_part: bool) -> Target:
    """``name`` or ``name:part``; ``need_part``: a monster of several parts must name one."""
    text = text.strip()
    found = state.character(fold(text))
    part_word: str | None = None
    if found is None:
        name, sep, part_word = text.replace("：", ":").rpartition(":")
        found = state.character(fold(name)) if sep else None
        if found is None:
            raise RuleError("bt.unknown_character", name=text)
    if isinstance(found, PC):
        if part_word is not None:
            raise RuleError("bt.no_parts", name=found.name)
        return Target(found)
    if part_word is None:
        if len(found.parts) == 1:
            return Target(found, 0)
        if need_part:
            raise RuleError("bt.part_required", name=found.name, parts=parts_text(found))
        return Target(found)
    i = found.part_index(fold(part_word))
    if i is None:
        raise RuleError("bt.unknown_part", name=found.name, part=part_word, parts=parts_text(found))
    return Target(found, i)


# --- who may act when ------------------------------------------------------------------------------


def check_owner(who: Character, invoker: str | None, gm: bool) -> None:
    """B-CHAR-1, B-DMG-4: a player acts as their own PCs only; monsters are the GM's."""
    if gm:
        return
    if isinstance(who, Monster):
        raise RuleError("bt.enemy_gm_only", name=who.name)
    if who.owner != invoker:
        raise RuleError("bt.not_your_pc", name=who.name)


def turn_guard(state: BattleState, who: Character, gm: bool) -> None:
    """B-INIT-2: a player's action outside its side's turn is refused, saying whose turn it is."""
    # So is one for a character down (戦闘不能). The GM may; before the first turn anyone may.
    if gm or state.phase is not Phase.RUNNING:
        return
    if who.side is not state.turn:
        assert state.turn is not None
        raise RuleError("bt.not_your_turn", name=who.name, turn=state.turn.value, round=state.round)
    if who.down:
        raise RuleError("bt.actor_down", name=who.name)


def not_acted(state: BattleState, side: Side) -> list[str]:
    """B-INIT-2: who of ``side`` has not acted yet in its turn (those down are not waited for)."""
    return [c.name for c in state.characters if c.side is side and not c.acted and not c.down]


def with_acted(state: BattleState, who: Character) -> tuple[BattleState, bool]:
    """B-INIT-2: ``who`` has acted in its side's turn; and has all its side acted now?"""
    # Those down are not waited for.
    if state.phase is not Phase.RUNNING or who.side is not state.turn or who.acted:
        return state, False
    current = state.character(who.key)
    assert current is not None
    new = state.put(replace(current, acted=True))
    return new, not not_acted(new, who.side) and bool(not_acted(state, who.side))


def side_done(state: BattleState, rec: EventRecorder) -> None:
    assert state.turn is not None
    rec.emit("bt.side_done", {"side": state.turn.value, "round": state.round})


def mark_acted(state: BattleState, who: Character, rec: EventRecorder) -> BattleState:
    """B-INIT-2: an action marks its actor as having acted; the side's last to act is said."""
    new, done = with_acted(state, who)
    if done:
        side_done(new, rec)
    return new
