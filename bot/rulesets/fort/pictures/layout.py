"""Where everything of a fort battle goes on the map picture: pure geometry, no pixels, no fonts.

The field is drawn as the source draws it (実際の戦場の配置 of the fort rules): ``A2 A1`` above,
``B2 B1`` below, ``F0`` to the side, with the six edges of F-MAP-1 as the gaps between the areas
(``A2-A1``, ``A1-F0`` and the rest), where the traps on that edge sit. F0 is split into its three
positions (F-MAP-4): PCs and soldier units by their position, enemy units and commanders outside.
Below the field: the reinforcements still to come, and the cannons and the ballista.

Every region holds a fixed number of rows; where more things are there than rows, the last row
says how many more (and of which kinds) instead: nothing overlaps, nothing is silently lost.
``layout(document)`` reads the export document (``toride.fort/1``) that the text status reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rulesets.fort.pictures.geometry import (
    AREA_BOXES,
    AREA_ROWS,
    AREAS,
    BADGE_GAP,
    BADGE_H,
    BADGE_W,
    CANNON_COLUMNS,
    EDGE_STRIPS,
    EQUIPMENT,
    FIELD_H,
    FOOT_LABEL_H,
    FOOT_ROW_H,
    FOOT_ROWS,
    FORT_BAR,
    HEIGHT,
    LABEL_H,
    LEGEND,
    MARKS,
    PAD,
    POSITIONS,
    REINFORCE_COLUMNS,
    REINFORCEMENTS,
    ROW_H,
    SECTION_H,
    TITLE_BOX,
    TRAP_KINDS,
    WIDTH,
    Box,
    EdgeStrip,
    Region,
    label_box,
)
from bot.rulesets.fort.pictures.plan import (
    Arrival,
    Badge,
    Cannon,
    Header,
    MapLayout,
    More,
    Source,
    Token,
    TrapMore,
)
from bot.rulesets.fort.text import arrived

__all__ = ["Arrival", "Badge", "Cannon", "Header", "MapLayout", "More", "Token", "TrapMore", "layout"]


@dataclass(frozen=True, slots=True)
class _Thing:
    mark: str
    side: str
    name: str
    hp: int | None
    max_hp: int | None
    source: Source
    weakness: str | None = None
    horn: str | None = None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def soldier_position(unit: Mapping[str, Any]) -> str:
    """F-MAP-4: a soldier unit's position at F0; one without (an older export) is on top."""
    position = unit.get("position")
    return position if position in POSITIONS else "top"


def _unit(unit: Mapping[str, Any], i: int) -> _Thing:
    kind = str(unit.get("type") or "normal")
    return _Thing(
        mark=kind if kind in MARKS else "normal",
        side="pc" if kind == "soldier" else "enemy",
        name=str(unit.get("name", "")),
        hp=_int(unit.get("hp")),
        max_hp=_int(unit.get("max_hp")),
        source=("units", i),
        weakness=_text(unit.get("weakness")),
    )


OUTER = ("A2", "A1", "B1", "B2")


def _place(area: Any, position: Any = "outside") -> str:
    """The region a thing in ``area`` is drawn in: an outer area, or a position of F0."""
    if area in OUTER:
        return str(area)
    return str(position) if position in POSITIONS else "top"


def _place_of(doc: Mapping[str, Any]) -> dict[str, list[_Thing]]:
    """What stands in each outer area and each F0 position: the PC side first (PCs, then soldier
    units), then commanders, then enemy units; enemies at F0 are outside (F-MAP-4)."""
    places: dict[str, list[_Thing]] = {name: [] for name in (*OUTER, *POSITIONS)}
    for i, pc in enumerate(doc.get("pcs") or []):
        thing = _Thing(
            "pc", "pc", str(pc.get("name", "")), _int(pc.get("hp")), _int(pc.get("max_hp")), ("pcs", i)
        )
        places[_place(pc.get("area"), pc.get("position"))].append(thing)
    units = [(i, u) for i, u in enumerate(doc.get("units") or []) if not u.get("destroyed") and arrived(u)]
    for i, unit in units:
        if unit.get("type") == "soldier":
            places[_place(unit.get("area"), soldier_position(unit))].append(_unit(unit, i))
    for i, commander in enumerate(doc.get("commanders") or []):
        thing = _Thing(
            "commander",
            "enemy",
            str(commander.get("name", "")),
            _int(commander.get("hp")),
            _int(commander.get("max_hp")),
            ("commanders", i),
            horn=_text(commander.get("horn")),
        )
        places[_place(commander.get("area"))].append(thing)
    for i, unit in units:
        if unit.get("type") != "soldier":
            places[_place(unit.get("area"))].append(_unit(unit, i))
    return places


