"""PCs from character sheets, and their chat palettes: reading a sheet into a PC, setting a palette, a
palette line rolled, and the GM's overrides of sheet values (``/gm set pc.<name>.<value>``).

Not a rule of the fort battle: a convenience around it, so nothing here cites an F- rule.
"""

from __future__ import annotations

import dataclasses
import json
import re
import unicodedata
from typing import Any

from engine import limits
from engine.common import ImportInvalid, fold
from engine.dice import DiceSource, RollResult
from engine.fort.commands import ReadPCSheet, SetPCPalette
from engine.fort.context import Context
from engine.fort.lookup import find_pc, set_pc
from engine.fort.state import PC, FortState, evolve
from engine.palette import Expanded, Palette, parse_palette
from engine.palette import roll_line as palette_roll_line
from engine.ruleset import RuleError
from engine.sheets.model import MAX_VALUE, PCSheet, sheet_from_json
from engine.sheets.palette_gen import combined_palette, sheet_variables


def decode_sheet(text: str) -> PCSheet:
    """A command's sheet (``sheet_to_json`` as JSON text); ``fort.sheet_invalid`` if it is not one."""
    try:
        raw = json.loads(text)
    except ValueError:
        raise RuleError("fort.sheet_invalid", reason="not_json") from None
    try:
        return sheet_from_json(raw)
    except ImportInvalid as invalid:
        raise RuleError(
            "fort.sheet_invalid", place=invalid.path, reason=invalid.reason, detail=invalid.detail
        ) from None


def _clean_palette(text: str | None) -> str | None:
    if text is None or not text.strip():
        return None
    parse_palette(text)  # refuses a palette past the limits
    return text.strip("\n")


def sheet_event(pc: PC) -> dict[str, Any]:
    """What a sheet gave the PC, for the event that says so."""
    sheet = pc.sheet or PCSheet()
    return {
        "pc": pc.name,
        "source": sheet.source,
        "hp": pc.hp,
        "max_hp": pc.max_hp,
        "mp": sheet.mp,
        "max_mp": sheet.max_mp,
        "defense": sheet.defense,
        "evasion": sheet.evasion,
        "vit_resist": sheet.vit_resist,
        "mnd_resist": sheet.mnd_resist,
        "initiative": sheet.initiative,
        "move": pc.move,
        "weapons": [
            {"name": w.name, "usage": w.usage, "acc": w.acc, "rate": w.rate, "crit": w.crit, "dmg": w.dmg}
            for w in sheet.weapons
        ],
        "lines": len(pc_palette(pc).lines),
        "custom": pc.palette is not None,
    }


def with_sheet(pc: PC, sheet: PCSheet, hp: int | None, move: int | None, palette: str | None) -> PC:
    """The PC with a sheet (read again: HP and MP already tracked keep their value, never above the new
    maximum). A sheet without a palette of its own keeps the palette the PC has."""
    if pc.sheet is not None and pc.sheet.mp is not None and sheet.max_mp is not None:
        sheet = dataclasses.replace(sheet, mp=min(pc.sheet.mp, sheet.max_mp))
    current = hp if pc.hp is None or hp is None else min(pc.hp, hp)
    own = _clean_palette(palette)
    parse_palette(combined_palette(sheet, own if own is not None else pc.palette, hp))  # within the limits
    return evolve(
        pc,
        hp=current if hp is not None else pc.hp,
        max_hp=hp if hp is not None else pc.max_hp,
        move=move if move is not None else pc.move,
        sheet=sheet,
        palette=own if own is not None else pc.palette,
    )


def read_pc_sheet(ctx: Context, state: FortState, cmd: ReadPCSheet) -> FortState:
    """``/pc sheet``: the PC's HP, MP, 防護点, 回避力, resistances, 先制力, 移動力, weapons and palette."""
    i = find_pc(state, cmd.name)
    limits.check_number("hp", cmd.hp, 1, limits.MAX_HP)
    limits.check_number("move", cmd.move, 0, limits.MAX_NUMBER)
    pc = with_sheet(state.pcs[i], decode_sheet(cmd.sheet), cmd.hp, cmd.move, cmd.palette)
    ctx.emit("pc.sheet_read", sheet_event(pc))
    return set_pc(state, i, pc)


