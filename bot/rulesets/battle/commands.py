"""The ordinary battle's ``/battle`` commands (BATTLE.md, engine/battle): one engine command class each;
required options, defaults and the (GM) mark come from that class (``rulesets.engine_command``).

A PC (``/battle pc``) or a monster (``/battle monster``) may come from a ゆとシートⅡ sheet (``sheet:`` a URL
the front-end fetched, ``file:`` an attachment): a PC its HP, MP, 防護点, 回避力, 抵抗力, 先制力 and palette;
a monster every part (部位) of its status table, its core, 知名度/弱点値, 弱点, 先制値 and 抵抗力. An option
given beside a sheet wins over the sheet's value.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Mapping
from typing import Any

from bot.commands import (
    BuildContext,
    CommandSpec,
    Kind,
    Option,
    OptType,
    UserError,
    engine_command,
    ruleset_lifecycle,
    usage,
)
from bot.commands.sheet_source import read_given
from bot.i18n.names import CommandName, OptionList, OptionName
from bot.rulesets.battle.from_fort import from_fort
from engine.battle import BATTLE
from engine.battle import commands as bc
from engine.battle.state import DamageKind, Element, Side
from engine.common import Command, fold
from engine.sheets.model import MonsterSheet, sheet_to_json
from engine.sheets.ytsheet import CharacterRead

GROUP = "battle"
#: the options that name a character of the battle (autocomplete: ``bot.rulesets.battle.names``)
CHARACTER_OPTIONS = frozenset({"name", "by", "target"})


def _o(name: str, type_: OptType = OptType.STR, **kw: Any) -> Option:
    return Option(name, type_, **kw)


def _command(
    name: str,
    cls: type[Command],
    *options: Option,
    kind: Kind = Kind.ENGINE,
    renames: Mapping[str, str] | None = None,
) -> CommandSpec:
    spec = engine_command(BATTLE.name, GROUP, name, cls, *options, kind=kind, renames=renames)
    if "gm" not in {f.name for f in dataclasses.fields(cls)}:
        return spec
    build = spec.build
    assert build is not None

    def with_gm(values: Mapping[str, Any], ctx: BuildContext) -> Command:
        """Whether a GM runs it, never an option: whose turn it is and who owns what are the rules'
        (B-INIT-2, B-DMG-4)."""
        command: Any = build(values, ctx)
        return typing.cast(Command, dataclasses.replace(command, gm=ctx.is_gm))

    return dataclasses.replace(spec, build=with_gm)


def _missing(spec: CommandSpec, option: str) -> UserError:
    return UserError(
        "command.missing_option", command=CommandName(spec.path), option=OptionName(option, spec.path),
        usage=usage(spec),
    )  # fmt: skip


def _optional(spec: CommandSpec, *names: str) -> CommandSpec:
    """``names`` may be left out though the engine class has no default for them: a sheet gives them."""
    options = tuple(
        dataclasses.replace(o, required=False, default=None) if o.name in names else o for o in spec.options
    )
    return dataclasses.replace(spec, options=options)


_SHEET = _o("sheet", OptType.SHEET)
_FILE = _o("file", OptType.TEXTFILE)
_STAT = {"min": -99, "max": 999}
_PC_STATS = ("mp", "defense", "evasion", "fortitude", "willpower", "initiative")


# --- /battle pc -----------------------------------------------------------------------------------


def _pc_from_sheet(read: CharacterRead) -> dict[str, Any]:
    """B-CHAR-1: what a ゆとシートⅡ PC sheet gives ``/battle pc``."""
    sheet = read.sheet
    given = {
        "name": read.name,
        "hp": read.hp,
        "mp": sheet.max_mp if sheet.max_mp is not None else sheet.mp,
        "defense": sheet.defense,
        "evasion": sheet.evasion,
        "fortitude": sheet.vit_resist,
        "willpower": sheet.mnd_resist,
        "initiative": sheet.initiative,
        "palette": read.palette,
        "sheet": json.dumps(sheet_to_json(sheet), ensure_ascii=False, separators=(",", ":")),
    }
    return {k: v for k, v in given.items() if v is not None}


def _pc_builder(spec: CommandSpec) -> CommandSpec:
    base = spec.build
    assert base is not None
    # no defaults for what a sheet gives: a value given (even the default's) is told from none given
    optional = _optional(spec, "name", "hp", *_PC_STATS)
    new = dataclasses.replace(optional, options=(*optional.options, _SHEET, _FILE))

    def build(values: Mapping[str, Any], ctx: BuildContext) -> Any:
        read = read_given(values)
        rest = {k: v for k, v in values.items() if k not in ("sheet", "file") and v is not None}
        if isinstance(read, MonsterSheet):
            raise UserError("sheet.monster_for_pc", name=read.name)
        if read is not None:
            rest = {**_pc_from_sheet(read), **rest}
        for option in ("name", "hp"):
            if rest.get(option) in (None, ""):
                raise _missing(new, option)
        owner = rest.get("owner")
        if owner is not None and owner != ctx.invoker and not ctx.is_gm:
            raise UserError("service.owner_gm_only")
        rest["owner"] = owner or ctx.invoker
        return base(rest, ctx)

    return dataclasses.replace(new, build=build)


# --- /battle monster ------------------------------------------------------------------------------

_HAND = ("hp", "mp", "defense", "hit", "strike", "evasion")


def monster_parts(monster: MonsterSheet) -> tuple[tuple[bc.PartSpec, ...], int | None]:
    """B-CHAR-2: every part of a monster sheet (rows of one part — two attacks of the 頭部 — as one
    part: its first row's HP and 防護点, the row's strike), and the index of its core among them."""
    parts: list[bc.PartSpec] = []
    seen: dict[str, int] = {}
    core: int | None = None
    single = len({fold(p.part or p.style) for p in monster.parts}) == 1
    for row in monster.parts:
        name = row.part or row.style
        key = fold(name)
        if key in seen:
            continue
        seen[key] = len(parts)
        if monster.is_core(row):
            core = len(parts)
        parts.append(
            bc.PartSpec(
                hp=row.hp if row.hp is not None else 1, name="" if single else name, mp=row.mp or 0,
                defense=row.defense or 0, hit=row.accuracy, strike=row.damage, evasion=row.evasion,
            )
        )  # fmt: skip
    return tuple(parts), core if len(parts) > 1 else None


def _monster_from_sheet(monster: MonsterSheet) -> dict[str, Any]:
    parts, core = monster_parts(monster)
    given = {
        "name": monster.name,
        "parts": parts,
        "core": core,
        "reputation": monster.reputation,
        "weakness_value": monster.weakness_value,
        "weakness": monster.stated_weakness,
        "initiative": monster.initiative,
        "move": monster.mobility or None,
        "fortitude": monster.vit_resist,
        "willpower": monster.mnd_resist,
        "level": monster.level,
    }
    return {k: v for k, v in given.items() if v is not None}


def _monster_builder(spec: CommandSpec) -> CommandSpec:
    base = spec.build
    assert base is not None
    hand = (
        _o("hp", OptType.INT, min=1, max=9999), _o("mp", OptType.INT, min=0, max=9999),
        _o("defense", OptType.INT, **_STAT), _o("hit", OptType.INT, **_STAT), _o("strike"),
        _o("evasion", OptType.INT, **_STAT),
    )  # fmt: skip
    kept = tuple(dataclasses.replace(o, required=False, default=None) for o in spec.options)
    new = dataclasses.replace(spec, options=(*kept, *hand, _SHEET, _FILE))

    def build(values: Mapping[str, Any], ctx: BuildContext) -> Any:
        read = read_given(values)
        rest = {k: v for k, v in values.items() if k not in ("sheet", "file", *_HAND) and v is not None}
        hand_given = {k: values[k] for k in _HAND if values.get(k) is not None}
        if isinstance(read, CharacterRead):
            raise UserError("sheet.character_for_unit", name=read.name or read.sheet.source or "file:")
        if read is not None:
            rest = {**_monster_from_sheet(read), **rest}
            if hand_given:  # a number given by hand: the only part's (a monster of one part)
                parts = rest["parts"]
                if len(parts) > 1:
                    raise UserError(
                        "bt.hand_with_parts",
                        name=rest["name"],
                        options=OptionList(spec.path, tuple(hand_given)),
                    )
                rest["parts"] = (dataclasses.replace(parts[0], **_part_fields(hand_given)),)
        else:
            if "hp" not in hand_given:
                raise _missing(new, "hp")
            rest["parts"] = (bc.PartSpec(**_part_fields(hand_given)),)
        if not rest.get("name"):
            raise _missing(new, "name")
        return base(rest, ctx)

    return dataclasses.replace(new, build=build)


def _part_fields(given: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in given.items() if k in ("hp", "mp", "defense", "hit", "strike", "evasion")}


# --- the commands ---------------------------------------------------------------------------------


def _reads() -> tuple[CommandSpec, ...]:
    """``status``, ``log``, ``export``, ``import``; ``gm:true`` on the first two shows the GM all (B-KNOW-1),
    to them only."""
    gm = _o("gm", OptType.BOOL, default=False)
    return tuple(
        dataclasses.replace(spec, options=(*spec.options, gm)) if spec.name in ("status", "log") else spec
        for spec in ruleset_lifecycle(GROUP, BATTLE.name)
    )


_NAME = _o("name")
_KIND = _o("kind", OptType.CHOICE, choices=tuple(k.value for k in DamageKind))
_ELEMENT = _o("element", OptType.CHOICE, choices=tuple(e.value for e in Element))
_RESISTED = _o("resisted")  # one word for every target, or one a target (``half,full``)
_FIRST = _o("first", OptType.CHOICE, choices=tuple(s.value for s in Side))


def _start_builder(spec: CommandSpec) -> CommandSpec:
    """``/battle start [from:fort]``: B-VIEW-2, the boss fight where the channel's fort battle ended."""
    base = spec.build
    assert base is not None
    new = dataclasses.replace(spec, options=(*spec.options, _o("from", OptType.CHOICE, choices=("fort",))))

    def build(values: Mapping[str, Any], ctx: BuildContext) -> Any:
        rest = {k: v for k, v in values.items() if k != "from"}
        command = base(rest, ctx)
        if values.get("from") is None:
            return command
        return dataclasses.replace(command, setup=from_fort(ctx.previous))

    return dataclasses.replace(new, build=build)


