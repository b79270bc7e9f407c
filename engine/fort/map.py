"""The battlefield: five areas, their edges, distances, paths and pierce lines (F-MAP-1..3)."""

from __future__ import annotations

from enum import StrEnum
from functools import cache

from engine.common import fold
from engine.limits import shown_safely
from engine.ruleset import RuleError


class Area(StrEnum):
    A2 = "A2"
    A1 = "A1"
    F0 = "F0"
    B1 = "B1"
    B2 = "B2"


class Position(StrEnum):
    TOP = "top"
    INSIDE = "inside"
    OUTSIDE = "outside"


#: Map order of the areas (left to right), used to write edges and to sort.
AREAS: tuple[Area, ...] = (Area.A2, Area.A1, Area.F0, Area.B1, Area.B2)

Edge = tuple[Area, Area]

#: F-MAP-1: the six movement edges, 10 m each, in map order.
EDGES: tuple[Edge, ...] = (
    (Area.A2, Area.A1),
    (Area.A1, Area.F0),
    (Area.F0, Area.B1),
    (Area.B1, Area.B2),
    (Area.A1, Area.B1),
    (Area.A2, Area.B2),
)

#: F-MAP-3: the lines a pierce can cover, each written from F0 or the front outwards.
PIERCE_LINES: tuple[tuple[Area, ...], ...] = (
    (Area.F0, Area.A1, Area.A2),
    (Area.F0, Area.B1, Area.B2),
    (Area.A1, Area.B1),
    (Area.A2, Area.B2),
    (Area.A1, Area.B2),
    (Area.B1, Area.A2),
)

_NEIGHBOURS: dict[Area, tuple[Area, ...]] = {
    a: tuple(b for e in EDGES for b in e if a in e and b != a) for a in AREAS
}
#: How far (in steps) each area is from the fort; used to break ties between shortest paths.
_FRONT: dict[Area, int] = {Area.F0: 0, Area.A1: 1, Area.B1: 1, Area.A2: 2, Area.B2: 2}
#: each area and position by its stored text (a lookup, not a call of the enum: several times cheaper)
AREA_BY_TEXT: dict[str, Area] = {a.value: a for a in AREAS}
POSITION_BY_TEXT: dict[str, Position] = {p.value: p for p in Position}


def parse_area(text: str) -> Area:
    """F-MAP-1: an area name, full width accepted (``Ａ１`` → A1)."""
    area = AREA_BY_TEXT.get(text)
    if area is None:
        area = AREA_BY_TEXT.get(fold(text).upper())
    if area is None:
        raise RuleError("fort.area_invalid", area=shown_safely(text), allowed=[a.value for a in AREAS])
    return area


def parse_position(text: str) -> Position:
    """F-MAP-4: a position at F0 (top, inside, outside)."""
    position = POSITION_BY_TEXT.get(fold(text))
    if position is None:
        allowed = [p.value for p in Position]
        raise RuleError("fort.position_invalid", position=shown_safely(text), allowed=allowed)
    return position


def make_edge(a: Area, b: Area) -> Edge | None:
    """F-MAP-1: the edge between two areas written in map order, or None if they are not adjacent."""
    if (a, b) in EDGES:
        return (a, b)
    if (b, a) in EDGES:
        return (b, a)
    return None


def parse_edge(text: str) -> Edge:
    """F-MAP-1: an edge such as ``A1-F0`` (either order, full width accepted), written in map order."""
    folded = fold(text).upper().replace("–", "-").replace("ー", "-").replace("−", "-")
    parts = folded.split("-")
    allowed = [edge_text(e) for e in EDGES]
    if len(parts) != 2 or parts[0] not in AREA_BY_TEXT or parts[1] not in AREA_BY_TEXT:
        raise RuleError("fort.edge_invalid", edge=shown_safely(text), allowed=allowed)
    edge = make_edge(AREA_BY_TEXT[parts[0]], AREA_BY_TEXT[parts[1]])
    if edge is None:
        raise RuleError("fort.edge_not_adjacent", edge=text, allowed=allowed)
    return edge


def edge_text(edge: Edge) -> str:
    return f"{edge[0].value}-{edge[1].value}"


@cache
def shortest_path(start: Area, goal: Area) -> tuple[Area, ...]:
    """F-MAP-2, F-MAP-8: the areas of the shortest path from start to goal, both included.

    Where two paths are equally short (A2→B1, B2→A1, A1→B2, B1→A2) the path through the area nearer
    the fort is taken (A2→A1→B1); the GM can give ``via`` or move a unit step by step instead.
    """
    paths: list[tuple[Area, ...]] = [(start,)]
    while True:
        done = [p for p in paths if p[-1] == goal]
        if done:
            return min(done, key=lambda p: (sum(_FRONT[a] for a in p), [AREAS.index(a) for a in p]))
        paths = [(*p, n) for p in paths for n in _NEIGHBOURS[p[-1]] if n not in p]


def distance(start: Area, goal: Area) -> int:
    """F-MAP-2: distance in metres, a multiple of 10 (A1→B2 = 20, F0→A2 = 20)."""
    return 10 * (len(shortest_path(start, goal)) - 1)


@cache
def pierce_areas(origin: Area, target: Area) -> tuple[Area, ...]:
    """F-MAP-3: the areas a pierce from origin to target covers, origin and target included.

    Every pair of different areas lies on exactly one line. **Ruling:** the origin area is covered.
    """
    if origin == target:
        raise RuleError("fort.pierce_same_area", area=origin.value)
    for line in PIERCE_LINES:
        if origin in line and target in line:
            i, j = line.index(origin), line.index(target)
            return line[i : j + 1] if i < j else tuple(reversed(line[j : i + 1]))
    raise RuleError("fort.pierce_no_line", origin=origin.value, target=target.value)  # pragma: no cover


def attack_range(origin: Area, target: Area) -> int:
    """F-MAP-8: the range (射程) from one area to another for a ranged effect, counted along the pierce
    lines: 0 in the same area, A1–B2 and A2–B1 are 1 (a move between them is 20 m), F0–A2 is 2."""
    if origin == target:
        return 0
    return len(pierce_areas(origin, target)) - 1
