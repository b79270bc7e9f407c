"""The fort battle's live status message: the full status when it fits one message, else compact.

The compact form keeps the full status's title and description (fort HP, the map) and shows every
area (how many enemy units with their HP in all, soldier units, commanders and PCs there; then, as
room allows, one of each kind in turn: the enemy units that hurt the fort most (then the weakest),
the PCs, the standing commanders, the weakest soldiers), the reinforcements (earliest first) and
the destroyed units (counted), the equipment and the GMs; the full status is the "full status"
button or ``/fort status`` away.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import discord

from bot.discord import limits
from bot.discord.live_layout import SLACK, LiveMessage, Part, fill, fits, in_order, in_turn, whole
from bot.i18n import t
from bot.rulesets.fort.discord.presenter import (
    arrives_line,
    colour,
    commander_line,
    equipment,
    gm_line,
    pc_line,
    position_name,
    status_head,
    status_sections,
    unit_line,
    waiting_units,
)
from bot.rulesets.fort.text import AREAS, POSITIONS, arrived
from bot.views import StatusView

SOLDIER = "soldier"


def live_embeds(view: StatusView, lang: str) -> LiveMessage:
    title, lines = status_head(view, lang)
    room = limits.TOTAL - len(title) - len("\n".join(lines))
    # a battle whose names alone pass the room is compact: its full status is not read to find out
    fields = whole(room, status_sections(view, lang)) if names_floor(view.document) <= room else None
    if fields is not None:
        embeds = limits.build(title=title, lines=lines, fields=fields, colour=colour(view.document))
        if fits(embeds):
            return LiveMessage(embeds)
    return LiveMessage(_compact(view, lang, title, lines), compact=True)


def names_floor(doc: Mapping[str, Any]) -> int:
    """Fewer characters than the full status takes: the names of what it shows (every unit, the PCs
    and commanders in an area), each with a line break or a separator; no line is made."""
    floor = 0
    for unit in doc.get("units", []):
        area = unit.get("area")
        if (
            unit.get("destroyed")  # the destroyed line
            or not arrived(unit)  # the reinforcements
            or (area in AREAS and (area == "F0" or unit.get("position") not in POSITIONS))
        ):
            floor += len(str(unit.get("name", ""))) + 1
    for thing in (*doc.get("pcs", []), *doc.get("commanders", [])):
        if thing.get("area") in AREAS:
            floor += len(str(thing.get("name", ""))) + 1
    return floor


def _compact(view: StatusView, lang: str, title: str, lines: list[str]) -> list[discord.Embed]:
    doc = view.document
    lines = [*lines, t("live.compact.fort", lang)]
    fixed = [(t("discord.fort.equipment", lang), "\n".join(equipment(doc, lang)))]
    if view.gms:
        fixed.append(("GM", gm_line(view)))
    fixed = [(name, limits.shorten(value, limits.FIELD_VALUE)) for name, value in fixed]
    parts = [_area(doc, area, lang) for area in AREAS]
    waiting = sorted(waiting_units(doc), key=lambda u: int(u.get("arrive_round") or 0))
    if waiting:
        entries = in_order(arrives_line(u, lang) for u in waiting)
        head = [t("live.reinforcements", lang, count=len(waiting))]
        parts.append(_part(t("discord.fort.reinforcements", lang), head, entries, len(waiting), lang))
    destroyed = sum(1 for u in doc.get("units", []) if u.get("destroyed"))
    if destroyed:
        head = [t("live.destroyed", lang, count=destroyed)]
        parts.append(_part(t("discord.fort.destroyed", lang), head, iter(()), 0, lang))
    room = (
        limits.TOTAL
        - len(title)
        - len("\n".join(lines))
        - sum(len(name) + len(value) for name, value in fixed)
        - sum(len(part.name) for part in parts)
        - SLACK
    )
    values = fill(parts, room)
    fields = [
        (part.name, limits.shorten("\n".join(shown), limits.FIELD_VALUE), False)
        for part, shown in zip(parts, values, strict=True)
    ]
    fields += [(name, value, False) for name, value in fixed]
    return limits.build(title=title, lines=lines, fields=fields, colour=colour(doc))


def _part(name: str, head: list[str], entries: Iterator[tuple[int, str]], count: int, lang: str) -> Part:
    return Part(name, head, entries, count, lambda n: t("live.more", lang, count=n))


def _area(doc: Mapping[str, Any], area: str, lang: str) -> Part:
    """An area: what is there, counted; then the PCs, the commanders, the enemy units that hurt the
    fort most (then the weakest), the soldier units."""
    units = [
        u for u in doc.get("units", []) if not u.get("destroyed") and arrived(u) and u.get("area") == area
    ]
    enemies = sorted(
        (u for u in units if u.get("type") != SOLDIER),
        key=lambda u: (-int(u.get("fort_damage") or 0), int(u.get("hp") or 0)),
    )
    soldiers = sorted((u for u in units if u.get("type") == SOLDIER), key=lambda u: int(u.get("hp") or 0))
    pcs = sorted(
        (p for p in doc.get("pcs", []) if p.get("area") == area),
        key=lambda p: POSITIONS.index(p["position"]) if p.get("position") in POSITIONS else len(POSITIONS),
    )
    commanders = sorted(
        (c for c in doc.get("commanders", []) if c.get("area") == area),
        key=lambda c: int(c.get("hp") or 0) <= 0,
    )
    counts = []
    if enemies:
        hp = sum(int(u.get("hp") or 0) for u in enemies)
        counts.append(t("live.count.enemies", lang, count=len(enemies), hp=hp))
    for key, found in (("soldiers", soldiers), ("commanders", commanders), ("pcs", pcs)):
        if found:
            counts.append(t(f"live.count.{key}", lang, count=len(found)))

    def pc_lines() -> Iterator[str]:
        for pc in pcs:
            yield _at(pc, lang) + pc_line(pc, lang)

    def soldier_lines() -> Iterator[str]:
        for unit in soldiers:
            line = unit_line(unit, lang)
            yield (
                f"• {_at(unit, lang)}{line.removeprefix('• ')}" if unit.get("position") in POSITIONS else line
            )

    # read one of each kind in turn, shown as the full status orders them
    entries = in_turn(
        pc_lines(),
        (unit_line(unit, lang) for unit in enemies),
        ("★ " + commander_line(commander, lang) for commander in commanders),
        soldier_lines(),
    )
    head = [t("render.list_sep", lang).join(counts) or "—"]
    return _part(area, head, entries, len(pcs) + len(commanders) + len(units), lang)


def _at(thing: Mapping[str, Any], lang: str) -> str:
    """``**top**: `` before a PC or soldier unit at a position of F0 (F-MAP-4)."""
    position = thing.get("position")
    return f"**{position_name(position, lang)}**: " if position in POSITIONS else ""
