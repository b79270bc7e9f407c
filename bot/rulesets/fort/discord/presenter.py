"""The fort battle in Discord (its ``Presenter``): the status embed, summary fields and reports, colours,
the replies to its own views (the roster, a preview, the odds).

It reads the export document (``toride.fort/1``, COMMANDS.md) and the catalogues' ``fort.status.*``
sentences; names are escaped, owners shown as mentions (which never ping inside an embed).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import discord

from bot.discord import limits
from bot.discord.presenter import COLLAPSED, CRITICAL, DANGER, ENDED, GOOD, WARN
from bot.discord.text import event_line, md, tr, who
from bot.i18n import t
from bot.i18n.words import say
from bot.render.sheet_text import pc_sheet_summary
from bot.rulesets.fort import report_text as fort_report
from bot.rulesets.fort import text as fort_text
from bot.rulesets.fort.text import AREAS, POSITIONS, arrived, at_position
from bot.views import StatusView, Summary

EDGES = ("A2-A1", "A1-F0", "F0-B1", "B1-B2", "A1-B1", "A2-B2")
#: the console's map (F-MAP-1) without its indent: one drawing, so the crossings stay under their areas
MAP = "\n".join(line.removeprefix("  ") for line in fort_text.MAP)


def colour(doc: Mapping[str, Any]) -> int:
    """Green with a healthy fort, then yellow, orange, red as it falls; dark red once collapsed."""
    if doc.get("outcome") == "collapse":
        return COLLAPSED
    if doc.get("turn") == "ended":
        return ENDED
    fort = doc.get("fort", {})
    hp, max_hp = int(fort.get("hp", 0)), int(fort.get("max_hp", 0) or 1)
    ratio = hp / max_hp
    if ratio > 0.5:
        return GOOD
    if ratio > 0.25:
        return WARN
    if ratio > 0.1:
        return DANGER
    return CRITICAL


def _hp(hp: Any, max_hp: Any) -> str:
    if hp is None:
        return ""
    return f" HP {hp}/{max_hp}" if max_hp is not None else f" HP {hp}"


def fort_line(doc: Mapping[str, Any], lang: str) -> str:
    """The console's fort HP line, the bar set in code so that Discord keeps its width."""
    return fort_text.fort_line(doc, lang, bar=lambda bar: f"`{bar}`")


def unit_line(unit: Mapping[str, Any], lang: str) -> str:
    kind = str(unit.get("type", "normal"))
    type_text = t(f"fort.status.type.{kind}", lang) if kind != "normal" else ""
    text = "• " + t(
        "discord.fort.unit",
        lang,
        name=md(unit.get("name", "")),
        hp=_hp(unit.get("hp"), unit.get("max_hp")),
        type=(" " + type_text) if type_text else "",
        fort_damage=unit.get("fort_damage", 0),
    )
    if unit.get("weakness"):  # F-UNIT-15
        text += " " + tr("fort.status.weakness", lang, weakness=unit["weakness"])
    return text


def pc_line(pc: Mapping[str, Any], lang: str) -> str:
    owner = pc.get("owner")
    text = md(pc.get("name", "")) + _hp(pc.get("hp"), pc.get("max_hp")) + md(pc_sheet_summary(pc, lang))
    return text + (f" ({who(str(owner))})" if owner else "")


def _area_lines(doc: Mapping[str, Any], area: str, lang: str) -> Iterator[str]:
    """An area's lines of the full status (``—`` when nothing is there), each made when it is read."""
    lines = _area_entries(doc, area, lang)
    first = next(lines, None)
    yield "—" if first is None else first
    yield from lines


def _area_entries(doc: Mapping[str, Any], area: str, lang: str) -> Iterator[str]:
    """PCs (at F0 by position, with the soldiers there), units, commanders."""
    units = [
        u
        for u in doc.get("units", [])
        if not u.get("destroyed")
        and arrived(u)
        and u.get("area") == area
        and u.get("position") not in POSITIONS
    ]
    pcs = [p for p in doc.get("pcs", []) if p.get("area") == area]
    sep = t("render.list_sep", lang)
    if area == "F0":
        for position in POSITIONS:  # F-MAP-4: PCs and soldier units by position
            pcs_here, soldiers = at_position(doc, position)
            here = [pc_line(p, lang) for p in pcs_here] + [
                unit_line(u, lang).removeprefix("• ") for u in soldiers
            ]
            if here:
                yield f"**{position_name(position, lang)}**: " + sep.join(here)
        unplaced = [pc_line(p, lang) for p in pcs if p.get("position") not in POSITIONS]
        if unplaced:
            yield sep.join(unplaced)
    elif pcs:
        yield "PC: " + sep.join(pc_line(p, lang) for p in pcs)
    for u in units:
        yield unit_line(u, lang)
    for c in doc.get("commanders", []):
        if c.get("area") == area:
            yield "★ " + commander_line(c, lang)


