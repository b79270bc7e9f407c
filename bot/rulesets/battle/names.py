"""Which names the ordinary battle's options complete from (Discord's autocomplete, the console's Tab):
its characters, its monsters (a part as ``グリフォン:頭部``), its PCs, and the effects on a target."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands import CommandSpec, Option, OptType
from bot.rulesets.battle.palettes import line_choices
from engine.common import fold

#: option → the kind of names it takes, for every command of the group
_BY_OPTION = {"by": "character", "target": "target", "targets": "target", "monster": "monster"}
#: ``name`` of these commands names a PC; of the effect commands, an effect on ``target``
_PC_NAMED = frozenset({"battle knowledge", "battle initiative"})
_EFFECT_NAMED = frozenset({"battle clear", "battle extend"})


def completion(spec: CommandSpec, opt: Option) -> str | None:
    if spec.path == "pc roll":  # shared with the fort
        return {"name": "pc", "line": "palette_line", "target": "target"}.get(opt.name)
    if spec.ruleset != "battle" or opt.type is not OptType.STR:
        return None
    if opt.name == "name":
        if spec.path in _PC_NAMED:
            return "pc"
        if spec.path in _EFFECT_NAMED:
            return "effect"
        if spec.path in ("battle mp", "battle act"):
            return "character"
        return None  # ``/battle pc name:`` and ``/battle monster name:`` name a new one
    return _BY_OPTION.get(opt.name)


def _targets(doc: Mapping[str, Any]) -> list[str]:
    out = [str(p["name"]) for p in doc.get("pcs", [])]
    for m in doc.get("monsters", []):
        out.append(str(m["name"]))
        parts = m.get("parts") or []
        if len(parts) > 1:
            out.extend(f"{m['name']}:{p['name']}" for p in parts if p.get("name"))
    return out


def candidates(doc: Mapping[str, Any], kind: str, spec: CommandSpec, typed: Mapping[str, Any]) -> list[str]:
    pcs = [str(p["name"]) for p in doc.get("pcs", [])]
    monsters = [str(m["name"]) for m in doc.get("monsters", [])]
    if kind == "pc":
        return pcs
    if kind == "monster":
        return monsters
    if kind == "character":
        return pcs + monsters
    if kind == "target":
        return _targets(doc)
    if kind == "palette_line":
        return line_choices(doc, typed.get("name"))
    if kind == "effect":
        target = fold(str(typed.get("target") or ""))
        return [
            str(e["name"])
            for e in doc.get("effects", [])
            if not target or fold(str(e.get("target") or "")) == target
        ]
    return []
