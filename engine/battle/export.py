"""``toride.battle/1``: a battle as a JSON document and back, losing nothing.

Characters are named (not keyed) everywhere: effects' ``target``/``by``, knowledge's ``by``/``rolled``.
``down`` (of PCs and monsters) and ``destroyed`` (of parts) are read from HP (B-CHAR-3): written for
readers, ignored on import. An import validates every type, range and reference and refuses a bad
document with ``bt.import_invalid`` (``place``: where, ``reason``: why), or a ``limits.*`` refusal past
BATTLE.md's limits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine import limits
from engine.common import ImportInvalid, JsonDoc, JsonStyle, clean_name, fold
from engine.limits import MAX_HP
from engine.palette import parse_palette
from engine.ruleset import RuleError

from .ranges import (
    CHECK,
    MAX_ROUND,
    MONSTER_VALUE,
    PC_STAT,
    check_counts,
)
from .roster import check_sheet
from .state import PC, BattleState, Effect, Lore, Mod, Monster, Part, Phase, Side, Stat
from .words import MAX_EFFECT_ROUNDS

FORMAT = "toride.battle/1"
_PC_STATS = ("defense", "evasion", "fortitude", "willpower", "initiative")
_MONSTER_VALUES = ("reputation", "weakness_value", "initiative", "fortitude", "willpower", "level")
_PART_VALUES = ("defense", "hit", "evasion")


def pc_doc(p: PC) -> dict[str, Any]:
    return {
        "name": p.name,
        "owner": p.owner,
        "hp": p.hp,
        "max_hp": p.max_hp,
        "mp": p.mp,
        "max_mp": p.max_mp,
        **{f: getattr(p, f) for f in _PC_STATS},
        "palette": p.palette,
        "sheet": p.sheet,
        "acted": p.acted,
        "initiative_total": p.initiative_total,
        "down": p.down,
    }


def part_doc(p: Part) -> dict[str, Any]:
    return {
        "name": p.name,
        "hp": p.hp,
        "max_hp": p.max_hp,
        "mp": p.mp,
        "max_mp": p.max_mp,
        **{f: getattr(p, f) for f in _PART_VALUES},
        "strike": p.strike,
        "destroyed": p.destroyed,
    }


def monster_doc(m: Monster) -> dict[str, Any]:
    return {
        "name": m.name,
        "kind": m.kind,
        **{f: getattr(m, f) for f in _MONSTER_VALUES},
        "weakness": m.weakness,
        "move": m.move,
        "core": m.core,
        "hidden_stats": m.hidden_stats,
        "acted": m.acted,
        "down": m.down,
        "parts": [part_doc(p) for p in m.parts],
    }


def _name(state: BattleState, key: str | None) -> str | None:
    who = state.character(key) if key is not None else None
    return who.name if who is not None else key


def lore_docs(state: BattleState) -> list[dict[str, Any]]:
    return [
        {
            "kind": k.name,
            "best": k.best,
            "by": _name(state, k.by),
            "rolled": [_name(state, r) for r in k.rolled],
            "numbers_revealed": k.numbers_revealed,
            "weakness_revealed": k.weakness_revealed,
        }
        for k in state.lore
    ]


def effect_doc(state: BattleState, e: Effect) -> dict[str, Any]:
    target = state.character(e.target)
    part = e.part
    if isinstance(target, Monster) and e.part is not None:
        i = target.part_index(e.part)
        part = target.parts[i].name if i is not None else e.part
    return {
        "id": e.id,
        "name": e.name,
        "target": _name(state, e.target),
        "part": part,
        "text": e.text,
        "rounds": e.rounds,
        "left": e.left,
        "made_round": e.made_round,
        "side": e.made_side.value,
        "by": _name(state, e.by),
        "mods": [{"stat": m.stat.value, "delta": m.delta} for m in e.mods],
    }


def export_state(state: BattleState) -> dict[str, Any]:
    """The ``toride.battle/1`` document of ``state``."""
    return {
        "format": FORMAT,
        "title": state.title,
        "phase": state.phase.value,
        "round": state.round,
        "turn": state.turn.value if state.turn else None,
        "first": state.first.value if state.first else None,
        "next_effect": state.next_effect,
        "pcs": [pc_doc(p) for p in state.pcs],
        "monsters": [monster_doc(m) for m in state.monsters],
        "knowledge": lore_docs(state),
        "effects": [effect_doc(state, e) for e in state.effects],
    }


# --- import ---------------------------------------------------------------------------------------

#: paths as ``pcs.0.hp``, reasons as ``not_int``
STYLE = JsonStyle(
    sep="", end=".", item=".{}", wrong_type=lambda kind: f"not_{kind.__name__}", null_is_missing=True
)


def _invalid(place: str, reason: str) -> RuleError:
    return RuleError("bt.import_invalid", place=place, reason=reason, detail={})


def _text(r: JsonDoc, key: str) -> str | None:
    value = r.get(key, str, None)
    if value is not None:
        limits.check_text(r.key_path(key), value)
    return value


def _named(r: JsonDoc) -> tuple[str, str]:
    raw = r.get("name", str)
    limits.check_name(raw)
    return clean_name(raw, "bt")


def _read_pc(r: JsonDoc) -> PC:
    name, key = _named(r)
    max_hp = r.int_("max_hp", lo=1, hi=MAX_HP)
    max_mp = r.int_("max_mp", 0, 0, MAX_HP)
    palette, sheet = r.get("palette", str, None), r.get("sheet", str, None)
    if palette is not None:
        parse_palette(palette)
    check_sheet(sheet)
    return PC(
        name=name,
        key=key,
        owner=r.get("owner", str, None),
        hp=r.int_("hp", max_hp, -MAX_HP, max_hp),
        max_hp=max_hp,
        mp=r.int_("mp", max_mp, 0, max_mp),
        max_mp=max_mp,
        **{f: r.int_(f, 0, *PC_STAT) for f in _PC_STATS},
        palette=palette,
        sheet=sheet,
        acted=r.get("acted", bool, False),
        initiative_total=r.int_("initiative_total", None, *CHECK),
    )


def _read_part(r: JsonDoc, several: bool) -> Part:
    raw = r.get("name", str, "")
    name = raw.strip()
    if several or name:
        limits.check_name(raw)
        name = clean_name(raw, "bt")[0]
    max_hp = r.int_("max_hp", lo=1, hi=MAX_HP)
    max_mp = r.int_("max_mp", 0, 0, MAX_HP)
    return Part(
        name=name,
        hp=r.int_("hp", max_hp, -MAX_HP, max_hp),
        max_hp=max_hp,
        mp=r.int_("mp", max_mp, 0, max_mp),
        max_mp=max_mp,
        defense=r.int_("defense", 0, *MONSTER_VALUE),
        hit=r.int_("hit", None, *MONSTER_VALUE),
        strike=_text(r, "strike"),
        evasion=r.int_("evasion", None, *MONSTER_VALUE),
    )


def _read_monster(r: JsonDoc) -> Monster:
    name, key = _named(r)
    raw_kind = r.get("kind", str, name)
    limits.check_name(raw_kind)
    kind, kind_key = clean_name(raw_kind, "bt")
    raw_parts = r.get("parts", list)
    if not raw_parts:
        raise r.bad("parts", "empty")
    limits.check_count("parts", len(raw_parts), 10)
    parts = tuple(_read_part(r.item("parts", i, p), len(raw_parts) > 1) for i, p in enumerate(raw_parts))
    if len({fold(p.name) for p in parts}) != len(parts):
        raise r.bad("parts", "duplicate_name")
    core = r.int_("core", None, 0, len(parts) - 1)
    return Monster(
        name=name,
        key=key,
        kind=kind,
        kind_key=kind_key,
        parts=parts,
        core=core if len(parts) > 1 else None,
        reputation=r.int_("reputation", 0, *MONSTER_VALUE),
        weakness_value=r.int_("weakness_value", 0, *MONSTER_VALUE),
        weakness=_text(r, "weakness"),
        initiative=r.int_("initiative", 0, *MONSTER_VALUE),
        move=_text(r, "move"),
        fortitude=r.int_("fortitude", None, *MONSTER_VALUE),
        willpower=r.int_("willpower", None, *MONSTER_VALUE),
        level=r.int_("level", None, *MONSTER_VALUE),
        hidden_stats=r.get("hidden_stats", bool, False),
        acted=r.get("acted", bool, False),
    )


def _key_of(state: BattleState, r: JsonDoc, key: str, pcs_only: bool = False) -> str | None:
    """A character's name in the document as its key (refused if no such character)."""
    name = r.get(key, str, None)
    if name is None:
        return None
    who = state.character(fold(name))
    if who is None or (pcs_only and not isinstance(who, PC)):
        raise r.bad(key, "unknown_reference")
    return who.key


