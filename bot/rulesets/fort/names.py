"""Which of the battle's names an option takes, and those names in a battle's document: for completion,
in Discord (autocomplete) and in the console (Tab). No Discord here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands import CommandSpec, Option
from bot.render.sheet_text import palette_choices
from bot.rulesets.fort.text import AREAS, arrived

EDGES = ("A2-A1", "A1-F0", "F0-B1", "B1-B2", "A1-B1", "A2-B2")


# --- completion --------------------------------------------------------------------------------

_NEW_NAMES = {"pc add", "unit add", "commander add"}


def completion(spec: CommandSpec, opt: Option) -> str | None:
    if spec.path == "pc roll":  # shared with the ordinary battle
        return {"name": "pc", "line": "palette_line"}.get(opt.name)
    if spec.ruleset != "fort":
        return None
    name = opt.name
    if name in ("unit", "attacker", "target"):
        return "unit"
    if name == "name" and spec.path not in _NEW_NAMES:
        return {"pc": "pc", "commander": "commander"}.get(spec.group or "")
    if name == "commander":
        return "commander"
    if name == "by":
        return "actor"
    if spec.path == "pc roll" and name == "line":
        return "palette_line"
    if name == "edge":
        return "trap_edge" if spec.path == "trap remove" else "edge"
    if name in ("area", "to", "from", "via"):
        return "area"
    return None


def candidates(doc: Mapping[str, Any], kind: str, spec: CommandSpec, typed: Mapping[str, Any]) -> list[str]:
    units = [u for u in doc.get("units", []) if not u.get("destroyed")]
    if kind == "unit":
        on_map = [u["name"] for u in units if arrived(u)]
        return on_map + [u["name"] for u in units if not arrived(u)]
    if kind == "pc":
        pcs = doc.get("pcs", [])
        if spec.path == "pc claim":  # only one without an owner may be claimed
            pcs = [p for p in pcs if p.get("owner") is None]
        return [p["name"] for p in pcs]
    if kind == "commander":
        return [c["name"] for c in doc.get("commanders", [])]
    if kind == "actor":
        soldiers = [u["name"] for u in units if u.get("type") == "soldier" and arrived(u)]
        return [p["name"] for p in doc.get("pcs", [])] + soldiers
    if kind == "area":
        return list(AREAS)
    if kind == "edge":
        return list(EDGES)
    if kind == "trap_edge":
        wanted = typed.get("kind")
        return [tr_["edge"] for tr_ in doc.get("traps", []) if wanted in (None, tr_.get("kind"))]
    if kind == "palette_line":
        return palette_choices(doc, typed.get("name"))
    return []

