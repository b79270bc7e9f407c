"""B-KNOW-1, B-VIEW-1: a battle as the table sees it, and as the GM does.

Below a monster's 知名度 the table sees its name, its parts' names and each part's rough state (a state
key, ``Rough``: the words are the catalogues'); at 知名度 its numbers, at 弱点値 its weakness too. The
GM always sees all. Events carrying an unknown monster's numbers are the GM's alone (``Event.audience``
``()``, ``knowledge.audience``) and come with a public event of the rough state beside them.

``visible(document, user)`` is the exported document (``toride.battle/1``) as a reader who is not the
GM may read it (``RuleSet.visible``); ``monster_view``/``status`` build the same from a state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.common import fold

from .commands import MP, AddMonster, GMSet
from .effects import effect_record, numbers_of
from .export import lore_docs, monster_doc, pc_doc
from .gmset import PUBLIC
from .knowledge import knows_numbers, numbers_known, rough_state, weakness_known
from .lookup import not_acted
from .state import BattleState, Monster

__all__ = ["monster_view", "rough_state", "secret_text", "status", "table_monster", "visible"]

#: what the table reads of a monster it does not know (besides its parts' names and rough states)
_ALWAYS = ("name", "kind", "acted", "down")


def _known(document: Mapping[str, Any], monster: Mapping[str, Any]) -> tuple[bool, bool]:
    """B-KNOW-1: does the table know a monster's numbers, and its weakness (read from the document)?"""
    kind = fold(str(monster.get("kind") or monster.get("name") or ""))
    lore: Mapping[str, Any] = next(
        (k for k in document.get("knowledge") or [] if fold(str(k.get("kind") or "")) == kind), {}
    )
    best, hidden = lore.get("best"), bool(monster.get("hidden_stats"))
    numbers = numbers_known(
        best, int(monster.get("reputation") or 0), bool(lore.get("numbers_revealed")), hidden
    )
    weakness = weakness_known(
        best, int(monster.get("weakness_value") or 0), bool(lore.get("weakness_revealed")), hidden
    )
    return numbers, weakness


def table_monster(document: Mapping[str, Any], monster: Mapping[str, Any]) -> dict[str, Any]:
    """B-KNOW-1: one monster of the document as the table sees it."""
    numbers, weakness = _known(document, monster)
    if numbers:
        out = {k: v for k, v in monster.items() if k != "hidden_stats"}
        if not weakness:
            out["weakness"] = None
    else:
        out = {k: monster.get(k) for k in _ALWAYS}
        out["parts"] = [
            {
                "name": p.get("name"),
                "state": rough_state(int(p.get("hp") or 0), max(1, int(p.get("max_hp") or 1))).value,
                "destroyed": bool(p.get("destroyed")),
            }
            for p in monster.get("parts") or []
        ]
        if weakness:
            out["weakness"] = monster.get("weakness")
    out["known"] = {"numbers": numbers, "weakness": weakness}
    return out


def visible(document: Mapping[str, Any], user: str | None) -> dict[str, Any]:
    """B-KNOW-1: the document for a reader who is not the GM (``user``: any player; all read the same)."""
    monsters = [table_monster(document, m) for m in document.get("monsters") or []]
    return {**document, "monsters": monsters}


def monster_view(state: BattleState, m: Monster, gm: bool = False) -> dict[str, Any]:
    """B-KNOW-1, B-EFF-2: a monster as the table (``gm``: the GM) sees it."""
    # Where its numbers are seen, each part's ``numbers`` with the effects applied.
    doc = monster_doc(m)
    if gm:
        out = {**doc, "known": {"numbers": True, "weakness": True}}
    else:
        out = table_monster({"knowledge": lore_docs(state)}, doc)
    if out["known"]["numbers"]:
        out["parts"] = [
            {**part, "state": rough_state(p.hp, p.max_hp).value, "numbers": numbers_of(state, m, i)}
            for i, (part, p) in enumerate(zip(out["parts"], m.parts, strict=True))
        ]
    return out


def status(state: BattleState, gm: bool = False) -> dict[str, Any]:
    """B-VIEW-1: the live status: round, whose turn, characters, who has not acted, effects."""
    # Monsters as B-KNOW-1 allows, numbers with the effects applied; effects with the rounds left.
    return {
        "title": state.title,
        "phase": state.phase.value,
        "round": state.round,
        "turn": state.turn.value if state.turn else None,
        "first": state.first.value if state.first else None,
        "not_acted": not_acted(state, state.turn) if state.turn else [],
        "pcs": [{**pc_doc(p), "numbers": numbers_of(state, p)} for p in state.pcs],
        "monsters": [monster_view(state, m, gm) for m in state.monsters],
        "effects": [effect_record(state, e) for e in state.effects],
    }


def _unknown(state: BattleState | None, name: str) -> bool:
    """Is ``name`` (``<monster>`` or ``<monster>:<part>``) a monster whose numbers the table does not know?"""
    if state is None:
        return False
    text = name.replace("：", ":")
    who = state.character(fold(text)) or state.character(fold(text.rpartition(":")[0]))
    return isinstance(who, Monster) and not knows_numbers(state, who)


def secret_text(before: BattleState | None, after: BattleState | None, command: object) -> bool:
    """B-KNOW-1: does the command's own text give numbers of a monster the table does not know?"""
    # ``RuleSet.secret_text``: then the table reads its events without it. A new monster's options
    # (HP, 防護点 ...), the GM's change of one's value, the MP it spends are its numbers.
    if isinstance(command, AddMonster):
        return after is not None and any(
            m.kind_key == fold(command.name) and not knows_numbers(after, m) for m in after.monsters
        )
    if isinstance(command, GMSet):
        owner, _, field = command.target.strip().rpartition(".")
        return bool(owner) and fold(field) not in PUBLIC and _unknown(before, owner)
    if isinstance(command, MP):
        return _unknown(before, command.name)
    return False