def set_pc_palette(ctx: Context, state: FortState, cmd: SetPCPalette) -> FortState:
    """``/pc palette text:``: the PC's own palette; an empty text goes back to the generated one."""
    i = find_pc(state, cmd.name)
    pc = evolve(state.pcs[i], palette=_clean_palette(cmd.text))
    pc_palette(pc)  # the palette it rolls from, with the sheet's, within the limits
    ctx.emit(
        "pc.palette_set",
        {"pc": pc.name, "lines": len(pc_palette(pc).lines), "custom": pc.palette is not None},
    )
    return set_pc(state, i, pc)


# --- rolling -------------------------------------------------------------------------------------


def pc_palette(pc: PC) -> Palette:
    """What the PC rolls from: its own palette and/or the one generated from its sheet."""
    return parse_palette(combined_palette(pc.sheet, pc.palette, pc.max_hp))


def pc_values(pc: PC) -> dict[str, str]:
    """The PC's values a palette may name (folded names): its sheet's, and HP, MP, 移動力 as they are now."""
    return {fold(k): v for k, v in sheet_variables(pc.sheet, pc.hp, pc.max_hp, pc.move).items()}


def roll_line(pc: PC, selector: str, dice: DiceSource) -> tuple[Expanded, RollResult]:
    """``/pc roll line:``: the line expanded, and BCDice's roll of it (``palette.not_a_command`` if it is
    not a command)."""
    return palette_roll_line(pc_palette(pc), selector, pc_values(pc), dice)


# --- /gm set pc.<name>.<value> -----------------------------------------------------------------------

_TOTALS = {
    "level": "level", "冒険者レベル": "level",
    "mp": "mp", "max_mp": "max_mp", "最大mp": "max_mp",
    "vit_resist": "vit_resist", "生命抵抗": "vit_resist",
    "mnd_resist": "mnd_resist", "精神抵抗": "mnd_resist",
    "initiative": "initiative", "先制力": "initiative",
    "monster_lore": "monster_lore", "魔物知識": "monster_lore",
}  # fmt: skip
_DEFENCE = re.compile(r"^(evasion|defense|回避|防護)(\d*)$")
_WEAPON = re.compile(r"^(?:(命中|威力|c値|追加d|武器)(\d+)|weapon(\d+)_(acc|rate|crit|dmg|name))$")
_WEAPON_FIELDS = {"命中": "acc", "威力": "rate", "c値": "crit", "追加d": "dmg", "武器": "name"}


def _number(value: str) -> int | None:
    text = unicodedata.normalize("NFKC", value).strip().replace("−", "-")
    if fold(text) in ("none", "null", "-", ""):
        return None
    number = limits.parse_int(text)
    if number is None or abs(number) > MAX_VALUE:
        raise ValueError("sheet_not_a_number")
    return number


def _one(field: str, value: Any) -> dict[str, Any]:
    return {field: value}


def _without_formula(sheet: PCSheet, name: str) -> PCSheet:
    """The sheet with the palette's definition of ``name`` its number from now on, not ゆとシート's
    formula."""
    return dataclasses.replace(sheet, formulas=tuple((k, v) for k, v in sheet.formulas if k != name))


_FORMULA_OF = {"vit_resist": "生命抵抗", "mnd_resist": "精神抵抗"}