def _read_lore(state: BattleState, r: JsonDoc) -> Lore:
    raw_kind = r.get("kind", str)
    kin = next((m for m in state.monsters if m.kind_key == fold(raw_kind)), None)
    if kin is None:
        raise r.bad("kind", "unknown_reference")
    rolled_raw = r.get("rolled", list, [])
    rolled: list[str] = []
    for i, name in enumerate(rolled_raw):
        who = state.character(fold(name)) if isinstance(name, str) else None
        if not isinstance(who, PC):
            raise r.bad("rolled", "unknown_reference", index=i)
        rolled.append(who.key)
    return Lore(
        kind=kin.kind_key,
        name=kin.kind,
        best=r.int_("best", None, *CHECK),
        by=_key_of(state, r, "by", pcs_only=True),
        rolled=tuple(dict.fromkeys(rolled)),
        numbers_revealed=r.get("numbers_revealed", bool, False),
        weakness_revealed=r.get("weakness_revealed", bool, False),
    )


def _read_mods(r: JsonDoc) -> tuple[Mod, ...]:
    mods = [(m.enum("stat", Stat), m.int_("delta", lo=-99, hi=99)) for m in r.items("mods")]
    if len({s for s, _ in mods}) != len(mods) or any(d == 0 for _, d in mods):
        raise r.bad("mods", "invalid")
    return tuple(Mod(s, d) for s, d in mods)


