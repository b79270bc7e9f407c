"""Character sheets and chat palettes in the fort battle's commands.

``/pc sheet``, ``/pc palette`` and ``/pc roll`` are queries (``Kind.QUERY``): they read the PC first, so that
a player sets and rolls only their own PC's; ``/pc sheet`` and ``/pc palette text:`` then apply an engine
command. ``/pc add`` and ``/unit add`` gain ``sheet:``/``file:`` (and ``part:`` for a monster of several
parts); their builders fill the options a sheet gives before the fort's own builders run. ``/fort export
format:ccfolia`` is the rule set's ``ccfolia`` exporter (engine/fort/ccfolia.py).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from typing import Any

from bot.commands import (
    BuildContext,
    CommandSpec,
    Kind,
    Option,
    OptType,
    QueryContext,
    UserError,
    extended,
    usage,
)
from bot.commands.sheet_source import read_given
from bot.i18n.names import CommandName, OptionName
from bot.rulesets.fort.commands import COMMANDS, check_own_pc
from bot.views import PaletteRollView, PaletteView
from engine.common import fold
from engine.fort import FORT
from engine.fort import commands as fc
from engine.fort.lookup import find_pc, owned_by
from engine.fort.rules_sheets import pc_palette, pc_values, roll_line
from engine.fort.state import PC, FortState
from engine.palette import MAX_CHARS, OwnPalette
from engine.sheets.model import MonsterPart, MonsterSheet, sheet_to_json
from engine.sheets.palette_gen import sheet_variables
from engine.sheets.ytsheet import CharacterRead, mobility_metres

SHEET = Option("sheet", OptType.SHEET)
#: ``/pc palette text:-``: back to the palette generated from the sheet
RESET = frozenset({"-", "none", "なし"})
SHEET_FILE = Option("file", OptType.TEXTFILE)


def _character(values: Mapping[str, Any]) -> CharacterRead | None:
    read = read_given(values)
    if isinstance(read, MonsterSheet):
        raise UserError("sheet.monster_for_pc", name=read.name)
    return read


def _sheet_json(read: CharacterRead) -> str:
    return json.dumps(sheet_to_json(read.sheet), ensure_ascii=False, separators=(",", ":"))


def _own(pc: PC, ctx: QueryContext) -> None:
    check_own_pc(pc, BuildContext(ctx.invoker, ctx.is_gm, ctx.names))


def _pc(state: FortState, values: Mapping[str, Any], ctx: QueryContext) -> PC:
    pc = state.pcs[find_pc(state, values["name"])]
    _own(pc, ctx)
    return pc


# --- /pc sheet, /pc palette, /pc roll ------------------------------------------------------------


def sheet_query(state: FortState, values: Mapping[str, Any], ctx: QueryContext) -> fc.ReadPCSheet:
    """``/pc sheet name: sheet:|file:``: the PC's values from a ゆとシートⅡ character sheet."""
    pc = _pc(state, values, ctx)
    read = _character(values)
    if read is None:
        raise UserError("sheet.required")
    return fc.ReadPCSheet(
        name=pc.name, sheet=_sheet_json(read), hp=read.hp, move=read.move, palette=read.palette
    )


def palette_query(state: FortState, values: Mapping[str, Any], ctx: QueryContext) -> Any:
    """``/pc palette name: [text:] [file:]``: sets the PC's own palette, or shows the one it rolls from."""
    pc = _pc(state, values, ctx)
    text, file = values.get("text"), values.get("file")
    if text is not None and file is not None:
        raise UserError("palette.both_given")
    if text is not None and fold(text) in RESET:
        return fc.SetPCPalette(name=pc.name, text="")
    if text is not None or file is not None:
        # a Discord text option has no new lines: ``\n`` stands for one there
        given = file if file is not None else str(text).replace("\\n", "\n")
        return fc.SetPCPalette(name=pc.name, text=given)
    palette = pc_palette(pc)
    own = {fold(name) for name, _ in palette.variables}
    sheet = [
        (k, v) for k, v in sheet_variables(pc.sheet, pc.hp, pc.max_hp, pc.move).items() if fold(k) not in own
    ]
    return PaletteView(
        ephemeral=True,
        pc=pc.name,
        lines=tuple((line.number, line.label, line.text) for line in palette.lines),
        variables=(*palette.variables, *sheet),
        custom=pc.palette is not None,
        generated=pc.sheet is not None and (pc.palette is None or pc.sheet.palette_insert is not None),
    )


