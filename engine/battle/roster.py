"""The battle and who is in it: start (B-INIT-1), PCs (B-CHAR-1) and monsters (B-CHAR-2)."""

from __future__ import annotations

import json
import string
from dataclasses import replace
from typing import Any

from engine import limits
from engine.common import EventRecorder, clean_name
from engine.limits import MAX_HP
from engine.palette import parse_palette
from engine.ruleset import RuleError

from .commands import AddMonster, AddPC, PartSpec, Start
from .knowledge import GM_ONLY, knows_numbers
from .ranges import MAX_CHARACTERS, MAX_PARTS, MONSTER_VALUE, PC_STAT, SHEET_MAX, check_range
from .state import PC, BattleState, Lore, Monster, Part
from .words import parse_side

#: B-CHAR-2: ``count:3`` names ゴブリンA, ゴブリンB, ゴブリンC
LETTERS = string.ascii_uppercase


def start(state: BattleState | None, command: Start, rec: EventRecorder) -> BattleState:
    """B-INIT-1: a battle starts before its first turn; the GM may set the side that acts first."""
    if state is not None and not state.ended:
        raise RuleError("bt.already_running", title=state.title)
    limits.check_text("title", command.title)
    first = parse_side(command.first) if command.first is not None and command.first.strip() else None
    title = command.title.strip()
    rec.emit("bt.started", {"title": title, "first": first.value if first else None})
    return BattleState(title=title, first=first)


def new_name(state: BattleState, name: str) -> tuple[str, str]:
    """A character's name as stored and its key: 1-32 characters, no other character's."""
    limits.check_name(name)
    shown, key = clean_name(name, "bt")
    if state.character(key) is not None:
        raise RuleError("bt.name_taken", about="name", name=shown)
    return shown, key


def check_sheet(sheet: str | None) -> None:
    """B-CHAR-1: the sheet read, as JSON text of an object."""
    if sheet is None:
        return
    try:
        ok = len(sheet) <= SHEET_MAX and isinstance(json.loads(sheet), dict)
    except ValueError:
        ok = False
    if not ok:
        raise RuleError("bt.sheet_invalid", about="sheet", max=SHEET_MAX)


def add_pc(state: BattleState, command: AddPC, rec: EventRecorder) -> BattleState:
    """B-CHAR-1: a PC, given by hand or read from a sheet; its owner is the player who added it."""
    # An NPC ally is a PC the GM owns: the GM names its owner (themself).
    name, key = new_name(state, command.name)
    limits.check_count("characters", len(state.characters) + 1, MAX_CHARACTERS)
    owner = command.owner if command.owner is not None else command.invoker
    if owner != command.invoker and not command.gm:
        raise RuleError("bt.owner_gm_only", about="owner", name=name)
    check_range("hp", command.hp, (1, MAX_HP))
    check_range("mp", command.mp, (0, MAX_HP))
    stats = ("defense", "evasion", "fortitude", "willpower", "initiative")
    for field in stats:
        check_range(field, getattr(command, field), PC_STAT)
    if command.palette is not None:
        parse_palette(command.palette)
    check_sheet(command.sheet)
    pc = PC(
        name=name,
        key=key,
        owner=owner,
        hp=command.hp,
        max_hp=command.hp,
        mp=command.mp,
        max_mp=command.mp,
        defense=command.defense,
        evasion=command.evasion,
        fortitude=command.fortitude,
        willpower=command.willpower,
        initiative=command.initiative,
        palette=command.palette or None,
        sheet=command.sheet,
    )
    data: dict[str, Any] = {"name": name, "owner": owner, "hp": pc.hp, "mp": pc.mp}
    data |= {field: getattr(pc, field) for field in stats}
    rec.emit("bt.pc_added", {**data, "sheet": pc.sheet is not None, "palette": pc.palette is not None})
    return replace(state, pcs=(*state.pcs, pc))


def monster_names(state: BattleState, name: str, key: str, count: int) -> list[str]:
    """B-CHAR-2: one monster keeps its name; ``count`` of them are ``<name>A``, ``<name>B`` ..."""
    # The first letters no other character has.
    if not 1 <= count <= len(LETTERS):
        raise RuleError("bt.count_invalid", about="count", count=count, max=len(LETTERS))
    if count == 1:
        if state.character(key) is not None:
            raise RuleError("bt.name_taken", about="name", name=name)
        return [name]
    free = [f"{name}{c}" for c in LETTERS if state.character(clean_name(f"{name}{c}", "bt")[1]) is None]
    if len(free) < count:
        raise RuleError("bt.count_invalid", about="count", count=count, max=len(free))
    for each in free[:count]:
        limits.check_name(each)
    return free[:count]


