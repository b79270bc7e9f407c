"""The limits of BATTLE.md (``engine.battle.ranges``, ``engine.limits``) over a whole battle: what an
import must keep (``RuleSet.check_limits``). Commands meet the same limits one at a time."""

from __future__ import annotations

from engine import limits

from .export import export_state
from .ranges import check_counts
from .state import BattleState


def check_state(state: BattleState) -> None:
    """Title, counts, names, texts and numbers within the limits; ``LimitError`` if not."""
    limits.check_text("title", state.title)
    check_counts(state)
    names = [c.name for c in state.characters] + [e.name for e in state.effects]
    names += [p.name for m in state.monsters for p in m.parts if p.name]
    for name in names:
        limits.check_name(name)
    for m in state.monsters:
        for what, text in (
            ("weakness", m.weakness),
            ("move", m.move),
            *(("strike", p.strike) for p in m.parts),
        ):
            if text is not None:
                limits.check_text(what, text)
    for e in state.effects:
        limits.check_text("text", e.text)
    document = export_state(state)
    for pc in document["pcs"]:  # a palette and a sheet are long texts of their own limits
        pc.pop("palette", None)
        pc.pop("sheet", None)
    limits.check_numbers(document)
