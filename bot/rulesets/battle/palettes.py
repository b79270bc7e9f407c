"""The ordinary battle's PCs' chat palettes: ``/palette`` in its channel rolls the user's own PC's
(``RuleSet.palettes``), and ``/pc roll`` rolls a PC's line, a damage line at a target offering its total
as damage (``RuleSet.queries``): its own palette and/or ゆとシート's for its sheet, its values as they
are now."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.commands import QueryContext, UserError
from bot.i18n.names import ChoiceName
from bot.views import Offer, PaletteRollView
from engine.battle import lookup
from engine.battle.state import PC, BattleState
from engine.common import ImportInvalid, fold
from engine.errors import EngineError
from engine.palette import OwnPalette, choices, parse_palette, roll_line
from engine.sheets.model import PCSheet, sheet_from_json
from engine.sheets.palette_gen import combined_palette, sheet_variables


def _sheet(text: str | None) -> PCSheet | None:
    if text is None:
        return None
    try:
        return sheet_from_json(json.loads(text))
    except (ValueError, ImportInvalid):
        return None  # a sheet kept as an import gave it, not as the reader writes it: its own palette only


def pc_palette(pc: PC) -> OwnPalette:
    """What a PC rolls from: its own palette and/or ゆとシート's for its sheet, and its values now."""
    sheet = _sheet(pc.sheet)
    palette = parse_palette(combined_palette(sheet, pc.palette, pc.max_hp))
    values = {fold(k): v for k, v in sheet_variables(sheet, pc.hp, pc.max_hp, None).items()}
    return OwnPalette(pc.name, palette, values)


def own_palettes(state: BattleState, invoker: str, names: tuple[str, ...]) -> list[OwnPalette]:
    """The palettes of the PCs ``invoker`` (or one of the ``names`` they go by) owns."""
    mine = {fold(n) for n in (invoker, *names) if n}
    out: list[OwnPalette] = []
    for pc in state.pcs:
        if pc.owner is None or (pc.owner != invoker and fold(pc.owner.removeprefix("@")) not in mine):
            continue
        try:
            own = pc_palette(pc)
        except EngineError:
            continue
        if own.palette.lines:
            out.append(own)
    return out


#: what a damage line's result may be dealt as (B-DMG-1): the kinds a button offers
OFFERED_KINDS = ("physical", "magic")


def roll_query(state: BattleState, values: Mapping[str, Any], ctx: QueryContext) -> PaletteRollView:
    """``/pc roll name: line: [target:] [secret:]`` in an ordinary battle: the PC's line expanded and rolled
    (its owner's or a GM's); with ``target``, its total is offered as damage to that target (B-DMG: its
    defence, weakness and resistance as ``/battle damage`` applies them), confirmed by a press."""
    pc = lookup.pc(state, str(values["name"]))
    lookup.check_owner(pc, ctx.invoker, ctx.is_gm)
    target = values.get("target")
    if target is not None:
        target = lookup.target(state, str(target), need_part=True).label
    own = pc_palette(pc)
    expanded, result = roll_line(own.palette, str(values["line"]), own.values, ctx.dice)
    line = expanded.line
    offers: tuple[Offer, ...] = ()
    if target is not None:
        if result.total is None:
            raise UserError("palette.target_no_total", line=line.label, target=target)
        offers = tuple(
            Offer(
                "battle damage",
                {"targets": target, "amount": str(max(0, result.total)), "kind": kind, "by": pc.name},
                "palette.offer_damage",
                {"target": target, "amount": max(0, result.total), "kind": ChoiceName("kind", kind)},
            )
            for kind in OFFERED_KINDS
        )
    return PaletteRollView(
        actor=ctx.invoker, pc=pc.name, label=line.label, expanded=expanded.command, text=result.text,
        secret=bool(values.get("secret")) or result.secret, rands=result.rands, offers=offers,
    )  # fmt: skip


def line_choices(doc: Mapping[str, Any], name: Any) -> list[str]:
    """What ``/pc roll line:`` offers for the PC ``name`` of an ordinary battle's document."""
    for pc in doc.get("pcs", []):
        if isinstance(name, str) and fold(str(pc.get("name", ""))) == fold(name):
            sheet = pc.get("sheet")
            try:
                palette = parse_palette(
                    combined_palette(_sheet(sheet if isinstance(sheet, str) else None), pc.get("palette"))
                )
            except EngineError:
                return []
            return choices(palette)
    return []
