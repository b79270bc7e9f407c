"""The odds planner's chart: a histogram of the fort's HP at the end of the runs, with the falls as
their own bar and the 10th, 50th and 90th percentiles marked.

``odds_png(result, title, lang)`` draws it with the pictures' canvas, theme and font; ``layout``
computes where everything goes (no drawing), ``draw`` draws a layout. A drawn chart is kept
(``lru_cache``): the Discord bot draws it in its picture thread, then renders it from the cache.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.i18n import t
from bot.render.picture import theme
from bot.render.picture.pictures import DRAWING
from bot.render.picture.theme import RGB
from engine.fort.planner import OddsResult

if TYPE_CHECKING:  # the canvas (Pillow, the fonts) is imported when a chart is laid out or drawn
    from bot.render.picture.canvas import Canvas

WIDTH, HEIGHT = 1200, 600
PLOT = (130, 130, 1150, 470)  # x0, y0, x1, y1
#: at most this many bars of HP above 0 (each a range of HP), beside the bar of the falls
BINS = 20
GAP = 6
#: the falls' bar stands apart from the HP bars by this much
FALL_GAP = 24
#: a second row of percentile labels sits this much higher; the vertical axis's name at SHARE_Y
MARK_ROW, SHARE_Y = 28, 96
#: a label's distance from its line, and the room kept between a label and anything beside it
LABEL_GAP, LABEL_ROOM = 8, 6


@dataclass(frozen=True, slots=True)
class Bar:
    box: tuple[int, int, int, int]
    colour: RGB
    #: the HP range it counts (0, 0 for the falls)
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class Mark:
    """A percentile marked at ``x`` (several at one place share a mark: ``10% 50%``); its label on
    ``row`` 0 above the plot, or row 1 above that, to the right of its line or to the left, wherever it
    crosses no other label and no line (``_fits``)."""

    x: int
    label: str
    row: int = 0
    #: the label reads to the right of its line, or (``left``) ends at it
    left: bool = False

    def span(self, wide: int) -> tuple[int, int]:
        """The label's left and right edge, ``wide`` its width."""
        if self.left:
            return self.x - LABEL_GAP - wide, self.x - LABEL_GAP
        return self.x + LABEL_GAP, self.x + LABEL_GAP + wide


@dataclass(frozen=True, slots=True)
class ChartLayout:
    title: str
    summary: str
    bars: tuple[Bar, ...]
    #: the vertical axis: (y, label) of each line
    levels: tuple[tuple[int, str], ...]
    #: under the bars: (x, label)
    ticks: tuple[tuple[int, str], ...]
    marks: tuple[Mark, ...]
    axis: str
    share: str