def make_parts(command: AddMonster) -> tuple[tuple[Part, ...], int | None]:
    """B-CHAR-2: the parts (at least one, at most 10, each named when there are several) and the core."""
    specs: tuple[PartSpec, ...] = command.parts
    if not specs:
        raise RuleError("bt.parts_required", about="parts", name=command.name)
    limits.check_count("parts", len(specs), MAX_PARTS)
    several = len(specs) > 1
    if command.core is not None and not 0 <= command.core < len(specs):
        raise RuleError("bt.core_invalid", about="core", core=command.core, parts=len(specs))
    parts: list[Part] = []
    for spec in specs:
        part_name = spec.name.strip()
        if several or part_name:
            limits.check_name(spec.name)
            part_name = clean_name(spec.name, "bt")[0]
        if any(p.name.casefold() == part_name.casefold() for p in parts):
            raise RuleError("bt.part_twice", about="parts", part=part_name)
        check_range("hp", spec.hp, (1, MAX_HP))
        check_range("mp", spec.mp, (0, MAX_HP))
        for field in ("defense", "hit", "evasion"):
            check_range(field, getattr(spec, field), MONSTER_VALUE)
        if spec.strike is not None:
            limits.check_text("strike", spec.strike)
        parts.append(
            Part(
                name=part_name,
                hp=spec.hp,
                max_hp=spec.hp,
                mp=spec.mp,
                max_mp=spec.mp,
                defense=spec.defense,
                hit=spec.hit,
                strike=spec.strike.strip() if spec.strike else None,
                evasion=spec.evasion,
            )
        )
    return tuple(parts), command.core if several else None


def add_monster(state: BattleState, command: AddMonster, rec: EventRecorder) -> BattleState:
    """B-CHAR-2: a monster (``count`` of them) with its 知名度, 弱点値, 弱点, 先制値 ... and parts."""
    # The table reads its names and parts' names; its numbers only once it knows the kind (B-KNOW-1).
    limits.check_name(command.name)
    kind, kind_key = clean_name(command.name, "bt")
    names = monster_names(state, kind, kind_key, command.count)
    limits.check_count("characters", len(state.characters) + len(names), MAX_CHARACTERS)
    parts, core = make_parts(command)
    values = ("reputation", "weakness_value", "initiative", "fortitude", "willpower", "level")
    for field in values:
        check_range(field, getattr(command, field), MONSTER_VALUE)
    for field in ("weakness", "move"):
        text = getattr(command, field)
        if text is not None:
            limits.check_text(field, text)
    made = tuple(
        Monster(
            name=name,
            key=clean_name(name, "bt")[1],
            kind=kind,
            kind_key=kind_key,
            parts=parts,
            core=core,
            reputation=command.reputation,
            weakness_value=command.weakness_value,
            weakness=command.weakness.strip() or None if command.weakness is not None else None,
            initiative=command.initiative,
            move=command.move.strip() or None if command.move is not None else None,
            fortitude=command.fortitude,
            willpower=command.willpower,
            level=command.level,
            hidden_stats=command.hidden_stats,
        )
        for name in names
    )
    new = replace(state, monsters=(*state.monsters, *made))
    if all(k.kind != kind_key for k in new.lore):
        new = new.with_lore(Lore(kind_key, kind))
    first = made[0]
    rec.emit(
        "bt.monster_added",
        {"names": names, "kind": kind, "parts": [p.name for p in parts], "known": knows_numbers(new, first)},
    )
    stats: dict[str, Any] = {field: getattr(first, field) for field in (*values, "weakness", "move")}
    rec.emit(
        "bt.monster_stats",
        {
            "names": names,
            "kind": kind,
            **stats,
            "core": core,
            "hidden_stats": first.hidden_stats,
            "parts": [part_record(p) for p in parts],
        },
        None if knows_numbers(new, first) else GM_ONLY,
    )
    return new


def part_record(p: Part) -> dict[str, Any]:
    return {
        "name": p.name,
        "hp": p.hp,
        "max_hp": p.max_hp,
        "mp": p.mp,
        "max_mp": p.max_mp,
        "defense": p.defense,
        "hit": p.hit,
        "strike": p.strike,
        "evasion": p.evasion,
    }
