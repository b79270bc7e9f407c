"""Issue 38, item 12: the odds chart's percentile labels never overlap: 10% and 50% in neighbouring
bars put the 50% label on the row above, and its line ran down through the 10% label."""

from __future__ import annotations

import pytest

from bot.render.picture import theme
from bot.render.picture.canvas import width
from bot.rulesets.fort.pictures import odds_chart
from engine.fort.planner.odds import OddsResult


def result(final_hp: tuple[tuple[int, int], ...]) -> OddsResult:
    runs = sum(n for _, n in final_hp)
    return OddsResult(
        runs=runs, held=runs, seed=1, rounds=3, round=1, fort_max_hp=280, final_hp=final_hp,
        fall_rounds=(), threats=(),
    )  # fmt: skip


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    "final_hp",
    [
        ((100, 10), (115, 40), (130, 40), (145, 10)),  # three neighbouring bars
        ((100, 11), (101, 39), (102, 39), (260, 11)),  # 10% and 50% in one bar, 90% far away
        ((200, 10), (210, 80), (220, 10)),
        ((10, 30), (25, 40), (40, 30)),
    ],
)
def test_percentile_labels_on_one_row_never_overlap(lang: str, final_hp: tuple[tuple[int, int], ...]) -> None:
    plan = odds_chart.layout(result(final_hp), "title", lang)
    labels = " ".join(m.label for m in plan.marks)
    assert all(p in labels for p in ("10", "50", "90"))
    boxes = [(m, *m.span(width(m.label, theme.SMALL))) for m in plan.marks]
    for m, lo, hi in boxes:
        assert lo >= odds_chart.PLOT[0]
        for other, o_lo, o_hi in boxes:
            if other is m:
                continue
            if other.row == m.row:
                assert hi <= o_lo or o_hi <= lo, ("labels side by side", m, other)
            if other.row >= m.row:  # its line runs down through this row
                assert not lo <= other.x <= hi, ("a line through a label", m, other)
