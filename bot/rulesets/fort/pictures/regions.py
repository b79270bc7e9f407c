"""The map picture's hit regions: where each thing of a fort battle is drawn, and where one can be put.

The prep page lays a clickable, draggable layer over the picture from these (``bot.prep``'s
``PrepBinding.picture``). ``regions(document)`` reads the same layout the picture is drawn from
(``layout.layout``), and ``map_with_regions`` makes the picture and its regions of one layout. Boxes
are ``[x, y, w, h]`` in the picture's pixels; a place is the element's place in the export document
(``$.units[3]``), as the page's refusals name it.

- ``things``: each token (unit, commander, PC), arrival (a reinforcement still to come), trap badge,
  cannon, and the ballista (``$.ballista``), with its label (the name drawn, or what the badge shows);
- ``more``: each "+N more" row (of an area, an F0 position, the reinforcements, the cannons, an edge's
  traps) and the places it stands for;
- ``drops``: where an element can be put, and what putting it there sets: the four outer areas take
  units and commanders (``{"area": "A1"}``), each F0 position (F-MAP-4) PCs
  (``{"area": "F0", "position": "top"}``: a PC of a mid-battle file elsewhere comes back to F0) and
  soldier units (``{"area": "F0", "position": "top"}``, and a unit added there is a soldier), each
  edge (F-MAP-1) traps (``{"edge": "A1-F0"}``). Enemy units and commanders are given no drop at F0:
  they start anywhere but F0 (F-MAP-7), as the engine's ``/unit add`` and ``/commander add`` refuse
  (``fort.enemy_at_f0``); nor PCs an outer area: they start at F0 (F-MAP-7).
  Drops of one box that set different things are separate entries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from bot.rulesets.fort.pictures.draw import draw
from bot.rulesets.fort.pictures.geometry import Box
from bot.rulesets.fort.pictures.layout import (
    OUTER,
    Arrival,
    Badge,
    Cannon,
    MapLayout,
    More,
    Token,
    TrapMore,
    layout,
)
from bot.rulesets.fort.pictures.plan import Source

__all__ = ["BALLISTA", "map_with_regions", "place", "regions", "regions_of"]

#: the ballista's place in the document (one, not a list's element)
BALLISTA = "$.ballista"


def regions(document: Mapping[str, Any], lang: str | None = None) -> dict[str, Any]:
    """The hit regions of the map of ``document`` (JSON-ready); with ``lang``, labels in its words."""
    return regions_of(layout(document), lang)


def map_with_regions(document: Mapping[str, Any], lang: str) -> tuple[bytes, dict[str, Any]]:
    """The map of ``document`` as a PNG (as ``draw.map_png`` makes it) and the regions of that very
    layout."""
    plan = layout(document)
    return draw(plan, lang).png(), regions_of(plan, lang)


def place(source: Source) -> str:
    """An element's place in the document: ``("units", 3)`` is ``$.units[3]``."""
    kind, index = source
    return f"$.{kind}[{index}]"


def _box(box: Box) -> list[int]:
    return [box.x, box.y, box.w, box.h]


def _words(key: str, lang: str | None, fallback: str) -> str:
    return t(key, lang) if lang is not None else fallback


def _thing(where: str, box: Box, label: str) -> dict[str, Any]:
    return {"place": where, "box": _box(box), "label": label}


def _more(box: Box, sources: tuple[Source, ...]) -> dict[str, Any]:
    return {"places": [place(s) for s in sources], "box": _box(box)}


def regions_of(plan: MapLayout, lang: str | None = None) -> dict[str, Any]:
    """The hit regions of a map's layout (see the module's words); with ``lang``, labels in its words."""
    things: list[dict[str, Any]] = []
    more: list[dict[str, Any]] = []
    for row in plan.rows:
        if isinstance(row, Token):
            things.append(_thing(place(row.source), row.box, row.name))
        else:
            more.append(_more(row.box, row.sources))
    for item in plan.arrivals:
        if isinstance(item, Arrival):
            things.append(_thing(place(item.source), item.box, item.name))
        else:
            more.append(_more(item.box, item.sources))
    for trap in plan.traps:
        if isinstance(trap, Badge):
            kind = _words(f"map.legend.{trap.kind}", lang, trap.kind)
            things.append(_thing(place(trap.source), trap.box, f"{kind} {trap.uses}"))
        elif isinstance(trap, TrapMore):
            more.append(_more(trap.box, trap.sources))
    head = plan.header
    ballista = "map.ballista.loaded" if head.ballista_loaded else "map.ballista.unloaded"
    things.append(_thing(BALLISTA, plan.ballista, _words(ballista, lang, "ballista")))
    for cannon in plan.cannons:
        if isinstance(cannon, Cannon):
            things.append(_thing(place(cannon.source), cannon.box, f"#{cannon.number}"))
        elif isinstance(cannon, More):
            more.append(_more(cannon.box, cannon.sources))
    return {
        "width": plan.width,
        "height": plan.height,
        "things": things,
        "more": more,
        "drops": _drops(plan, lang),
    }


def _drops(plan: MapLayout, lang: str | None) -> list[dict[str, Any]]:
    drops: list[dict[str, Any]] = []
    for region in plan.areas:
        area = region.name
        if area not in OUTER:
            continue
        label = f"{area} {t(f'map.area.{area}', lang)}" if lang is not None else area
        kinds = ["units", "commanders"]
        drops.append({"box": _box(region.box), "set": {"area": area}, "kinds": kinds, "label": label})
    for section in plan.sections:
        position = section.name
        words = _words(f"fort.status.position.{position}", lang, position)
        label = f"F0 {words}"
        drops.append(
            {
                "box": _box(section.box),
                "set": {"area": "F0", "position": position},
                "kinds": ["pcs"],
                "label": label,
            }
        )
        drops.append(
            {
                "box": _box(section.box),
                "set": {"area": "F0", "position": position},
                "kinds": ["units"],
                "label": label,
                "add": {"type": "soldier"},
            }
        )
    for strip in plan.edges:
        drops.append(
            {"box": _box(strip.box), "set": {"edge": strip.edge}, "kinds": ["traps"], "label": strip.edge}
        )
    return drops
