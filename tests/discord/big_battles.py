"""Battles as big as COMMANDS.md's Conventions allow, as the service shows them (its export document).

200 units (some soldiers at F0's positions, some reinforcements, some destroyed, some with a
weakness), 20 commanders, 20 PCs, 40 traps, 10 cannons; every name 32 characters, the title and
the war-horn effects 100.
And a 千幻抄 battle of 200 characters (COMMANDS.md: as many as a fort battle's units). Each document
goes through its engine's own import and export, so it is one a battle can be.
"""

from __future__ import annotations

from typing import Any

from engine.fort.export import export_state, import_state
from engine.limits import (
    MAX_CANNONS,
    MAX_CHARACTERS,
    MAX_COMMANDERS,
    MAX_PCS,
    MAX_TRAPS,
    MAX_UNITS,
    NAME_MAX,
    TEXT_MAX,
)
from engine.sengensho.export import export_state as sengensho_export
from engine.sengensho.export import import_state as sengensho_import

AREAS = ("A2", "A1", "F0", "B1", "B2")
EDGES = ("A2-A1", "A1-F0", "F0-B1", "B1-B2", "A1-B1", "A2-B2")
POSITIONS = ("top", "inside", "outside")


def name(prefix: str, n: int, length: int = NAME_MAX) -> str:
    """A name of ``length`` characters: ``prefix``, the number, then filling."""
    head = f"{prefix}{n:03}"
    return head + "長" * (length - len(head))


def fort_document(
    *,
    units: int = MAX_UNITS,
    commanders: int = MAX_COMMANDERS,
    pcs: int = MAX_PCS,
    traps: int = MAX_TRAPS,
    cannons: int = MAX_CANNONS,
    name_length: int = NAME_MAX,
    text_length: int = TEXT_MAX,
) -> dict[str, Any]:
    unit_docs = []
    for n in range(units):
        soldier = n % 10 == 9
        area = "F0" if soldier else AREAS[n % 5]
        unit: dict[str, Any] = {
            "name": name("兵" if soldier else "敵", n, name_length),
            "type": "soldier" if soldier else ("ram", "flying", "normal", "normal")[n % 4],
            "area": area,
            "hp": 10 + n % 37,
            "max_hp": 50,
            "fort_damage": n % 13,
            "strike": "2d+3",
        }
        if soldier:
            unit["position"] = POSITIONS[n % 3]
        if n % 7 == 0:
            unit["weakness"] = "炎属性ダメージ+3"  # F-UNIT-15: a weakness is a bonus, not free text
        if n % 17 == 5:
            unit["arrive_round"] = 2 + n % 3
        if n % 19 == 3:
            unit["destroyed"] = True
            unit["hp"] = 0
        unit_docs.append(unit)
    document = {
        "format": "toride.fort/1",
        "title": "題" * TEXT_MAX,
        "rounds": 5,
        "round": 1,
        "turn": "pc",
        "fort": {"hp": 120, "max_hp": 300},
        "pcs": [
            {
                "name": name("PC", n, name_length),
                "area": "F0" if n % 4 else "A1",
                "position": POSITIONS[n % 3] if n % 4 else None,
                "hp": 30 + n,
                "max_hp": 60,
                "owner": str(400000000000000100 + n),
            }
            for n in range(pcs)
        ],
        "units": unit_docs,
        "commanders": [
            {
                "name": name("将", n, name_length),
                "area": AREAS[n % 5],
                "hp": 0 if n % 6 == 5 else 40,
                "max_hp": 40,
                "horn": ("角笛" * TEXT_MAX)[:text_length],
            }
            for n in range(commanders)
        ],
        "traps": [
            {"kind": ("mine", "barricade")[n % 2], "edge": EDGES[n % len(EDGES)], "uses": 1 + n % 3}
            for n in range(traps)
        ],
        "cannons": [{"shells": n % 4} for n in range(cannons)],
        "ballista": {"loaded": True},
    }
    return export_state(import_state(document))


def sengensho_document(
    characters: int = MAX_CHARACTERS, *, hidden_owner: str = "400000000000000002", name_length: int = NAME_MAX
) -> dict[str, Any]:
    """A 千幻抄 battle in turn 1 with ``characters`` characters of long names: most have declared
    (a few share a value), some wait, some are down, and every 25th hides (owned by ``hidden_owner``)."""
    docs = []
    for n in range(characters):
        doc: dict[str, Any] = {
            "name": name("人" if n % 2 else "敵", n, name_length),
            "side": "pc" if n % 2 else "enemy",
            "owner": str(400000000000000100 + n) if n % 2 else None,
            "hp": 20 + n % 11,
            "max_hp": 40,
            "dp": 10 + n % 9,
            "dp_max": 20,
            "recovery": 4,
            "declared": None if n % 13 == 4 else 5 + n % 15,
            "acted": n % 3 == 0,
            "spell_cards": [{"name": f"符{n:03}", "used": n % 2 == 0}] if n % 5 == 0 else [],
        }
        if n % 29 == 7:
            doc["down"] = "unconscious"
        if n % 25 == 10:
            doc["hidden"] = {"total": 12, "turn": 1}
            doc["owner"] = hidden_owner
        docs.append(doc)
    document = {
        "format": "toride.sengensho/1",
        "title": "幻" * TEXT_MAX,
        "turn": 1,
        "step": 19,
        "characters": docs,
    }
    return sengensho_export(sengensho_import(document))