def roll_query(state: FortState, values: Mapping[str, Any], ctx: QueryContext) -> PaletteRollView:
    """``/pc roll name: line: [secret:]``: the line expanded and rolled; nothing in the battle changes.
    (``target:`` is the ordinary battle's: a fort's damage is dealt with ``/attack``.)"""
    if values.get("target") is not None:
        raise UserError("palette.target_not_here")
    pc = _pc(state, values, ctx)
    expanded, result = roll_line(pc, values["line"], ctx.dice)
    return PaletteRollView(
        actor=ctx.invoker,
        pc=pc.name,
        label=expanded.line.label,
        expanded=expanded.command,
        text=result.text,
        secret=bool(values.get("secret")) or result.secret,
        rands=result.rands,
    )


def own_palettes(state: FortState, invoker: str, names: tuple[str, ...]) -> list[OwnPalette]:
    """``/palette`` in a fort battle's channel: the palettes of the PCs the user owns (not those without
    an owner: anyone may run those, but they are no one's own)."""
    out: list[OwnPalette] = []
    for pc in state.pcs:
        if owned_by(pc.owner, invoker, names):
            palette = pc_palette(pc)
            if palette.lines:
                out.append(OwnPalette(pc.name, palette, pc_values(pc)))
    return out


# --- /pc add sheet:, /unit add sheet: --------------------------------------------------------------


def _optional(spec: CommandSpec, *names: str) -> tuple[Option, ...]:
    """``spec``'s options with ``names`` no longer required (Discord lists the required ones first)."""
    return tuple(dataclasses.replace(o, required=False) if o.name in names else o for o in spec.options)


def _missing(spec: CommandSpec, option: str) -> UserError:
    return UserError(
        "command.missing_option",
        command=CommandName(spec.path),
        option=OptionName(option, spec.path),
        usage=usage(spec),
    )


def with_pc_sheet(spec: CommandSpec) -> CommandSpec:
    """``/pc add ... sheet:``: name, HP and 移動力 from the sheet unless given; the sheet and palette kept."""
    base = spec.build
    assert base is not None
    new = dataclasses.replace(spec, options=(*_optional(spec, "name"), SHEET, SHEET_FILE))

    def build(values: Mapping[str, Any], ctx: BuildContext) -> Any:
        read = _character(values)
        rest = {k: v for k, v in values.items() if k not in ("sheet", "file")}
        if read is not None:
            rest["name"] = rest.get("name") or read.name
            rest["hp"] = rest["hp"] if rest.get("hp") is not None else read.hp
            rest["move"] = rest["move"] if rest.get("move") is not None else read.move
            rest["sheet"], rest["palette"] = _sheet_json(read), read.palette
        if not rest.get("name"):
            raise _missing(new, "name")
        return base(rest, ctx)

    return dataclasses.replace(new, build=build)


_DIGIT = re.compile(r"\d")


def pick_part(monster: MonsterSheet, wanted: str | None) -> MonsterPart:
    """The part a unit is made of: the only one, or the one ``part:`` names (its number, 部位 or style)."""
    listing = ", ".join(f"{n}: {p.style}" for n, p in enumerate(monster.parts, 1))
    if wanted is None:
        if len(monster.parts) == 1:
            return monster.parts[0]
        raise UserError("sheet.part_required", name=monster.name, parts=listing)
    key = fold(wanted)
    if key.isdigit() and 1 <= int(key) <= len(monster.parts):
        return monster.parts[int(key) - 1]
    for part in monster.parts:
        if key in (fold(part.part), fold(part.style)):
            return part
    raise UserError("sheet.part_unknown", part=wanted, parts=listing)


#: what a monster sheet gives a unit, unless the option is given
_FROM_MONSTER = ("name", "hp", "defense", "strike", "move")
#: a 弱点 written as none
_NO_WEAKNESS = frozenset({"なし", "無し", "-", "―", "ー", "－", "none"})


