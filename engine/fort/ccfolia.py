"""A battle's PCs, units and commanders as ココフォリア clipboard characters
(``/fort export format:ccfolia``).

ココフォリア's Clipboard API (docs.ccfolia.com, developer-api/clipboard-api) takes one JSON text per paste:
``{"kind": "character", "data": {...}}`` with ``data`` a partial ``Character``: ``name``, ``memo``,
``initiative`` (number), ``externalUrl``, ``status`` (``{label, value, max}``, numbers), ``params``
(``{label, value}``, text), ``commands`` (the chat palette). Labels are the names palettes use
(``{HP}``, ``{防護}``, ``{命中1}``), so they are the game's own words, not translated. A PC's palette and
params are those of ゆとシートⅡ's own ココフォリア output: its palette with every definition, the
``//変数=数`` lines of plain arithmetic as params and the others in ``commands``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine.fort.map import Area
from engine.fort.state import PC, Commander, FortState, Unit
from engine.sheets.classes import CLASSES, CRAFT_IDS
from engine.sheets.palette_gen import sheet_variables, ytsheet_palette

#: a definition ココフォリア holds as a param: plain arithmetic or nothing (ゆとシート's
#: separateParametersFromChatPalette)
_PARAM = re.compile(r"^//(.+)=([0-9+\-/*]+)?$")
#: the params ゆとシート's ココフォリア output leaves out (generateCcfoliaJsonOfSwordWorld2PC)
_DROPPED = re.compile(r"^(?:(?:威力|C値|防護)[0-9]|最大[MH]P)$")
_CASTING = frozenset({"魔力修正", "行使修正", "魔法C", "魔法D修正"})
#: the values a character's status shows rather than its params
_STATUS = ("HP", "最大HP", "MP", "最大MP", "防護")
_PLACE = {"top": "砦上部", "inside": "砦内部", "outside": "砦外部"}
_TYPE = {"normal": "通常", "ram": "破城槌", "flying": "飛行", "soldier": "兵士"}


def _status(label: str, value: int | None, maximum: int | None = None) -> list[dict[str, Any]]:
    if value is None:
        return []
    return [{"label": label, "value": value, "max": maximum if maximum is not None else value}]


def _character(name: str, **data: Any) -> dict[str, Any]:
    return {"kind": "character", "data": {"name": name, **data}}


def _place(area: Area, position: str | None) -> str:
    return f"{area.value} {_PLACE[position]}" if position else area.value


def _split_palette(text: str) -> tuple[str, list[dict[str, str]]]:
    """The palette without its plain definitions, and those definitions as params."""
    lines, params = [], []
    for line in text.split("\n"):
        found = _PARAM.match(line)
        if found:
            params.append({"label": found.group(1), "value": found.group(2) or ""})
        else:
            lines.append(line)
    return "\n".join(lines), params


def pc_character(pc: PC) -> dict[str, Any]:
    """A PC as ゆとシート's own ココフォリア output makes it from its sheet (its palette with every
    definition, the plain ones as params), with the HP, MP and 防護 it has now, its 先制力 as initiative
    and its place in the battle as memo."""
    sheet = pc.sheet
    palette = ytsheet_palette(sheet, pc.palette, pc.max_hp, all_properties=True)
    commands, defined = _split_palette(palette)
    casting = sheet is not None and any(
        sheet.value(c.name) for c in CLASSES if c.magic and c.id not in CRAFT_IDS
    )
    params = [
        p for p in defined if not _DROPPED.match(p["label"]) and (casting or p["label"] not in _CASTING)
    ]
    names = {p["label"] for p in defined}
    if sheet is None:
        extra = sheet_variables(None, pc.hp, pc.max_hp, pc.move)
    else:
        extra = {"移動力": str(pc.move)} if pc.move is not None else {}
    params += [{"label": k, "value": v} for k, v in extra.items() if k not in _STATUS and k not in names]
    memo = [f"PC／{_place(pc.area, pc.position.value if pc.position else None)}"]
    data: dict[str, Any] = {
        "memo": "\n".join(memo),
        "initiative": sheet.initiative if sheet is not None and sheet.initiative is not None else 0,
        "status": [
            *_status("HP", pc.hp, pc.max_hp),
            *_status("MP", sheet.mp if sheet else None, sheet.max_mp if sheet else None),
            *_status("防護", sheet.defense if sheet else None),
        ],
        "params": params,
        "commands": commands,
    }
    if sheet is not None and sheet.source.startswith("https://"):
        data["externalUrl"] = sheet.source
    return _character(pc.name, **data)


def unit_character(unit: Unit) -> dict[str, Any]:
    weakness = getattr(unit, "weakness", None)  # F-UNIT-15, where the state has it
    params = [
        {"label": "防護", "value": str(unit.defense)},
        {"label": "移動", "value": str(unit.move)},
        {"label": "砦ダメージ", "value": str(unit.fort_damage)},
    ]
    if unit.strike:
        params.append({"label": "打撃", "value": unit.strike})
    memo = [f"ユニット／{_TYPE[unit.type.value]}／{unit.area.value}"]
    if weakness:
        params.append({"label": "弱点", "value": str(weakness)})
        memo.append(f"弱点: {weakness}")
    if unit.destroyed:
        memo.append("撃破")
    elif not unit.arrived:
        memo.append(f"増援: ラウンド{unit.arrive_round}")
    return _character(
        unit.name,
        memo="\n".join(memo),
        initiative=0,
        status=_status("HP", unit.hp, unit.max_hp),
        params=params,
        commands=f"{unit.strike} 打撃／{unit.name}" if unit.strike else "",
    )


def commander_character(commander: Commander) -> dict[str, Any]:
    horn = getattr(commander, "horn", None)  # F-UNIT-12's 鼓咆, where the state has it
    memo = [f"指揮官／{commander.area.value}", *([f"鼓咆: {horn}"] if horn else [])]
    return _character(
        commander.name,
        memo="\n".join(memo),
        initiative=0,
        status=_status("HP", commander.hp, commander.max_hp),
        params=[],
        commands="",
    )


def ccfolia_characters(state: FortState) -> list[dict[str, Any]]:
    """Every PC, unit and commander of the battle, in that order."""
    return [
        *(pc_character(p) for p in state.pcs),
        *(unit_character(u) for u in state.units),
        *(commander_character(c) for c in state.commanders),
    ]


def ccfolia_text(state: FortState) -> str:
    """One clipboard character per line, each a JSON text to paste into a ココフォリア room."""
    return "\n".join(
        json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in ccfolia_characters(state)
    )
