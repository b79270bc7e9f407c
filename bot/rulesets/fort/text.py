"""The fort battle as console text: header, fort HP bar, the five areas as a small map, equipment."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import t
from bot.i18n.words import say
from bot.render.common import hp_bar
from bot.render.sheet_text import pc_sheet_summary
from bot.views import StatusView, Summary

AREAS = ("A2", "A1", "F0", "B1", "B2")
POSITIONS = ("top", "inside", "outside")
#: the map of F-MAP-1: the line A2-A1-F0-B1-B2 and the two crossings A1-B1 and A2-B2
MAP = (
    "  A2 ── A1 ── F0 ── B1 ── B2",
    "  │      └──────────┘      │",
    "  └────────────────────────┘",
)


def _hp(hp: Any, max_hp: Any) -> str:
    if hp is None:
        return ""
    return f" {hp}/{max_hp}" if max_hp is not None else f" {hp}"


def _pc(pc: Mapping[str, Any], lang: str) -> str:
    """A PC with its HP, what its sheet gave, and its player (the GM sees whose each PC is)."""
    text = str(pc["name"]) + _hp(pc.get("hp"), pc.get("max_hp")) + pc_sheet_summary(pc, lang)
    owner = pc.get("owner")
    return text + (t("fort.status.owner", lang, owner=owner) if owner else "")


def _unit(unit: Mapping[str, Any], lang: str) -> str:
    text = str(unit["name"]) + _hp(unit.get("hp"), unit.get("max_hp"))
    kind = unit.get("type", "normal")
    if kind != "normal":
        text += " " + t(f"fort.status.type.{kind}", lang)
    if unit.get("weakness"):
        text += " " + t("fort.status.weakness", lang, weakness=unit["weakness"])
    return text


def commander_text(commander: Mapping[str, Any], lang: str) -> str:
    """F-UNIT-12: a commander with its HP and, while it stands, its war-horn effect."""
    if int(commander.get("hp", 0)) <= 0:  # fallen: no HP below 0 to read (F-UNIT-12)
        return (
            str(commander["name"]) + " " + t("fort.status.commander", lang) + " " + t("roster.fallen", lang)
        )
    text = str(commander["name"]) + _hp(commander.get("hp"), commander.get("max_hp"))
    text += " " + t("fort.status.commander", lang)
    if commander.get("horn") and int(commander.get("hp", 0)) > 0:
        text += " " + t("fort.status.horn", lang, horn=commander["horn"])
    return text


def standing_count(doc: Mapping[str, Any]) -> int:
    """How many commanders are still up (the plural of ``fort.summary.warhorn``)."""
    return sum(1 for c in doc.get("commanders", []) if int(c.get("hp", 0)) > 0)


def standing_commanders(doc: Mapping[str, Any], lang: str, name: Callable[[Any], str] = str) -> str:
    """F-UNIT-12: the commanders still up at the end, each with its war-horn effect."""
    names = []
    for c in doc.get("commanders", []):
        if int(c.get("hp", 0)) > 0:
            horn = c.get("horn")
            text = name(c["name"])
            names.append(text + (" " + t("fort.status.horn", lang, horn=name(horn)) if horn else ""))
    return t("render.list_sep", lang).join(names)


def at_position(
    doc: Mapping[str, Any], position: str
) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """F-MAP-4: the PCs and the soldier units at one position of F0."""
    pcs = [p for p in doc.get("pcs", []) if p.get("area") == "F0" and p.get("position") == position]
    soldiers = [
        u
        for u in doc.get("units", [])
        if u.get("area") == "F0" and u.get("position") == position and not u.get("destroyed") and arrived(u)
    ]
    return pcs, soldiers


def arrived(unit: Mapping[str, Any]) -> bool:
    """A reinforcement is on the map once its round's enemy turn is over (or the export says so)."""
    if "arrived" in unit:
        return bool(unit["arrived"])
    return unit.get("arrive_round") is None


def fort_line(doc: Mapping[str, Any], lang: str, bar: Callable[[str], str] = str) -> str:
    """The fort HP line; ``bar`` wraps the bar (Discord sets it in code)."""
    fort = doc.get("fort", {})
    hp, max_hp = int(fort.get("hp", 0)), int(fort.get("max_hp", 0))
    line = t("fort.status.fort_hp", lang, bar=bar(hp_bar(hp, max_hp)), hp=hp, max_hp=max_hp)
    if fort.get("repaired_round") is not None and fort.get("repaired_round") == doc.get("round"):
        line += " " + t("fort.status.repaired", lang)
    return line