def position_name(position: str, lang: str) -> str:
    return t(f"fort.status.position.{position}", lang)


def commander_line(commander: Mapping[str, Any], lang: str) -> str:
    """F-UNIT-12: a commander, and its war-horn effect while it stands."""
    if int(commander.get("hp", 0)) <= 0:  # fallen: no HP below 0 to read (F-UNIT-12)
        return (
            md(commander.get("name", ""))
            + " "
            + t("fort.status.commander", lang)
            + " "
            + t("roster.fallen", lang)
        )
    text = md(commander.get("name", "")) + _hp(commander.get("hp"), commander.get("max_hp"))
    text += " " + t("fort.status.commander", lang)
    if commander.get("horn") and int(commander.get("hp", 0)) > 0:
        text += " " + tr("fort.status.horn", lang, horn=commander["horn"])
    return text


def status_head(view: StatusView, lang: str) -> tuple[str, list[str]]:
    """The status's title and description: header, fort HP, confusion, the map."""
    doc = view.document
    lines = [fort_line(doc, lang)]
    if doc.get("confused_round") is not None:
        lines.append(t("fort.status.confused", lang, round=doc["confused_round"]))
    lines.append(f"```\n{MAP}\n```")
    return fort_text.header(doc, lang, translate=tr), lines


def waiting_units(doc: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Reinforcements not on the map yet."""
    return [u for u in doc.get("units", []) if not u.get("destroyed") and not arrived(u)]


def arrives_line(unit: Mapping[str, Any], lang: str) -> str:
    return tr(
        "fort.status.arrives", lang, name=unit["name"], round=unit.get("arrive_round"), area=unit.get("area")
    )


def gm_line(view: StatusView) -> str:
    return " ".join(who(g) for g in view.gms)


def status_sections(view: StatusView, lang: str) -> Iterator[tuple[str, Iterator[str]]]:
    """The status's fields as (name, lines), each line made when it is read: the five areas,
    reinforcements, destroyed units, the equipment, the GMs."""
    doc = view.document
    for area in AREAS:
        yield area, _area_lines(doc, area, lang)
    waiting = waiting_units(doc)
    if waiting:
        yield t("discord.fort.reinforcements", lang), (arrives_line(u, lang) for u in waiting)
    destroyed = [u for u in doc.get("units", []) if u.get("destroyed")]
    if destroyed:
        sep = t("render.list_sep", lang)
        yield t("discord.fort.destroyed", lang), (sep.join(md(u["name"]) for u in destroyed) for _ in (1,))
    yield t("discord.fort.equipment", lang), iter(equipment(doc, lang))
    if view.gms:
        yield "GM", iter([gm_line(view)])


def status_embeds(view: StatusView, lang: str) -> list[discord.Embed]:
    title, lines = status_head(view, lang)
    fields = [
        f for name, section in status_sections(view, lang) for f in limits.fields_of(name, list(section))
    ]
    return limits.build(title=title, lines=lines, fields=fields, colour=colour(view.document))


def equipment(doc: Mapping[str, Any], lang: str) -> list[str]:
    sep = t("render.list_sep", lang)
    traps = [tr_ for tr_ in doc.get("traps", []) if tr_.get("uses", 0) > 0]
    trap_text = sep.join(
        t(f"fort.status.trap.{tr_['kind']}", lang, edge=tr_["edge"], uses=tr_["uses"]) for tr_ in traps
    )
    cannons = sep.join(
        say("fort.status.cannon", lang, n=n, shells=c.get("shells"))
        for n, c in enumerate(doc.get("cannons", []), 1)
    )
    ballista = doc.get("ballista", {})
    loaded = t("fort.status.loaded" if ballista.get("loaded") else "fort.status.unloaded", lang)
    return [
        t("fort.status.traps", lang, traps=trap_text or "—"),
        t("fort.status.cannons", lang, cannons=cannons or "—"),
        t("fort.status.ballista", lang, state=loaded),
    ]


def summary_fields(summary: Summary, lang: str) -> list[tuple[str, str, bool]]:
    doc = summary.document
    lines = [fort_line(doc, lang)]
    if summary.kind == "final":
        if doc.get("outcome"):
            lines.append("**" + t(f"fort.status.outcome.{doc['outcome']}", lang) + "**")
        standing = fort_text.standing_commanders(doc, lang, name=md)
        if standing:
            lines.append(
                say("fort.summary.warhorn", lang, names=standing, count=fort_text.standing_count(doc))
            )
    return limits.fields_of(t("discord.fort.fort", lang), lines)


def report(report: Any, lang: str) -> tuple[str, list[str]]:
    """A summary's report (``engine.fort.report``) as its embed's title and lines: names escaped,
    users as mentions."""
    title = fort_report.title(report, lang).strip("━ ")
    return title, fort_report.report_lines(report, lang, line=event_line, name=md, user=who, indent="　")