def bins(max_hp: int) -> list[tuple[int, int]]:
    """The HP ranges of the bars above 0: ``BINS`` at most, of equal width, the last ending at max."""
    step = -(-max_hp // BINS)
    return [(low, min(low + step - 1, max_hp)) for low in range(1, max_hp + 1, step)]


def layout(result: OddsResult, title: str, lang: str) -> ChartLayout:
    x0, y0, x1, y1 = PLOT
    ranges = [(0, 0), *bins(result.fort_max_hp)]
    step = ranges[1][1] - ranges[1][0] + 1
    counts = [0] * len(ranges)
    for hp, runs in result.final_hp:
        counts[0 if hp <= 0 else 1 + (min(hp, result.fort_max_hp) - 1) // step] += runs
    top = _nice_top(max(counts) / result.runs)
    slot = (x1 - x0 - FALL_GAP) / len(ranges)
    bars = []
    for k, ((low, high), count) in enumerate(zip(ranges, counts, strict=True)):
        left = x0 + round(slot * k) + (FALL_GAP if k else 0)
        right = x0 + round(slot * (k + 1)) + (FALL_GAP if k else 0) - GAP
        height = round((y1 - y0) * count / result.runs / top)
        colour = theme.BAD if k == 0 else theme.hp_colour(high, result.fort_max_hp)
        bars.append(Bar((left, y1 - height, right, y1), colour, low, high))
    levels = tuple((y1 - round((y1 - y0) * q / 4), f"{top * q / 4:.0%}") for q in range(5))
    ticks = [((bars[0].box[0] + bars[0].box[2]) // 2, t("odds.chart.fallen", lang))]
    every = max(1, len(bars[1:]) // 5)
    for k, bar in enumerate(bars[1:]):
        if k % every == 0 or k == len(bars) - 2:
            ticks.append(((bar.box[0] + bar.box[2]) // 2, str(bar.high)))
    return ChartLayout(
        title=t("odds.chart.title", lang, title=title or t("fort.status.untitled", lang)),
        summary=t("odds.chart.summary", lang, hold=f"{result.hold:.1%}", runs=f"{result.runs:,}"),
        bars=tuple(bars),
        levels=levels,
        ticks=tuple(ticks),
        marks=_marks(result, bars, lang),
        axis=t("odds.chart.axis", lang),
        share=t("odds.chart.share", lang),
    )


#: the tops of the vertical axis: each a whole percentage at every quarter
TOPS = (0.04, 0.08, 0.2, 0.4, 0.6, 0.8, 1.0)


def _nice_top(share: float) -> float:
    """The top of the vertical axis: the smallest of ``TOPS`` at or above ``share``."""
    return next((top for top in TOPS if share <= top), 1.0)


def _marks(result: OddsResult, bars: list[Bar], lang: str) -> tuple[Mark, ...]:
    from bot.render.picture.canvas import width

    at: dict[int, list[str]] = {}
    for p in (10, 50, 90):
        hp = result.hp_percentile(p)
        bar = next(b for b in bars if b.low <= max(hp, 0) <= b.high)
        at.setdefault((bar.box[0] + bar.box[2]) // 2, []).append(t("odds.chart.percentile", lang, p=p))
    # each mark's label on row 0 or 1, right or left of its line: the first placement (in that order
    # of preference, marks left to right) where nothing crosses (at most 3 marks: 64 placements)
    choices = [
        [Mark(x, " ".join(labels), row, left) for row in (0, 1) for left in (False, True)]
        for x, labels in sorted(at.items())
    ]
    for placement in itertools.product(*choices):
        if all(_fits(m, list(placement[:i]), width) for i, m in enumerate(placement)):
            return tuple(placement)
    marks = [options[2 * (i % 2)] for i, options in enumerate(choices)]  # none fits: rows alternate
    return tuple(marks)


def _fits(mark: Mark, placed: list[Mark], width: Callable[[str, int], int]) -> bool:
    """No label crosses another label on its row, nor a line: a mark's line runs from its label's row
    down to the plot, so through every row below it; a label on the left stays inside the plot."""
    lo, hi = mark.span(width(mark.label, theme.SMALL))
    if mark.left and lo < PLOT[0]:
        return False
    for other in placed:
        o_lo, o_hi = other.span(width(other.label, theme.SMALL))
        if other.row == mark.row and lo < o_hi + LABEL_ROOM and o_lo < hi + LABEL_ROOM:
            return False  # two labels side by side
        if other.row >= mark.row and lo - LABEL_ROOM < other.x < hi + LABEL_ROOM:
            return False  # another mark's line through this label
        if mark.row >= other.row and o_lo - LABEL_ROOM < mark.x < o_hi + LABEL_ROOM:
            return False  # this mark's line through another's label
    return True


def draw(plan: ChartLayout) -> Canvas:
    from bot.render.picture.canvas import Canvas, width

    canvas = Canvas.blank(WIDTH, HEIGHT)
    x0, y0, x1, y1 = PLOT
    canvas.draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=theme.BORDER, width=3)
    right = canvas.text(WIDTH - 24, 48, plan.summary, theme.NAME, align="right")
    canvas.text(24, 48, plan.title, theme.TITLE, room=right - 60)
    canvas.draw.rectangle(PLOT, fill=theme.AREA)
    for y, label in plan.levels:
        canvas.draw.line((x0, y, x1, y), fill=theme.TRACK, width=2)
        canvas.text(x0 - 12, y, label, theme.SMALL, theme.DIM, align="right")
    for bar in plan.bars:
        if bar.box[1] < bar.box[3]:
            canvas.draw.rectangle(bar.box, fill=bar.colour)
    for mark in plan.marks:
        top = y0 - 18 - MARK_ROW * mark.row
        canvas.draw.line((mark.x, top + 12, mark.x, y1), fill=theme.LEADER, width=3)
        if mark.left:
            canvas.text(mark.x - LABEL_GAP, top, mark.label, theme.SMALL, theme.LEADER, align="right")
        else:
            canvas.text(mark.x + LABEL_GAP, top, mark.label, theme.SMALL, theme.LEADER)
    for x, label in plan.ticks:
        canvas.text(x - width(label, theme.SMALL) // 2, y1 + 28, label, theme.SMALL, theme.DIM)
    canvas.text(x1, y1 + 72, plan.axis, theme.SMALL, theme.DIM, align="right")
    canvas.text(24, SHARE_Y, plan.share, theme.SMALL, theme.DIM)
    return canvas


@lru_cache(maxsize=16)
def odds_png(result: OddsResult, title: str, lang: str) -> bytes:
    """The chart of ``result`` as a PNG (kept: the same answer is not drawn twice)."""
    plan = layout(result, title, lang)
    with DRAWING:
        return draw(plan).png()