def _read_effect(state: BattleState, r: JsonDoc, round_: int) -> Effect:
    target = _key_of(state, r, "target")
    if target is None:
        raise r.bad("target", "missing")
    who = state.character(target)
    part = r.get("part", str, None)
    if part is not None:
        if not isinstance(who, Monster) or len(who.parts) == 1 or who.part_index(fold(part)) is None:
            raise r.bad("part", "unknown_reference")
        part = fold(part)
    raw_name = r.get("name", str)
    limits.check_name(raw_name)
    rounds = r.int_("rounds", None, 1, MAX_EFFECT_ROUNDS)
    left = r.int_("left", rounds, 1, MAX_EFFECT_ROUNDS)
    if (rounds is None) != (left is None):
        raise r.bad("left", "until_end_mismatch")
    return Effect(
        id=r.int_("id", lo=1, hi=limits.MAX_NUMBER),
        name=clean_name(raw_name, "bt")[0],
        target=target,
        text=_text(r, "text") or "",
        made_round=r.int_("made_round", 0, 0, round_),
        made_side=r.enum("side", Side),
        rounds=rounds,
        left=left,
        part=part,
        by=_key_of(state, r, "by"),
        mods=_read_mods(r),
    )


def _check(state: BattleState) -> BattleState:
    """The invariants an imported battle keeps: unique names and effect ids, the order's fields, limits."""
    keys = [c.key for c in state.characters]
    if len(set(keys)) != len(keys):
        raise _invalid("characters", "duplicate_name")
    ids = [e.id for e in state.effects]
    if len(set(ids)) != len(ids) or (ids and max(ids) >= state.next_effect):
        raise _invalid("effects", "duplicate_id")
    if len({k.kind for k in state.lore}) != len(state.lore):
        raise _invalid("knowledge", "duplicate_kind")
    running = state.phase is Phase.RUNNING
    if (state.phase is Phase.SETUP and (state.round != 0 or state.turn is not None)) or (
        running and (state.round < 1 or state.turn is None or state.first is None)
    ):
        raise _invalid("phase", "order_mismatch")
    check_counts(state)
    return state


def import_state(document: Mapping[str, Any]) -> BattleState:
    """The battle of a ``toride.battle/1`` document (``bt.import_invalid`` if it is not a good one)."""
    try:
        return _read(document)
    except ImportInvalid as invalid:
        raise RuleError(
            "bt.import_invalid", place=invalid.path, reason=invalid.reason, detail=invalid.detail
        ) from None


def _read(document: Mapping[str, Any]) -> BattleState:
    r = JsonDoc(document, "", STYLE)
    if r.get("format", str, None) != FORMAT:
        raise _invalid("format", "wrong_format")
    title = r.get("title", str, "")
    limits.check_text("title", title)
    round_ = r.int_("round", 0, 0, MAX_ROUND)
    base = BattleState(
        title=title,
        phase=r.enum("phase", Phase, Phase.SETUP),
        round=round_,
        turn=r.enum("turn", Side, None),
        first=r.enum("first", Side, None),
        pcs=tuple(_read_pc(p) for p in r.items("pcs")),
        monsters=tuple(_read_monster(m) for m in r.items("monsters")),
        next_effect=r.int_("next_effect", 1, 1, limits.MAX_NUMBER),
    )
    _check(base)
    lore = tuple(_read_lore(base, k) for k in r.items("knowledge"))
    with_lore = replace(base, lore=lore)
    effects = tuple(_read_effect(with_lore, e, round_) for e in r.items("effects"))
    return _check(replace(with_lore, effects=effects))