def header(doc: Mapping[str, Any], lang: str, translate: Callable[..., str] = t) -> str:
    """Title, round and whose turn (``translate`` escapes the title for Discord)."""
    turn = doc.get("turn", "pc")
    head = translate(
        "fort.status.header",
        lang,
        title=doc.get("title") or t("fort.status.untitled", lang),
        round=doc.get("round"),
        rounds=doc.get("rounds"),
        turn=t(f"fort.status.turn.{turn}", lang),
    )
    if doc.get("outcome"):
        head += " " + t(f"fort.status.outcome.{doc['outcome']}", lang)
    return head


def status(view: StatusView, lang: str) -> str:
    doc = view.document
    lines = [header(doc, lang), fort_line(doc, lang), *MAP]
    every = doc.get("units", [])
    units = [u for u in every if not u.get("destroyed") and arrived(u)]
    waiting = [u for u in every if not u.get("destroyed") and not arrived(u)]
    destroyed = [u for u in every if u.get("destroyed")]
    sep = t("render.list_sep", lang)
    for area in AREAS:
        placed = [u for u in units if u.get("area") == area and u.get("position") not in POSITIONS]
        here: list[str] = [_unit(u, lang) for u in placed]
        here += [commander_text(c, lang) for c in doc.get("commanders", []) if c.get("area") == area]
        pcs = [p for p in doc.get("pcs", []) if p.get("area") == area]
        if area == "F0":
            parts = []
            for position in POSITIONS:
                pcs_here, soldiers = at_position(doc, position)
                names = [_pc(p, lang) for p in pcs_here] + [_unit(u, lang) for u in soldiers]
                if names:
                    parts.append(t(f"fort.status.position.{position}", lang) + ": " + sep.join(names))
            here = parts + here
        else:
            here = [_pc(p, lang) for p in pcs] + here
        lines.append(f"{area}: " + (" / ".join(here) if here else "—"))
    if waiting:
        lines.append(
            t(
                "fort.status.reinforcements",
                lang,
                units=sep.join(
                    t("fort.status.arrives", lang, name=u["name"], round=u["arrive_round"], area=u["area"])
                    for u in waiting
                ),
            )
        )
    if destroyed:
        lines.append(t("fort.status.destroyed", lang, units=sep.join(u["name"] for u in destroyed)))
    traps = [tr for tr in doc.get("traps", []) if tr.get("uses", 0) > 0]
    lines.append(
        t(
            "fort.status.traps",
            lang,
            traps=sep.join(
                t(f"fort.status.trap.{tr['kind']}", lang, edge=tr["edge"], uses=tr["uses"]) for tr in traps
            )
            or "—",
        )
    )
    cannons = doc.get("cannons", [])
    lines.append(
        t(
            "fort.status.cannons",
            lang,
            cannons=sep.join(
                say("fort.status.cannon", lang, n=n, shells=c.get("shells")) for n, c in enumerate(cannons, 1)
            )
            or "—",
        )
    )
    ballista = doc.get("ballista", {})
    lines.append(
        t(
            "fort.status.ballista",
            lang,
            state=t("fort.status.loaded" if ballista.get("loaded") else "fort.status.unloaded", lang),
        )
    )
    if doc.get("confused_round") is not None:
        lines.append(t("fort.status.confused", lang, round=doc["confused_round"]))
    if view.gms:
        lines.append(t("fort.status.gms", lang, gms=sep.join(view.gms)))
    return "\n".join(lines)


def summary_extra(summary: Summary, lang: str) -> list[str]:
    """After a summary's events: the fort HP; for the final summary the outcome and who is still up."""
    doc = summary.document
    lines: list[str] = []
    if summary.kind == "final":
        lines.append("  " + fort_line(doc, lang))
        if doc.get("outcome"):
            lines.append("  " + t(f"fort.status.outcome.{doc['outcome']}", lang))
        standing = standing_commanders(doc, lang)
        if standing:
            lines.append("  " + say("fort.summary.warhorn", lang, names=standing, count=standing_count(doc)))
    return lines