def set_sheet_value(pc: PC, attr: str, value: str) -> tuple[Any, Any, PC]:
    """One sheet value of ``pc`` set: a total (``mp``, ``evasion``, ``生命抵抗`` ...), a weapon's (``命中1``,
    ``weapon1_rate``), or any other value a palette names (``器用度``). Raises ``ValueError(reason)`` for a
    value that does not fit, ``fort.gm_set_target_unknown`` for a name the sheet does not have. A value
    ゆとシート writes as a formula is the number set from then on."""
    old, new, changed = _set_sheet_value(pc, attr, value)
    sheet = changed.sheet
    assert sheet is not None and pc.sheet is not None
    for name, _ in pc.sheet.formulas:
        if _names_value(pc.sheet, sheet, name):
            sheet = _without_formula(sheet, name)
    return old, new, evolve(changed, sheet=sheet)


def _names_value(before: PCSheet, after: PCSheet, name: str) -> bool:
    """Whether the value ``name`` stands for in the palette is one the GM changed."""
    for field, formula in _FORMULA_OF.items():
        if formula == name:
            return bool(getattr(before, field) != getattr(after, field))
    for n, (old, new) in enumerate(zip(before.weapons, after.weapons, strict=True), 1):
        row = old.row or n
        if old != new and name in (f"命中{row}", f"追加D{row}"):
            return (old.acc != new.acc) if name.startswith("命中") else (old.dmg != new.dmg)
    for i, (old_d, new_d) in enumerate(zip(before.defences, after.defences, strict=True), 1):
        if name == f"回避{old_d.row or i}" and old_d.evasion != new_d.evasion:
            return True
    return before.value(name) != after.value(name)


def _set_sheet_value(pc: PC, attr: str, value: str) -> tuple[Any, Any, PC]:
    key = fold(attr)
    sheet = pc.sheet
    if sheet is None:
        raise ValueError("sheet_missing")
    if key in _TOTALS:
        field = _TOTALS[key]
        number = _number(value)
        new = dataclasses.replace(sheet, **_one(field, number))
        if new.mp is not None and new.max_mp is not None and new.mp > new.max_mp:
            raise ValueError("sheet_above_max")
        return getattr(sheet, field), number, evolve(pc, sheet=new)
    found = _DEFENCE.match(key)
    if found:
        column = int(found.group(2) or 1) - 1
        field = "evasion" if found.group(1) in ("evasion", "回避") else "defense"
        if not 0 <= column < len(sheet.defences):
            raise ValueError("sheet_no_such_column")
        number = _number(value)
        old = sheet.defences[column]
        defences = (
            *sheet.defences[:column],
            dataclasses.replace(old, **_one(field, number)),
            *sheet.defences[column + 1 :],
        )
        return getattr(old, field), number, evolve(pc, sheet=dataclasses.replace(sheet, defences=defences))
    found = _WEAPON.match(key)
    if found:
        n = int(found.group(2) or found.group(3)) - 1
        field = _WEAPON_FIELDS[found.group(1)] if found.group(1) else found.group(4)
        if not 0 <= n < len(sheet.weapons):
            raise ValueError("sheet_no_such_weapon")
        weapon = sheet.weapons[n]
        new_value: Any = unicodedata.normalize("NFKC", value).strip() if field == "name" else _number(value)
        if field == "name" and limits.text_problem(new_value, limits.TEXT_MAX) is not None:
            raise ValueError("sheet_bad_text")
        weapons = (
            *sheet.weapons[:n],
            dataclasses.replace(weapon, **_one(field, new_value)),
            *sheet.weapons[n + 1 :],
        )
        return (
            getattr(weapon, field),
            new_value,
            evolve(pc, sheet=dataclasses.replace(sheet, weapons=weapons)),
        )
    for i, (name, old_number) in enumerate(sheet.values):
        if fold(name) == key:
            number = _number(value)
            if number is None:
                raise ValueError("sheet_not_a_number")
            values = (*sheet.values[:i], (name, number), *sheet.values[i + 1 :])
            return old_number, number, evolve(pc, sheet=dataclasses.replace(sheet, values=values))
    raise RuleError("fort.gm_set_target_unknown", target=f"pc.{pc.name}.{attr}")
