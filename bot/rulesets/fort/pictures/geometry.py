"""The fixed frame of the fort map picture: its size, the boxes of the five areas, the gaps of the six
edges between them (F-MAP-1), the footer and the legend. Pure geometry (pixels as integers).

The field is drawn as the source draws it (実際の戦場の配置 of the fort rules): ``A2 A1`` above,
``B2 B1`` below, ``F0`` to the side; each edge is the gap between its two areas.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the picture's size: about what Discord shows on a phone without shrinking text below legibility
WIDTH = 1200
MARGIN = 16
HEADER_H = 52
FORT_BAR_H = 48
#: the field: two columns of areas (A2/B2, A1/B1), F0 beside them, gaps between them for the edges
COLUMN_W = 340
GAP = 64
F0_W = WIDTH - 2 * MARGIN - 2 * COLUMN_W - 2 * GAP
LABEL_H = 44
ROW_H = 62
AREA_ROWS = 7
PAD = 8
AREA_H = LABEL_H + AREA_ROWS * ROW_H + PAD
SECTION_H = 40
#: a trap on an edge: its mark and its uses left
BADGE_W, BADGE_H, BADGE_GAP = 60, 40, 4
#: below the field: reinforcements (two columns) and equipment (ballista, then cannons in three)
FOOT_ROW_H = 44
FOOT_ROWS = 5
FOOT_LABEL_H = 40
FOOT_H = FOOT_LABEL_H + FOOT_ROWS * FOOT_ROW_H + PAD
REINFORCE_COLUMNS = 2
CANNON_COLUMNS = 3
LEGEND_H = 44

AREAS = ("A2", "A1", "F0", "B1", "B2")
POSITIONS = ("top", "inside", "outside")
#: the order kinds are counted in a "+N more" row
MARKS = ("pc", "soldier", "commander", "normal", "ram", "flying")
TRAP_KINDS = ("barricade", "mine")


@dataclass(frozen=True, slots=True)
class Box:
    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.right and other.x < self.right and self.y < other.bottom and other.y < self.bottom
        )

    def within(self, other: Box) -> bool:
        return (
            other.x <= self.x
            and other.y <= self.y
            and self.right <= other.right
            and self.bottom <= other.bottom
        )


@dataclass(frozen=True, slots=True)
class Region:
    """An area (``A1``), a position of F0 (``top``) or a part of the footer, with its label's box."""

    name: str
    box: Box
    label: Box


@dataclass(frozen=True, slots=True)
class EdgeStrip:
    """The gap an edge runs through, and the line that draws the edge (from one area to the other)."""

    edge: str
    box: Box
    line: tuple[int, int, int, int]
    vertical: bool


# --- the fixed frame ------------------------------------------------------------------------------

FIELD_Y = MARGIN + HEADER_H + FORT_BAR_H + PAD
FIELD_H = 2 * AREA_H + GAP
_COL2_X = MARGIN
_COL1_X = MARGIN + COLUMN_W + GAP
F0_X = _COL1_X + COLUMN_W + GAP
_ROW_B_Y = FIELD_Y + AREA_H + GAP
FOOT_Y = FIELD_Y + FIELD_H + 2 * PAD
LEGEND_Y = FOOT_Y + FOOT_H + PAD
HEIGHT = LEGEND_Y + LEGEND_H + MARGIN
FOOT_SPLIT = 2 * COLUMN_W + GAP

AREA_BOXES: dict[str, Box] = {
    "A2": Box(_COL2_X, FIELD_Y, COLUMN_W, AREA_H),
    "A1": Box(_COL1_X, FIELD_Y, COLUMN_W, AREA_H),
    "B2": Box(_COL2_X, _ROW_B_Y, COLUMN_W, AREA_H),
    "B1": Box(_COL1_X, _ROW_B_Y, COLUMN_W, AREA_H),
    "F0": Box(F0_X, FIELD_Y, F0_W, FIELD_H),
}


def _strips() -> tuple[EdgeStrip, ...]:
    a2, a1, b2, b1, f0 = (AREA_BOXES[n] for n in ("A2", "A1", "B2", "B1", "F0"))

    def across(edge: str, left: Box, right_x: int) -> EdgeStrip:
        box = Box(left.right, left.y, right_x - left.right, left.h)
        mid = left.y + left.h // 2
        return EdgeStrip(edge, box, (box.x, mid, box.right, mid), vertical=True)

    def down(edge: str, upper: Box, lower: Box) -> EdgeStrip:
        box = Box(upper.x, upper.bottom, upper.w, lower.y - upper.bottom)
        mid = upper.x + upper.w // 2
        return EdgeStrip(edge, box, (mid, box.y, mid, box.bottom), vertical=False)

    return (
        across("A2-A1", a2, a1.x),
        across("A1-F0", a1, f0.x),
        across("F0-B1", b1, f0.x),
        across("B1-B2", b2, b1.x),
        down("A1-B1", a1, b1),
        down("A2-B2", a2, b2),
    )


EDGE_STRIPS = _strips()
REINFORCEMENTS = Region(
    "reinforcements", Box(MARGIN, FOOT_Y, FOOT_SPLIT, FOOT_H), Box(MARGIN, FOOT_Y, FOOT_SPLIT, FOOT_LABEL_H)
)
_EQUIP_X = MARGIN + FOOT_SPLIT + PAD * 2
_EQUIP_W = WIDTH - MARGIN - _EQUIP_X
EQUIPMENT = Region(
    "equipment", Box(_EQUIP_X, FOOT_Y, _EQUIP_W, FOOT_H), Box(_EQUIP_X, FOOT_Y, _EQUIP_W, FOOT_LABEL_H)
)
TITLE_BOX = Box(MARGIN, MARGIN, WIDTH - 2 * MARGIN, HEADER_H)
FORT_BAR = Box(MARGIN, MARGIN + HEADER_H, WIDTH - 2 * MARGIN, FORT_BAR_H)
#: the fort HP bar: always in the same place, so that its length is the fort's HP at a glance
FORT_HP_BAR = Box(MARGIN + 130, FORT_BAR.y + (FORT_BAR_H - 26) // 2, 620, 26)
LEGEND = Box(MARGIN, LEGEND_Y, WIDTH - 2 * MARGIN, LEGEND_H)


def label_box(box: Box, height: int = LABEL_H) -> Box:
    """The label band at the top of a box."""
    return Box(box.x, box.y, box.w, height)