COMMANDS: tuple[CommandSpec, ...] = (
    _start_builder(_command("start", bc.Start, _o("title"), _FIRST, kind=Kind.START)),
    _pc_builder(
        _command(
            "pc",
            bc.AddPC,
            _NAME,
            _o("hp", OptType.INT, min=1, max=9999),
            *(_o(s, OptType.INT, **_STAT) for s in _PC_STATS),
            _o("owner", OptType.USER),
        )
    ),
    _monster_builder(
        _command(
            "monster",
            bc.AddMonster,
            _NAME,
            _o("count", OptType.INT, min=1, max=26),
            _o("reputation", OptType.INT, **_STAT),
            _o("weakness_value", OptType.INT, **_STAT),
            _o("weakness"),
            _o("initiative", OptType.INT, **_STAT),
            _o("fortitude", OptType.INT, **_STAT),
            _o("willpower", OptType.INT, **_STAT),
            _o("level", OptType.INT, min=0, max=99),
            _o("move"),
            _o("hidden_stats", OptType.BOOL),
        )
    ),
    _command("knowledge", bc.Knowledge, _NAME, _o("monster"), _o("check"), renames={"check": "total"}),
    _command("initiative", bc.Initiative, _NAME, _o("check"), renames={"check": "total"}),
    _command(
        "damage",
        bc.Damage,
        _o("targets"),
        _o("amount"),
        _KIND,
        _ELEMENT,
        _RESISTED,
        _o("by"),
    ),
    _command("heal", bc.Heal, _o("targets"), _o("amount"), _o("by")),
    _command("mp", bc.MP, _NAME, _o("delta", OptType.INT, min=-9999, max=9999)),
    _command(
        "effect",
        bc.EffectAdd,
        _o("target"),
        _NAME,
        _o("rounds"),
        _o("text"),
        _o("mod"),
        _o("by"),
    ),
    _command("clear", bc.EffectEnd, _o("target"), _NAME),
    _command("extend", bc.EffectExtend, _o("target"), _NAME, _o("rounds", OptType.INT, min=-99, max=99)),
    _command("act", bc.Act, _NAME, _o("acted", OptType.BOOL)),
    _command(
        "reveal",
        bc.Reveal,
        _o("monster"),
        _o("numbers", OptType.BOOL),
        _o("weakness", OptType.BOOL),
    ),
    _command("next", bc.Next),
    _command("end", bc.End),
    *_reads(),
)
