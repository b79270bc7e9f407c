"""The fort HP chart of the final summary: HP at the start and at each round's end, with each round's
main causes marked (▼ a loss, ▲ a gain, and below the chart what caused it).

``chart_png(history, document, lang)`` draws it from the battle's events (``timeline``); every word
comes from the catalogues.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.i18n import has, t
from bot.render.picture import theme
from bot.render.picture.canvas import Canvas, width
from bot.rulesets.fort.pictures.timeline import Cause, FortTimeline, RoundHP, fort_timeline
from engine.ruleset import Event

WIDTH, HEIGHT = 1200, 640
PLOT = (120, 96, 1150, 420)  # x0, y0, x1, y1
#: the list of causes under the chart: rows × columns of the rounds that changed the most
CAUSE_ROWS, CAUSE_COLUMNS = 3, 2
CAUSES_Y = 490
CAUSE_ROW_H = 40
#: x ticks are labelled every so many rounds, so that labels never touch
TICK_ROOM = 64


def chart_png(history: Iterable[Event], document: Mapping[str, Any], lang: str) -> bytes:
    return draw(fort_timeline(history, document), document, lang).png()


def points(timeline: FortTimeline) -> list[tuple[int, int]]:
    """Where the HP at the start and at each round's end sits in the plot (pixels)."""
    x0, y0, x1, y1 = PLOT
    steps = max(len(timeline.rounds), 1)
    top = max(timeline.max_hp, 1)
    hps = [timeline.start, *(r.end for r in timeline.rounds)]
    return [
        (x0 + round((x1 - x0) * i / steps), y1 - round((y1 - y0) * max(hp, 0) / top))
        for i, hp in enumerate(hps)
    ]


def marked(timeline: FortTimeline) -> list[RoundHP]:
    """The rounds whose causes are listed: those that changed the HP most, in round order."""
    changed = [r for r in timeline.rounds if r.causes]
    biggest = sorted(changed, key=lambda r: -sum(abs(c.amount) for c in r.causes))
    keep = biggest[: CAUSE_ROWS * CAUSE_COLUMNS]
    return sorted(keep, key=lambda r: r.round)


def cause_text(cause: Cause, lang: str) -> str:
    amount = f"{cause.amount:+d}".replace("-", "−")
    if cause.kind == "unit" and cause.name:
        return f"{cause.name} {amount}"
    if cause.kind == "siege" and cause.name and has(f"value.effect.{cause.name}", lang):
        effect = t(f"value.effect.{cause.name}", lang)
        return t("chart.cause.siege_effect", lang, effect=effect, amount=amount)
    if cause.kind == "repair":
        return t("chart.cause.repair", lang, by=cause.name or "", amount=amount)
    return t(f"chart.cause.{cause.kind}", lang, amount=amount)


def draw(timeline: FortTimeline, document: Mapping[str, Any], lang: str) -> Canvas:
    canvas = Canvas.blank(WIDTH, HEIGHT)
    canvas.draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=theme.BORDER, width=3)
    title = t("chart.title", lang, title=document.get("title") or t("fort.status.untitled", lang))
    outcome = document.get("outcome")
    right = WIDTH - 24
    if outcome:
        right = canvas.text(right, 48, t(f"fort.status.outcome.{outcome}", lang), theme.NAME, align="right")
    canvas.text(24, 48, title, theme.TITLE, room=right - 60)
    _axes(canvas, timeline, lang)
    spots = points(timeline)
    canvas.draw.line(spots, fill=theme.ALLY, width=5, joint="curve")
    for x, y in spots:
        canvas.draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=theme.ALLY)
    listed = marked(timeline)
    for r in listed:
        x, y = spots[timeline.rounds.index(r) + 1]
        loss = r.end < r.start
        _arrow(canvas, x, y - 24 if loss else y + 24, loss)
    _causes(canvas, listed, lang)
    return canvas


def _axes(canvas: Canvas, timeline: FortTimeline, lang: str) -> None:
    x0, y0, x1, y1 = PLOT
    canvas.draw.rectangle(PLOT, fill=theme.AREA)
    top = max(timeline.max_hp, 1)
    for k in range(5):
        y = y1 - round((y1 - y0) * k / 4)
        canvas.draw.line((x0, y, x1, y), fill=theme.TRACK, width=2)
        canvas.text(x0 - 12, y, str(round(top * k / 4)), theme.SMALL, theme.DIM, align="right")
    steps = max(len(timeline.rounds), 1)
    every = max(1, -(-TICK_ROOM * steps // (x1 - x0)))
    labels = [t("chart.start", lang), *(t("chart.round", lang, round=r.round) for r in timeline.rounds)]
    for i, label in enumerate(labels):
        if i % every and i != len(labels) - 1:
            continue
        x = x0 + round((x1 - x0) * i / steps)
        canvas.text(x + width(label, theme.SMALL) // 2, y1 + 28, label, theme.SMALL, theme.DIM, align="right")


def _arrow(canvas: Canvas, x: int, y: int, down: bool) -> None:
    """▼ a loss (above its point), ▲ a gain (below it): shape and colour both say which."""
    if down:
        canvas.draw.polygon([(x - 11, y - 9), (x + 11, y - 9), (x, y + 9)], fill=theme.BAD)
    else:
        canvas.draw.polygon([(x - 11, y + 9), (x + 11, y + 9), (x, y - 9)], fill=theme.GOOD)


def _causes(canvas: Canvas, rounds: list[RoundHP], lang: str) -> None:
    if not rounds:
        canvas.text(PLOT[0], CAUSES_Y + CAUSE_ROW_H // 2, t("chart.no_change", lang), theme.NAME, theme.DIM)
        return
    column_w = (PLOT[2] - 24) // CAUSE_COLUMNS
    for n, r in enumerate(rounds):
        column, row = divmod(n, CAUSE_ROWS)
        x = 24 + column * column_w
        cy = CAUSES_Y + row * CAUSE_ROW_H + CAUSE_ROW_H // 2
        loss = r.end < r.start
        _arrow(canvas, x + 12, cy, loss)
        end = canvas.text(x + 32, cy, t("chart.round", lang, round=r.round), theme.NAME) + 12
        text = t("render.list_sep", lang).join(cause_text(c, lang) for c in r.main())
        canvas.text(end, cy, text, theme.SMALL, room=x + column_w - end - 16)
