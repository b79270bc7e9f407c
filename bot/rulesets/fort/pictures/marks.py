"""The marks of the pictures: one shape per kind of thing, so that no kind is told by colour alone.

Enemies are round or pointed (● unit, ▶ ram, ▲ flying, ★ commander), the PC side square-cornered
(◆ PC, ■ soldier unit); a weakness is a yellow triangle with "!", a barricade a fence and a mine a
burst. ``draw_mark(draw, kind, cx, cy, size)`` draws one centred on (cx, cy).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

from bot.render.picture import theme
from bot.render.picture.theme import RGB

Painter = Callable[[ImageDraw.ImageDraw, float, float, float], None]


def _circle(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def _star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list[tuple[float, float]]:
    out = []
    for k in range(points * 2):
        radius = r if k % 2 == 0 else r * inner
        angle = -math.pi / 2 + k * math.pi / points
        out.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return out


def _normal(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    _circle(d, cx, cy, r * 0.8, theme.ENEMY)


def _ram(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A ram points at the fort (F0 is to the right of the field)."""
    d.polygon(
        [(cx - r, cy - r * 0.7), (cx + r * 0.2, cy - r * 0.7), (cx + r, cy), (cx + r * 0.2, cy + r * 0.7),
         (cx - r, cy + r * 0.7)],
        fill=theme.ENEMY,
    )  # fmt: skip


def _flying(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=theme.ENEMY)


def _commander(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.polygon(_star(cx, cy + r * 0.08, r * 1.1), fill=theme.LEADER)


def _pc(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.polygon([(cx, cy - r), (cx + r * 0.85, cy), (cx, cy + r), (cx - r * 0.85, cy)], fill=theme.ALLY)


def _soldier(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    s = r * 0.78
    d.rectangle((cx - s, cy - s, cx + s, cy + s), fill=theme.ALLY)


def _weakness(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=theme.LEADER)
    w = max(r * 0.14, 1.5)
    d.rectangle((cx - w, cy - r * 0.35, cx + w, cy + r * 0.3), fill=theme.DARK)
    d.rectangle((cx - w, cy + r * 0.45, cx + w, cy + r * 0.65), fill=theme.DARK)


def _barricade(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A fence: two posts and two rails."""
    post = r * 0.2
    for x in (cx - r * 0.6, cx + r * 0.6):
        d.rectangle((x - post, cy - r, x + post, cy + r), fill=theme.WOOD)
    for y in (cy - r * 0.45, cy + r * 0.35):
        d.rectangle((cx - r, y - post * 0.8, cx + r, y + post * 0.8), fill=theme.WOOD)


def _mine(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.polygon(_star(cx, cy, r, points=8, inner=0.55), fill=theme.MINE)


def _ballista(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A bolt flying right: shaft, head and fletching."""
    d.rectangle((cx - r, cy - r * 0.1, cx + r * 0.4, cy + r * 0.1), fill=theme.WOOD)
    d.polygon([(cx + r * 0.3, cy - r * 0.45), (cx + r, cy), (cx + r * 0.3, cy + r * 0.45)], fill=theme.WOOD)
    d.polygon([(cx - r, cy - r * 0.45), (cx - r * 0.55, cy), (cx - r, cy + r * 0.45)], fill=theme.WOOD)


MARKS: dict[str, Painter] = {
    "normal": _normal,
    "ram": _ram,
    "flying": _flying,
    "commander": _commander,
    "pc": _pc,
    "soldier": _soldier,
    "weakness": _weakness,
    "barricade": _barricade,
    "mine": _mine,
    "ballista": _ballista,
}


def draw_mark(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, size: float) -> None:
    """The mark of ``kind`` (an unknown kind draws as a normal unit), ``size`` px across."""
    MARKS.get(kind, _normal)(d, cx, cy, size / 2)


def shell(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, loaded: bool) -> None:
    """F-CAN-1: a cannon's shell slot: filled when a shell is in it, a ring when not."""
    r = size / 2
    if loaded:
        _circle(d, cx, cy, r, theme.WARN)
    else:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=theme.DIM, width=2)
