"""B-VIEW-2: the boss fight after a fort battle (``/battle start from:fort``). When a fort battle ends
with a commander standing (F-UNIT-12), an ordinary battle begins in its channel with its PCs as they
ended it (HP, sheet, palette, owner), its standing commanders as monsters, and each commander's
war-horn (鼓咆) as an effect on it until the battle ends.

It reads the fort battle's export document (``toride.fort/1``) as stored, never its rules."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from bot.commands import UserError
from engine.battle import commands as bc
from engine.common import ImportInvalid
from engine.sheets.model import sheet_from_json


def _pc(pc: Mapping[str, Any]) -> list[Any]:
    sheet = pc.get("sheet")
    add = bc.AddPC(
        name=str(pc["name"]),
        hp=int(pc.get("max_hp") or pc["hp"]),
        owner=pc.get("owner"),
        palette=pc.get("palette"),
        sheet=None if sheet is None else _json(sheet),
        gm=True,
    )
    steps: list[Any] = [_with_sheet(add, sheet)]
    if int(pc["hp"]) != add.hp:  # as it ended the fort battle
        steps.append(bc.GMSet(target=f"{add.name}.hp", value=str(int(pc["hp"]))))
    return steps


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _with_sheet(add: bc.AddPC, sheet: Any) -> bc.AddPC:
    """The PC's numbers from its sheet, as ``/battle pc sheet:`` reads them."""
    if not isinstance(sheet, Mapping):
        return add
    try:
        read = sheet_from_json(sheet)
    except ImportInvalid:  # a sheet the fort kept but this reader refuses: the PC without its numbers
        return add
    numbers: dict[str, Any] = {
        "mp": read.max_mp if read.max_mp is not None else read.mp,
        "defense": read.defense,
        "evasion": read.evasion,
        "fortitude": read.vit_resist,
        "willpower": read.mnd_resist,
        "initiative": read.initiative,
    }
    return dataclasses.replace(add, **{k: v for k, v in numbers.items() if v is not None})


def from_fort(previous: tuple[str, Mapping[str, Any]] | None) -> tuple[Any, ...]:
    """B-VIEW-2: what the boss fight begins with; ``bt.from_no_fort`` / ``bt.from_no_commander`` if the
    channel's last battle is no fort battle or none of its commanders stands."""
    if previous is None or previous[0] != "fort":
        raise UserError("bt.from_no_fort")
    document = previous[1]
    standing = [c for c in document.get("commanders", []) if int(c.get("hp", 0)) > 0]
    if not standing:
        raise UserError("bt.from_no_commander")
    steps: list[Any] = []
    for pc in document.get("pcs", []):
        steps.extend(_pc(pc))
    for commander in standing:
        name = str(commander["name"])
        steps.append(bc.AddMonster(name=name, parts=(bc.PartSpec(hp=int(commander["max_hp"])),)))
        if int(commander["hp"]) != int(commander["max_hp"]):
            steps.append(bc.GMSet(target=f"{name}.hp", value=str(int(commander["hp"]))))
        horn = commander.get("horn")
        if horn:
            steps.append(bc.EffectAdd(target=name, name=str(horn), rounds="end", by=name, gm=True))
    return tuple(steps)
