"""Console text of sheets and palettes: a palette line rolled, a palette shown, a sheet read, and a PC's
sheet values in the battle's status."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from bot.views import PaletteRollView, PaletteView
from engine.common import ImportInvalid, fold
from engine.palette import choices, parse_palette
from engine.ruleset import RuleError
from engine.sheets.model import sheet_from_json
from engine.sheets.palette_gen import combined_palette


def _pieces(values: Mapping[str, Any], keys: tuple[str, ...], prefix: str, lang: str) -> list[str]:
    """``sheet.<prefix>_<key>`` for each value given (a value the sheet lacks is left out, never ``-``)."""
    return [t(f"sheet.{prefix}_{k}", lang, **{k: values[k]}) for k in keys if values.get(k) is not None]


def weapon_text(weapon: Mapping[str, Any], lang: str) -> str:
    """``バスタードソード1H 命中7 威力17 C値10 追加D8``."""
    head = f"{weapon.get('name') or ''}{weapon.get('usage') or ''}"
    return " ".join([head, *_pieces(weapon, ("acc", "rate", "crit", "dmg"), "weapon", lang)]).strip()


def sheet_read_values(data: Mapping[str, Any], lang: str) -> dict[str, str]:
    """A sheet read (``pc.sheet_read``'s sentence parts): values the sheet lacks read ``なし``; the
    weapons as a list."""
    none = t("sheet.none", lang)
    out = {k: none for k, v in data.items() if v is None}
    weapons = [weapon_text(w, lang) for w in data.get("weapons") or [] if isinstance(w, Mapping)]
    out["weapons"] = t("render.list_sep", lang).join(weapons) or none
    return out


def roll_text(view: PaletteRollView, lang: str) -> str:
    key = "palette.rolled_secret" if view.secret else "palette.rolled"
    return t(
        key, lang, actor=view.actor, pc=view.pc, label=view.label, expanded=view.expanded, text=view.text
    )


def palette_lines(view: PaletteView, lang: str) -> list[str]:
    """The lines of a palette as ``/pc palette`` shows them: where it comes from, its lines, its variables."""
    if view.custom and view.generated:
        key = "palette.shown_both"
    elif view.custom:
        key = "palette.shown_custom"
    elif view.generated:
        key = "palette.shown_generated"
    else:
        key = "palette.shown_none"
    lines = [t(key, lang, pc=view.pc, lines=len(view.lines))]
    lines += [f"{number:>3}. {text}" for number, _, text in view.lines]
    if view.variables:
        lines.append(t("palette.variables", lang))
        lines.append("  " + " ".join(f"{name}={value}" for name, value in view.variables))
    return lines


def palette_text(view: PaletteView, lang: str) -> str:
    return "\n".join(palette_lines(view, lang))


def pc_sheet_summary(pc: Mapping[str, Any], lang: str) -> str:
    """`` MP 12/12 防護7 回避7``: what a PC's sheet adds to its line in the status ("" without a sheet)."""
    sheet = pc.get("sheet")
    if not isinstance(sheet, Mapping):
        return ""
    defences = sheet.get("defences") or [{}]
    first = defences[0] if isinstance(defences[0], Mapping) else {}
    pieces = []
    if sheet.get("mp") is not None and sheet.get("max_mp") is not None:
        pieces.append(t("sheet.status_mp", lang, mp=sheet["mp"], max_mp=sheet["max_mp"]))
    pieces += _pieces(first, ("defense", "evasion"), "status", lang)
    return "".join(" " + p for p in pieces)


def palette_choices(doc: Mapping[str, Any], name: Any) -> list[str]:
    """What ``/pc roll line:`` offers for the PC ``name`` of an export document (its palette's labels)."""
    for pc in doc.get("pcs", []):
        if isinstance(name, str) and fold(str(pc.get("name", ""))) == fold(name):
            try:
                sheet = sheet_from_json(pc["sheet"]) if pc.get("sheet") is not None else None
                return choices(parse_palette(combined_palette(sheet, pc.get("palette"))))
            except (ImportInvalid, RuleError):  # a document autocomplete cannot read offers nothing
                return []
    return []