def monster_unit(monster: MonsterSheet, part: MonsterPart, unit_type: str | None) -> dict[str, Any]:
    """What one part of a monster sheet gives ``/unit add``: name, HP, 防護点, strike (打撃点), 移動速度
    (the fort rounds it to 10 m and says so), 弱点 (F-UNIT-15), and レベル, 命中力, 回避力 to show; a value
    the sheet does not give is left out. (The sheet → unit conversion the prep page uses too.)"""
    weakness = monster.weakness.strip()
    given = {
        "name": monster.name if len(monster.parts) == 1 else f"{monster.name}（{part.part}）",
        "hp": part.hp,
        "defense": part.defense,
        "strike": part.damage if part.damage and _DIGIT.search(part.damage) else None,
        "move": mobility_metres(monster.mobility, flying=unit_type == "flying"),
        "weakness": weakness if weakness and fold(weakness) not in _NO_WEAKNESS else None,
        "level": monster.level,
        "accuracy": part.accuracy,
        "evasion": part.evasion,
    }
    return {k: v for k, v in given.items() if v is not None and v != ""}


def with_unit_sheet(spec: CommandSpec) -> CommandSpec:
    """``/unit add ... sheet: [part:]``: name, HP, 防護点, strike (打撃点), 移動速度 and 弱点 from a monster
    sheet unless given (``monster_unit``); fort damage and type stay options (a sheet cannot give them)."""
    base = spec.build
    assert base is not None
    # no defaults for what a sheet fills in: a value given (even the default's) is told from none given
    options = tuple(
        dataclasses.replace(o, default=None) if o.name in _FROM_MONSTER else o
        for o in _optional(spec, "name", "hp")
    )
    new = dataclasses.replace(spec, options=(*options, SHEET, SHEET_FILE, Option("part", OptType.STR)))

    def build(values: Mapping[str, Any], ctx: BuildContext) -> Any:
        read = read_given(values)
        rest = {k: v for k, v in values.items() if k not in ("sheet", "file", "part")}
        if isinstance(read, CharacterRead):
            raise UserError("sheet.character_for_unit", name=read.name or read.sheet.source or "file:")
        if read is not None:
            part = pick_part(read, values.get("part"))
            rest.update(
                {k: v for k, v in monster_unit(read, part, values.get("type")).items() if rest.get(k) is None}
            )
        elif values.get("part") is not None:
            raise UserError("sheet.required")
        for option in ("name", "hp"):
            if rest.get(option) in (None, ""):
                raise _missing(new, option)
        # what neither the options nor the sheet gave: the command's own defaults
        return base({k: v for k, v in rest.items() if v is not None or k not in _FROM_MONSTER}, ctx)

    return dataclasses.replace(new, build=build)


# --- the commands ---------------------------------------------------------------------------------

SHEET_COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "pc", "sheet", Kind.QUERY,
        (Option("name", required=True), SHEET, SHEET_FILE),
        ruleset=FORT.name, query=sheet_query,
    ),
    CommandSpec(
        "pc", "palette", Kind.QUERY,
        # a palette in one line: as long as a palette may be (engine.palette), not a free text's 100
        (Option("name", required=True), Option("text", max_len=MAX_CHARS), SHEET_FILE),
        ruleset=FORT.name, query=palette_query,
    ),
    # shared with the ordinary battle (its ``target:``): each rule set answers it (``RuleSet.queries``)
    CommandSpec(
        "pc", "roll", Kind.QUERY,
        (
            Option("name", required=True), Option("line", required=True),
            Option("secret", OptType.BOOL, default=False), Option("target"),
        ),
    ),
)  # fmt: skip

EXPORT_FORMAT = Option("format", OptType.CHOICE, default="toride", choices=("toride", "ccfolia"))


def with_formats(spec: CommandSpec) -> CommandSpec:
    """``/fort export [format:toride|ccfolia]``."""
    return dataclasses.replace(spec, options=(*spec.options, EXPORT_FORMAT))


def with_sheets(commands: tuple[CommandSpec, ...]) -> tuple[CommandSpec, ...]:
    """The fort's ``commands`` with the sheet and palette ones after them, ``sheet:`` on ``/pc add``
    and ``/unit add``, and ``format:`` on ``/fort export``."""
    out = (*commands, *SHEET_COMMANDS)
    changes = (("pc add", with_pc_sheet), ("unit add", with_unit_sheet), ("fort export", with_formats))
    for path, change in changes:
        out = extended(out, path, change)
    return out


#: every command of the fort: its own and the sheet and palette ones
FORT_COMMANDS = with_sheets(COMMANDS)
