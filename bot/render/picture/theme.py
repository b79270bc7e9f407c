"""Colours and text sizes of the pictures.

The picture is an opaque dark card with a light border, so it reads the same in Discord's dark and
light themes. The colours are the Okabe–Ito set (told apart by the common kinds of colour
blindness), and nothing is told by colour alone: unit types, sides, traps and weaknesses each have
their own shape, and HP is the length of a bar with its numbers beside it.

The PNG is written with a fixed palette (``palette()``): every colour here, and the steps between
each text or mark colour and each background it is drawn on (for anti-aliased edges). A fixed
palette is much faster to encode than full colour, and makes a file a fraction of the size.
"""

from __future__ import annotations

from functools import cache

RGB = tuple[int, int, int]

# backgrounds
CANVAS: RGB = (30, 33, 39)
BORDER: RGB = (190, 196, 206)
AREA: RGB = (44, 49, 58)
AREA_EDGE: RGB = (98, 108, 122)
FORT: RGB = (60, 53, 41)
FORT_EDGE: RGB = (176, 150, 102)
SECTION: RGB = (76, 67, 52)
CHIP: RGB = (56, 62, 72)
TRACK: RGB = (78, 84, 94)
# text
TEXT: RGB = (240, 242, 245)
DIM: RGB = (170, 178, 190)
DARK: RGB = (20, 22, 26)
# marks and bars (Okabe–Ito, lightened where they sit on the dark card)
ENEMY: RGB = (230, 110, 50)  # vermillion
ALLY: RGB = (86, 180, 233)  # sky blue
LEADER: RGB = (240, 228, 66)  # yellow
GOOD: RGB = (0, 158, 115)  # bluish green
WARN: RGB = (230, 159, 0)  # orange
BAD: RGB = (213, 94, 0)  # vermillion
WOOD: RGB = (200, 161, 101)
MINE: RGB = (204, 121, 167)  # reddish purple
EDGE_LINE: RGB = (120, 130, 146)

#: text sizes (px) for a 1200 px wide picture: a phone shows it at its width, so text is large
TITLE = 36
LABEL = 32
NAME = 27
SMALL = 22
TINY = 19

#: how far apart (in any channel) the palette's colours are kept
SEPARATION = 8
GROUNDS: tuple[RGB, ...] = (CANVAS, AREA, FORT, SECTION, CHIP)
#: which inks are drawn on which backgrounds, and in how many steps their anti-aliased edges blend
BLENDS: tuple[tuple[tuple[RGB, ...], tuple[RGB, ...], int], ...] = (
    ((TEXT, DIM), GROUNDS, 6),
    ((ENEMY, ALLY, LEADER, WOOD, MINE, GOOD, WARN, BAD), GROUNDS, 3),
    ((DARK,), (LEADER, WOOD, WARN, ALLY, ENEMY, TEXT, MINE), 4),
    ((EDGE_LINE, BORDER, AREA_EDGE, FORT_EDGE, TRACK), (CANVAS, AREA), 3),
)


def hp_colour(hp: int, max_hp: int) -> RGB:
    """Green above half, orange to a quarter, vermillion below (the bar's length says the same)."""
    ratio = hp / max_hp if max_hp > 0 else 0
    if ratio > 0.5:
        return GOOD
    if ratio > 0.25:
        return WARN
    return BAD


@cache
def palette() -> tuple[RGB, ...]:
    """Every colour of the theme and the blends of ``BLENDS`` (at most 256 colours)."""
    colours: dict[RGB, None] = {}
    for inks, grounds, _ in BLENDS:
        for colour in (*inks, *grounds):
            colours.setdefault(colour)
    for inks, grounds, steps in BLENDS:
        for ink in inks:
            for ground in grounds:
                for step in range(1, steps):
                    mixed = _mix(ground, ink, step / steps)
                    # Pillow maps a pixel to the palette through a cache of 4-unit cells: a blend
                    # that close to another colour would take that colour's pixels
                    if all(
                        max(abs(a - b) for a, b in zip(mixed, c, strict=True)) >= SEPARATION for c in colours
                    ):
                        colours.setdefault(mixed)
    if len(colours) > 256:  # pragma: no cover - a theme change that needs fewer steps
        raise ValueError(f"the theme needs {len(colours)} palette entries, more than 256")
    return tuple(colours)


def _mix(a: RGB, b: RGB, f: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * f), round(a[1] + (b[1] - a[1]) * f), round(a[2] + (b[2] - a[2]) * f))
