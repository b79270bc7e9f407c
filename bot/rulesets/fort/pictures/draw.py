"""The fort map drawn with Pillow from its layout (``layout.layout``): ``map_png(document, lang)``.

What never changes for a language (the card, the five areas and their names, the six edges, the
footer's frames, the legend) is drawn once and copied; a map then draws only what the battle
holds. Every word comes from the catalogues.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from bot.i18n import t
from bot.render.picture import theme
from bot.render.picture.canvas import Canvas, fit, width
from bot.rulesets.fort.pictures import geometry as g
from bot.rulesets.fort.pictures.layout import (
    Arrival,
    Badge,
    Cannon,
    Header,
    MapLayout,
    More,
    Token,
    TrapMore,
    layout,
)
from bot.rulesets.fort.pictures.marks import draw_mark, shell
from engine.fort.state import MAX_SHELLS

MARK = 26
#: a row: the name's line and the HP line (centres, below the row's top), where text begins, the bar
NAME_Y, HP_Y, TEXT_X = 20, 45, 40
HP_BAR = (120, 12)
#: the legend, left to right
LEGEND = ("normal", "ram", "flying", "commander", "pc", "soldier", "weakness", "barricade", "mine")


def map_png(document: Mapping[str, Any], lang: str) -> bytes:
    """The battlefield of a fort battle's document as a PNG."""
    return draw(layout(document), lang).png()


def draw(plan: MapLayout, lang: str) -> Canvas:
    canvas = _background(lang).copy()
    _header(canvas, plan.header, lang)
    for section in plan.sections:
        x0, y0 = section.box.x, section.box.y
        canvas.tile(
            (x0, y0, section.box.right - 1, section.box.bottom - 1), theme.SECTION, theme.FORT, radius=4
        )
        cy = section.label.y + section.label.h // 2
        canvas.text(x0 + 10, cy, t(f"fort.status.position.{section.name}", lang), theme.SMALL)
        if section.box.h == section.label.h:
            canvas.text(
                section.box.right - 12, cy, t("map.empty", lang), theme.SMALL, theme.DIM, align="right"
            )
    for row in plan.rows:
        if isinstance(row, Token):
            _token(canvas, row, lang)
        else:
            _more(canvas, row, lang)
    for trap in plan.traps:
        _trap(canvas, trap)
    _arrivals(canvas, plan, lang)
    _equipment(canvas, plan, lang)
    return canvas


# --- the static part ----------------------------------------------------------------------------------