def _more(box: Box, rest: Sequence[_Thing]) -> More:
    counts = Counter(t.mark for t in rest)
    return More(
        box, len(rest), tuple((m, counts[m]) for m in MARKS if counts[m]), tuple(t.source for t in rest)
    )


def fit(count: int, rows: int) -> tuple[int, bool]:
    """How many things get a row of their own among ``rows``, and whether a "+N more" row is needed."""
    if count <= rows:
        return count, False
    return max(rows - 1, 0), True


def _rows(things: Sequence[_Thing], first: Box, rows: int) -> list[Token | More]:
    """``things`` in rows of ``first``'s size from ``first`` down, the last row a summary if crowded."""
    shown, crowded = fit(len(things), rows)
    out: list[Token | More] = []
    for n, t in enumerate(things[:shown]):
        box = Box(first.x, first.y + n * first.h, first.w, first.h)
        out.append(Token(box, t.mark, t.side, t.name, t.hp, t.max_hp, t.source, t.weakness, t.horn))
    if crowded:
        out.append(_more(Box(first.x, first.y + shown * first.h, first.w, first.h), things[shown:]))
    return out


def section_rows(demand: Sequence[int], capacity: int) -> list[int]:
    """F0's rows shared among its three positions, smallest need first: each position gets what it
    needs up to an equal share of the rows left, so a few PCs on top are all shown while a crowd
    outside is summarised (what a small position leaves goes to the bigger ones)."""
    rows = [0] * len(demand)
    left = capacity
    order = sorted(range(len(demand)), key=lambda i: (demand[i], i))
    for n, i in enumerate(order):
        rows[i] = min(demand[i], left // (len(order) - n))
        left -= rows[i]
    return rows


#: rows F0 has for people, once its label and its three position labels are drawn
F0_ROWS = (FIELD_H - LABEL_H - PAD - len(POSITIONS) * SECTION_H) // ROW_H


def _f0(places: Mapping[str, list[_Thing]]) -> tuple[list[Region], list[Token | More]]:
    box = AREA_BOXES["F0"]
    counts = section_rows([len(places[p]) for p in POSITIONS], F0_ROWS)
    sections: list[Region] = []
    rows: list[Token | More] = []
    y = box.y + LABEL_H
    inner_x, inner_w = box.x + PAD, box.w - 2 * PAD
    for position, n in zip(POSITIONS, counts, strict=True):
        section = Box(inner_x, y, inner_w, SECTION_H + n * ROW_H)
        sections.append(Region(position, section, label_box(section, SECTION_H)))
        rows += _rows(places[position], Box(inner_x, y + SECTION_H, inner_w, ROW_H), n)
        y = section.bottom
    return sections, rows


def _badges(strip: EdgeStrip, traps: Sequence[tuple[int, Mapping[str, Any]]]) -> list[Badge | TrapMore]:
    """The traps of one edge, stacked along its gap and centred on the edge's line."""
    step = (BADGE_H if strip.vertical else BADGE_W) + BADGE_GAP
    room = (strip.box.h if strip.vertical else strip.box.w) - 2 * PAD
    shown, crowded = fit(len(traps), max(room // step, 1))
    n = shown + crowded
    length = n * step - BADGE_GAP
    out: list[Badge | TrapMore] = []
    for k in range(n):
        if strip.vertical:
            y0 = strip.line[1] - length // 2
            box = Box(strip.box.x + (strip.box.w - BADGE_W) // 2, y0 + k * step, BADGE_W, BADGE_H)
        else:
            x0 = strip.line[0] - length // 2
            box = Box(x0 + k * step, strip.box.y + (strip.box.h - BADGE_H) // 2, BADGE_W, BADGE_H)
        if k < shown:
            i, trap = traps[k]
            out.append(
                Badge(box, str(trap.get("kind")), int(trap.get("uses") or 0), strip.edge, ("traps", i))
            )
        else:
            rest = traps[shown:]
            out.append(TrapMore(box, len(rest), strip.edge, tuple(("traps", i) for i, _ in rest)))
    return out


def _grid(region: Region, top: int, columns: int, rows: int) -> list[Box]:
    """Cells of a footer region, row by row from ``top``."""
    inner_w = region.box.w - 2 * PAD
    w = inner_w // columns
    return [
        Box(region.box.x + PAD + c * w, top + r * FOOT_ROW_H, w, FOOT_ROW_H)
        for r in range(rows)
        for c in range(columns)
    ]


def _arrivals(doc: Mapping[str, Any]) -> list[Arrival | More]:
    waiting = [
        (i, u) for i, u in enumerate(doc.get("units") or []) if not u.get("destroyed") and not arrived(u)
    ]
    waiting.sort(key=lambda iu: (_int(iu[1].get("arrive_round")) or 0, iu[0]))
    cells = _grid(REINFORCEMENTS, REINFORCEMENTS.box.y + FOOT_LABEL_H, REINFORCE_COLUMNS, FOOT_ROWS)
    shown, crowded = fit(len(waiting), len(cells))
    out: list[Arrival | More] = []
    for cell, (i, u) in zip(cells, waiting[:shown], strict=False):
        thing = _unit(u, i)
        out.append(
            Arrival(
                cell, thing.mark, thing.name, _int(u.get("arrive_round")), str(u.get("area")), thing.source
            )
        )
    if crowded:
        out.append(_more(cells[shown], [_unit(u, i) for i, u in waiting[shown:]]))
    return out


def _cannons(doc: Mapping[str, Any]) -> tuple[Box, list[Cannon | More]]:
    top = EQUIPMENT.box.y + FOOT_LABEL_H
    ballista = Box(EQUIPMENT.box.x + PAD, top, EQUIPMENT.box.w - 2 * PAD, FOOT_ROW_H)
    cells = _grid(EQUIPMENT, top + FOOT_ROW_H, CANNON_COLUMNS, FOOT_ROWS - 1)
    cannons = list(enumerate(doc.get("cannons") or []))
    shown, crowded = fit(len(cannons), len(cells))
    out: list[Cannon | More] = [
        Cannon(cell, i + 1, _int(c.get("shells")) or 0, ("cannons", i))
        for cell, (i, c) in zip(cells, cannons[:shown], strict=False)
    ]
    if crowded:
        rest = cannons[shown:]
        out.append(More(cells[shown], len(rest), (), tuple(("cannons", i) for i, _ in rest)))
    return ballista, out


def _header(doc: Mapping[str, Any]) -> Header:
    fort = doc.get("fort") or {}
    ballista = doc.get("ballista") or {}
    round_ = _int(doc.get("round")) or 1
    return Header(
        title=str(doc.get("title") or ""),
        round=round_,
        rounds=_int(doc.get("rounds")) or round_,
        turn=str(doc.get("turn") or "pc"),
        outcome=_text(doc.get("outcome")),
        confused_round=_int(doc.get("confused_round")),
        fort_hp=_int(fort.get("hp")) or 0,
        fort_max_hp=_int(fort.get("max_hp")) or 0,
        repaired=fort.get("repaired_round") is not None and fort.get("repaired_round") == doc.get("round"),
        ballista_loaded=bool(ballista.get("loaded")),
        ballista_bolt=_text(ballista.get("bolt")),
        magic_bolt_used=bool(ballista.get("magic_bolt_used")),
    )


def layout(doc: Mapping[str, Any]) -> MapLayout:
    """The map of a fort battle's export document."""
    places = _place_of(doc)
    areas = [Region(name, box, label_box(box)) for name, box in AREA_BOXES.items()]
    areas.sort(key=lambda r: AREAS.index(r.name))
    rows: list[Token | More] = []
    for name in OUTER:
        box = AREA_BOXES[name]
        rows += _rows(places[name], Box(box.x + PAD, box.y + LABEL_H, box.w - 2 * PAD, ROW_H), AREA_ROWS)
    sections, f0_rows = _f0(places)
    rows += f0_rows
    live_traps = [(i, tr) for i, tr in enumerate(doc.get("traps") or []) if (_int(tr.get("uses")) or 0) > 0]
    traps: list[Badge | TrapMore] = []
    for strip in EDGE_STRIPS:
        here = [(i, tr) for i, tr in live_traps if tr.get("edge") == strip.edge]
        here.sort(key=lambda it: TRAP_KINDS.index(it[1]["kind"]) if it[1].get("kind") in TRAP_KINDS else 9)
        traps += _badges(strip, here)
    ballista, cannons = _cannons(doc)
    return MapLayout(
        width=WIDTH,
        height=HEIGHT,
        header=_header(doc),
        title_box=TITLE_BOX,
        fort_bar=FORT_BAR,
        areas=tuple(areas),
        sections=tuple(sections),
        edges=EDGE_STRIPS,
        rows=tuple(rows),
        traps=tuple(traps),
        reinforcements=REINFORCEMENTS,
        arrivals=tuple(_arrivals(doc)),
        equipment=EQUIPMENT,
        ballista=ballista,
        cannons=tuple(cannons),
        legend=LEGEND,
    )