@cache
def _background(lang: str) -> Canvas:
    canvas = Canvas.blank(g.WIDTH, g.HEIGHT)
    canvas.draw.rectangle((0, 0, g.WIDTH - 1, g.HEIGHT - 1), outline=theme.BORDER, width=3)
    for strip in g.EDGE_STRIPS:
        canvas.draw.line(strip.line, fill=theme.EDGE_LINE, width=8)
    for name, box in g.AREA_BOXES.items():
        fort = name == "F0"
        fill, edge = (theme.FORT, theme.FORT_EDGE) if fort else (theme.AREA, theme.AREA_EDGE)
        canvas.box((box.x, box.y, box.right - 1, box.bottom - 1), fill, edge, radius=10)
        cy = box.y + g.LABEL_H // 2 + 2
        end = canvas.text(box.x + 12, cy, name, theme.LABEL)
        canvas.text(end + 12, cy, t(f"map.area.{name}", lang), theme.SMALL, theme.DIM)
    for region in (g.REINFORCEMENTS, g.EQUIPMENT):
        box = region.box
        canvas.box((box.x, box.y, box.right - 1, box.bottom - 1), theme.AREA, theme.AREA_EDGE, radius=10)
        canvas.text(box.x + 12, box.y + g.FOOT_LABEL_H // 2 + 2, t(f"map.{region.name}", lang), theme.SMALL)
    _legend(canvas, lang)
    return canvas


def _legend(canvas: Canvas, lang: str) -> None:
    box = g.LEGEND
    cy = box.y + box.h // 2
    x = box.x + 4
    for kind in LEGEND:
        draw_mark(canvas.draw, kind, x + 11, cy, 22)
        x = canvas.text(x + 27, cy, t(f"map.legend.{kind}", lang), theme.TINY, theme.DIM) + 16


# --- the header: title, round and turn, fort HP -------------------------------------------------------


def _header(canvas: Canvas, head: Header, lang: str) -> None:
    box = g.TITLE_BOX
    cy = box.y + box.h // 2
    turn = t(f"fort.status.turn.{head.turn}", lang)
    right = t("map.round", lang, round=head.round, rounds=head.rounds) + "  " + turn
    if head.outcome:
        right += "  " + t(f"fort.status.outcome.{head.outcome}", lang)
    start = canvas.text(box.right - 4, cy, right, theme.NAME, align="right")
    if head.confused_round is not None:
        start = _badge(canvas, start - 14, cy, t("map.confused", lang, round=head.confused_round))
    title = head.title or t("fort.status.untitled", lang)
    canvas.text(box.x + 4, cy, title, theme.TITLE, room=start - box.x - 32)
    bar = g.FORT_HP_BAR
    cy = bar.y + bar.h // 2
    canvas.text(g.FORT_BAR.x + 4, cy, t("map.fort_hp", lang), theme.NAME, room=bar.x - g.FORT_BAR.x - 12)
    canvas.bar(bar.x, bar.y, bar.w, bar.h, head.fort_hp, head.fort_max_hp)
    end = canvas.text(bar.right + 14, cy, f"{head.fort_hp}/{head.fort_max_hp}", theme.NAME)
    if head.repaired:
        _badge(canvas, g.FORT_BAR.right - 4, cy, t("map.repaired", lang), start=end + 14)


def _badge(canvas: Canvas, right: int, cy: int, text: str, start: int = 0) -> int:
    """A yellow badge ending at ``right`` (beginning no further left than ``start``); returns where
    it begins."""
    text = fit(text, theme.SMALL, right - start - 20)
    w = width(text, theme.SMALL) + 20
    canvas.box((right - w, cy - 16, right, cy + 16), theme.LEADER, radius=8)
    canvas.text(right - 10, cy, text, theme.SMALL, theme.DARK, align="right")
    return right - w


# --- rows -----------------------------------------------------------------------------------------


def _chip(canvas: Canvas, box: g.Box) -> None:
    """The tile a row is drawn on (on F0's sections, or on an area or the footer)."""
    ground = theme.SECTION if box.within(g.AREA_BOXES["F0"]) else theme.AREA
    canvas.tile((box.x, box.y + 2, box.right - 1, box.bottom - 3), theme.CHIP, ground)


def _token(canvas: Canvas, token: Token, lang: str) -> None:
    box = token.box
    _chip(canvas, box)
    top = box.y + NAME_Y
    draw_mark(canvas.draw, token.mark, box.x + TEXT_X // 2, top, MARK)
    room = box.w - TEXT_X - 8 - (30 if token.weakness else 0)
    canvas.text(box.x + TEXT_X, top, token.name, theme.NAME, room=room)
    if token.weakness:
        draw_mark(canvas.draw, "weakness", box.right - 20, top, 24)
    low = box.y + HP_Y
    x = box.x + TEXT_X
    if token.hp is not None and token.max_hp:
        bar_w, bar_h = HP_BAR
        canvas.bar(x, low - bar_h // 2, bar_w, bar_h, token.hp, token.max_hp)
        room = box.right - x - bar_w - 16
        numbers = f"{token.hp}/{token.max_hp}"
        if width(numbers, theme.SMALL) > room:  # HP in the tens of thousands: the bar shows the rest
            numbers = str(token.hp)
        x = canvas.text(x + bar_w + 8, low, numbers, theme.SMALL, room=room) + 10
    elif token.hp is not None:
        x = canvas.text(x, low, f"HP {token.hp}", theme.SMALL) + 10
    note = token.weakness or token.horn
    if note:
        label = note if token.weakness else t("map.horn", lang, horn=note)
        canvas.text(x, low, label, theme.TINY, theme.LEADER if token.weakness else theme.DIM,
                    room=box.right - 8 - x)  # fmt: skip


def _more(canvas: Canvas, more: More, lang: str) -> None:
    box = more.box
    _chip(canvas, box)
    cy = box.y + box.h // 2
    x = canvas.text(box.x + 12, cy, t("map.more", lang, count=more.count), theme.NAME)
    for mark, count in more.marks:
        if x + 70 > box.right:
            break
        draw_mark(canvas.draw, mark, x + 16, cy, 22)
        x = canvas.text(x + 30, cy, str(count), theme.SMALL) + 4


def _trap(canvas: Canvas, trap: Badge | TrapMore) -> None:
    box = trap.box
    canvas.tile((box.x, box.y, box.right - 1, box.bottom - 1), theme.CHIP, theme.CANVAS, theme.EDGE_LINE)
    cy = box.y + box.h // 2
    if isinstance(trap, Badge):
        draw_mark(canvas.draw, trap.kind, box.x + 15, cy, 20)
        canvas.text(box.right - 6, cy, str(trap.uses), theme.SMALL, align="right")
    else:
        canvas.text(box.x + box.w // 2 + 10, cy, f"+{trap.count}", theme.SMALL, align="right")


# --- the footer: reinforcements, ballista and cannons ---------------------------------------------


def _arrivals(canvas: Canvas, plan: MapLayout, lang: str) -> None:
    if not plan.arrivals:
        label = plan.reinforcements.label
        cy = label.y + label.h // 2 + 2
        canvas.text(label.right - 12, cy, t("map.empty", lang), theme.SMALL, theme.DIM, align="right")
    for item in plan.arrivals:
        if isinstance(item, More):
            _more(canvas, item, lang)
            continue
        _arrival(canvas, item, lang)


def _arrival(canvas: Canvas, item: Arrival, lang: str) -> None:
    box = item.box
    _chip(canvas, box)
    cy = box.y + box.h // 2
    draw_mark(canvas.draw, item.mark, box.x + 18, cy, 22)
    when = t("map.arrives", lang, round=item.round if item.round is not None else "?", area=item.area)
    x = canvas.text(box.x + 36, cy, when, theme.SMALL, theme.DIM) + 10
    canvas.text(x, cy, item.name, theme.SMALL, room=box.right - 8 - x)


def _equipment(canvas: Canvas, plan: MapLayout, lang: str) -> None:
    head = plan.header
    box = plan.ballista
    _chip(canvas, box)
    cy = box.y + box.h // 2
    draw_mark(canvas.draw, "ballista", box.x + 20, cy, 28)
    state = t("map.ballista.loaded" if head.ballista_loaded else "map.ballista.unloaded", lang)
    if head.ballista_loaded and head.ballista_bolt:
        state += " " + t("map.ballista.bolt", lang, bolt=head.ballista_bolt)
    x = canvas.text(box.x + 42, cy, state, theme.SMALL, room=box.w - 50)
    if head.magic_bolt_used:
        canvas.text(
            x + 12, cy, t("map.ballista.magic_used", lang), theme.TINY, theme.DIM, room=box.right - x - 20
        )
    if not plan.cannons:
        canvas.text(box.x + 12, cy + g.FOOT_ROW_H, t("map.no_cannons", lang), theme.SMALL, theme.DIM)
    for cannon in plan.cannons:
        if isinstance(cannon, Cannon):
            _cannon(canvas, cannon)
        else:
            _chip(canvas, cannon.box)
            c = cannon.box
            canvas.text(c.x + 12, c.y + c.h // 2, t("map.more", lang, count=cannon.count), theme.SMALL)


def _cannon(canvas: Canvas, cannon: Cannon) -> None:
    box = cannon.box
    _chip(canvas, box)
    cy = box.y + box.h // 2
    x = canvas.text(box.x + 10, cy, f"#{cannon.number}", theme.SMALL, theme.DIM) + 8
    step = min(20, (box.right - 8 - x) // MAX_SHELLS)
    for k in range(MAX_SHELLS):
        shell(canvas.draw, x + step * k + step / 2, cy, step - 6, k < cannon.shells)
